// SPDX-License-Identifier: GPL-2.0-only
/*
 * paired, the article's second try: one lock per CPU and one thread per lock,
 * plus the highest priority thread, which takes every lock in order. Two
 * barriers of count 2 per lock make the lock's owner and the highest thread
 * meet on it: the owner takes the lock and waits on lock_wait; the highest
 * thread arrives, both go, the highest blocks on the lock while the owner
 * does its unit of work; the owner unlocks and both meet again on lock_go.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "migrate/migrate.h"
#include "lib/sync.h"

struct paired {
	pthread_barrier_t *lock_wait;
	pthread_barrier_t *lock_go;
	int nr;		/* barriers initialised in each array */
};

static int paired_configure(struct mig_cfg *cfg, int ncpus, char *err, size_t len)
{
	if (cfg->p.duration_given) {
		snprintf(err, len, "--duration applies to --mode contention; paired runs --loops");
		return -1;
	}
	if (!cfg->set_locks)
		cfg->nr_locks = cfg->set_threads ? cfg->nr_threads - 1 : ncpus;
	if (!cfg->set_threads)
		cfg->nr_threads = cfg->nr_locks + 1;
	if (cfg->nr_locks < 1 || cfg->nr_threads != cfg->nr_locks + 1) {
		snprintf(err, len,
			 "--mode paired needs one thread per lock plus the highest: --threads %d "
			 "with --locks %d does not fit (accepted: --threads = --locks + 1, at "
			 "least 2 threads)",
			 cfg->nr_threads, cfg->nr_locks);
		return -1;
	}
	cfg->p.duration_ns = 0;
	return 0;
}

static int64_t paired_worst_case_ns(const struct mig_cfg *cfg)
{
	return mig_mul_sat(cfg->loops, cfg->nr_locks, 2, cfg->unit_ns);
}

static void paired_teardown(struct mig_run *run)
{
	struct paired *p = run->mode_data;
	int i;

	if (!p)
		return;
	for (i = 0; i < p->nr; i++) {
		rt_barrier_destroy(&p->lock_wait[i]);
		rt_barrier_destroy(&p->lock_go[i]);
	}
	free(p->lock_wait);
	free(p->lock_go);
	free(p);
	run->mode_data = NULL;
}

static int paired_setup(struct mig_run *run)
{
	int n = run->cfg->nr_locks, ret = 0;
	struct paired *p;

	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	run->mode_data = p;
	p->lock_wait = calloc((size_t)n, sizeof(*p->lock_wait));
	p->lock_go = calloc((size_t)n, sizeof(*p->lock_go));
	if (!p->lock_wait || !p->lock_go)
		return -ENOMEM;
	for (; p->nr < n; p->nr++) {
		ret = rt_barrier_init(&p->lock_wait[p->nr], 2);
		if (ret)
			break;
		ret = rt_barrier_init(&p->lock_go[p->nr], 2);
		if (ret) {
			rt_barrier_destroy(&p->lock_wait[p->nr]);
			break;
		}
	}
	return ret;
}

/* The owner of lock @l: thread l. */
static int owner_pass(struct mig_run *run, struct mig_thread *t, struct paired *p, uint64_t iter)
{
	int l = t->id, ret;

	ret = mig_lock(run, t, iter, l);
	if (!ret)
		ret = mig_wait(t, &p->lock_wait[l]);
	if (ret)
		return ret;
	bench_thread_busy(&t->bt, &run->work, 1);
	ret = mig_unlock(run, t, iter, l);
	if (!ret)
		ret = mig_wait(t, &p->lock_go[l]);
	return ret;
}

/* The highest priority thread: every lock, each met with its owner. */
static int highest_pass(struct mig_run *run, struct mig_thread *t, struct paired *p,
			uint64_t iter)
{
	int l, ret;

	for (l = 0; l < run->cfg->nr_locks; l++) {
		ret = mig_wait(t, &p->lock_wait[l]);
		if (!ret)
			ret = mig_take(run, t, iter, l, 1);
		if (!ret)
			ret = mig_wait(t, &p->lock_go[l]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Every thread makes --loops passes and does not look at the stop flag:
 * leaving early would strand its partner on a barrier.
 */
static int paired_body(struct mig_run *run, struct mig_thread *t)
{
	struct paired *p = run->mode_data;
	bool highest = t->id == run->cfg->nr_threads - 1;
	int64_t iter;
	int ret;

	for (iter = 0; iter < run->cfg->loops; iter++) {
		if (highest)
			ret = highest_pass(run, t, p, (uint64_t)iter);
		else
			ret = owner_pass(run, t, p, (uint64_t)iter);
		if (ret)
			return ret;
		mig_iteration_done(t);
	}
	return 0;
}

/* With --locks the threads are locks + 1 whatever the CPUs: no fit. */
static int paired_fit(const struct mig_cfg *cfg, char *why, size_t len)
{
	if (cfg->set_locks) {
		snprintf(why, len, "--locks sets the threads");
		return INT_MAX;
	}
	return cli_fit_one_more(cfg->p.base_prio, why, len);
}

const struct mig_mode mig_paired = {
	.name = "paired",
	.summary = "each lock's owner meets the highest thread on it through two barriers",
	.configure = paired_configure,
	.fit_cpus = paired_fit,
	.worst_case_ns = paired_worst_case_ns,
	.setup = paired_setup,
	.body = paired_body,
	.teardown = paired_teardown,
};
