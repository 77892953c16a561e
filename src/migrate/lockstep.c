// SPDX-License-Identifier: GPL-2.0-only
/*
 * lockstep, the article's first try: one more thread than CPUs, one lock per
 * CPU; every thread takes every lock in order, with one unit of busy work
 * inside, --loops times. The threads fall into step and hardly migrate but
 * for kernel threads that preempt them.
 */
#include <stdio.h>

#include "migrate/migrate.h"

static int lockstep_configure(struct mig_cfg *cfg, int ncpus, char *err, size_t len)
{
	if (cfg->p.duration_given) {
		snprintf(err, len, "--duration applies to --mode contention; lockstep runs --loops");
		return -1;
	}
	if (!cfg->set_threads)
		cfg->nr_threads = ncpus + 1;
	if (!cfg->set_locks)
		cfg->nr_locks = ncpus;
	cfg->p.duration_ns = 0;
	return 0;
}

static int64_t lockstep_worst_case_ns(const struct mig_cfg *cfg)
{
	return mig_mul_sat(cfg->loops, cfg->nr_locks, cfg->nr_threads, cfg->unit_ns);
}

static int lockstep_body(struct mig_run *run, struct mig_thread *t)
{
	int64_t iter;
	int l, ret;

	for (iter = 0; iter < run->cfg->loops; iter++) {
		for (l = 0; l < run->cfg->nr_locks; l++) {
			if (mig_stopping(t))
				return 0;
			ret = mig_take(run, t, (uint64_t)iter, l, 1);
			if (ret)
				return ret;
		}
		mig_iteration_done(t);
	}
	return 0;
}

static int lockstep_fit(const struct mig_cfg *cfg, char *why, size_t len)
{
	return cli_fit_one_more(cfg->p.base_prio, why, len);
}

const struct mig_mode mig_lockstep = {
	.name = "lockstep",
	.summary = "every thread takes every lock in order, 1 unit held, --loops times",
	.configure = lockstep_configure,
	.fit_cpus = lockstep_fit,
	.worst_case_ns = lockstep_worst_case_ns,
	.body = lockstep_body,
};
