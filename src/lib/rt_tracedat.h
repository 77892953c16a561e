/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_TRACEDAT_H
#define RT_TRACEDAT_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "rt_schedan.h"

/*
 * A trace.dat (trace-cmd's file, trace-cmd.dat(5)) read with libtracecmd:
 * its scheduler events decoded for the analysis, one at a time, in time
 * order. Nothing of the file is kept but the reader's own state.
 */
struct rt_tracedat;

/*
 * What a benchmark says of each thread's window at the end of a run, in a
 * trace_marker line, so that its trace.dat holds the rows of its table:
 * the run, the table row, the thread, the window on CLOCK_MONOTONIC, the
 * migrations /proc counted in it and, since placement, the CPUs it could
 * run on (RT_WINDOW_CPUS, a list: "0-3"; a marker without it is read too).
 */
#define RT_WINDOW_MARK "rtsched window: run %d row %zu tid %d start %lld end %lld migrations %llu"
#define RT_WINDOW_CPUS " cpus %s"

struct rt_tracedat_window {
	int run;
	size_t row;
	pid_t tid;
	long long start, end;
	unsigned long long proc_migrations;
	cpu_set_t affinity;
	bool affinity_known;
};

int rt_tracedat_window(const char *text, struct rt_tracedat_window *w);

/*
 * The kernel's RT bandwidth limits a run met (rt_regime.h), said once per
 * run before its window markers, so that an analysis of the file alone
 * attributes the time they took as the run's own did.
 */
#define RT_REGIME_MARK "rtsched bandwidth: %s limit_ns %llu"

int rt_tracedat_regime(const char *text, enum rt_bw_regime *regime, unsigned long long *limit_ns);

struct rt_tracedat_ops {
	/* each scheduler event; non-zero stops the walk and is returned */
	int (*event)(const struct rt_sev *e, void *ctx);
	/* events the kernel dropped on @cpu before @ts (-1: how many is unknown) */
	void (*lost)(uint64_t ts, int cpu, long long n, void *ctx);
	/* a trace_marker line written by @pid (NULL: not asked for) */
	int (*marker)(uint64_t ts, int cpu, pid_t pid, const char *text, void *ctx);
};

bool rt_tracedat_available(void);
int rt_tracedat_open(struct rt_tracedat **d, const char *path, const char *buffer, char *err,
		     size_t len);
const char *rt_tracedat_buffer(const struct rt_tracedat *d);
int rt_tracedat_walk(struct rt_tracedat *d, const struct rt_tracedat_ops *ops, void *ctx);
const char *rt_tracedat_comm(const struct rt_tracedat *d, pid_t pid);
void rt_tracedat_close(struct rt_tracedat *d);

/* A live instance instead of a file, read after a run (tracelive.c). */
int rt_tracelive_walk(const char *name, const struct rt_tracedat_ops *ops, void *ctx, char *err,
		      size_t len);

#endif
