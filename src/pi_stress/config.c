// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a command line makes of pi_stress: how many groups fit on the CPUs
 * and where each goes, the defaults, the checks of the whole, the trace buffer.
 */
#include <errno.h>
#include <stdio.h>

#include "pi_stress/pi_stress.h"
#include "lib/clock.h"

/* low, medium and high from base + 0, the coordinator above them */
const struct bench_defaults pis_defaults = {
	.duration_ns = 10 * RT_NSEC_PER_SEC, .base_prio = 1, .min_span = PIS_ROLES,
};

#define MAX_SHARED_GROUPS 64	/* with -u: 192 threads on one CPU */

static int64_t groups_per_cpu(const struct pis_cfg *cfg);

/**
 * pis_group_cpu - the CPU of @group
 *
 * With -u, or with a single CPU, every group shares the first CPU with the
 * coordinating thread; otherwise the coordinator keeps the first CPU and
 * group g runs alone on the (g+1)-th. A coordinator on a housekeeping CPU
 * (cfg->apart) keeps none of them: group g has the g-th. With --spread no
 * group has a CPU of its own: -1, every thread may run on every CPU of the
 * run and the scheduler places them.
 */
int pis_group_cpu(const struct pis_cfg *cfg, int group)
{
	if (cfg->spread)
		return -1;
	if (cfg->apart && !cfg->uniprocessor)
		return rt_cpus_nth(cfg->p.cpus, group);
	if (cfg->uniprocessor || rt_cpus_count(cfg->p.cpus) == 1)
		return rt_cpus_nth(cfg->p.cpus, 0);
	return rt_cpus_nth(cfg->p.cpus, 1 + group);
}

/**
 * pis_group_capacity - how many groups fit on the CPUs, and the sentence
 * that says why, in @why
 */
int pis_group_capacity(const struct pis_cfg *cfg, char *why, size_t len)
{
	int ncpus = rt_cpus_count(cfg->p.cpus);
	char list[256];

	rt_cpus_format(cfg->p.cpus, list, sizeof(list));
	if (cfg->spread) {
		snprintf(why, len, "with --spread the groups share the CPUs (%s)", list);
		return MAX_SHARED_GROUPS;
	}
	if (cfg->uniprocessor) {
		snprintf(why, len, "with -u every group shares one CPU");
		return MAX_SHARED_GROUPS;
	}
	if (cfg->apart) {
		snprintf(why, len, "each group needs a CPU of its own (CPUs %s; the coordinator is "
			 "on housekeeping CPU %d); -u puts every group on one CPU",
			 list, cfg->p.coordinator_cpu);
		return ncpus;
	}
	if (ncpus == 1) {
		snprintf(why, len, "one CPU (%s) holds one group; -u puts more on it", list);
		return 1;
	}
	snprintf(why, len,
		 "each group needs a CPU of its own and CPU %d is kept for the coordinator "
		 "(CPUs %s); -u puts every group on one CPU",
		 rt_cpus_nth(cfg->p.cpus, 0), list);
	return ncpus - 1;
}

/*
 * A group's pass includes its low's hold once boosted, and the boosted lows
 * of the groups that share a CPU run at one priority, first come first
 * served: their holds queue. The watchdog must outlast that queue, with a
 * margin (twice), or it would fail runs in which inheritance worked. Without
 * -w it grows to that; a -w shorter is refused.
 */
static int check_watchdog(struct pis_cfg *cfg, char *err, size_t len)
{
	int64_t k = groups_per_cpu(cfg), need = 2 * k * cfg->hold_ns;
	char wd[32], hold[32], queue[32], min[32];

	cfg->queued_holds = (int)k;
	if (cfg->watchdog_ns >= need)
		return 0;
	if (!cfg->set_watchdog) {
		cfg->watchdog_ns = need;
		cfg->watchdog_grown = true;
		return 0;
	}
	rt_format_duration(wd, sizeof(wd), cfg->watchdog_ns);
	rt_format_duration(hold, sizeof(hold), cfg->hold_ns);
	rt_format_duration(queue, sizeof(queue), k * cfg->hold_ns);
	rt_format_duration(min, sizeof(min), need);
	if (k == 1)
		snprintf(err, len, "invalid --watchdog '%s': a group's pass includes its low's "
			 "--hold %s; accepted: %s or more (twice the hold), or a shorter --hold",
			 wd, hold, min);
	else
		snprintf(err, len, "invalid --watchdog '%s': a group's pass includes its low's "
			 "--hold %s, and the %lld groups on one CPU queue their holds (%s); "
			 "accepted: %s or more (twice that), or fewer groups, a shorter --hold",
			 wd, hold, (long long)k, queue, min);
	return -EINVAL;
}

