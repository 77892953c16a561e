// SPDX-License-Identifier: GPL-2.0-only
/* The environment as /sys describes it, from a fixture tree. */
#include "rt_env.h"
#include "tap.h"

static struct bitmask *mask_of(int first, int last)
{
	struct bitmask *m = numa_allocate_cpumask();
	int c;

	for (c = first; c <= last; c++)
		numa_bitmask_setbit(m, (unsigned int)c);
	return m;
}

int main(void)
{
	struct bitmask *cpus;
	struct rt_env e;

	if (numa_num_possible_cpus() < 2) {
		tap_skip("the fixture's CPU lists name CPU 1, which this machine cannot have");
		return tap_done();
	}
	cpus = mask_of(0, 1);
	rt_env_read(&e, cpus, "tests/fixtures/sys-env");
	tap_str(e.offline, "1", "offline CPUs");
	tap_str(e.governor, "mixed", "governors differ: mixed");
	numa_free_cpumask(cpus);

	cpus = mask_of(0, 0);
	rt_env_read(&e, cpus, "tests/fixtures/sys-env");
	tap_str(e.governor, "performance", "CPU 0 alone: performance");
	numa_free_cpumask(cpus);

	cpus = mask_of(0, 0);
	rt_env_read(&e, cpus, "tests/fixtures/none");
	tap_ok(!e.governor[0] && !e.offline[0],
	       "nothing readable: everything unknown or empty");
	numa_free_cpumask(cpus);
	return tap_done();
}
