// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run's CPUs on a machine larger than a program's default shape: when
 * the user names none and the shape (2 x CPUs threads at distinct SCHED_FIFO
 * priorities, say) fits fewer than the usable CPUs, the run takes whole
 * nodes, packages, last-level caches or cores that fit, and says so.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "lib/sched.h"
#include "lib/topology.h"

/* What rt_topology_subset() took, by its level. */
static const char *const taken[RT_LEVELS] = {
	[RT_LEVEL_NODE] = "whole NUMA nodes",
	[RT_LEVEL_PACKAGE] = "whole packages",
	[RT_LEVEL_CACHE] = "whole last-level caches",
	[RT_LEVEL_CORE] = "whole cores",
	[RT_LEVEL_CPU] = "the first CPUs, as no core fits whole",
};

/**
 * cli_fit_cpus - the run's CPUs: @cpus (cli_common_done's), or without -c,
 * when more than @max, the first whole groups of them that fit
 * (rt_topology_subset), with @shape the words that say why at most @max
 * ("the contention shape fits 22 CPUs: ..."), kept for the header and the
 * result file
 */
struct bitmask *cli_fit_cpus(struct cli_common *co, struct bitmask *cpus, int max,
			     const char *shape)
{
	struct rt_topology t;
	struct bitmask *fit;
	enum rt_level level;
	char list[256];
	int n = rt_cpus_count(cpus), ret;

	if (co->cpus || n <= max || max < 1)
		return cpus;
	ret = rt_topology_read(&t, "");
	if (ret)
		cli_die(EXIT_SYSCALL, "reading the CPU topology from sysfs: %s", strerror(-ret));
	fit = rt_topology_subset(&t, cpus, max, &level);
	rt_topology_free(&t);
	if (!fit)
		cli_die(EXIT_SYSCALL, "out of memory");
	rt_cpus_format(cpus, co->fit_usable, sizeof(co->fit_usable));
	rt_cpus_format(fit, list, sizeof(list));
	snprintf(co->fit_why, sizeof(co->fit_why),
		 "the run takes CPUs %s, %d of the %d usable (%s): %s; %s; --cpus chooses others",
		 list, rt_cpus_count(fit), n, co->fit_usable, shape, taken[level]);
	numa_free_cpumask(cpus);
	if (co->usable == cpus)
		co->usable = fit;
	return fit;
}

/**
 * cli_fit_one_more - the fit of a shape of CPUs + 1 threads at distinct
 * priorities from @base with the coordinator above them, @why its words
 */
int cli_fit_one_more(int base, char *why, size_t len)
{
	int max = RT_PRIO_MAX - base - 1;

	snprintf(why, len,
		 "its CPUs + 1 threads at distinct SCHED_FIFO priorities from --base-prio %d, "
		 "and the coordinator above them, fit %d CPUs", base, max);
	return max;
}
