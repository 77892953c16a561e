// SPDX-License-Identifier: GPL-2.0-only
/*
 * The flight recorder (flight.h): an instance in overwrite mode with the
 * run's filter, and at most one more being written by trace-cmd restore.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <numa.h>

#include "trace/flight.h"
#include "trace/internal/instance.h"
#include "trace/internal/recorder.h"

struct trace_flight {
	char *prefix;
	size_t buffer_kb;
	struct bitmask *cpus;		/* NULL: all */
	pid_t *tids;			/* the run's threads, for a fresh instance's filter */
	size_t ntids;
	bool on;			/* a run records */
	struct trace_instance *now;	/* recording */
	struct trace_instance *saving;	/* being written */
	struct trace_recorder *writing;	/* its writer */
	cpu_set_t writer;		/* where trace-cmd runs */
	bool pinned;
};

/* A fresh instance keeping the recent past. */
static int fresh(struct trace_flight *f, struct trace_instance **t, char *err, size_t len)
{
	int ret = trace_instance_open_private(t, f->prefix, f->buffer_kb, f->cpus, err, len);

	if (!ret) {
		ret = trace_instance_overwrite(*t, true);
		if (!ret)
			ret = trace_instance_filter(*t, f->tids, f->ntids);
		if (ret)
			snprintf(err, len, "setting up the flight recorder's instance: %s",
				 strerror(-ret));
	}
	return ret;
}

/**
 * trace_flight_open - a flight recorder named @prefix, the process's pid and
 * a random part, of @buffer_kb per CPU of @cpus (NULL: all), recording
 * nothing until trace_flight_begin(); trace-cmd writes its windows on the
 * CPUs @writer (NULL: the caller's)
 *
 * Returns 0, or a negative errno with @err saying what failed (as
 * trace_recording_open()); -ENOENT also when trace-cmd, which writes the
 * windows, is not installed.
 */
int trace_flight_open(struct trace_flight **fp, const char *prefix, size_t buffer_kb,
		      const struct bitmask *cpus, const cpu_set_t *writer, char *err, size_t len)
{
	struct trace_flight *f = calloc(1, sizeof(*f));
	int ret;

	*fp = NULL;
	ret = trace_recorder_installed(err, len);
	if (ret) {
		free(f);
		return ret;
	}
	if (!f || !(f->prefix = strdup(prefix)) ||
	    (cpus && !(f->cpus = numa_bitmask_alloc(cpus->size)))) {
		trace_flight_close(f);
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	if (cpus)
		copy_bitmask_to_bitmask((struct bitmask *)cpus, f->cpus);
	f->buffer_kb = buffer_kb;
	if (writer) {
		f->writer = *writer;
		f->pinned = true;
	}
	ret = fresh(f, &f->now, err, len);
	if (ret) {
		trace_flight_close(f);
		return ret;
	}
	*fp = f;
	return 0;
}

/**
 * trace_flight_begin - a run starts: record the scheduler's events of its
 * threads @tids, and every switch on its CPUs
 *
 * Returns 0, or a negative errno.
 */
int trace_flight_begin(struct trace_flight *f, const pid_t *tids, size_t n)
{
	pid_t *copy = calloc(n ? n : 1, sizeof(*copy));

	if (!copy)
		return -ENOMEM;
	memcpy(copy, tids, n * sizeof(*tids));
	free(f->tids);
	f->tids = copy;
	f->ntids = n;
	f->on = true;
	return trace_instance_begin(f->now, tids, n);
}

/* The run is over: record nothing until the next. */
void trace_flight_pause(struct trace_flight *f)
{
	f->on = false;
	trace_instance_stop(f->now);
}

/* The instance written, removed (and a restore still running killed). */
static void saved(struct trace_flight *f)
{
	trace_recorder_free(f->writing);
	f->writing = NULL;
	trace_instance_close(f->saving);
	f->saving = NULL;
}

/**
 * trace_flight_save - write what the recorder holds (the recent past, up
 * to now) to the trace.dat @file in the folder @dir_fd, ending with the
 * marker lines @marks (@n of them: what an analysis of the file alone must
 * know): a fresh instance records from now on, and the one that recorded
 * until now is written (trace_recorder_restore()); trace_flight_saved()
 * says when it is done. One save at a time.
 *
 * Returns 0, or a negative errno with @err saying what failed: -EBUSY the
 * last save is still being written, -ENOENT trace-cmd is not installed.
 */
int trace_flight_save(struct trace_flight *f, int dir_fd, const char *file,
		      const char *const *marks, size_t n, char *err, size_t len)
{
	struct trace_instance *next;
	char *dir;
	size_t i;
	int ret;

	err[0] = 0;
	if (f->writing) {
		snprintf(err, len, "the last window is still being written");
		return -EBUSY;
	}
	ret = fresh(f, &next, err, len);
	if (!ret && f->on)
		ret = trace_instance_start(next);
	if (ret) {
		if (!err[0])
			snprintf(err, len, "starting the flight recorder's instance: %s",
				 strerror(-ret));
		trace_instance_close(next);
		return ret;
	}
	/* recorded only while it is on: between runs, on for them */
	if (!f->on)
		trace_instance_start(f->now);
	for (i = 0; i < n; i++)
		trace_instance_mark(f->now, marks[i]);
	trace_instance_stop(f->now);
	f->saving = f->now;
	f->now = next;
	dir = trace_instance_dir(f->saving);
	ret = dir ? trace_recorder_restore(&f->writing, dir, dir_fd, file,
					   f->pinned ? &f->writer : NULL, err, len) : -ENOMEM;
	if (!dir)
		snprintf(err, len, "out of memory");
	free(dir);
	if (ret)
		saved(f);
	return ret;
}

/**
 * trace_flight_saved - whether the last save is written, without waiting
 *
 * Returns 1 while trace-cmd writes it, 0 when it is written (or there was
 * none), -EIO with @err saying how trace-cmd failed.
 */
int trace_flight_saved(struct trace_flight *f, char *err, size_t len)
{
	int ret;

	if (!f->writing)
		return 0;
	ret = trace_recorder_done(f->writing, err, len);
	if (ret != 1)
		saved(f);
	return ret;
}

/* Everything removed, a save still being written killed (NULL: nothing). */
void trace_flight_close(struct trace_flight *f)
{
	if (!f)
		return;
	saved(f);
	trace_instance_close(f->now);
	if (f->cpus)
		numa_bitmask_free(f->cpus);
	free(f->tids);
	free(f->prefix);
	free(f);
}
