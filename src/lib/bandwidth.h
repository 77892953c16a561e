/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_BANDWIDTH_H
#define RT_BANDWIDTH_H

#include <numa.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/kernel.h"
#include "lib/regime.h"

struct rt_bw_fair {
	int cpu;
	int64_t runtime_ns;	/* 0: off on that CPU */
	int64_t period_ns;
};

struct rt_bandwidth {
	enum rt_bw_regime regime;
	int throttling;			/* RT throttling acts: 1, 0, -1 unknown */
	long rt_runtime_us;		/* the sysctls; LONG_MIN: not there */
	long rt_period_us;
	int group_sched;		/* CONFIG_RT_GROUP_SCHED: 1, 0, -1 unknown */
	char group_source[160];		/* how that is known */
	int fair_server;		/* the kernel has the fair server: 1, 0, -1 unknown */
	struct rt_bw_fair *fair;	/* its values on the CPUs asked for; NULL: unknown */
	size_t nfair;
	char fair_why[RT_KERNEL_WHY];	/* why they are unknown */
	char why[2 * RT_KERNEL_WHY];	/* why the regime, or part of it, is unknown */
};

int rt_bandwidth_read(struct rt_bandwidth *b, const struct rt_kernel *k,
		      const struct bitmask *cpus, const char *root);
void rt_bandwidth_free(struct rt_bandwidth *b);
int64_t rt_bandwidth_limit_ns(const struct rt_bandwidth *b);
int rt_bandwidth_fair_same(const struct rt_bandwidth *b);

#endif