/**
 * pis_configure - fill in the defaults (groups, duration, the reported
 * waits) and check the whole
 *
 * Returns 0, or -EINVAL with @err the one line that says what is wrong and
 * what is accepted.
 */
int pis_configure(struct pis_cfg *cfg, char *err, size_t len)
{
	char why[400];
	int cap = pis_group_capacity(cfg, why, sizeof(why));

	if (cfg->spread && cfg->uniprocessor) {
		snprintf(err, len, "--spread and -u: -u puts every group on one CPU, --spread "
			 "spreads them over the CPUs; accepted: one of them");
		return -EINVAL;
	}
	if (!cfg->set_groups) {
		/* spread: as many groups as CPUs, so that boosted lows compete for them */
		cfg->nr_groups = cfg->uniprocessor ? 1 :
				 cfg->spread ? rt_cpus_count(cfg->p.cpus) : cap;
	} else if (cfg->nr_groups > cap) {
		snprintf(err, len, "invalid --groups '%d': %s; accepted: 1 to %d", cfg->nr_groups,
			 why, cap);
		return -EINVAL;
	}
	/* without -d: the default duration, or, with -i alone, no limit */
	if (!cfg->p.duration_given)
		cfg->p.duration_ns = cfg->inversions ? 0 : pis_defaults.duration_ns;
	/* without --wait-bound, the waits reported are those 5 ms over low's hold */
	if (!cfg->enforce_bound)
		cfg->wait_bound_ns = cfg->hold_ns + PIS_DEFAULT_REPORT_NS;
	if (cfg->hold_ns >= cfg->wait_bound_ns) {
		char hold[32], bound[32];

		rt_format_duration(hold, sizeof(hold), cfg->hold_ns);
		rt_format_duration(bound, sizeof(bound), cfg->wait_bound_ns);
		snprintf(err, len,
			 "--hold %s is not below --wait-bound %s: high waits at least for low's "
			 "hold, so the bound must be longer",
			 hold, bound);
		return -EINVAL;
	}
	return check_watchdog(cfg, err, len);
}

/**
 * pis_place - where group's threads run, for messages: " (CPU 3)", or ""
 * with --spread (@cpu -1), where they have no CPU of their own
 */
const char *pis_place(int cpu, char *buf, size_t len)
{
	if (cpu >= 0)
		snprintf(buf, len, " (CPU %d)", cpu);
	else if (len)
		buf[0] = '\0';
	return buf;
}

/* The groups whose events one CPU's buffer takes: -u all, --spread a share. */
static int64_t groups_per_cpu(const struct pis_cfg *cfg)
{
	int ncpus = rt_cpus_count(cfg->p.cpus);

	if (cfg->uniprocessor)
		return cfg->nr_groups;
	if (cfg->spread && ncpus > 0)
		return (cfg->nr_groups + ncpus - 1) / ncpus;
	return 1;
}

/**
 * pis_trace_buffer_kb - the trace buffer per CPU without --trace-buffer
 *
 * Each inversion is some fifteen events of about 50 bytes and a group makes
 * up to 50000 a second, so about 40 MiB a second per group CPU. The
 * recorder drains the buffers as the run goes, when RT throttling lets it
 * run (50 ms of every second by default): two seconds' worth, whatever the
 * run's length (-u: every group shares the one CPU; --spread: the groups
 * share the CPUs); at most 256 MiB.
 */
int64_t pis_trace_buffer_kb(const struct pis_cfg *cfg)
{
	int64_t kb = 4096 + 2 * 40 * 1024 * groups_per_cpu(cfg);

	return kb > 256 * 1024 ? 256 * 1024 : kb;
}

/**
 * pis_trace_run_kb - the trace buffer per CPU for a whole run, which the
 * static programs read after the run: 40 MiB a second per group CPU, at
 * most 256 MiB per CPU (trace long runs with -i)
 */
int64_t pis_trace_run_kb(const struct pis_cfg *cfg)
{
	int64_t kb, secs = cfg->p.duration_ns ? cfg->p.duration_ns / RT_NSEC_PER_SEC + 1 : 10;

	if (cfg->inversions && cfg->inversions / 50000 + 1 < secs)
		secs = cfg->inversions / 50000 + 1;
	/* with -u every group shares the one CPU and its buffer, with --spread the CPUs */
	kb = 4096 + secs * 40 * 1024 * groups_per_cpu(cfg);
	return kb > 256 * 1024 ? 256 * 1024 : kb;
}
