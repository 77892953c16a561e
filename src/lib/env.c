// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machine around a run: offline CPUs and the frequency governor (the
 * scheduler's own settings are kernel.c's, bandwidth.c's and domains.c's).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/cpus.h"
#include "lib/env.h"
#include "lib/kfile.h"

/* @file's CPU list, formatted; "" when empty or unreadable. */
static void cpu_list(const char *file, char *out, size_t len)
{
	struct bitmask *all, *list;
	char buf[1024];
	int bad;

	out[0] = '\0';
	if (rt_kfile_read(file, buf, sizeof(buf)) <= 0)
		return;
	all = numa_allocate_cpumask();
	if (!all)
		return;
	numa_bitmask_setall(all);
	list = rt_cpus_parse(buf, all, &bad);
	numa_free_cpumask(all);
	if (!list)
		return;
	if (rt_cpus_count(list))
		rt_cpus_format(list, out, len);
	numa_free_cpumask(list);
}

/**
 * rt_env_read - what the machine says about the run's @cpus
 * @sys_root: "/sys", or a fixture tree laid out the same way
 *
 * Reads the offline CPUs and the cpufreq governor of @cpus. What cannot be
 * read stays unknown.
 *
 * Returns 0.
 */
int rt_env_read(struct rt_env *e, const struct bitmask *cpus, const char *sys_root)
{
	char path[PATH_MAX], buf[64];
	int i, n = rt_cpus_count(cpus);

	memset(e, 0, sizeof(*e));
	snprintf(path, sizeof(path), "%s/devices/system/cpu/offline", sys_root);
	cpu_list(path, e->offline, sizeof(e->offline));

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
			 sys_root, rt_cpus_nth(cpus, i));
		if (rt_kfile_read(path, buf, sizeof(buf)) < 0) {
			e->governor[0] = '\0';
			break;
		}
		if (!i)
			snprintf(e->governor, sizeof(e->governor), "%s", buf);
		else if (strcmp(e->governor, buf))
			snprintf(e->governor, sizeof(e->governor), "mixed");
	}
	return 0;
}
