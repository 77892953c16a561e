// SPDX-License-Identifier: GPL-2.0-only
/*
 * From scheduler events to what the article found by zooming into
 * KernelShark: why each thread migrated, who preempted it, how long it
 * waited to run.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace/internal/walk_state.h"

const char *const trace_event_names[TRACE_EV_TYPES] = {
	[TRACE_EV_SWITCH] = "sched_switch",   [TRACE_EV_WAKING] = "sched_waking",
	[TRACE_EV_WAKEUP] = "sched_wakeup",   [TRACE_EV_MIGRATE] = "sched_migrate_task",
	[TRACE_EV_PI] = "sched_pi_setprio",
};

const char *const trace_wait_names[TRACE_WAITS] = {
	[TRACE_WAIT_PLACEMENT] = "placement", [TRACE_WAIT_WAKEUP] = "wakeup",
	[TRACE_WAIT_BOOST] = "boost", [TRACE_WAIT_RUNNABLE] = "runnable",
};

/* The kind of wait the first @len characters of @name name, or -1. */
int trace_wait_kind_of(const char *name, size_t len)
{
	int k;

	for (k = 0; k < TRACE_WAITS; k++) {
		if (strlen(trace_wait_names[k]) == len && !strncmp(name, trace_wait_names[k], len))
			return k;
	}
	return -1;
}

#define MAX_CPUS TRACE_WALK_MAX_CPUS
/* The kernels' default limit, 50 ms of a second: what bounds a stretch when nothing else is said */
#define DEFAULT_LIMIT_NS 50000000ULL
#define PRIO_UNSAID INT32_MIN	/* an event that does not say the current task's priority */

/**
 * trace_task_init - a thread to analyse, counting events in [@win_start, @win_end]
 */
void trace_task_init(struct trace_task *t, pid_t tid, uint64_t win_start, uint64_t win_end)
{
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->win_start = win_start;
	t->win_end = win_end;
	rt_hist_init(&t->wakeup_latency);
	rt_hist_init(&t->boost_latency);
	rt_hist_init(&t->place.wait);
	t->affinity_known = false;
	t->state = T_SLEEPING;
	t->cpu = -1;
	t->prio_now = -1;
	t->claim = -1;
	t->span_cpu = -1;
	t->wait_holder = -1;
	t->wait_limit = -1;
}

/* @t starts to wait for a CPU: nothing has held it from @t yet. */
static void wait_begins(struct trace_task *t)
{
	t->wait_holder = -1;
	t->wait_holder_prio = -1;
	t->wait_held_ns = 0;
	t->wait_limited_ns = 0;
	t->wait_limit = -1;
	t->wait_moves = 0;
}

/**
 * trace_task_affinity - the CPUs @t may run on, for placement (NULL:
 * not known, the default: a trace does not carry it, and then only the CPU
 * it waits on counts)
 */
void trace_task_affinity(struct trace_task *t, const cpu_set_t *cpus)
{
	t->affinity_known = cpus != NULL;
	if (cpus)
		t->affinity = *cpus;
}

