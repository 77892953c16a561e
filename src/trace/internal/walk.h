/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internal to the trace layer: the scheduler walk that turns events into
 * struct trace_task figures (walk.c, with placement.c and limit.c). Outside
 * src/trace only tests of the walk itself include it, saying so.
 */
#ifndef TRACE_WALK_H
#define TRACE_WALK_H

#include "trace/events.h"

/* Classify a pid that preempted a benchmark thread (not a benchmark thread). */
typedef enum trace_preemptor (*trace_preemptor_fn)(pid_t pid, void *ctx);

void trace_task_init(struct trace_task *t, pid_t tid, uint64_t win_start,
			uint64_t win_end);
void trace_task_affinity(struct trace_task *t, const cpu_set_t *cpus);
int trace_sched_analyse(const struct trace_event *ev, size_t n, struct trace_task *tasks, size_t ntasks,
		     trace_preemptor_fn classify, void *ctx);

/* The same walk, fed one event at a time: memory per task and CPU, not per event. */
struct trace_sched_walk;
struct trace_sched_walk *trace_sched_walk_new(struct trace_task *tasks, size_t ntasks,
					 trace_preemptor_fn classify, void *ctx);
void trace_sched_walk_cpus(struct trace_sched_walk *w, struct trace_cpu *cpus, size_t n);
void trace_sched_walk_regime(struct trace_sched_walk *w, enum rt_bw_regime regime, uint64_t limit_ns);
void trace_sched_walk_topology(struct trace_sched_walk *w, const struct rt_topology *topo);
/* Each span of placement waiting as it ends: its task, its start and end (ns). */
typedef void (*trace_span_fn)(const struct trace_task *t, uint64_t start, uint64_t end,
			   void *ctx);
void trace_sched_walk_spans(struct trace_sched_walk *w, trace_span_fn fn, void *ctx);
/* Each wait of a task, of every kind, as it ends (struct trace_wait). */
typedef void (*trace_wait_fn)(const struct trace_wait *wait, void *ctx);
void trace_sched_walk_waits(struct trace_sched_walk *w, trace_wait_fn fn, void *ctx);
int trace_sched_walk_feed(struct trace_sched_walk *w, const struct trace_event *e);
void trace_sched_walk_free(struct trace_sched_walk *w);

#endif
