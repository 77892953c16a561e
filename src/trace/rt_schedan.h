/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_SCHEDAN_H
#define RT_SCHEDAN_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "rt_hist.h"
#include "rt_regime.h"
#include "rt_topology.h"

/*
 * Scheduler events of a run, as the analysis takes them: decoded, in time
 * order, times in nanoseconds of CLOCK_MONOTONIC. Priorities are the
 * kernel's (0-99 RT, 0 the highest; 100-139 the others; -1 a deadline
 * task), and RT_PRIO_STOP for the stopper (the stop class, above all; the
 * kernel reports it as 0, an RT priority), which the decoder tells by its
 * name.
 */
enum rt_sev_type {
	RT_SEV_SWITCH,	/* pid -> pid2 on cpu; prio, prio2; arg: prev_state */
	RT_SEV_WAKING,	/* pid at prio; arg: target_cpu */
	RT_SEV_WAKEUP,	/* pid at prio; arg: target_cpu */
	RT_SEV_MIGRATE,	/* pid at prio; arg: orig_cpu, arg2: dest_cpu */
	RT_SEV_PI,	/* pid; prio: oldprio, prio2: newprio */
	RT_SEV_TYPES,
};

/* The kernel's names of the events: "sched_switch"... */
extern const char *const rt_sev_names[RT_SEV_TYPES];

struct rt_sev {
	uint64_t ts;
	int32_t cpu;
	int32_t type;
	int32_t pid;
	int32_t pid2;
	int32_t prio;
	int32_t prio2;
	int64_t arg;
	int32_t arg2;
	int32_t cur;		/* the task current on cpu as it was recorded (common_pid), */
	int32_t has_cur;	/* when known: a switch the trace left out shows there */
};

/* sched_switch's prev_state: the task was still runnable (preempted, or yielded) */
#define RT_SEV_RUNNABLE(state) (((state) & 0xff) == 0)
#define RT_PRIO_RT_MAX 100	/* kernel priorities below this are RT */
#define RT_PRIO_STOP (-2)	/* the stopper, migration/N: the stop class */
#define RT_PRIO_IS_RT(p) ((p) >= 0 && (p) < RT_PRIO_RT_MAX)	/* the RT class itself */

/*
 * Who took the CPU from a preempted benchmark thread. A task of lower
 * priority (or idle) can take it from a runnable RT task only through the
 * kernel's RT bandwidth limits, whoever runs next: RT throttling, or the
 * fair server; which of the two, the regime says, and on a kernel with
 * both, a CPU that idles (the fair server never idles one) is throttled.
 */
enum rt_preemptor {
	RT_BY_BENCH,		/* another benchmark thread */
	RT_BY_KTHREAD,		/* a kernel thread of higher priority (or class) */
	RT_BY_THROTTLED,	/* RT throttling */
	RT_BY_FAIR_SERVER,	/* the fair server */
	RT_BY_LIMITED,		/* one of the two, which the trace cannot tell */
	RT_BY_OTHER,		/* any other task of higher priority (or class) */
	RT_PREEMPTORS,
};

/*
 * Placement: the time a thread was runnable but not running while a CPU of
 * its affinity ran something of lower priority (a lower RT priority, a
 * fair task, or nothing). Waiters claim such CPUs in priority order, each
 * the lowest-priority one left (the kernel's push does the same), so two
 * waiters for one CPU do not both count. A CPU the kernel's RT bandwidth
 * limit holds (it left a runnable RT task for a lower one) counts apart,
 * by mechanism: the kernel's limit, not its placement. placement.c.
 */
enum rt_limit {
	RT_LIMIT_THROTTLED,	/* RT throttling */
	RT_LIMIT_FAIR_SERVER,	/* the fair server */
	RT_LIMIT_EITHER,	/* one of the two (a kernel with both), which the trace cannot tell */
	RT_LIMITS,
};

extern const char *const rt_limit_names[RT_LIMITS];	/* "throttled", "fair_server", ... */

/*
 * Where the CPU that ran lower work while a thread waited was, from the CPU
 * it waited on: that CPU itself (here), or a move of a distance
 * (enum rt_distance) away.
 */
#define RT_PLACE_HERE RT_DISTANCES
#define RT_PLACES (RT_DISTANCES + 1)
const char *rt_place_name(int place);

