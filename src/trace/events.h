/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TRACE_EVENTS_H
#define TRACE_EVENTS_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/hist.h"
#include "lib/regime.h"
#include "lib/topology.h"

/*
 * Scheduler events of a run, as the analysis takes them: decoded, in time
 * order, times in nanoseconds of CLOCK_MONOTONIC. Priorities are the
 * kernel's (0-99 RT, 0 the highest; 100-139 the others; -1 a deadline
 * task), and TRACE_PRIO_STOP for the stopper (the stop class, above all; the
 * kernel reports it as 0, an RT priority), which the decoder tells by its
 * name.
 */
enum trace_event_type {
	TRACE_EV_SWITCH,	/* pid -> pid2 on cpu; prio, prio2; arg: prev_state */
	TRACE_EV_WAKING,	/* pid at prio; arg: target_cpu */
	TRACE_EV_WAKEUP,	/* pid at prio; arg: target_cpu */
	TRACE_EV_MIGRATE,	/* pid at prio; arg: orig_cpu, arg2: dest_cpu */
	TRACE_EV_PI,	/* pid; prio: oldprio, prio2: newprio */
	TRACE_EV_TYPES,
};

/* The kernel's names of the events: "sched_switch"... */
extern const char *const trace_event_names[TRACE_EV_TYPES];

struct trace_event {
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
#define TRACE_EV_RUNNABLE(state) (((state) & 0xff) == 0)
#define TRACE_PRIO_RT_MAX 100	/* kernel priorities below this are RT */
#define TRACE_PRIO_STOP (-2)	/* the stopper, migration/N: the stop class */
#define TRACE_PRIO_IS_RT(p) ((p) >= 0 && (p) < TRACE_PRIO_RT_MAX)	/* the RT class itself */

/*
 * Who took the CPU from a preempted benchmark thread. A task of lower
 * priority (or idle) can take it from a runnable RT task only through the
 * kernel's RT bandwidth limits, whoever runs next: RT throttling, or the
 * fair server; which of the two, the regime says, and on a kernel with
 * both, a CPU that idles (the fair server never idles one) is throttled.
 */
enum trace_preemptor {
	TRACE_BY_BENCH,		/* another benchmark thread */
	TRACE_BY_KTHREAD,		/* a kernel thread of higher priority (or class) */
	TRACE_BY_THROTTLED,	/* RT throttling */
	TRACE_BY_FAIR_SERVER,	/* the fair server */
	TRACE_BY_LIMITED,		/* one of the two, which the trace cannot tell */
	TRACE_BY_OTHER,		/* any other task of higher priority (or class) */
	TRACE_PREEMPTORS,
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
enum trace_limit {
	TRACE_LIMIT_THROTTLED,	/* RT throttling */
	TRACE_LIMIT_FAIR_SERVER,	/* the fair server */
	TRACE_LIMIT_EITHER,	/* one of the two (a kernel with both), which the trace cannot tell */
	TRACE_LIMITS,
};

extern const char *const trace_limit_names[TRACE_LIMITS];	/* "throttled", "fair_server", ... */

/*
 * Where the CPU that ran lower work while a thread waited was, from the CPU
 * it waited on: that CPU itself (here), or a move of a distance
 * (enum rt_distance) away.
 */
#define TRACE_PLACE_HERE RT_DISTANCES
#define TRACE_PLACES (RT_DISTANCES + 1)
const char *trace_place_name(int place);

struct trace_placement {
	uint64_t wait_ns;		/* the measure */
	uint64_t by_distance_ns[TRACE_PLACES];	/* of it, by where that CPU was, when the */
						/* topology and the CPU waited on are known */
	uint64_t intervals;		/* its spans: a wait while some such CPU existed */
	struct rt_hist wait;		/* their lengths, ns */
	uint64_t limited_ns[TRACE_LIMITS];	/* waited while the only such CPUs were held by a limit */
	uint64_t unseen_ns;		/* counted, then taken back: the CPU's switches */
};					/* were not all recorded, what ran is not known */

/* The same, per CPU: the time it ran something less important than a task waiting for it. */
struct trace_cpu {
	uint64_t lower_ns;
	uint64_t limited_ns[TRACE_LIMITS];
	uint64_t unseen_ns;
};

/* What the trace says about one benchmark thread within its window. */
struct trace_task {
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
	uint64_t preempted[TRACE_PREEMPTORS];
	struct rt_hist wakeup_latency;	/* sched_waking to running, ns */
	uint64_t wakeups;		/* sched_waking of it asleep: what the latency could count */
	uint64_t switches_in;		/* sched_switch to it, and away from it: the kernel can */
	uint64_t switches_out;		/* leave some out (idle to task, on some VMs) */
	uint64_t runnable_ns;		/* runnable but not running */
	uint64_t pi_boosts;		/* sched_pi_setprio raising it */
	struct rt_hist boost_latency;	/* raised while runnable, not running: to running, ns */
	struct trace_placement place;
	cpu_set_t affinity;		/* the CPUs it may run on (trace_task_affinity) */
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
	int32_t wait_holder, wait_holder_prio;	/* runnable: what held its CPU longest, */
	uint64_t wait_held_ns;		/* how long, */
	uint64_t wait_limited_ns;	/* and how long the kernel's limit held it, */
	int wait_limit;			/* of which kind (-1 none) */
	int wait_moves;			/* moved to another CPU while it waited, */
	int wait_move_from, wait_move_to;	/* the last time: from, to */
	uint64_t wait_move_ts;		/* and when */
	int span_cpu;			/* the lower CPU its span began on, -1 none */
	int32_t span_holder, span_holder_prio;	/* and what ran there then */
};

/*
 * A wait of a benchmark thread as it ends, for a watch (trace_sched_walk_waits):
 * placement (a span of the measure), wake-up (sched_waking to running), a
 * PI boost's (raised while runnable to running), or any time runnable but
 * not running (woken or preempted, to running: a stall of the thread).
 */
enum trace_wait_kind {
	TRACE_WAIT_PLACEMENT,
	TRACE_WAIT_WAKEUP,
	TRACE_WAIT_BOOST,
	TRACE_WAIT_RUNNABLE,
	TRACE_WAITS,
};

/* "placement", "wakeup", "boost", "runnable" */
extern const char *const trace_wait_names[TRACE_WAITS];
int trace_wait_kind_of(const char *name, size_t len);

struct trace_wait {
	enum trace_wait_kind kind;
	pid_t tid;			/* the thread */
	int prio;			/* its kernel priority as it waited */
	uint64_t start, end;		/* ns, CLOCK_MONOTONIC */
	int cpu;			/* the CPU it waited for: placement's lower one, else its own */
	pid_t holder;			/* what ran there: at a placement span's start, else */
	int holder_prio;		/* the task that held it longest in the wait; 0 idle, */
	uint64_t held_ns;		/* -1 not known; and for how long of it (0: not known) */
	int limit;			/* an enum trace_limit that held that CPU in it, else -1 */
	uint64_t limited_ns;		/* for how long */
	char holder_comm[16];		/* the holder's name as the trace says it, or "" */
	int moves;			/* wakeup, runnable: moved to another CPU in the wait */
	bool woken;			/* (placed as it woke), else pushed or pulled; */
	int move_from, move_to;		/* the last move */
	uint64_t move_ts;
	bool boosted;			/* wakeup, runnable: a PI boost raised it in the wait, */
	uint64_t boost_ts;		/* then */
	uint64_t runnable_since;	/* boost: when its wait for a CPU began (holder, limit and */
};					/* moves are of that whole wait) */

#endif
