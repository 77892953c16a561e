// SPDX-License-Identifier: GPL-2.0-only
/*
 * From scheduler events to what the article found by zooming into
 * KernelShark: why each thread migrated, who preempted it, how long it
 * waited to run.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rt_schedan.h"

const char *const rt_sev_names[RT_SEV_TYPES] = {
	[RT_SEV_SWITCH] = "sched_switch",   [RT_SEV_WAKING] = "sched_waking",
	[RT_SEV_WAKEUP] = "sched_wakeup",   [RT_SEV_MIGRATE] = "sched_migrate_task",
	[RT_SEV_PI] = "sched_pi_setprio",
};

enum { T_SLEEPING, T_WAKING, T_RUNNING, T_PREEMPTED };

#define MAX_CPUS 4096

struct cpu_now {
	int32_t pid;		/* the task last switched in, as far as the events show */
	int32_t prio;
	int known;
};

/**
 * rt_sched_task_init - a thread to analyse, counting events in [@win_start, @win_end]
 */
void rt_sched_task_init(struct rt_sched_task *t, pid_t tid, uint64_t win_start, uint64_t win_end)
{
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->win_start = win_start;
	t->win_end = win_end;
	rt_hist_init(&t->wakeup_latency);
	t->state = T_SLEEPING;
	t->cpu = -1;
}

/* The task of @pid among @tasks, by a linear search: a benchmark has tens of threads. */
static struct rt_sched_task *find(struct rt_sched_task *tasks, size_t n, int32_t pid)
{
	size_t i;

	if (pid <= 0)
		return NULL;
	for (i = 0; i < n; i++) {
		if (tasks[i].tid == pid)
			return &tasks[i];
	}
	return NULL;
}

static int inside(const struct rt_sched_task *t, uint64_t ts)
{
	return ts >= t->win_start && ts <= t->win_end;
}

static void switch_out(struct rt_sched_task *t, const struct rt_sev *e, struct rt_sched_task *tasks,
		       size_t n, rt_preemptor_fn classify, void *ctx)
{
	enum rt_preemptor by;

	if (inside(t, e->ts))
		t->switches_out++;
	if (!RT_SEV_RUNNABLE(e->arg)) {
		t->state = T_SLEEPING;
		return;
	}
	t->state = T_PREEMPTED;
	t->since = e->ts;
	if (!inside(t, e->ts))
		return;
	if (find(tasks, n, e->pid2))
		by = RT_BY_BENCH;
	else if (e->pid2 == 0)
		by = RT_BY_IDLE;
	else
		by = classify ? classify(e->pid2, ctx) : RT_BY_OTHER;
	t->preempted[by]++;
}

static void switch_in(struct rt_sched_task *t, const struct rt_sev *e)
{
	if (inside(t, e->ts)) {
		t->switches_in++;
		if (t->state == T_WAKING) {
			rt_hist_add(&t->wakeup_latency, e->ts - t->since);
			t->runnable_ns += e->ts - t->since;
		} else if (t->state == T_PREEMPTED) {
			t->runnable_ns += e->ts - t->since;
		}
	}
	t->state = T_RUNNING;
	t->cpu = e->cpu;
}

/*
 * A migration, by what the thread was doing: being woken (select_task_rq
 * chose another CPU), runnable after a preemption (push or pull), or
 * anything else. A wake-up migration is the commit's case when the CPU it
 * left ran an RT task of lower priority: the waking task could have
 * preempted it and stayed, but was moved; with an RT task of the same
 * priority, it is the article's last case, the PI-boosted lock owner.
 */
