// SPDX-License-Identifier: GPL-2.0-only
/*
 * Placement quality: how long a real-time thread waited while a CPU it may
 * use ran something less important. The promise of the RT scheduler on SMP
 * is that the highest-priority runnable RT tasks are the ones running; this
 * measures the time that promise was not kept, as the events show it.
 *
 * After every event the waiting threads (woken and not yet running, or
 * preempted and still runnable) claim, in priority order (the longest
 * waiting first among equals), each one CPU of its affinity that runs a
 * task of lower priority than its own, or nothing: the lowest-priority such
 * CPU not claimed yet. Time passes with the claims of the last event. A
 * claim on a CPU the kernel's RT bandwidth limit holds counts apart, by the
 * limit's kind (limit.c). A thread whose affinity is not known (a trace
 * records none) claims only the CPU it waits on.
 *
 * A CPU's state and a thread's come from the switches recorded; some
 * kernels leave switches out (an idle CPU's, on some virtual machines). So
 * time counted stays provisional until both sides confirm it: the CPU's
 * next event says who ran there (its common_pid, a switch's prev_pid), and
 * the thread's wait ends in a recorded switch to it. Another task current
 * on the CPU, or the thread seen running without a switch to it, takes the
 * time back (unseen). The limit's time is not held so: it counts apart anyway.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace/internal/walk_state.h"

/**
 * trace_place_name - the name of @place: "here", or its distance's name
 */
const char *trace_place_name(int place)
{
	return place == TRACE_PLACE_HERE ? "here" : rt_distance_names[place];
}

/**
 * trace_place_init - the walk's memory for placement: the waiters' order and
 * a pending row per CPU, allocated when a CPU is first claimed
 *
 * Returns 0 or -ENOMEM.
 */
int trace_place_init(struct trace_sched_walk *w)
{
	w->pending = calloc(TRACE_WALK_MAX_CPUS, sizeof(*w->pending));
	w->order = calloc(w->ntasks ? w->ntasks : 1, sizeof(*w->order));
	w->listed = calloc(w->ntasks ? w->ntasks : 1, sizeof(*w->listed));
	w->norder = 0;
	if (!w->pending || !w->order || !w->listed) {
		trace_place_free(w);
		return -ENOMEM;
	}
	return 0;
}

void trace_place_free(struct trace_sched_walk *w)
{
	int c;

	for (c = 0; w->pending && c < TRACE_WALK_MAX_CPUS; c++)
		free(w->pending[c]);
	free(w->pending);
	free(w->order);
	free(w->listed);
	w->pending = NULL;
	w->order = NULL;
	w->listed = NULL;
}

/* The per-CPU figures of @cpu, or a scratch copy when they are not asked for. */
static struct trace_cpu *out_of(struct trace_sched_walk *w, int cpu, struct trace_cpu *scratch)
{
	return w->out && (size_t)cpu < w->nout ? &w->out[cpu] : scratch;
}

/* The part of [@from, @to] inside @t's window. */
static uint64_t in_window(const struct trace_task *t, uint64_t from, uint64_t to)
{
	uint64_t lo = from > t->win_start ? from : t->win_start;
	uint64_t hi = to < t->win_end ? to : t->win_end;

	return hi > lo ? hi - lo : 0;
}

/*
 * Where the CPU @t claims is from the CPU it waits on: that CPU (here), else
 * the distance of a move between them; -1 where the topology or the CPU
 * waited on is not known.
 */
static int where(const struct trace_sched_walk *w, const struct trace_task *t)
{
	if (!w->topo || t->cpu < 0)
		return -1;
	if (t->claim == t->cpu)
		return TRACE_PLACE_HERE;
	return (int)rt_topology_distance(w->topo, t->cpu, t->claim);
}

/**
 * trace_place_advance - time passes up to @ts with the claims of the last event
 */
void trace_place_advance(struct trace_sched_walk *w, uint64_t ts)
{
	size_t k;

	/* only the waiters claim: the CPUs they claimed are the ones to clear */
	for (k = 0; k < w->norder; k++)
		if (w->tasks[w->order[k]].claim >= 0)
			w->cpus[w->tasks[w->order[k]].claim].counted = 0;
	for (k = 0; k < w->norder; k++) {
		size_t i = w->order[k];
		struct trace_task *t = &w->tasks[i];
		struct trace_cpu scratch = { 0 }, *o;
		struct cpu_limit *l;
		uint64_t d, cd;

		if (t->claim < 0)
			continue;
		d = in_window(t, w->last_ts, ts);
		if (!d)
			continue;
		o = out_of(w, t->claim, &scratch);
		l = &w->cpus[t->claim].limit;
		/* the CPU's own figure counts its time once, however many wait on it */
		cd = d > w->cpus[t->claim].counted ? d - w->cpus[t->claim].counted : 0;
		w->cpus[t->claim].counted += cd;
		if (l->on && l->decided) {
			t->place.limited_ns[l->kind] += d;
			o->limited_ns[l->kind] += cd;
		} else if (l->on) {
			/* held until the limit's kind is known */
			w->pending[t->claim][i].limited += d;
			l->pending += cd;
		} else {
			struct trace_place_pending *pe = &w->pending[t->claim][i];

			/* the time pending keeps the place it began with, to be taken back from */
			if (!pe->neither && !pe->by_task && !pe->by_cpu)
				pe->place = where(w, t);
			if (pe->place >= 0)
				t->place.by_distance_ns[pe->place] += d;
			pe->neither += d;
			t->place.wait_ns += d;
			t->span_ns += d;
			o->lower_ns += d;
		}
	}
}

