// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's RT bandwidth limits inside the walk over scheduler events:
 * a stretch per CPU from the switch that left a runnable RT task for a
 * lower one to the next RT task there, its kind decided by the regime (RT
 * throttling, the fair server), and on a kernel with both by whether the
 * CPU idled in it. Until the kind is known, what it took is held.
 */
#include "trace/internal/walk_state.h"

const char *const trace_limit_names[TRACE_LIMITS] = {
	[TRACE_LIMIT_THROTTLED] = "throttled",
	[TRACE_LIMIT_FAIR_SERVER] = "fair_server",
	[TRACE_LIMIT_EITHER] = "throttled_or_fair_server",
};

/* The per-CPU figures of @cpu, or a scratch copy when they are not asked for. */
static uint64_t *cpu_figure(struct trace_sched_walk *w, int cpu, enum trace_limit kind, uint64_t *scratch)
{
	return w->out && (size_t)cpu < w->nout ? &w->out[cpu].limited_ns[kind] : scratch;
}

static void count_preemption(struct trace_sched_walk *w, struct cpu_limit *l)
{
	if (l->by >= 0)
		w->tasks[l->by].preempted[TRACE_BY_THROTTLED + l->kind]++;
	l->by = -1;
}

/**
 * trace_limit_decide - the stretch on @cpu is of @kind: the preemption that
 * began it, and the time held, go to that kind
 */
void trace_limit_decide(struct trace_sched_walk *w, int cpu, enum trace_limit kind)
{
	struct cpu_limit *l = &w->cpus[cpu].limit;
	struct trace_place_pending *row = w->pending[cpu];
	uint64_t scratch = 0;
	size_t i;

	if (!l->on || l->decided)
		return;
	l->decided = true;
	l->kind = kind;
	count_preemption(w, l);
	for (i = 0; row && i < w->ntasks; i++) {
		w->tasks[i].place.limited_ns[kind] += row[i].limited;
		row[i].limited = 0;
	}
	*cpu_figure(w, cpu, kind, &scratch) += l->pending;
	l->pending = 0;
}

/**
 * trace_limit_begin - @cpu left a runnable RT task for a lower one at @ts:
 * the kernel's limit holds it (@by: the task index of the one left, -1
 * another; @count: its preemption counts, inside its window)
 */
void trace_limit_begin(struct trace_sched_walk *w, int cpu, uint64_t ts, int by, bool count)
{
	struct cpu_limit *l = &w->cpus[cpu].limit;

	if (l->on)
		return;
	*l = (struct cpu_limit){ .on = true, .since = ts, .by = count ? by : -1 };
	if (w->regime == RT_BW_THROTTLING)
		trace_limit_decide(w, cpu, TRACE_LIMIT_THROTTLED);
	else if (w->regime == RT_BW_FAIR_SERVER)
		trace_limit_decide(w, cpu, TRACE_LIMIT_FAIR_SERVER);
}

/**
 * trace_limit_end - the stretch on @cpu is over; undecided, it was one of the
 * two limits, which the events cannot tell
 */
void trace_limit_end(struct trace_sched_walk *w, int cpu)
{
	struct cpu_limit *l = &w->cpus[cpu].limit;

	if (!l->on)
		return;
	trace_limit_decide(w, cpu, TRACE_LIMIT_EITHER);
	*l = (struct cpu_limit){ .by = -1 };
}
