// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a command line makes of migrate: the mode it names, each mode's
 * defaults on the CPUs given, the checks of the whole, the trace buffer.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "migrate/migrate.h"
#include "lib/clock.h"
#include "lib/opts.h"
#include "lib/sched.h"

/* threads from base + 0, the coordinator above them: at least one priority */
const struct bench_defaults mig_defaults = {
	.duration_ns = 10 * RT_NSEC_PER_SEC, .base_prio = 1, .min_span = 1,
};

static const struct mig_mode *const modes[] = { &mig_lockstep, &mig_paired, &mig_contention };

/* The mode called @name, or NULL. */
const struct mig_mode *mig_mode_named(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (!strcmp(name, modes[i]->name))
			return modes[i];
	}
	return NULL;
}

/**
 * mig_configure - fill in the mode's defaults for @ncpus CPUs and check the whole
 *
 * Returns 0, or -EINVAL with @err the one line that says what is wrong and
 * what is accepted.
 */
int mig_configure(struct mig_cfg *cfg, int ncpus, char *err, size_t len)
{
	if (cfg->mode->configure(cfg, ncpus, err, len))
		return -EINVAL;
	/* thread id runs at base + id; the coordinating thread at base + nr_threads */
	if (cli_thread_prios(cfg->nr_threads, cfg->p.base_prio, err, len))
		return -EINVAL;
	if (cfg->mode->worst_case_ns(cfg) > MIG_WORST_CASE_MAX) {
		char unit[32];

		rt_format_duration(unit, sizeof(unit), cfg->unit_ns);
		snprintf(err, len,
			 "--loops %lld with --locks %d, --threads %d and --unit %s: a run of --mode "
			 "%s could take longer than %lld years, which no deadline holds; accepted: "
			 "fewer --loops or a shorter --unit",
			 (long long)cfg->loops, cfg->nr_locks, cfg->nr_threads, unit, cfg->mode->name,
			 (long long)(MIG_WORST_CASE_MAX / RT_NSEC_PER_SEC / (365LL * 24 * 3600)));
		return -EINVAL;
	}
	return 0;
}

/**
 * mig_trace_buffer_kb - the trace buffer per CPU without --trace-buffer
 *
 * The recorder drains the buffers while the run goes, but it is of the
 * ordinary class: on CPUs the threads keep busy it runs when RT throttling
 * idles them (50 ms of every second by default). So a CPU's buffer holds
 * two seconds of the events its threads make: about 200 KiB a second per
 * thread (measured: some 3000 events and the markers of the contention
 * test), the threads shared out over the CPUs, whole; and 1 MiB for the
 * rest. At most 1 GiB.
 */
int64_t mig_trace_buffer_kb(const struct mig_cfg *cfg)
{
	int ncpus = rt_cpus_count(cfg->p.cpus);
	int64_t per_cpu = ncpus > 0 ? (cfg->nr_threads + ncpus - 1) / ncpus : cfg->nr_threads;
	int64_t kb = 1024 + per_cpu * 2 * 200;

	return kb > 1024 * 1024 ? 1024 * 1024 : kb;
}

/**
 * mig_trace_run_kb - the trace buffer per CPU for a whole run, which the
 * static programs read after the run
 *
 * About 200 KiB a second per thread, the threads shared out over the CPUs,
 * whole, and 1 MiB for the rest; at most 1 GiB per CPU; 8 MiB for runs of
 * loops.
 */
int64_t mig_trace_run_kb(const struct mig_cfg *cfg)
{
	int ncpus = rt_cpus_count(cfg->p.cpus);
	int64_t per_cpu = ncpus > 0 ? (cfg->nr_threads + ncpus - 1) / ncpus : cfg->nr_threads;
	int64_t kb;

	if (!cfg->mode->timed)
		return 8192;
	kb = 1024 + per_cpu * (cfg->p.duration_ns / RT_NSEC_PER_SEC + 1) * 200;
	return kb > 1024 * 1024 ? 1024 * 1024 : kb;
}