/* The CPU ran what the events said: its side of the pending time stands. */
void trace_place_confirm(struct trace_sched_walk *w, int cpu)
{
	struct trace_place_pending *row = w->pending[cpu];
	size_t i;

	for (i = 0; row && i < w->ntasks; i++) {
		row[i].by_cpu += row[i].neither;
		row[i].neither = 0;
		row[i].by_task = 0;	/* both sides now: it stands */
	}
}

/* The task's wait ended in a recorded switch to it: its side stands. */
void trace_place_task_confirm(struct trace_sched_walk *w, size_t i)
{
	int c;

	for (c = 0; c <= w->max_cpu; c++) {
		struct trace_place_pending *p = w->pending[c] ? &w->pending[c][i] : NULL;

		if (!p)
			continue;
		p->by_task += p->neither;
		p->neither = 0;
		p->by_cpu = 0;
	}
}

static void take_back(struct trace_sched_walk *w, int cpu, size_t i, uint64_t d, int place)
{
	struct trace_task *t = &w->tasks[i];
	struct trace_cpu scratch = { 0 }, *o = out_of(w, cpu, &scratch);
	uint64_t *by = place >= 0 ? &t->place.by_distance_ns[place] : NULL;

	t->place.wait_ns -= d;
	if (by)
		*by -= d < *by ? d : *by;
	t->span_ns -= d < t->span_ns ? d : t->span_ns;
	o->lower_ns -= d;
	t->place.unseen_ns += d;
	o->unseen_ns += d;
}

/* What ran on @cpu since its last confirmation is not what the events said. */
void trace_place_take_back_cpu(struct trace_sched_walk *w, int cpu)
{
	struct trace_place_pending *row = w->pending[cpu];
	size_t i;

	for (i = 0; row && i < w->ntasks; i++) {
		if (row[i].neither + row[i].by_task)
			take_back(w, cpu, i, row[i].neither + row[i].by_task, row[i].place);
		row[i].neither = row[i].by_task = 0;
	}
}

/* Task @i ran when the events said it waited: none of its unconfirmed wait stands. */
void trace_place_take_back_task(struct trace_sched_walk *w, size_t i)
{
	int c;

	for (c = 0; c <= w->max_cpu; c++) {
		struct trace_place_pending *p = w->pending[c] ? &w->pending[c][i] : NULL;

		if (!p)
			continue;
		if (p->neither + p->by_cpu)
			take_back(w, c, i, p->neither + p->by_cpu, p->place);
		p->neither = p->by_cpu = 0;
	}
}

/* Runnable, not running, and real-time: the RT scheduler's promise is of RT tasks only. */
static bool waiting(const struct trace_task *t)
{
	return (t->state == T_WAKING || t->state == T_PREEMPTED) && TRACE_PRIO_IS_RT(t->prio_now);
}

static int running_prio(const struct cpu_now *c)
{
	return c->pid == 0 ? TRACE_PRIO_IDLE : c->prio;
}

/*
 * Waiter @t's CPU: unclaimed, in its affinity (where it waits, if that is
 * not known), running a lower priority; the lowest.
 */
static int choose(struct trace_sched_walk *w, const struct trace_task *t)
{
	int c, best = -1, best_prio = 0;
	bool best_limited = true;

	for (c = 0; c <= w->max_cpu && c < CPU_SETSIZE; c++) {
		const struct cpu_now *now = &w->cpus[c];
		int p = running_prio(now);

		if (!now->known || now->claimed || p <= t->prio_now)
			continue;
		if (t->affinity_known ? !CPU_ISSET(c, &t->affinity) : c != t->cpu)
			continue;
		/* one the kernel's limit does not hold first, then the lowest priority */
		if (best < 0 || (best_limited && !now->limit.on) ||
		    (best_limited == now->limit.on && p > best_prio)) {
			best = c;
			best_prio = p;
			best_limited = now->limit.on;
		}
	}
	return best;
}

/*
 * Whether @t waits on a CPU the kernel's RT bandwidth limit holds: then its
 * wait is the limit's, whatever the other CPUs run. With RT throttling the
 * others are often throttled too (one period for all CPUs), which their
 * switches need not show: in a recorded 6.18 trace a CPU sat idle while
 * another's throttled RT threads waited, and took an RT thread the moment
 * the other's throttling ended, twice. And a thread woken on a held CPU
 * stays there: the RT wake-up placement (select_task_rq_rt) moves it only
 * from a CPU running an RT task, and a held CPU runs a fair task or none.
 */
