/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The state of a walk over scheduler events, shared by the analysis
 * (schedan.c) and the placement measure (placement.c); not installed.
 */
#ifndef RT_SCHEDWALK_H
#define RT_SCHEDWALK_H

#include "rt_schedan.h"

#define RT_WALK_MAX_CPUS 4096
#define RT_PRIO_IDLE 140	/* nothing runs: below every task */

enum { T_SLEEPING, T_WAKING, T_RUNNING, T_PREEMPTED };

struct cpu_now {
	int32_t pid;		/* the task current there, as far as the events show */
	int32_t prio;
	bool known;		/* pid and prio are known */
	bool throttled;		/* it left a runnable RT task for a lower one */
	bool claimed;		/* a waiter counts it (placement) */
};

/*
 * Waiting counted on a CPU for a task, not yet confirmed by both sides: the
 * CPU's next event must show it ran what its switches said, and the task's
 * recorded switch in must end its wait (placement.c).
 */
struct rt_place_pending {
	uint64_t neither;	/* confirmed by neither side yet */
	uint64_t by_task;	/* by the task's switch in; the CPU's event to come */
	uint64_t by_cpu;	/* by the CPU's event; the task's switch in to come */
};

struct rt_sched_walk {
	struct rt_sched_task *tasks;
	size_t ntasks;
	rt_preemptor_fn classify;
	void *ctx;
	struct cpu_now *cpus;	/* RT_WALK_MAX_CPUS of them */
	int max_cpu;
	uint64_t last_ts;
	struct rt_sched_cpu *out;	/* the per-CPU figures, when asked for */
	size_t nout;
	struct rt_place_pending **pending;	/* [cpu][task], a row per CPU once claimed */
	size_t *order;		/* the waiters, by priority */
	rt_span_fn span_fn;	/* told of each span as it ends, or NULL */
	void *span_ctx;
};

int rt_place_init(struct rt_sched_walk *w);
void rt_place_advance(struct rt_sched_walk *w, uint64_t ts);
void rt_place_confirm(struct rt_sched_walk *w, int cpu);
void rt_place_take_back_cpu(struct rt_sched_walk *w, int cpu);
void rt_place_take_back_task(struct rt_sched_walk *w, size_t task);
void rt_place_task_confirm(struct rt_sched_walk *w, size_t task);
int rt_place_claim(struct rt_sched_walk *w, uint64_t ts);
void rt_place_end(struct rt_sched_walk *w);
void rt_place_free(struct rt_sched_walk *w);

#endif
