// SPDX-License-Identifier: GPL-2.0-only
/*
 * contention, the commit's test: twice as many threads as CPUs, one lock per
 * CPU, every thread takes every lock in order until the duration ends.
 * Thread id holds a lock for (nr_threads - id + 1) units of busy work and
 * sleeps id units after releasing it: the higher the priority, the shorter
 * the hold and the longer the sleep, as with most RT tasks.
 */
#include <stdio.h>

#include "migrate/migrate.h"
#include "lib/clock.h"
#include "lib/sched.h"

/* The default CPUs leave every thread time for this many passes, uncontended. */
#define FIT_PASSES 10

/*
 * The shortest pass of any thread: thread id holds each lock nr - id + 1
 * units and sleeps id units after it, nr + 1 units a lock whatever its id.
 */
static int64_t pass_ns(int64_t locks, int64_t threads, int64_t unit_ns)
{
	return mig_mul_sat(locks, threads + 1, unit_ns, 1);
}

/*
 * The most CPUs the default shape fits: 2 x CPUs threads at distinct
 * priorities from --base-prio, the coordinator above them, and time in the
 * duration for a pass of a lock per CPU (or --locks): FIT_PASSES of them in
 * the default duration, one in a duration given.
 */
static int contention_fit(const struct mig_cfg *cfg, char *why, size_t len)
{
	int64_t dur = cfg->p.duration_given ? cfg->p.duration_ns : mig_defaults.duration_ns;
	int prio = (RT_PRIO_MAX - cfg->p.base_prio) / 2, n = prio;
	int passes = cfg->p.duration_given ? 1 : FIT_PASSES;
	char d[32], u[32];

	while (n > 1 && pass_ns(cfg->set_locks ? cfg->nr_locks : n, 2 * n, cfg->unit_ns) >
			dur / passes)
		n--;
	rt_format_duration(d, sizeof(d), dur);
	rt_format_duration(u, sizeof(u), cfg->unit_ns);
	snprintf(why, len,
		 "the contention shape fits %d: its 2 x CPUs threads at distinct SCHED_FIFO "
		 "priorities from --base-prio %d fit %d CPUs, and a pass takes every thread "
		 "2 x CPUs + 1 units of %s on each lock, of which --duration %s holds %d on "
		 "%d", n, cfg->p.base_prio, prio, u, d, passes, n);
	return n;
}

static int contention_configure(struct mig_cfg *cfg, int ncpus, char *err, size_t len)
{
	if (cfg->set_loops) {
		snprintf(err, len,
			 "--loops applies to --mode lockstep and paired; contention runs for "
			 "--duration");
		return -1;
	}
	if (!cfg->set_threads && cfg->p.base_prio + 2 * ncpus > RT_PRIO_MAX) {
		/* only -c or a high -b gets here: without them the CPUs fit */
		int most = (RT_PRIO_MAX - cfg->p.base_prio) / 2, n;

		n = snprintf(err, len,
			     "the contention shape on %d CPUs needs 2 x %d threads at distinct "
			     "SCHED_FIFO priorities from --base-prio %d, past %d: accepted: ",
			     ncpus, ncpus, cfg->p.base_prio, RT_PRIO_MAX);
		if (most >= 1 && n > 0 && (size_t)n < len)
			n += snprintf(err + n, len - (size_t)n, "--cpus of at most %d CPU%s, ",
				      most, most == 1 ? "" : "s");
		if (RT_PRIO_MAX - 2 * ncpus >= 1 && n > 0 && (size_t)n < len)
			n += snprintf(err + n, len - (size_t)n, "--base-prio up to %d, ",
				      RT_PRIO_MAX - 2 * ncpus);
		if (n > 0 && (size_t)n < len)
			snprintf(err + n, len - (size_t)n, "or --threads up to %d",
				 RT_PRIO_MAX - cfg->p.base_prio);
		return -1;
	}
	if (!cfg->set_threads)
		cfg->nr_threads = 2 * ncpus;
	if (!cfg->set_locks)
		cfg->nr_locks = ncpus;
	if (!cfg->p.duration_given)
		cfg->p.duration_ns = mig_defaults.duration_ns;
	if (pass_ns(cfg->nr_locks, cfg->nr_threads, cfg->unit_ns) > cfg->p.duration_ns) {
		char d[32], p[32], u[32];

		rt_format_duration(d, sizeof(d), cfg->p.duration_ns);
		rt_format_duration(p, sizeof(p), pass_ns(cfg->nr_locks, cfg->nr_threads,
							 cfg->unit_ns));
		rt_format_duration(u, sizeof(u), cfg->unit_ns);
		snprintf(err, len,
			 "--duration %s is shorter than one pass: each of %d threads holds and "
			 "sleeps %d units of %s on each of %d locks, %s in all, so none could "
			 "complete one; accepted: a --duration of at least %s, fewer --locks or "
			 "--threads, or a shorter --unit",
			 d, cfg->nr_threads, cfg->nr_threads + 1, u, cfg->nr_locks, p, p);
		return -1;
	}
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
	return cfg->p.duration_ns + mig_mul_sat(n, n + 1, 2, cfg->unit_ns);
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
	.fit_cpus = contention_fit,
	.worst_case_ns = contention_worst_case_ns,
	.body = contention_body,
};
