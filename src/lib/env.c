// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machine around a run: the fair server, isolated and offline CPUs, the
 * frequency governor.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_cpus.h"
#include "rt_env.h"

static int read_line(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* @file's CPU list restricted to @cpus (all of it when @cpus is NULL), formatted. */
static void cpu_list(const char *file, const struct bitmask *cpus, char *out, size_t len)
{
	struct bitmask *all, *list;
	char buf[1024];
	unsigned int c;
	int bad;

	out[0] = '\0';
	if (read_line(file, buf, sizeof(buf)) || !buf[0])
		return;
	all = numa_allocate_cpumask();
	if (!all)
		return;
	numa_bitmask_setall(all);
	list = rt_cpus_parse(buf, all, &bad);
	numa_free_cpumask(all);
	if (!list)
		return;
	for (c = 0; cpus && c < list->size; c++) {
		if (numa_bitmask_isbitset(list, c) &&
		    (c >= cpus->size || !numa_bitmask_isbitset(cpus, c)))
			numa_bitmask_clearbit(list, c);
	}
	if (rt_cpus_count(list))
		rt_cpus_format(list, out, len);
	numa_free_cpumask(list);
}

/**
 * rt_env_read - what the machine says about the run's @cpus
 * @sys_root: "/sys", or a fixture tree laid out the same way
 *
 * Reads the fair server's runtime and period of the first CPU (debugfs,
 * kernels from 6.12 with debugfs mounted), the isolated CPUs among @cpus,
 * the offline CPUs and the cpufreq governor of @cpus. What cannot be read
 * stays unknown.
 *
 * Returns 0.
 */
int rt_env_read(struct rt_env *e, const struct bitmask *cpus, const char *sys_root)
{
	char path[PATH_MAX], buf[64];
	int i, n = rt_cpus_count(cpus);

	memset(e, 0, sizeof(*e));
	e->fair_runtime_ns = e->fair_period_ns = -1;
	snprintf(path, sizeof(path), "%s/kernel/debug/sched/fair_server/cpu%d/runtime", sys_root,
		 rt_cpus_nth(cpus, 0));
	if (!read_line(path, buf, sizeof(buf)))
		e->fair_runtime_ns = strtoll(buf, NULL, 10);
	snprintf(path, sizeof(path), "%s/kernel/debug/sched/fair_server/cpu%d/period", sys_root,
		 rt_cpus_nth(cpus, 0));
	if (!read_line(path, buf, sizeof(buf)))
		e->fair_period_ns = strtoll(buf, NULL, 10);

	snprintf(path, sizeof(path), "%s/devices/system/cpu/isolated", sys_root);
	cpu_list(path, cpus, e->isolated, sizeof(e->isolated));
	snprintf(path, sizeof(path), "%s/devices/system/cpu/offline", sys_root);
	cpu_list(path, NULL, e->offline, sizeof(e->offline));

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
			 sys_root, rt_cpus_nth(cpus, i));
		if (read_line(path, buf, sizeof(buf))) {
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
