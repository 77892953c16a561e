/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A task's window, the trace analysis's own unit: a benchmark's thread
 * between its two counter readings, or a task of any trace.dat that
 * analyse picks. A benchmark says its windows in trace_marker lines at the
 * end of each run, so that a trace.dat holds the rows of its tables.
 */
#ifndef TRACE_WINDOW_H
#define TRACE_WINDOW_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/regime.h"
#include "lib/topology.h"

struct trace_window {
	pid_t tid;
	int64_t start, end;		/* around its two counter readings, CLOCK_MONOTONIC */
	uint64_t proc_migrations;	/* the table's migrated */
	cpu_set_t affinity;		/* the CPUs it could run on, */
	bool affinity_known;		/* when known (placement) */
};

/*
 * The marker of a window: the run, the table row, the thread, the window,
 * the migrations /proc counted in it and, since placement, the CPUs it
 * could run on (TRACE_WINDOW_CPUS, a list: "0-3"; a marker without it is
 * read too).
 */
#define TRACE_WINDOW_MARK "rtsched window: run %d row %zu tid %d start %lld end %lld migrations %llu"
#define TRACE_WINDOW_CPUS " cpus %s"

/*
 * The kernel's RT bandwidth limits a run met (rt_regime.h), said once per
 * run before its window markers, so that an analysis of the file alone
 * attributes the time they took as the run's own did.
 */
#define TRACE_REGIME_MARK "rtsched bandwidth: %s limit_ns %llu"

/*
 * The machine's topology, said once per run before its windows, so that an
 * analysis of the file alone counts migrations by distance as the run's
 * own did: the last-level cache's level and the nodes' distances (row
 * after row, comma-separated), then a marker per CPU that has a place.
 */
#define TRACE_TOPOLOGY_MARK "rtsched topology: cache_level %d nodes %d distances %s"
#define TRACE_CPU_MARK "rtsched cpu %d: core %d cache %d package %d node %d"

/*
 * A thread a live watch followed, said in each window it saves (flight.h):
 * analyse then takes those threads, over the whole window.
 */
#define TRACE_WATCH_MARK "rtsched watch: tid %d cpus %s"

/* A window as its marker says it. */
struct trace_window_mark {
	int run;
	size_t row;
	struct trace_window w;
};

void trace_window_mark_all(int run, const struct trace_window *w, size_t n,
			   enum rt_bw_regime regime, uint64_t limit_ns, const struct rt_topology *topo);
int trace_window_read(const char *text, struct trace_window_mark *m);
int trace_watch_mark_read(const char *text, pid_t *tid, cpu_set_t *affinity, bool *affinity_known);
int trace_regime_read(const char *text, enum rt_bw_regime *regime, unsigned long long *limit_ns);
int trace_topology_read(const char *text, struct rt_topology *t);

#endif