static void migrate(struct rt_sched_task *t, const struct rt_sev *e, const struct cpu_now *cpus)
{
	int32_t from = (int32_t)e->arg;

	if (inside(t, e->ts)) {
		t->migrations++;
		if (t->state == T_WAKING) {
			t->mig_wakeup++;
			if (from >= 0 && from < MAX_CPUS && cpus[from].known &&
			    cpus[from].pid != e->pid && cpus[from].prio < RT_PRIO_RT_MAX) {
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
	t->cpu = e->arg2;
}

/* A walk over a stream of events: the tasks, what each CPU runs, the last time. */
struct rt_sched_walk {
	struct rt_sched_task *tasks;
	size_t ntasks;
	rt_preemptor_fn classify;
	void *ctx;
	struct cpu_now *cpus;	/* MAX_CPUS of them */
	int max_cpu;
	uint64_t last_ts;
};

/**
 * rt_sched_walk_new - start a walk that fills @tasks from events fed one by one
 * @classify: names the kind of a preempting task that is not a benchmark
 *            thread (NULL: all are "other")
 *
 * Its memory is fixed: the tasks and a state per CPU, however many events
 * come. Returns NULL when out of memory.
 */
struct rt_sched_walk *rt_sched_walk_new(struct rt_sched_task *tasks, size_t ntasks,
					 rt_preemptor_fn classify, void *ctx)
{
	struct rt_sched_walk *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->cpus = calloc(MAX_CPUS, sizeof(*w->cpus));
	if (!w->cpus) {
		free(w);
		return NULL;
	}
	*w = (struct rt_sched_walk){ tasks, ntasks, classify, ctx, w->cpus, -1, 0 };
	return w;
}

/**
 * rt_sched_walk_feed - one more event, later than (or as late as) the last
 *
 * Each task's figures count only events inside its window; states are
 * followed throughout. A CPU's current task is the last one a recorded
 * sched_switch put there.
 *
 * Returns 0, or -EINVAL for an event earlier than the last (nothing is
 * counted of it).
 */
int rt_sched_walk_feed(struct rt_sched_walk *w, const struct rt_sev *e)
{
	struct rt_sched_task *t, *tasks = w->tasks;
	size_t ntasks = w->ntasks;
	struct cpu_now *cpus = w->cpus;
	int c;

	if (e->ts < w->last_ts)
		return -EINVAL;
	w->last_ts = e->ts;
	switch (e->type) {
	case RT_SEV_SWITCH:
		t = find(tasks, ntasks, e->pid);
		if (t)
			switch_out(t, e, tasks, ntasks, w->classify, w->ctx);
		t = find(tasks, ntasks, e->pid2);
		if (t)
			switch_in(t, e);
		if (e->cpu >= 0 && e->cpu < MAX_CPUS) {
			cpus[e->cpu] = (struct cpu_now){ e->pid2, e->prio2, 1 };
			w->max_cpu = e->cpu > w->max_cpu ? e->cpu : w->max_cpu;
		}
		break;
	case RT_SEV_WAKING:
		t = find(tasks, ntasks, e->pid);
		if (t && t->state == T_SLEEPING) {
			t->state = T_WAKING;
			t->since = e->ts;
			t->wakeups += inside(t, e->ts);
		}
		break;
	case RT_SEV_MIGRATE:
		t = find(tasks, ntasks, e->pid);
		if (t)
			migrate(t, e, cpus);
		break;
	case RT_SEV_PI:
		t = find(tasks, ntasks, e->pid);
		if (t && e->prio2 < e->prio && inside(t, e->ts))
			t->pi_boosts++;
		/* a running owner boosted (or unboosted) runs at its new priority */
		for (c = 0; c <= w->max_cpu; c++) {
			if (cpus[c].known && cpus[c].pid == e->pid)
				cpus[c].prio = e->prio2;
		}
		break;
	default:
		break;
	}
	return 0;
}

/* The end of a walk: its memory goes, the tasks keep their figures. */
void rt_sched_walk_free(struct rt_sched_walk *w)
{
	if (w)
		free(w->cpus);
	free(w);
}

/**
 * rt_sched_analyse - walk the @n events of @ev (in time order) and fill @tasks
 *
 * rt_sched_walk_feed() says what counts. Returns 0, -EINVAL for events out
 * of time order, -ENOMEM.
 */
int rt_sched_analyse(const struct rt_sev *ev, size_t n, struct rt_sched_task *tasks, size_t ntasks,
		     rt_preemptor_fn classify, void *ctx)
{
	struct rt_sched_walk *w = rt_sched_walk_new(tasks, ntasks, classify, ctx);
	size_t i;
	int ret = 0;

	if (!w)
		return -ENOMEM;
	for (i = 0; i < n && !ret; i++)
		ret = rt_sched_walk_feed(w, &ev[i]);
	rt_sched_walk_free(w);
	return ret;
}
