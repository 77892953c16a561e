/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_CPUSTAT_H
#define RT_CPUSTAT_H

#include <numa.h>
#include <stdint.h>

/* The time of some CPUs as /proc/stat counts it, in its ticks (USER_HZ). */
struct rt_cputime {
	uint64_t total;		/* every state, steal among them */
	uint64_t steal;		/* a hypervisor ran something else on the CPU */
};

int rt_cpustat_parse(const char *buf, const struct bitmask *cpus, struct rt_cputime *t);
int rt_cpustat_read(const char *proc_root, const struct bitmask *cpus, struct rt_cputime *t);

#endif
