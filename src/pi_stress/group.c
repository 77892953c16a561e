// SPDX-License-Identifier: GPL-2.0-only
/*
 * The three threads of an inversion group and the pass they go through
 * together.
 */
#include <errno.h>
#include <sched.h>

#include "pi_stress/pi_stress.h"
#include "lib/clock.h"
#include "lib/sched.h"
#include "lib/sync.h"

static int fail(struct pis_thread *t, const char *what, int err)
{
	return bench_thread_fail(&t->bt, what, err);
}

static int meet(struct pis_thread *t, pthread_barrier_t *b)
{
	int ret = rt_barrier_wait(b);

	return ret ? fail(t, "pthread_barrier_wait", ret) : 0;
}

/* Low: holds the mutex into the inversion, releases it once it can run. */
static int low_pass(struct pis_thread *t, struct pis_group *g, uint64_t pass)
{
	int ret;

	/*
	 * Low is the last to reach every barrier, so it never blocks; and
	 * SCHED_FIFO keeps a preempted thread at the head of its priority's
	 * list. On a CPU shared by groups (-u) one low would then keep every
	 * other group's low from running at all. Yielding sends it to the tail
	 * (and costs a system call and nothing else when it is alone).
	 */
	sched_yield();
	ret = rt_mutex_lock(&g->mutex);
	if (ret)
		return fail(t, "pthread_mutex_lock", ret);
	ret = meet(t, &g->locked);
	if (ret)
		return ret;
	/* Here only if boosted above medium (or medium gave up). */
	if (g->run->cfg->hold_ns)
		bench_thread_busy(&t->bt, &g->run->work, 1);
	atomic_store_explicit(&g->low_pass, pass, memory_order_release);
	ret = rt_mutex_unlock(&g->mutex);
	if (ret)
		return fail(t, "pthread_mutex_unlock", ret);
	return meet(t, &g->done);
}

/*
 * Medium: runnable throughout the inversion and above low. It spins until
 * high has had the mutex, so without inheritance low never runs again and
 * the group stalls until the run is stopped. With inheritance it only runs
 * once high is done: finding high still waiting means low was not above it.
 */
static int medium_pass(struct pis_thread *t, struct pis_group *g, uint64_t pass)
{
	int ret;

	ret = meet(t, &g->locked);
	if (ret)
		return ret;
	if (atomic_load_explicit(&g->high_pass, memory_order_acquire) != pass) {
		g->medium_ran++;
		atomic_store(&g->spinning, true);
	}
	while (atomic_load_explicit(&g->high_pass, memory_order_acquire) != pass) {
		if (bench_thread_stopping(&t->bt)) {
			g->unresolved = true;
			break;
		}
	}
	atomic_store(&g->spinning, false);
	return meet(t, &g->done);
}

/* High: blocks on the mutex low holds; the time it waits is the figure. */
static int high_pass(struct pis_thread *t, struct pis_group *g, uint64_t pass)
{
	const struct pis_cfg *cfg = g->run->cfg;
	int64_t t0, t1;
	bool contended;
	int ret;

	ret = meet(t, &g->locked);
	if (ret)
		return ret;
	contended = atomic_load_explicit(&g->low_pass, memory_order_acquire) != pass;
	t0 = rt_now_ns(CLOCK_MONOTONIC);
	ret = rt_mutex_lock(&g->mutex);
	t1 = rt_now_ns(CLOCK_MONOTONIC);
	if (ret)
		return fail(t, "pthread_mutex_lock", ret);
	atomic_store_explicit(&g->high_pass, pass, memory_order_release);
	ret = rt_mutex_unlock(&g->mutex);
	if (ret)
		return fail(t, "pthread_mutex_unlock", ret);
	rt_hist_add(&g->wait, (uint64_t)(t1 - t0));
	if (!contended)
		g->uncontended++;
	atomic_fetch_add_explicit(&g->progress, 1, memory_order_relaxed);
	/* one decision for the three, published by the barrier */
	g->go_on = !bench_thread_stopping(&t->bt) && (!cfg->inversions || pass < (uint64_t)cfg->inversions);
	return meet(t, &g->done);
}

static int (*const passes[PIS_ROLES])(struct pis_thread *, struct pis_group *, uint64_t) = {
	[PIS_LOW] = low_pass,
	[PIS_MEDIUM] = medium_pass,
	[PIS_HIGH] = high_pass,
};

/**
 * pis_thread_body - one thread of a group: its passes, until high decides
 * they end
 *
 * Passes are numbered from 1 so that 0 in high_pass and low_pass means none.
 */
int pis_thread_body(struct bench_thread *bt)
{
	struct pis_thread *t = container_of(bt, struct pis_thread, bt);
	struct pis_group *g = t->group;
	uint64_t pass;
	int ret;

	for (pass = 1;; pass++) {
		ret = passes[t->role](t, g, pass);
		if (ret)
			return ret;
		/* a pass that only the stop ended was no inversion (read after @done) */
		if (!g->unresolved)
			bench_thread_count(&t->bt);
		if (!g->go_on)
			return 0;
	}
}
