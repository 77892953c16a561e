// SPDX-License-Identifier: GPL-2.0-only
/*
 * A benchmark's recording (record.h): the instance, and the way its events
 * reach the analysis, one table of operations for each.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/clock.h"
#include "trace/internal/recorder.h"
#include "trace/internal/instance.h"
#include "trace/record.h"
#include "trace/source.h"

/* Writing the trace.dat: a copy of what the recorder streamed, some MB/s at worst */
#define RECORDER_TIMEOUT_NS (300LL * RT_NSEC_PER_SEC)

/* How a run's events reach the analysis; an operation left out has nothing to do. */
struct recording_ops {
	/* a run is over, its windows known */
	int (*run_done)(struct trace_recording *r, struct trace_span *span, size_t n, char *err,
			size_t len);
	/* the runs are over */
	int (*finish)(struct trace_recording *r, struct trace_span *spans, size_t nruns, size_t n,
		      bool (*give_up)(void), char *err, size_t len);
};

struct trace_recording {
	const struct recording_ops *ops;
	struct trace_instance *tracer;
	char *dir;			/* the instance's folder */
	struct trace_recorder *recorder;	/* trace-cmd record, streaming the instance */
	char *path;			/* the trace.dat it writes */
	uint64_t lost_before;		/* the instance's lost events before this run */
};

/* The events the recorder enables; the instance's filter picks the run's threads. */
static const char *const recorded[] = { "sched:sched_switch", "sched:sched_waking",
					 "sched:sched_wakeup", "sched:sched_migrate_task",
					 "sched:sched_pi_setprio", NULL };

/* Read from the instance's buffers now, which it empties. */
static int live_run_done(struct trace_recording *r, struct trace_span *span, size_t n, char *err,
			 size_t len)
{
	int64_t t0 = rt_now_ns(CLOCK_MONOTONIC);
	struct trace_source *src;
	uint64_t lost_now;
	int ret;

	ret = trace_source_live(&src, trace_instance_name(r->tracer), err, len);
	if (!ret)
		ret = trace_analyse(src, span, 1, n, true, NULL, err, len);
	trace_source_close(src);
	if (ret)
		return ret == -ENOMEM ? ret : -EIO;
	lost_now = trace_instance_lost(r->tracer);
	span->out->lost = lost_now - r->lost_before;
	r->lost_before = lost_now;
	span->out->analysis_ns = rt_now_ns(CLOCK_MONOTONIC) - t0;
	return 0;
}

/* The recorder's file, cut by run. */
static int file_finish(struct trace_recording *r, struct trace_span *spans, size_t nruns,
		       size_t n, bool (*give_up)(void), char *err, size_t len)
{
	struct trace_source *src;
	uint64_t kernel_lost, counted = 0;
	int64_t t0;
	size_t i;
	int ret;

	ret = trace_recorder_stop(r->recorder, RECORDER_TIMEOUT_NS, give_up, err, len);
	if (ret)
		return ret;
	t0 = rt_now_ns(CLOCK_MONOTONIC);
	ret = trace_source_file(&src, r->path, trace_instance_name(r->tracer), err, len);
	if (!ret)
		ret = trace_analyse(src, spans, nruns, n, true, NULL, err, len);
	trace_source_close(src);
	if (ret)
		return ret;
	/* what the kernel says it dropped, if the file's pages said less */
	kernel_lost = trace_instance_lost(r->tracer);
	for (i = 0; i < nruns; i++)
		counted += spans[i].out->lost;
	if (kernel_lost > counted)
		spans[nruns - 1].out->lost += kernel_lost - counted;
	spans[0].out->analysis_ns = rt_now_ns(CLOCK_MONOTONIC) - t0;
	return 0;
}

/* read from the buffers as each run ends; streamed to a file read at the end */
static const struct recording_ops live_ops = { .run_done = live_run_done };
static const struct recording_ops file_ops = { .finish = file_finish };

/**
 * trace_recording_open - a private trace instance named @prefix, the
 * process's pid and a random part, @buffer_kb per CPU of @cpus, recording
 * nothing until a run's threads are named (trace_recording_begin()); its
 * events read from its buffers after each run unless trace_recording_stream()
 * is asked for
 *
 * Returns 0, or a negative errno with @err saying what failed: -ENOENT,
 * -EACCES, -EPERM or -EOPNOTSUPP what is missing here (tracefs, root),
 * -EFBIG buffers that do not fit in memory, -EIO another failure.
 */