static bool held(const struct trace_sched_walk *w, const struct trace_task *t)
{
	return t->cpu >= 0 && t->cpu <= w->max_cpu && w->cpus[t->cpu].limit.on;
}

static bool before(const struct trace_task *a, const struct trace_task *b)
{
	return a->prio_now < b->prio_now || (a->prio_now == b->prio_now && a->since < b->since);
}

/* A span of the measure ends at @ts: its length goes into the histogram. */
static void end_span(struct trace_sched_walk *w, struct trace_task *t, uint64_t ts)
{
	if (t->misplaced && t->span_ns) {
		t->place.intervals++;
		rt_hist_add(&t->place.wait, t->span_ns);
		if (w->span_fn)
			w->span_fn(t, t->span_start, ts, w->span_ctx);
		if (w->wait_fn) {
			struct trace_wait wait = { .kind = TRACE_WAIT_PLACEMENT, .tid = t->tid,
						   .prio = t->prio_now, .start = t->span_start,
						   .end = ts, .cpu = t->span_cpu,
						   .holder = t->span_holder,
						   .holder_prio = t->span_holder_prio, .limit = -1 };

			w->wait_fn(&wait, w->wait_ctx);
		}
	}
	t->misplaced = false;
	t->span_ns = 0;
}

/* A span begins at @ts: on the CPU @t claims, and what runs there. */
static void start_span(struct trace_sched_walk *w, struct trace_task *t, uint64_t ts)
{
	const struct cpu_now *c = &w->cpus[t->claim];

	t->span_start = ts;
	t->span_cpu = t->claim;
	t->span_holder = c->known ? c->pid : -1;
	t->span_holder_prio = c->known ? c->prio : -1;
}

/**
 * trace_place_touch - @t (or NULL) changed with an event: if it waits now, it
 * joins the waiters (a task starts to wait only with an event of its own)
 */
void trace_place_touch(struct trace_sched_walk *w, const struct trace_task *t)
{
	size_t i;

	if (!t)
		return;
	i = (size_t)(t - w->tasks);
	if (!w->listed[i] && waiting(t)) {
		w->listed[i] = true;
		w->order[w->norder++] = i;
	}
}

/**
 * trace_place_claim - the claims after an event at @ts: each waiter, highest
 * priority first, takes the CPU it waits for
 *
 * Returns 0 or -ENOMEM (a CPU's pending row).
 */
int trace_place_claim(struct trace_sched_walk *w, uint64_t ts)
{
	size_t n = 0, i, k;
	int c;

	/*
	 * The last event's waiters, still waiting, keep their places; those
	 * done waiting leave, their spans ended; the event's task, touched,
	 * joined them if it waits. Work in proportion to the waiters, not to
	 * the run's threads (hundreds at 64 CPUs).
	 */
	for (k = 0; k < w->norder; k++) {
		struct trace_task *t = &w->tasks[w->order[k]];

		if (t->claim >= 0)
			w->cpus[t->claim].claimed = false;
		t->claim = -1;
		if (waiting(t)) {
			w->order[n++] = w->order[k];
			continue;
		}
		if (t->misplaced)
			end_span(w, t, ts);
		w->listed[w->order[k]] = false;
	}
	w->norder = n;
	/* insertion: the order changes little from one event to the next */
	for (i = 1; i < n; i++) {
		size_t moving = w->order[i];

		for (k = i; k > 0 && before(&w->tasks[moving], &w->tasks[w->order[k - 1]]); k--)
			w->order[k] = w->order[k - 1];
		w->order[k] = moving;
	}
	for (k = 0; k < n; k++) {
		struct trace_task *t = &w->tasks[w->order[k]];

		c = held(w, t) ? t->cpu : choose(w, t);
		if (c < 0)
			continue;
		if (!w->pending[c]) {
			w->pending[c] = calloc(w->ntasks, sizeof(**w->pending));
			if (!w->pending[c])
				return -ENOMEM;
		}
		t->claim = c;
		w->cpus[c].claimed |= c != t->cpu || !held(w, t);
	}
	for (k = 0; k < n; k++) {
		struct trace_task *t = &w->tasks[w->order[k]];
		bool now = t->claim >= 0 && !w->cpus[t->claim].limit.on;

		if (t->misplaced && !now)
			end_span(w, t, ts);
		else if (!t->misplaced && now)
			start_span(w, t, ts);
		t->misplaced = now;
	}
	return 0;
}

/* The end of the events: the spans still open end there. */
void trace_place_end(struct trace_sched_walk *w)
{
	size_t i;

	for (i = 0; i < w->ntasks; i++)
		end_span(w, &w->tasks[i], w->last_ts);
}
