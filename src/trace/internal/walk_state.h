/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The state of a walk over scheduler events, shared by the analysis
 * (schedan.c) and the placement measure (placement.c); not installed.
 */
#ifndef TRACE_WALK_STATE_H
#define TRACE_WALK_STATE_H

#include "trace/internal/walk.h"

#define TRACE_WALK_MAX_CPUS 4096
#define TRACE_PRIO_IDLE 140	/* nothing runs: below every task */

enum { T_SLEEPING, T_WAKING, T_RUNNING, T_PREEMPTED };

/*
 * A stretch of the kernel's RT bandwidth limit on a CPU: it left a runnable
 * RT task for a task of lower priority, or idle. It lasts until an RT task
 * runs there again, at most its bound (twice the regime's longest limit);
 * under the fair server alone, until the CPU idles (the server stops when
 * the fair tasks are done). Its kind is the regime's; where both exist, a
 * CPU that idles in it is throttled, and until then the time is held
 * (pending) to be given to one kind at its end.
 */
struct cpu_limit {
	bool on;
	bool decided;		/* its kind is known: kind */
	enum trace_limit kind;
	uint64_t since;
	int by;			/* the task whose preemption began it, counted when decided; -1 */
	uint64_t pending;	/* this CPU's figure held until the kind is known */
};

struct cpu_now {
	int32_t pid;		/* the task current there, as far as the events show */
	int32_t prio;
	bool known;		/* pid and prio are known */
	bool claimed;		/* a waiter counts it (placement) */
	uint64_t since;		/* the current task's, as far as the events show */
	uint64_t counted;	/* of the time passing now, what its own figures have */
	struct cpu_limit limit;
};

/*
 * Waiting counted on a CPU for a task, not yet confirmed by both sides: the
 * CPU's next event must show it ran what its switches said, and the task's
 * recorded switch in must end its wait (placement.c).
 */
struct trace_place_pending {
	uint64_t neither;	/* confirmed by neither side yet */
	uint64_t by_task;	/* by the task's switch in; the CPU's event to come */
	uint64_t by_cpu;	/* by the CPU's event; the task's switch in to come */
	uint64_t limited;	/* waited on the CPU's limit, whose kind is not known yet */
	int place;		/* where the CPU is from the one waited on (TRACE_PLACE_HERE, */
};				/* an rt_distance), as the pending time began; -1 not known */

/* A task's place in the walk's tasks, by thread id: the lookup of every event. */
struct trace_walk_tid {
	int32_t tid;
	uint32_t i;
};

struct trace_sched_walk {
	struct trace_task *tasks;
	size_t ntasks;
	struct trace_walk_tid *by_tid;	/* ntasks of them, by tid then place */
	trace_preemptor_fn classify;
	void *ctx;
	struct cpu_now *cpus;	/* TRACE_WALK_MAX_CPUS of them */
	int max_cpu;
	uint64_t last_ts;
	struct trace_cpu *out;	/* the per-CPU figures, when asked for */
	size_t nout;
	struct trace_place_pending **pending;	/* [cpu][task], a row per CPU once claimed */
	size_t *order;		/* the waiters at the last event, by priority */
	size_t norder;
	bool *listed;		/* [task]: in order */
	trace_span_fn span_fn;	/* told of each span as it ends, or NULL */
	void *span_ctx;
	trace_wait_fn wait_fn;	/* told of each wait as it ends, or NULL */
	void *wait_ctx;
	enum rt_bw_regime regime;	/* the kernel's RT bandwidth limits */
	uint64_t limit_bound;	/* the longest a stretch of them lasts, ns */
	const struct rt_topology *topo;	/* the machine's, for migrations by distance; or NULL */
};

int trace_place_init(struct trace_sched_walk *w);
void trace_limit_begin(struct trace_sched_walk *w, int cpu, uint64_t ts, int by, bool count);
void trace_limit_decide(struct trace_sched_walk *w, int cpu, enum trace_limit kind);
void trace_limit_end(struct trace_sched_walk *w, int cpu);
void trace_place_advance(struct trace_sched_walk *w, uint64_t ts);
void trace_place_confirm(struct trace_sched_walk *w, int cpu);
void trace_place_take_back_cpu(struct trace_sched_walk *w, int cpu);
void trace_place_take_back_task(struct trace_sched_walk *w, size_t task);
void trace_place_task_confirm(struct trace_sched_walk *w, size_t task);
void trace_place_touch(struct trace_sched_walk *w, const struct trace_task *t);
int trace_place_claim(struct trace_sched_walk *w, uint64_t ts);
void trace_place_end(struct trace_sched_walk *w);
void trace_place_free(struct trace_sched_walk *w);

#endif
