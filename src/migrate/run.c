// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every mode's run is made of: lock steps with their trace markers, and
 * the description of its threads, which the driver runs.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "migrate/migrate.h"
#include "lib/clock.h"
#include "lib/cpus.h"
#include "lib/sched.h"
#include "lib/sync.h"
#include "trace/marker.h"

int mig_lock(struct mig_run *run, struct mig_thread *t, uint64_t iter, int lock)
{
	int ret;

	trace_mark("thread %d iter %llu, taking lock %d\n", t->id, (unsigned long long)iter,
		   lock);
	atomic_store_explicit(&t->bt.waiting, true, memory_order_relaxed);
	ret = rt_mutex_lock(&run->locks[lock]);
	atomic_store_explicit(&t->bt.waiting, false, memory_order_relaxed);
	if (ret)
		return bench_thread_fail(&t->bt, "pthread_mutex_lock", ret);
	atomic_store_explicit(&t->holds, lock + 1, memory_order_relaxed);
	trace_mark("thread %d iter %llu, took lock %d\n", t->id, (unsigned long long)iter, lock);
	bench_thread_note_cpu(&t->bt);
	return 0;
}

int mig_unlock(struct mig_run *run, struct mig_thread *t, uint64_t iter, int lock)
{
	int ret;

	trace_mark("thread %d iter %llu, unlock lock %d\n", t->id, (unsigned long long)iter,
		   lock);
	atomic_store_explicit(&t->holds, 0, memory_order_relaxed);
	ret = rt_mutex_unlock(&run->locks[lock]);
	if (ret)
		return bench_thread_fail(&t->bt, "pthread_mutex_unlock", ret);
	atomic_fetch_add_explicit(&t->steps, 1, memory_order_relaxed);
	return 0;
}

/**
 * mig_take - take @lock, do @units of busy work holding it, release it
 *
 * Returns 0 or the negative errno recorded by bench_thread_fail().
 */
int mig_take(struct mig_run *run, struct mig_thread *t, uint64_t iter, int lock, uint64_t units)
{
	int ret = mig_lock(run, t, iter, lock);

	if (ret)
		return ret;
	bench_thread_busy(&t->bt, &run->work, units);
	return mig_unlock(run, t, iter, lock);
}

/**
 * mig_sleep - sleep @units units (none for 0), marking it in the trace
 */
int mig_sleep(struct mig_run *run, struct mig_thread *t, uint64_t iter, uint64_t units)
{
	int ret;

	trace_mark("thread %d iter %llu sleeping\n", t->id, (unsigned long long)iter);
	if (!units)
		return 0;
	ret = rt_sleep_ns((int64_t)units * run->work.unit_ns);
	if (ret)
		return bench_thread_fail(&t->bt, "clock_nanosleep", ret);
	bench_thread_note_cpu(&t->bt);
	return 0;
}

/**
 * mig_wait - wait on barrier @b; Returns 0 or the recorded negative errno
 */
int mig_wait(struct mig_thread *t, pthread_barrier_t *b)
{
	int ret = bench_thread_wait(&t->bt, b);

	if (!ret)
		bench_thread_note_cpu(&t->bt);
	return ret;
}

/* A benchmark thread's work: the mode's body. */
static int thread_body(struct bench_thread *bt)
{
	struct mig_thread *t = container_of(bt, struct mig_thread, bt);

	return t->run->cfg->mode->body(t->run, t);
}

static struct bench_thread *nth_thread(void *ctx, size_t i)
{
	return &((struct mig_run *)ctx)->threads[i].bt;
}

/* The run's state gone (@run, its threads joined or never started). */
static void free_run(struct mig_run *run)
{
	int i;

	if (run->cfg->mode->teardown)
		run->cfg->mode->teardown(run);
	for (i = 0; run->locks && i < run->nr_locks; i++)
		rt_mutex_destroy(&run->locks[i]);
	free(run->locks);
	free(run->threads);
	free(run);
}

/**
 * mig_prepare - set up run @r of b's configuration (locks, the mode's state,
 * in @r->state) and describe its threads in @set: thread id at SCHED_FIFO
 * base + id on the CPUs of -c. The state outlives a run whose threads did
 * not stop.
 *
 * Returns 0 or a negative errno.
 */
int mig_prepare(const struct bench *b, struct bench_run *r, struct bench_threads *set)
{
	const struct mig_cfg *cfg = b->cfg;
	struct mig_run *run = calloc(1, sizeof(*run));
	int i, ret = -ENOMEM;

	if (!run)
		return ret;
	*run = (struct mig_run){ .cfg = cfg, .work = b->work };
	run->threads = calloc((size_t)cfg->nr_threads, sizeof(*run->threads));
	run->locks = calloc((size_t)cfg->nr_locks, sizeof(*run->locks));
	if (run->threads && run->locks) {
		for (ret = 0, i = 0; !ret && i < cfg->nr_locks; i++)
			ret = rt_mutex_init(&run->locks[i], cfg->pi);
		run->nr_locks = i - !!ret;
	}
	if (!ret && cfg->mode->setup)
		ret = cfg->mode->setup(run);
	if (ret) {
		free_run(run);
		return ret;
	}
	r->state = run;
	for (i = 0; i < cfg->nr_threads; i++) {
		struct mig_thread *t = &run->threads[i];

		t->run = run;
		t->id = i;
		t->bt = (struct bench_thread){ .prio = cfg->p.base_prio + i, .cpu = -1,
					       .body = thread_body, .progress = &t->steps };
	}
	*set = (struct bench_threads){
		.nth = nth_thread, .ctx = run,
		.duration_ns = cfg->mode->timed ? cfg->p.duration_ns : 0,
		.limit_ns = cfg->mode->worst_case_ns(cfg) + BENCH_LIMIT_GRACE_NS,
		.signal_grace_ns = BENCH_SIGNAL_GRACE_NS,
		.watch = BENCH_WATCH_THREAD, .stall_ns = mig_stall_ns(cfg),
		.stalled = mig_stalled, .late = mig_late, .pick = mig_pick_stuck,
	};
	return 0;
}

/* Run @r's state, once its threads are joined (or never started). */
void mig_release(const struct bench *b, struct bench_run *r)
{
	(void)b;
	free_run(r->state);
	r->state = NULL;
}
