// SPDX-License-Identifier: GPL-2.0-only
/*
 * contention, the commit's test: twice as many threads as CPUs, one lock per
 * CPU, every thread takes every lock in order until the duration ends.
 * Thread id holds a lock for (nr_threads - id + 1) units of busy work and
 * sleeps id units after releasing it: the higher the priority, the shorter
 * the hold and the longer the sleep, as with most RT tasks.
 */
#include <stdio.h>

#include "migrate.h"
#include "rt_clock.h"

#define DEFAULT_DURATION_NS (10 * RT_NSEC_PER_SEC)

static int contention_configure(struct mig_cfg *cfg, int ncpus, char *err, size_t len)
{
	if (cfg->set_loops) {
		snprintf(err, len,
			 "--loops applies to --mode lockstep and paired; contention runs for "
			 "--duration");
		return -1;
	}
	if (!cfg->set_threads)
		cfg->nr_threads = 2 * ncpus;
	if (!cfg->set_locks)
		cfg->nr_locks = ncpus;
	if (!cfg->set_duration)
		cfg->duration_ns = DEFAULT_DURATION_NS;
	return 0;
}

/*
 * After the stop flag each thread finishes the step it is in: at worst it
 * waits for every other thread to hold the lock it wants.
 */
static int64_t contention_worst_case_ns(const struct mig_cfg *cfg)
{
	int64_t n = cfg->nr_threads;

	/* at most 24 h + 98 x 99 x 2 x 1 s: no overflow */
	return cfg->duration_ns + mig_mul_sat(n, n + 1, 2, cfg->unit_ns);
}

static int contention_body(struct mig_run *run, struct mig_thread *t)
{
	const struct mig_cfg *cfg = run->cfg;
	uint64_t hold = (uint64_t)(cfg->nr_threads - t->id + 1), sleep = (uint64_t)t->id;
	uint64_t iter;
	int l, ret;

	for (iter = 0;; iter++) {
		for (l = 0; l < cfg->nr_locks; l++) {
			/* a pass cut short by the end of the run is not counted */
			if (mig_stopping(t))
				return 0;
			ret = mig_take(run, t, iter, l, hold);
			if (!ret)
				ret = mig_sleep(run, t, iter, sleep);
			if (ret)
				return ret;
		}
		mig_iteration_done(t);
	}
}

const struct mig_mode mig_contention = {
	.name = "contention",
	.timed = true,
	.summary = "2 x CPUs threads take every lock; thread id holds nr-id+1 units, sleeps id",
	.configure = contention_configure,
	.worst_case_ns = contention_worst_case_ns,
	.body = contention_body,
};
