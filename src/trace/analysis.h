/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The trace analysis, a layer of its own between the library and the
 * benchmarks: a trace of tasks in their windows (a benchmark's threads, or
 * any trace.dat's tasks, as analyse picks them), read from either source
 * (source.h), walked event by event (schedan, with placement and limits),
 * and said as text tables and JSON. It returns statuses and never prints
 * but where it is asked to, never exits.
 */
#ifndef TRACE_ANALYSIS_H
#define TRACE_ANALYSIS_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "lib/json.h"
#include "trace/events.h"
#include "trace/window.h"

struct trace_source;

/* What the trace of one run says. */
struct trace_run {
	struct trace_task *tasks;	/* one per benchmark thread, in table order */
	uint64_t *proc_migrations;	/* the table's migrated column, to agree with */
	size_t n;
	struct trace_cpu *cpus;	/* placement per CPU, ncpus of them */
	size_t ncpus;
	bool have_proc;			/* proc_migrations known (a benchmark's own run) */
	enum rt_bw_regime regime;	/* the RT bandwidth limits the analysis read it by */
	bool have_topology;		/* the tasks' mig_distance were counted */
	uint64_t count[TRACE_EV_TYPES];
	uint64_t events, lost;
	int64_t analysis_ns;		/* reading, decoding and analysing them */
};

/* A run as the trace.dat is cut: its threads, its span, where its analysis goes. */
struct trace_span {
	const struct trace_window *threads;
	int64_t start_ns, end_ns;	/* CLOCK_MONOTONIC, the threads' windows inside */
	struct trace_run *out;
	enum rt_bw_regime regime;	/* the kernel's RT bandwidth limits in it */
	uint64_t limit_ns;		/* the longest of them (0: the kernels' default) */
	const struct rt_topology *topo;	/* the machine's, or NULL: no migrations by distance */
	/* told of each wait of the run's threads as it ends (NULL: not asked) */
	void (*wait_fn)(const struct trace_wait *wait, void *ctx);
	void *wait_ctx;
};

enum trace_preemptor trace_classify(pid_t pid, void *ctx);
void trace_text_header(FILE *f);
int trace_analyse(struct trace_source *src, struct trace_span *spans, size_t nruns, size_t n,
		  bool have_proc, FILE *out, char *err, size_t len);
void trace_print(const struct trace_run **runs, size_t nruns);
void trace_json(struct rt_json *j, const struct trace_run *run);
int trace_run_init(struct trace_run *run, const struct trace_window *w, size_t n,
		   bool have_proc);
void trace_run_free(struct trace_run *run);

#endif