/* The walk's tasks by thread id, then by their place among the tasks. */
static int by_tid(const void *a, const void *b)
{
	const struct trace_walk_tid *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* The task of thread @pid (the first of that id), or NULL: a binary search, hundreds of tasks at 64 CPUs. */
static struct trace_task *find(const struct trace_sched_walk *w, int32_t pid)
{
	size_t lo = 0, hi = w->ntasks;

	if (pid <= 0)
		return NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (w->by_tid[mid].tid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < w->ntasks && w->by_tid[lo].tid == pid ? &w->tasks[w->by_tid[lo].i] : NULL;
}

static int inside(const struct trace_task *t, uint64_t ts)
{
	return ts >= t->win_start && ts <= t->win_end;
}

/*
 * @t leaves its CPU; preempted, it is counted against who took the CPU,
 * unless the kernel's limit took it (counted when its kind is known).
 */
static void switch_out(struct trace_sched_walk *w, struct trace_task *t, const struct trace_event *e,
		       bool limit)
{
	enum trace_preemptor by;

	if (inside(t, e->ts))
		t->switches_out++;
	t->prio_now = e->prio;
	t->boost_waiting = false;
	if (!TRACE_EV_RUNNABLE(e->arg)) {
		t->state = T_SLEEPING;
		return;
	}
	t->state = T_PREEMPTED;
	t->since = e->ts;
	wait_begins(t);
	if (!inside(t, e->ts) || limit)
		return;
	if (find(w, e->pid2))
		by = TRACE_BY_BENCH;
	else
		by = w->classify && e->pid2 ? w->classify(e->pid2, w->ctx) : TRACE_BY_OTHER;
	t->preempted[by]++;
}

/* A wait of @t ends with its switch in @e: told to the walk's watcher, if any. */
static void waited(const struct trace_sched_walk *w, const struct trace_task *t,
		   const struct trace_event *e, enum trace_wait_kind kind, uint64_t since, int limit)
{
	struct trace_wait wait = { .kind = kind, .tid = t->tid, .prio = e->prio2,
				   /* from the window's start at the earliest */
				   .start = since > t->win_start ? since : t->win_start,
				   .end = e->ts, .cpu = e->cpu, .holder = t->wait_holder,
				   .holder_prio = t->wait_holder_prio, .held_ns = t->wait_held_ns,
				   .limit = t->wait_limit, .limited_ns = t->wait_limited_ns };

	wait.moves = t->wait_moves;
	wait.woken = t->state == T_WAKING;
	wait.move_from = t->wait_move_from;
	wait.move_to = t->wait_move_to;
	wait.move_ts = t->wait_move_ts;
	wait.boosted = kind != TRACE_WAIT_BOOST && t->boost_waiting;
	wait.boost_ts = t->boost_since;
	wait.runnable_since = t->since;
	if (!t->wait_held_ns) {
		/* nothing known of the time before: the task it was switched from */
		wait.holder = e->pid;
		wait.holder_prio = e->pid ? e->prio : TRACE_PRIO_IDLE;
		wait.limit = limit;
	}
	if (w->wait_fn)
		w->wait_fn(&wait, w->wait_ctx);
}

/* @t runs: its waits end (@limit: the kind of the limit that held the CPU until now, or -1). */
static void switch_in(const struct trace_sched_walk *w, struct trace_task *t,
		      const struct trace_event *e, int limit)
{
	if (inside(t, e->ts)) {
		t->switches_in++;
		if (t->state == T_WAKING) {
			rt_hist_add(&t->wakeup_latency, e->ts - t->since);
			t->runnable_ns += e->ts - t->since;
			waited(w, t, e, TRACE_WAIT_WAKEUP, t->since, limit);
		} else if (t->state == T_PREEMPTED) {
			t->runnable_ns += e->ts - t->since;
		}
		if (t->state == T_WAKING || t->state == T_PREEMPTED)
			waited(w, t, e, TRACE_WAIT_RUNNABLE, t->since, limit);
		if (t->boost_waiting) {
			rt_hist_add(&t->boost_latency, e->ts - t->boost_since);
			waited(w, t, e, TRACE_WAIT_BOOST, t->boost_since, limit);
		}
	}
	t->boost_waiting = false;
	t->state = T_RUNNING;
	t->cpu = e->cpu;
	t->prio_now = e->prio2;
}

/*
 * A migration, by what the thread was doing: being woken (select_task_rq
 * chose another CPU), runnable after a preemption (push or pull), or
 * anything else. A wake-up migration is the commit's case when the CPU it
 * left ran an RT task of lower priority: the waking task could have
 * preempted it and stayed, but was moved; with an RT task of the same
 * priority, it is the article's last case, the PI-boosted lock owner.
 */
static void migrate(struct trace_task *t, const struct trace_event *e, const struct cpu_now *cpus,
		    const struct rt_topology *topo)
{
	int32_t from = (int32_t)e->arg;

	if (inside(t, e->ts)) {
		t->migrations++;
		if (topo)
			t->mig_distance[rt_topology_distance(topo, from, e->arg2)]++;
		if (t->state == T_WAKING) {
			t->mig_wakeup++;
			if (from >= 0 && from < MAX_CPUS && cpus[from].known &&
			    cpus[from].pid != e->pid && TRACE_PRIO_IS_RT(cpus[from].prio)) {
				if (cpus[from].prio > e->prio)
					t->mig_lower_rt++;
				else if (cpus[from].prio == e->prio)
					t->mig_equal_rt++;
			}
		} else if (t->state == T_PREEMPTED) {
			t->mig_runnable++;
		} else {
			t->mig_other++;
		}
	}
	if (t->state == T_WAKING || t->state == T_PREEMPTED) {
		/* placed as it woke, or pushed or pulled while it waited */
		t->wait_moves++;
		t->wait_move_from = from;
		t->wait_move_to = e->arg2;
		t->wait_move_ts = e->ts;
	}
	t->cpu = e->arg2;
	t->prio_now = e->prio;
}

/**
 * trace_sched_walk_topology - the machine the trace is of: each migration is
 * then counted by the distance it crossed (mig_distance)
 */
void trace_sched_walk_topology(struct trace_sched_walk *w, const struct rt_topology *topo)
{
	w->topo = topo;
}

/**
 * trace_sched_walk_new - start a walk that fills @tasks from events fed one by one
 * @classify: names the kind of a preempting task that is not a benchmark
 *            thread (NULL: all are "other")
 *
 * Its memory is fixed: the tasks and a state per CPU, however many events
 * come. The tasks' thread ids are read here, once. Returns NULL when out of
 * memory.
 */
struct trace_sched_walk *trace_sched_walk_new(struct trace_task *tasks, size_t ntasks,
					 trace_preemptor_fn classify, void *ctx)
{
	struct trace_sched_walk *w = calloc(1, sizeof(*w));
	size_t t;
	int i;

	if (!w)
		return NULL;
	w->cpus = calloc(MAX_CPUS, sizeof(*w->cpus));
	w->by_tid = calloc(ntasks ? ntasks : 1, sizeof(*w->by_tid));
	if (!w->cpus || !w->by_tid || ntasks > UINT32_MAX)
		goto fail;
	*w = (struct trace_sched_walk){ .tasks = tasks, .ntasks = ntasks, .classify = classify,
				     .ctx = ctx, .cpus = w->cpus, .by_tid = w->by_tid, .max_cpu = -1,
				     .regime = RT_BW_UNKNOWN, .limit_bound = 2 * DEFAULT_LIMIT_NS };
	for (i = 0; i < MAX_CPUS; i++)
		w->cpus[i].limit.by = -1;
	for (t = 0; t < ntasks; t++)
		w->by_tid[t] = (struct trace_walk_tid){ .tid = tasks[t].tid, .i = (uint32_t)t };
	qsort(w->by_tid, ntasks, sizeof(*w->by_tid), by_tid);
	if (trace_place_init(w))
		goto fail;
	return w;
fail:
	free(w->by_tid);
	free(w->cpus);
	free(w);
	return NULL;
}

/**
 * trace_sched_walk_cpus - fill @cpus (@n of them, zeroed by the caller) with
 * the placement figures per CPU as the walk goes
 */
void trace_sched_walk_cpus(struct trace_sched_walk *w, struct trace_cpu *cpus, size_t n)
{
	w->out = cpus;
	w->nout = n;
}

/**
 * trace_sched_walk_regime - the kernel's RT bandwidth limits, as the regime
 * @regime (the default: unknown, which is read as both) with @limit_ns the
 * longest of them (0: the kernels' default, 50 ms): a stretch of them
 * ends at twice that at the latest
 */
void trace_sched_walk_regime(struct trace_sched_walk *w, enum rt_bw_regime regime, uint64_t limit_ns)
{
	w->regime = regime;
	w->limit_bound = 2 * (limit_ns ? limit_ns : DEFAULT_LIMIT_NS);
}

/**
 * trace_sched_walk_spans - have @fn told of each span of placement waiting
 * (trace_placement) as it ends, with @ctx
 */
void trace_sched_walk_spans(struct trace_sched_walk *w, trace_span_fn fn, void *ctx)
{
	w->span_fn = fn;
	w->span_ctx = ctx;
}

/**
 * trace_sched_walk_waits - have @fn told of each wait (struct trace_wait)
 * of every kind as it ends, with @ctx
 */
void trace_sched_walk_waits(struct trace_sched_walk *w, trace_wait_fn fn, void *ctx)
{
	w->wait_fn = fn;
	w->wait_ctx = ctx;
}

/* The kind of the limit holding @cpu now, -1 none. */
static int limit_now(const struct trace_sched_walk *w, int cpu)
{
	const struct cpu_limit *l = &w->cpus[cpu].limit;

	if (!l->on)
		return -1;
	return l->decided ? (int)l->kind : w->regime == RT_BW_THROTTLING ? TRACE_LIMIT_THROTTLED :
	       w->regime == RT_BW_FAIR_SERVER ? TRACE_LIMIT_FAIR_SERVER : TRACE_LIMIT_EITHER;
}

/*
 * The task switched out in @e held its CPU from its switch in to now: the
 * waiters for that CPU learn who held it longest in their wait, and how
 * long the kernel's limit held it.
 */
static void held_by(struct trace_sched_walk *w, const struct trace_event *e)
{
	const struct cpu_now *now = &w->cpus[e->cpu];
	int limit = limit_now(w, e->cpu);
	size_t k;

	if (!now->known)
		return;
	for (k = 0; k < w->norder; k++) {
		struct trace_task *t = &w->tasks[w->order[k]];
		uint64_t from = t->since > now->since ? t->since : now->since;
		uint64_t ns = e->ts > from ? e->ts - from : 0;

		if (t->cpu != e->cpu || t->tid == e->pid || !ns ||
		    (t->state != T_WAKING && t->state != T_PREEMPTED))
			continue;
		/* the longest holder so far holding it again adds up (A, a kthread, A again) */
		if (e->pid == t->wait_holder) {
			t->wait_held_ns += ns;
		} else if (ns > t->wait_held_ns) {
			t->wait_held_ns = ns;
			t->wait_holder = e->pid;
			t->wait_holder_prio = e->pid ? e->prio : TRACE_PRIO_IDLE;
		}
		/* the limit runs tasks below RT (a task's class can change unseen) */
		if (limit >= 0 && (e->pid == 0 || e->prio >= TRACE_PRIO_RT_MAX)) {
			t->wait_limited_ns += ns;
			t->wait_limit = limit;
		}
	}
}

/*
 * @pid was current on @cpu when an event was recorded there (@prio its
 * priority, PRIO_UNSAID if the event does not say): what the switches
 * recorded there said, or a switch was left out.
 */
static void seen_current(struct trace_sched_walk *w, int cpu, int32_t pid, int32_t prio)
{
	struct cpu_now *now = &w->cpus[cpu];
	struct trace_task *t;

	if (cpu > w->max_cpu)
		w->max_cpu = cpu;
	if (now->known && now->pid == pid) {
		trace_place_confirm(w, cpu);
		return;
	}
	trace_place_take_back_cpu(w, cpu);
	t = find(w, pid);
	if (t && t->state != T_RUNNING) {
		/* it runs: the switch to it was left out */
		trace_place_take_back_task(w, (size_t)(t - w->tasks));
		t->state = T_RUNNING;
		t->cpu = cpu;
	}
	if (prio == PRIO_UNSAID && t && t->prio_now >= 0)
		prio = t->prio_now;
	if (pid == 0)
		prio = TRACE_PRIO_IDLE;
	now->pid = pid;
	now->prio = prio;
	now->known = prio != PRIO_UNSAID;
	now->claimed = false;
	now->since = w->last_ts;
}

/*
 * Whether @e leaves a runnable RT task for a lower priority, or idle: only
 * the kernel's RT bandwidth limits do that, whoever runs next (a higher
 * class, the stopper or a deadline task, preempts as a higher priority).
 */
static bool limit_switch(const struct trace_sched_walk *w, const struct trace_event *e)
{
	int next = e->pid2 == 0 ? TRACE_PRIO_IDLE : e->prio2;

	return w->regime != RT_BW_NEITHER && TRACE_PRIO_IS_RT(e->prio) && TRACE_EV_RUNNABLE(e->arg) &&
	       next > e->prio;
}

/*
 * A switch on a CPU: what runs there now, and the stretch of the kernel's
 * limit there. An RT task running ends it (not the stopper, not a deadline
 * task: they run above a throttled RT class). Idle decides it: the fair
 * server never idles a CPU, so on a kernel with both limits it is RT
 * throttling, and under the fair server alone the server has stopped.
 */
static void switched(struct trace_sched_walk *w, const struct trace_event *e, bool limit, int by, bool count)
{
	struct cpu_now *now = &w->cpus[e->cpu];

	now->pid = e->pid2;
	now->prio = e->pid2 == 0 ? TRACE_PRIO_IDLE : e->prio2;
	now->known = true;
	now->claimed = false;
	now->since = e->ts;
	if (limit) {
		trace_limit_begin(w, e->cpu, e->ts, by, count);
	} else if (now->limit.on && TRACE_PRIO_IS_RT(e->prio2) && e->pid2) {
		trace_limit_end(w, e->cpu);
		return;
	}
	if (now->limit.on && e->pid2 == 0) {
		if (w->regime == RT_BW_FAIR_SERVER)
			trace_limit_end(w, e->cpu);
		else
			trace_limit_decide(w, e->cpu, TRACE_LIMIT_THROTTLED);
	}
}

/*
 * Stretches of the limit that outlast their bound end there: the time up
 * to it is the limit's, the rest the CPU's own.
 */
static int expire_limits(struct trace_sched_walk *w, uint64_t ts)
{
	for (;;) {
		uint64_t first = UINT64_MAX;
		int c, at = -1, ret;

		for (c = 0; c <= w->max_cpu; c++) {
			const struct cpu_limit *l = &w->cpus[c].limit;

			if (l->on && l->since <= UINT64_MAX - w->limit_bound &&
			    l->since + w->limit_bound < first) {
				first = l->since + w->limit_bound;
				at = c;
			}
		}
		if (at < 0 || first >= ts)
			return 0;
		trace_place_advance(w, first);
		w->last_ts = first;
		trace_limit_end(w, at);
		ret = trace_place_claim(w, first);
		if (ret)
			return ret;
	}
}

/**
 * trace_sched_walk_feed - one more event, later than (or as late as) the last
 *
 * Each task's figures count only events inside its window; states are
 * followed throughout. A CPU's current task is the last one a recorded
 * sched_switch put there.
 *
 * Returns 0, or -EINVAL for an event earlier than the last (nothing is
 * counted of it).
 */
int trace_sched_walk_feed(struct trace_sched_walk *w, const struct trace_event *e)
{
	struct trace_task *t, *tasks = w->tasks;
	bool on_cpu = e->cpu >= 0 && e->cpu < MAX_CPUS;
	struct cpu_now *cpus = w->cpus;
	bool limit;
	int c, ret, held;

	if (e->ts < w->last_ts)
		return -EINVAL;
	ret = expire_limits(w, e->ts);
	if (ret)
		return ret;
	trace_place_advance(w, e->ts);
	w->last_ts = e->ts;
	if (on_cpu && e->type == TRACE_EV_SWITCH)
		seen_current(w, e->cpu, e->pid, e->prio);
	else if (on_cpu && e->has_cur && e->cur >= 0)
		seen_current(w, e->cpu, e->cur, PRIO_UNSAID);
	switch (e->type) {
	case TRACE_EV_SWITCH:
		limit = on_cpu && limit_switch(w, e);
		held = on_cpu ? limit_now(w, e->cpu) : -1;
		if (on_cpu && w->wait_fn)
			held_by(w, e);
		t = find(w, e->pid);
		if (t)
			switch_out(w, t, e, limit);
		if (on_cpu)
			switched(w, e, limit, t ? (int)(t - tasks) : -1, t && inside(t, e->ts));
		t = find(w, e->pid2);
		if (t) {
			/* its wait ended here, as recorded: the wait stands on its side */
			trace_place_task_confirm(w, (size_t)(t - tasks));
			switch_in(w, t, e, held);
		}
		break;
	case TRACE_EV_WAKING:
		t = find(w, e->pid);
		if (t && t->state == T_SLEEPING) {
			t->state = T_WAKING;
			t->since = e->ts;
			wait_begins(t);
			t->wakeups += inside(t, e->ts);
			/* its CPU as it wakes; a migration or the wake-up says where it goes */
			if (e->arg >= 0 && e->arg < MAX_CPUS)
				t->cpu = (int)e->arg;
		}
		if (t)
			t->prio_now = e->prio;
		break;
	case TRACE_EV_WAKEUP:
		/* where it was put: the CPU it waits on */
		t = find(w, e->pid);
		if (t && t->state == T_WAKING && e->arg >= 0 && e->arg < MAX_CPUS)
			t->cpu = (int)e->arg;
		break;
	case TRACE_EV_MIGRATE:
		t = find(w, e->pid);
		if (t)
			migrate(t, e, cpus, w->topo);
		break;
	case TRACE_EV_PI:
		t = find(w, e->pid);
		if (t && e->prio2 < e->prio && inside(t, e->ts)) {
			t->pi_boosts++;
			/* raised while it waits for a CPU: how long until it has one */
			if ((t->state == T_PREEMPTED || t->state == T_WAKING) && !t->boost_waiting) {
				t->boost_waiting = true;
				t->boost_since = e->ts;
			}
		}
		if (t)
			t->prio_now = e->prio2;
		/* a running owner boosted (or unboosted) runs at its new priority */
		for (c = 0; c <= w->max_cpu; c++) {
			if (cpus[c].known && cpus[c].pid == e->pid)
				cpus[c].prio = e->prio2;
		}
		break;
	default:
		break;
	}
	/* the event's task may wait now: the only one that can start to */
	trace_place_touch(w, find(w, e->pid));
	return trace_place_claim(w, e->ts);
}

/* The end of a walk: the spans still open end, its memory goes, the tasks keep their figures. */
void trace_sched_walk_free(struct trace_sched_walk *w)
{
	int c;

	if (!w)
		return;
	for (c = 0; c <= w->max_cpu; c++)
		trace_limit_end(w, c);
	trace_place_end(w);
	trace_place_free(w);
	free(w->by_tid);
	free(w->cpus);
	free(w);
}

/**
 * trace_sched_analyse - walk the @n events of @ev (in time order) and fill @tasks
 *
 * trace_sched_walk_feed() says what counts. Returns 0, -EINVAL for events out
 * of time order, -ENOMEM.
 */
int trace_sched_analyse(const struct trace_event *ev, size_t n, struct trace_task *tasks, size_t ntasks,
			trace_preemptor_fn classify, void *ctx)
{
	struct trace_sched_walk *w = trace_sched_walk_new(tasks, ntasks, classify, ctx);
	size_t i;
	int ret = 0;

	if (!w)
		return -ENOMEM;
	for (i = 0; i < n && !ret; i++)
		ret = trace_sched_walk_feed(w, &ev[i]);
	trace_sched_walk_free(w);
	return ret;
}
