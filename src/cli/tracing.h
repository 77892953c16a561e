/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --trace for the benchmarks: the private instance's life, the analysis of
 * a run's events and what is said of it.
 */
#ifndef RT_CLI_TRACING_H
#define RT_CLI_TRACING_H

#include <pthread.h>
#include <stdio.h>

#include "rt_json.h"
#include "rt_schedan.h"
#include "rt_tracer.h"

/* A benchmark thread for the analysis: its tid, its window, its /proc count. */
struct cli_trace_thread {
	pid_t tid;
	int64_t start, end;		/* around its two counter readings, CLOCK_MONOTONIC */
	uint64_t proc_migrations;	/* the table's migrated */
};

/* What the trace of one run says. */
struct cli_trace_run {
	struct rt_sched_task *tasks;	/* one per benchmark thread, in table order */
	uint64_t *proc_migrations;	/* the table's migrated column, to agree with */
	size_t n;
	uint64_t count[RT_SEV_TYPES];
	uint64_t events, lost;
	int64_t analysis_ns;		/* reading, decoding and analysing them */
};

void cli_trace_sweep(void);
void cli_trace_open(struct rt_tracer *t, size_t buffer_kb, const struct bitmask *cpus);

/* How a program releases its created threads into the measured run. */
struct cli_release {
	pthread_barrier_t *ready;	/* every thread has its tid */
	pthread_barrier_t *start;	/* the run begins */
	struct rt_tracer *tracer;	/* --trace, or NULL */
	size_t nr_threads;
	pid_t (*tid)(void *ctx, size_t i);	/* thread i's tid, once ready */
	void *ctx;
};

int cli_release(const struct cli_release *r, int *mlock_err, int64_t *start_ns, char *err,
		size_t len);
void cli_trace_analyse(struct rt_tracer *t, struct cli_trace_run *run,
		       const struct cli_trace_thread *threads, size_t n, int run_index);
void cli_trace_print(const struct cli_trace_run *runs, size_t nruns);
void cli_trace_json(struct rt_json *j, const struct cli_trace_run *run);
void cli_trace_out_open(const char *path);
void cli_trace_out_close(void);
void cli_trace_free(struct cli_trace_run *run);

#endif
