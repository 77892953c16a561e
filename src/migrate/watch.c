// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the driver's watchdog (src/bench/watch.c, a SCHED_OTHER watcher
 * thread) makes of a migrate run: stuck when no thread has done a lock step
 * for a stall window, or past the worst case; and the thread the others
 * wait for, named.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>

#include "migrate/migrate.h"
#include "lib/clock.h"


/**
 * mig_stall_ns - how long without a lock step means the run is stuck
 *
 * Between two steps of the run as a whole there is at most one hold and one
 * sleep, each under nr_threads + 1 units; twice that on top of 5 s.
 */
int64_t mig_stall_ns(const struct mig_cfg *cfg)
{
	return BENCH_STALL_NS + 2 * (2 * (int64_t)cfg->nr_threads + 2) * cfg->unit_ns;
}

/**
 * mig_pick_stuck - the thread the others wait for: an unfinished one holding
 * a lock and not waiting itself, else one not waiting, else the first
 * unfinished (the run's bench_threads.pick)
 */
size_t mig_pick_stuck(void *ctx)
{
	const struct mig_run *run = ctx;
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
			return (size_t)i;
		}
	}
	return 0;
}

/* The watchdog saw no lock step for @for_ns: thread @i, the one the others wait for, in @err. */
int mig_stalled(void *ctx, size_t i, int64_t for_ns, char *err, size_t len)
{
	const struct mig_run *run = ctx;
	const struct mig_thread *t = &run->threads[i];
	int holds = atomic_load(&t->holds);
	int n;

	n = snprintf(err, len, "watchdog: no lock step for %.1f s: thread %d (tid %d, "
		     "SCHED_FIFO %d) ", (double)for_ns / RT_NSEC_PER_SEC, t->id, (int)t->bt.tid,
		     t->bt.prio);
	if (n > 0 && (size_t)n < len && holds)
		snprintf(err + n, len - (size_t)n,
			 "holds lock %d and does not let go; %llu lock steps done", holds - 1,
			 (unsigned long long)atomic_load(&t->steps));
	else if (n > 0 && (size_t)n < len)
		snprintf(err + n, len - (size_t)n, "is stuck outside the locks; %llu lock steps done",
			 (unsigned long long)atomic_load(&t->steps));
	return -ETIMEDOUT;
}

/* Past the run's worst case: thread @i, the one the others wait for, in @err. */
void mig_late(void *ctx, size_t i, int64_t since_ns, char *err, size_t len)
{
	const struct mig_run *run = ctx;
	const struct mig_thread *t = &run->threads[i];

	snprintf(err, len,
		 "watchdog: thread %d (tid %d, SCHED_FIFO %d) did not finish within %.1f s "
		 "of the start; %llu lock steps done",
		 t->id, (int)t->bt.tid, t->bt.prio, (double)since_ns / RT_NSEC_PER_SEC,
		 (unsigned long long)atomic_load(&t->steps));
}
