// SPDX-License-Identifier: GPL-2.0-only
/*
 * The analysis of a trace, run by run, from either source (source.h): each
 * run's threads within their windows, fed the events of the run's span one
 * at a time (trace_sched_walk), and, when asked, the events written out in the
 * rtsched-trace/1 text format that scripts/plot --timeline draws.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/procstat.h"
#include "trace/analysis.h"
#include "trace/internal/walk.h"
#include "trace/source.h"
#include "trace/explain.h"

#define PID_LIMIT (1 << 22)	/* the kernel's PID_MAX_LIMIT on 64 bits */

/**
 * trace_classify - who a preemptor was: a kernel thread or another task
 * @ctx: the struct trace_source the pid comes from (its name there), or NULL
 *
 * Kernel threads have PF_KTHREAD in /proc/PID/stat's flags (the 9th field),
 * believed when /proc's task has the trace's name; a task that is gone (or
 * another by now) is told by its name.
 */
enum trace_preemptor trace_classify(pid_t pid, void *ctx)
{
	const char *comm = ctx ? trace_source_comm(ctx, pid) : NULL;
	struct rt_task t;

	if (rt_procstat_task("/proc", pid, &t) || (comm && strcmp(comm, t.comm)))
		return comm && trace_comm_kthread(comm) ? TRACE_BY_KTHREAD : TRACE_BY_OTHER;
	return t.kthread ? TRACE_BY_KTHREAD : TRACE_BY_OTHER;
}

/**
 * trace_text_header - the comment lines that start an rtsched-trace/1 text
 */
void trace_text_header(FILE *f)
{
	fprintf(f, "# rtsched-trace/1: scheduler events of a benchmark run, one per line.\n"
		   "# Times in ns of the trace's clock; priorities are the kernel's (0-99 RT, 0\n"
		   "# the highest). R run; T tid task; C pid comm; then per event, after time\n"
		   "# and CPU:\n"
		   "# S prev_pid prev_prio prev_state next_pid next_prio   (sched_switch)\n"
		   "# W pid prio target_cpu (sched_waking)   U pid prio target_cpu (sched_wakeup)\n"
		   "# M pid prio orig_cpu dest_cpu (sched_migrate_task)\n"
		   "# P pid oldprio newprio (sched_pi_setprio)\n"
		   "# L tid start end: a span of placement waiting (runnable while a CPU of its\n"
		   "# affinity ran a lower priority), told as it ends\n");
}

struct analysis {
	struct trace_span *spans;
	struct trace_sched_walk **walks;
	size_t nruns, n, cur;
	struct trace_source *src;
	FILE *out;			/* the events in text, or NULL */
	size_t out_run;			/* the run whose header was written, or nruns */
	unsigned char *named;		/* pids whose C line this run has, a bit each */
};

/* The run whose span holds @ts, or nruns; the events come in time order. */
static size_t run_of(struct analysis *a, uint64_t ts)
{
	while (a->cur < a->nruns && ts > (uint64_t)a->spans[a->cur].end_ns)
		a->cur++;
	if (a->cur < a->nruns && ts >= (uint64_t)a->spans[a->cur].start_ns)
		return a->cur;
	return a->nruns;
}

static void name_pid(struct analysis *a, int32_t pid)
{
	const char *comm;

	if (pid < 0 || pid >= PID_LIMIT || a->named[pid / 8] & (1 << (pid % 8)))
		return;
	a->named[pid / 8] |= (unsigned char)(1 << (pid % 8));
	comm = trace_source_comm(a->src, pid);
	fprintf(a->out, "C %d %s\n", pid, comm ? comm : "");
}

/* rtsched-trace/1: the run, its threads, each task's name once, the events. */
static void write_event(struct analysis *a, size_t r, const struct trace_event *e)
{
	static const char letter[TRACE_EV_TYPES] = { 'S', 'W', 'U', 'M', 'P' };
	size_t i;

	if (a->out_run != r) {
		a->out_run = r;
		memset(a->named, 0, PID_LIMIT / 8);
		fprintf(a->out, "R %zu\n", r);
		for (i = 0; i < a->n; i++)
			fprintf(a->out, "T %d %zu\n", (int)a->spans[r].threads[i].tid, i);
	}
	name_pid(a, e->pid);
	if (e->type == TRACE_EV_SWITCH)
		name_pid(a, e->pid2);
	fprintf(a->out, "%c %llu %d %d %d", letter[e->type], (unsigned long long)e->ts, e->cpu,
		e->pid, e->prio);
	if (e->type == TRACE_EV_SWITCH)
		fprintf(a->out, " %lld %d %d\n", (long long)e->arg, e->pid2, e->prio2);
	else if (e->type == TRACE_EV_MIGRATE)
		fprintf(a->out, " %lld %d\n", (long long)e->arg, e->arg2);
	else if (e->type == TRACE_EV_PI)
		fprintf(a->out, " %d\n", e->prio2);
	else
		fprintf(a->out, " %lld\n", (long long)e->arg);
}