int trace_recording_open(struct trace_recording **rp, const char *prefix, size_t buffer_kb,
			 const struct bitmask *cpus, char *err, size_t len)
{
	struct trace_recording *r = calloc(1, sizeof(*r));
	char why[512];
	int ret;

	*rp = NULL;
	if (!r) {
		snprintf(err, len, "out of memory");
		return -EIO;
	}
	r->ops = &live_ops;
	ret = trace_instance_open_private(&r->tracer, prefix, buffer_kb, cpus, why, sizeof(why));
	if (!ret) {
		r->dir = trace_instance_dir(r->tracer);
		if (!r->dir)
			snprintf(why, sizeof(why), "out of memory");
		ret = r->dir ? trace_instance_filter(r->tracer, NULL, 0) : -ENOMEM;
		if (ret && r->dir)
			snprintf(why, sizeof(why), "setting the instance's filters: %s",
				 strerror(-ret));
	}
	if (ret) {
		snprintf(err, len, "%s", why);
		trace_recording_close(r);
		/* what is missing here, and buffers too large, keep their errno; anything else failed */
		return ret == -ENOENT || ret == -EACCES || ret == -EPERM || ret == -EOPNOTSUPP ||
		       ret == -EFBIG ? ret : -EIO;
	}
	*rp = r;
	return 0;
}

/* The instance's folder, for a signal handler to remove (rmdir is async-signal-safe). */
const char *trace_recording_dir(const struct trace_recording *r)
{
	return r->dir;
}

/* The instance's name, for its trace_marker (trace_marker_open()). */
const char *trace_recording_instance(const struct trace_recording *r)
{
	return trace_instance_name(r->tracer);
}

static bool recording(void *ctx)
{
	return trace_instance_is_on(ctx);
}

/**
 * trace_recording_stream - have trace-cmd's recorder stream the instance
 * into the trace.dat @name in the folder @dir_fd (@path, to read it at the
 * end) from now to trace_recording_finish(), which analyses it
 *
 * Returns 0, or a negative errno with @err saying what failed: -ENOENT
 * trace-cmd is missing, -EIO another failure.
 */
int trace_recording_stream(struct trace_recording *r, int dir_fd, const char *name,
			   const char *path, char *err, size_t len)
{
	int ret;

	r->path = strdup(path);
	if (!r->path) {
		snprintf(err, len, "out of memory");
		return -EIO;
	}
	ret = trace_recorder_start(&r->recorder, trace_instance_name(r->tracer), dir_fd, name, recorded,
				   recording, r->tracer, err, len);
	if (ret)
		return ret == -ENOENT ? ret : -EIO;
	r->ops = &file_ops;
	/* on between runs only when a run starts */
	if (trace_instance_stop(r->tracer)) {
		snprintf(err, len, "switching the instance off: %s", strerror(EIO));
		return -EIO;
	}
	return 0;
}

/* A run starts: record the scheduler's events of its threads @tids. */
int trace_recording_begin(struct trace_recording *r, const pid_t *tids, size_t n)
{
	return trace_instance_begin(r->tracer, tids, n);
}

/* A run's threads are done: record nothing until the next run. */
void trace_recording_pause(struct trace_recording *r)
{
	trace_instance_stop(r->tracer);
}

/**
 * trace_recording_mark - run @run's windows marked (trace_window_mark_all())
 * in every trace_marker open, the instance's among them (@r; NULL: not
 * tracing), recorded while they are written
 */
void trace_recording_mark(struct trace_recording *r, int run, const struct trace_window *w,
			  size_t n, enum rt_bw_regime regime, uint64_t limit_ns,
			  const struct rt_topology *topo)
{
	if (r)
		trace_instance_start(r->tracer);
	trace_window_mark_all(run, w, n, regime, limit_ns, topo);
	if (r)
		trace_instance_stop(r->tracer);
}

/**
 * trace_recording_run_done - a run is over: read from the instance's
 * buffers, its analysis goes to span->out now; streamed, at the end
 *
 * Returns 0, or a negative errno with @err saying what failed.
 */
int trace_recording_run_done(struct trace_recording *r, struct trace_span *span, size_t n,
			     char *err, size_t len)
{
	return r->ops->run_done ? r->ops->run_done(r, span, n, err, len) : 0;
}

/**
 * trace_recording_finish - the runs are over: the instance switched off
 * and, streamed, the recorder stopped (waiting while @give_up says no) and
 * its file analysed for the threads of each run, within the run's span
 *
 * Returns 0, or a negative errno with @err saying what failed: the
 * recorder, or the file's events.
 */
int trace_recording_finish(struct trace_recording *r, struct trace_span *spans, size_t nruns,
			   size_t n, bool (*give_up)(void), char *err, size_t len)
{
	trace_instance_stop(r->tracer);
	return r->ops->finish ? r->ops->finish(r, spans, nruns, n, give_up, err, len) : 0;
}

/* The recorder stopped, the instance removed, @r freed (NULL: nothing). */
void trace_recording_close(struct trace_recording *r)
{
	if (!r)
		return;
	trace_recorder_free(r->recorder);
	trace_instance_close(r->tracer);
	free(r->dir);
	free(r->path);
	free(r);
}

/* Remove the instances named @prefix that nobody holds (runs killed by SIGKILL left them). */
int trace_recording_sweep(const char *prefix)
{
	return trace_instance_sweep(prefix);
}