struct rt_sched_place {
	uint64_t wait_ns;		/* the measure */
	uint64_t by_distance_ns[RT_PLACES];	/* of it, by where that CPU was, when the */
						/* topology and the CPU waited on are known */
	uint64_t intervals;		/* its spans: a wait while some such CPU existed */
	struct rt_hist wait;		/* their lengths, ns */
	uint64_t limited_ns[RT_LIMITS];	/* waited while the only such CPUs were held by a limit */
	uint64_t unseen_ns;		/* counted, then taken back: the CPU's switches */
};					/* were not all recorded, what ran is not known */

/* The same, per CPU: the time it ran something less important than a task waiting for it. */
struct rt_sched_cpu {
	uint64_t lower_ns;
	uint64_t limited_ns[RT_LIMITS];
	uint64_t unseen_ns;
};

/* What the trace says about one benchmark thread within its window. */
struct rt_sched_task {
	pid_t tid;
	uint64_t win_start, win_end;	/* count events in [win_start, win_end] */
	/* migrations by cause */
	uint64_t migrations;
	uint64_t mig_wakeup;		/* while waking: placed on another CPU */
	uint64_t mig_lower_rt;		/* of those: its CPU ran a lower priority RT task */
	uint64_t mig_equal_rt;		/* of those: its CPU ran an RT task of its priority */
	uint64_t mig_runnable;		/* preempted and runnable: pushed or pulled */
	uint64_t mig_other;		/* running or sleeping: affinity, hotplug */
	uint64_t mig_distance[RT_DISTANCES];	/* by what they crossed, when the topology is known */
	uint64_t preempted[RT_PREEMPTORS];
	struct rt_hist wakeup_latency;	/* sched_waking to running, ns */
	uint64_t wakeups;		/* sched_waking of it asleep: what the latency could count */
	uint64_t switches_in;		/* sched_switch to it, and away from it: the kernel can */
	uint64_t switches_out;		/* leave some out (idle to task, on some VMs) */
	uint64_t runnable_ns;		/* runnable but not running */
	uint64_t pi_boosts;		/* sched_pi_setprio raising it */
	struct rt_hist boost_latency;	/* raised while runnable, not running: to running, ns */
	struct rt_sched_place place;
	cpu_set_t affinity;		/* the CPUs it may run on (rt_sched_task_affinity) */
	bool affinity_known;		/* else placement counts only the CPU it waits on */
	/* state while walking the events */
	int state, cpu;
	uint64_t since;
	int prio_now;			/* its priority as last recorded, -1 not yet */
	int claim;			/* the CPU it waits for (placement), -1 none */
	bool misplaced;			/* in a span of the measure */
	uint64_t span_start;		/* when it began */
	uint64_t span_ns;		/* its length so far, inside the window */
	bool boost_waiting;		/* raised while runnable, not yet running */
	uint64_t boost_since;		/* when */
};

/* Classify a pid that preempted a benchmark thread (not a benchmark thread). */
typedef enum rt_preemptor (*rt_preemptor_fn)(pid_t pid, void *ctx);

void rt_sched_task_init(struct rt_sched_task *t, pid_t tid, uint64_t win_start,
			uint64_t win_end);
void rt_sched_task_affinity(struct rt_sched_task *t, const cpu_set_t *cpus);
int rt_sched_analyse(const struct rt_sev *ev, size_t n, struct rt_sched_task *tasks, size_t ntasks,
		     rt_preemptor_fn classify, void *ctx);

/* The same walk, fed one event at a time: memory per task and CPU, not per event. */
struct rt_sched_walk;
struct rt_sched_walk *rt_sched_walk_new(struct rt_sched_task *tasks, size_t ntasks,
					 rt_preemptor_fn classify, void *ctx);
void rt_sched_walk_cpus(struct rt_sched_walk *w, struct rt_sched_cpu *cpus, size_t n);
void rt_sched_walk_regime(struct rt_sched_walk *w, enum rt_bw_regime regime, uint64_t limit_ns);
void rt_sched_walk_topology(struct rt_sched_walk *w, const struct rt_topology *topo);
/* Each span of placement waiting as it ends: its task, its start and end (ns). */
typedef void (*rt_span_fn)(const struct rt_sched_task *t, uint64_t start, uint64_t end,
			   void *ctx);
void rt_sched_walk_spans(struct rt_sched_walk *w, rt_span_fn fn, void *ctx);
int rt_sched_walk_feed(struct rt_sched_walk *w, const struct rt_sev *e);
void rt_sched_walk_free(struct rt_sched_walk *w);

#endif
