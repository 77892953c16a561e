// SPDX-License-Identifier: GPL-2.0-only
/* The environment as /sys describes it, from a fixture tree. */
#include "lib/env.h"
#include "harness.h"

static struct bitmask *mask_of(int first, int last)
{
	struct bitmask *m = numa_allocate_cpumask();
	int c;

	for (c = first; c <= last; c++)
		numa_bitmask_setbit(m, (unsigned int)c);
	return m;
}

/* rt_env_read of the CPUs @first-@last in the tree @root */
static void env_of(struct rt_env *e, int first, int last, const char *root)
{
	struct bitmask *cpus = mask_of(first, last);

	rt_env_read(e, cpus, root);
	numa_free_cpumask(cpus);
}

TEST(offline_cpus_and_mixed_governors)
{
	struct rt_env e;

	if (numa_num_possible_cpus() < 2)
		TEST_SKIP("the fixture's CPU lists name CPU 1, which this machine cannot have");
	env_of(&e, 0, 1, "tests/fixtures/sys-env");
	EXPECT_STR(e.offline, "1");
	EXPECT_STR(e.governor, "mixed");
}

TEST(one_cpu_one_governor)
{
	struct rt_env e;

	env_of(&e, 0, 0, "tests/fixtures/sys-env");
	EXPECT_STR(e.governor, "performance");
}

TEST(nothing_readable_is_unknown)
{
	struct rt_env e;

	env_of(&e, 0, 0, "tests/fixtures/none");
	EXPECT(!e.governor[0] && !e.offline[0], "governor '%s', offline '%s': expected empty",
	       e.governor, e.offline);
}
