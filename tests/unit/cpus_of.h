/* SPDX-License-Identifier: GPL-2.0-only */
/* CPUs 0 to @n - 1 as a libnuma mask, whatever this machine has: configurations to test. */
#ifndef RT_TEST_CPUS_OF_H
#define RT_TEST_CPUS_OF_H

#include <numa.h>

static inline struct bitmask *cpus_of(int n)
{
	struct bitmask *m = numa_allocate_cpumask();
	int i;

	for (i = 0; i < n; i++)
		numa_bitmask_setbit(m, (unsigned int)i);
	return m;
}

#endif
