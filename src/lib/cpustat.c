// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CPUs' time from /proc/stat: all of it and the steal, the time a
 * hypervisor kept a virtual CPU from running (where the kernel counts it:
 * paravirtual steal time, as KVM gives).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cpustat.h"

#define STEAL_FIELD 7	/* user nice system idle iowait irq softirq steal */
#define STAT_FIELDS 8	/* guest time is counted in user already */

/**
 * rt_cpustat_parse - the time of @cpus in @buf, /proc/stat's text
 *
 * Returns 0, or -EINVAL when a CPU of @cpus has no line.
 */
int rt_cpustat_parse(const char *buf, const struct bitmask *cpus, struct rt_cputime *t)
{
	const char *line = buf;
	unsigned int cpu, seen = 0, want = numa_bitmask_weight(cpus);
	uint64_t v;
	char *end;
	int f;

	*t = (struct rt_cputime){ 0 };
	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		cpu = (unsigned int)strtoul(line + 3, &end, 10);
		if (cpu >= cpus->size || !numa_bitmask_isbitset(cpus, cpu))
			continue;
		for (f = 0; f < STAT_FIELDS; f++) {
			v = strtoull(end, &end, 10);
			t->total += v;
			if (f == STEAL_FIELD)
				t->steal += v;
		}
		seen++;
	}
	return seen == want ? 0 : -EINVAL;
}

/**
 * rt_cpustat_read - the time of @cpus now, from @proc_root/stat ("/proc")
 *
 * Returns 0 or a negative errno.
 */
int rt_cpustat_read(const char *proc_root, const struct bitmask *cpus, struct rt_cputime *t)
{
	char path[256], *buf, *more;
	size_t len = 0, cap = 1 << 16;
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/stat", proc_root);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	/* a line per CPU: 256 CPUs take some 25 KiB */
	buf = malloc(cap);
	while (buf) {
		len += fread(buf + len, 1, cap - 1 - len, f);
		if (len < cap - 1 || feof(f))
			break;
		cap *= 2;
		more = realloc(buf, cap);
		if (!more)
			free(buf);
		buf = more;
	}
	fclose(f);
	if (!buf)
		return -ENOMEM;
	buf[len] = '\0';
	ret = rt_cpustat_parse(buf, cpus, t);
	free(buf);
	return ret;
}