static int feed(const struct trace_event *e, void *ctx)
{
	struct analysis *a = ctx;
	size_t r = run_of(a, e->ts);
	struct trace_run *run;

	if (r == a->nruns)
		return 0;
	run = a->spans[r].out;
	run->events++;
	run->count[e->type]++;
	if (a->out)
		write_event(a, r, e);
	return trace_sched_walk_feed(a->walks[r], e);
}

/* Dropped before @ts: the run under way then, or the one before. */
static void lost(uint64_t ts, int cpu, long long n, void *ctx)
{
	struct analysis *a = ctx;
	size_t r = run_of(a, ts);

	(void)cpu;
	if (r == a->nruns)
		r = a->cur ? a->cur - 1 : 0;
	a->spans[r].out->lost += n > 0 ? (uint64_t)n : 1;
}

/* A span of placement waiting, in the text after the event that ended it. */
static void write_span(const struct trace_task *t, uint64_t start, uint64_t end, void *ctx)
{
	struct analysis *a = ctx;

	fprintf(a->out, "L %d %llu %llu\n", (int)t->tid, (unsigned long long)start,
		(unsigned long long)end);
}

/* Each run's tasks, from its threads' windows, and its walk. */
static int prepare(struct analysis *a, bool have_proc)
{
	size_t r;

	for (r = 0; r < a->nruns; r++) {
		struct trace_run *run = a->spans[r].out;

		if (trace_run_init(run, a->spans[r].threads, a->n, have_proc))
			return -ENOMEM;
		a->walks[r] = trace_sched_walk_new(run->tasks, a->n, trace_classify, a->src);
		if (!a->walks[r])
			return -ENOMEM;
		trace_sched_walk_regime(a->walks[r], a->spans[r].regime, a->spans[r].limit_ns);
		run->regime = a->spans[r].regime;
		trace_sched_walk_topology(a->walks[r], a->spans[r].topo);
		run->have_topology = a->spans[r].topo != NULL;
		trace_sched_walk_cpus(a->walks[r], run->cpus, run->ncpus);
		if (a->out)
			trace_sched_walk_spans(a->walks[r], write_span, a);
		if (a->spans[r].wait_fn)
			trace_sched_walk_waits(a->walks[r], a->spans[r].wait_fn,
					       a->spans[r].wait_ctx);
	}
	return 0;
}

static void analysis_free(struct analysis *a)
{
	size_t r;

	for (r = 0; a->walks && r < a->nruns; r++)
		trace_sched_walk_free(a->walks[r]);
	free(a->walks);
	free(a->named);
}

static int analysis_init(struct analysis *a, bool have_proc, char *err, size_t len)
{
	int ret;

	a->out_run = a->nruns;
	a->walks = calloc(a->nruns, sizeof(*a->walks));
	a->named = a->out ? calloc(PID_LIMIT / 8, 1) : NULL;
	ret = a->walks && (!a->out || a->named) ? prepare(a, have_proc) : -ENOMEM;
	if (ret)
		snprintf(err, len, "out of memory");
	return ret;
}

/**
 * trace_analyse - analyse the events of @src for @nruns runs of @n threads each
 * @have_proc: the windows carry /proc's migrations
 * @out: where to write the events of the spans in text (rtsched-trace/1), or NULL
 *
 * Each run's results go to spans[r].out (trace_run_free() frees them).
 *
 * Returns 0, or a negative errno with @err saying what failed.
 */
int trace_analyse(struct trace_source *src, struct trace_span *spans, size_t nruns, size_t n,
		  bool have_proc, FILE *out, char *err, size_t len)
{
	static const struct trace_walk_ops ops = { .event = feed, .lost = lost };
	struct analysis a = { .spans = spans, .nruns = nruns, .n = n, .src = src, .out = out };
	int ret;

	ret = analysis_init(&a, have_proc, err, len);
	if (!ret)
		ret = trace_source_walk(src, &ops, &a, err, len);
	analysis_free(&a);
	return ret;
}
