/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --trace for the benchmarks: the private instance's life, the analysis of
 * a run's events and what is said of it.
 */
#ifndef BENCH_TRACE_H
#define BENCH_TRACE_H

#include <pthread.h>
#include <stdio.h>

#include "rt_json.h"
#include "rt_schedan.h"
#include "rt_tracer.h"
#include "thread.h"

/* What the trace of one run says. */
struct bench_trace_run {
	struct rt_sched_task *tasks;	/* one per benchmark thread, in table order */
	uint64_t *proc_migrations;	/* the table's migrated column, to agree with */
	size_t n;
	uint64_t count[RT_SEV_TYPES];
	uint64_t events, lost;
	int64_t analysis_ns;		/* reading, decoding and analysing them */
};

void bench_trace_sweep(void);
struct rt_tracer *bench_trace_open(size_t buffer_kb, const struct bitmask *cpus);

int bench_trace_analyse(struct rt_tracer *t, struct bench_trace_run *run,
			const struct bench_window *threads, size_t n, int run_index, char *err,
			size_t len);
void bench_trace_print(const struct bench_trace_run **runs, size_t nruns);
void bench_trace_json(struct rt_json *j, const struct bench_trace_run *run);
void bench_trace_out_open(const char *path);
void bench_trace_out_close(void);
void bench_trace_free(struct bench_trace_run *run);

#endif
