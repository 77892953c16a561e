/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --trace for the benchmarks: the private instance's life and its recorder,
 * the analysis of the trace.dat, run by run, and what is said of it.
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
	struct rt_sched_cpu *cpus;	/* placement per CPU, ncpus of them */
	size_t ncpus;
	bool have_proc;			/* proc_migrations known (a benchmark's own run) */
	enum rt_bw_regime regime;	/* the RT bandwidth limits the analysis read it by */
	uint64_t count[RT_SEV_TYPES];
	uint64_t events, lost;
	int64_t analysis_ns;		/* reading, decoding and analysing them */
};

/* A run as the trace.dat is cut: its threads, its span, where its analysis goes. */
struct bench_trace_span {
	const struct bench_window *threads;
	int64_t start_ns, end_ns;	/* CLOCK_MONOTONIC, the threads' windows inside */
	struct bench_trace_run *out;
	enum rt_bw_regime regime;	/* the kernel's RT bandwidth limits in it */
	uint64_t limit_ns;		/* the longest of them (0: the kernels' default) */
};

void bench_trace_sweep(void);
enum rt_preemptor bench_trace_classify(pid_t pid, void *ctx);
int bench_trace_open(struct rt_tracer **tp, size_t buffer_kb, const struct bitmask *cpus,
		     char *err, size_t len);

void bench_trace_text_header(FILE *f);
int bench_trace_analyse_file(const char *path, const char *buffer,
			     struct bench_trace_span *spans, size_t nruns, size_t n, bool have_proc,
			     FILE *out, char *err, size_t len);
int bench_trace_analyse_live(const char *instance, struct bench_trace_span *span, size_t n,
			     char *err, size_t len);
bool bench_trace_live(void);
int bench_trace_run_done(struct rt_tracer *t, struct bench_trace_span *span, size_t n,
			 char *err, size_t len);
void bench_trace_mark_windows(struct rt_tracer *t, int run, const struct bench_window *w,
			      size_t n, enum rt_bw_regime regime, uint64_t limit_ns);
int bench_trace_finish(struct rt_tracer *t, struct bench_trace_span *spans, size_t nruns,
		       size_t n, char *err, size_t len);
void bench_trace_print(const struct bench_trace_run **runs, size_t nruns);
void bench_trace_json(struct rt_json *j, const struct bench_trace_run *run);
int bench_trace_out_open(const char *path, char *err, size_t len);
void bench_trace_out_close(void);
int bench_trace_run_init(struct bench_trace_run *run, const struct bench_window *w, size_t n,
			 bool have_proc);
void bench_trace_free(struct bench_trace_run *run);

#endif
