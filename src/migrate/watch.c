// SPDX-License-Identifier: GPL-2.0-only
/*
 * The progress watchdog of a run: a SCHED_OTHER thread that ends the run
 * when no benchmark thread has done a lock step for a stall window, and
 * names the thread the others wait for.
 *
 * It never preempts a benchmark thread: it runs only where a CPU has no RT
 * work, which is exactly what a stuck run leaves (the others block on the
 * stuck thread's lock or barrier). A thread stuck busy on every CPU starves
 * it; the main thread's deadline (duration or worst case, plus a grace)
 * catches that case.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>

#include "migrate.h"
#include "rt_clock.h"
#include "rt_sched.h"

#define WATCH_PERIOD_NS (RT_NSEC_PER_SEC / 2)
#define WATCH_STALL_NS (5 * RT_NSEC_PER_SEC)
#define WATCH_STACK (64 * 1024)

/**
 * mig_stall_ns - how long without a lock step means the run is stuck
 *
 * Between two steps of the run as a whole there is at most one hold and one
 * sleep, each under nr_threads + 1 units; twice that on top of 5 s.
 */
int64_t mig_stall_ns(const struct mig_cfg *cfg)
{
	return WATCH_STALL_NS + 2 * (2 * (int64_t)cfg->nr_threads + 2) * cfg->unit_ns;
}

static uint64_t progress(const struct mig_run *run)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < run->cfg->nr_threads; i++) {
		sum += atomic_load_explicit(&run->threads[i].steps, memory_order_relaxed);
		sum += atomic_load(&run->threads[i].bt.finished);
	}
	return sum;
}

/**
 * mig_pick_stuck - the thread the others wait for: an unfinished one holding
 * a lock and not waiting itself, else one not waiting, else the first
 * unfinished
 */
int mig_pick_stuck(const struct mig_run *run)
{
	int pass, i;

	for (pass = 0; pass < 3; pass++) {
		for (i = 0; i < run->cfg->nr_threads; i++) {
			const struct mig_thread *t = &run->threads[i];

			if (atomic_load(&t->bt.finished))
				continue;
			if (pass < 2 && atomic_load(&t->bt.waiting))
				continue;
			if (pass == 0 && !atomic_load(&t->holds))
				continue;
			return i;
		}
	}
	return 0;
}

static void *watch_main(void *arg)
{
	struct mig_run *run = arg;
	int64_t window = mig_stall_ns(run->cfg);
	int64_t since = rt_now_ns(CLOCK_MONOTONIC), now;
	uint64_t last = progress(run), p;
	struct timespec ts;

	for (;;) {
		/* sem_timedwait() takes CLOCK_REALTIME; the window is measured on MONOTONIC */
		ts = rt_ns_to_ts(rt_now_ns(CLOCK_REALTIME) + WATCH_PERIOD_NS);
		if (!sem_timedwait(&run->watch_quit, &ts))
			return NULL;
		now = rt_now_ns(CLOCK_MONOTONIC);
		p = progress(run);
		if (p != last) {
			last = p;
			since = now;
			continue;
		}
		if (now - since < window)
			continue;
		run->stall_ns = now - since;
		atomic_store(&run->stalled, mig_pick_stuck(run) + 1);
		sem_post(&run->done);
		return NULL;
	}
}

/**
 * mig_watch_start - start the progress watchdog on @run (its threads started)
 *
 * Returns 0 or a negative errno.
 */
int mig_watch_start(struct mig_run *run)
{
	pthread_attr_t attr;
	int ret;

	if (sem_init(&run->watch_quit, 0, 0))
		return -errno;
	ret = -pthread_attr_init(&attr);
	if (ret)
		return ret;
	ret = -pthread_attr_setstacksize(&attr, WATCH_STACK);
	if (!ret)
		ret = rt_sched_attr_other(&attr);
	if (!ret)
		ret = -pthread_create(&run->watcher, &attr, watch_main, run);
	pthread_attr_destroy(&attr);
	run->watching = !ret;
	return ret;
}

/**
 * mig_watch_stop - stop the watchdog; wait for it unless the run is stuck
 *
 * A stuck run may starve it (it is SCHED_OTHER): then it is left to the
 * process's exit.
 */
void mig_watch_stop(struct mig_run *run, bool wait)
{
	if (!run->watching)
		return;
	sem_post(&run->watch_quit);
	if (wait) {
		pthread_join(run->watcher, NULL);
		sem_destroy(&run->watch_quit);
	}
	run->watching = false;
}
