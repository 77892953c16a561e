// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the kernel says of its scheduler, and the RT bandwidth regime worked
 * out from it, on fixture trees laid out after Debian 12's 6.1, 6.12 and
 * 6.12-rt, this project's 6.18 (RT group scheduling, /proc/config.gz), and
 * a 6.13 whose configuration cannot be read.
 */
#include <limits.h>
#include <string.h>

#include "harness.h"
#include "lib/bandwidth.h"
#include "lib/cpus.h"
#include "lib/kernel.h"

#define FIX "tests/fixtures/"

struct read_back {
	struct rt_kernel k;
	struct rt_bandwidth bw;
};

static void read_tree(struct read_back *r, const char *root)
{
	struct bitmask *cpus = numa_allocate_cpumask();

	numa_bitmask_setbit(cpus, 0);
	numa_bitmask_setbit(cpus, 1);
	rt_kernel_read(&r->k, root);
	rt_bandwidth_read(&r->bw, &r->k, cpus, root);
	numa_free_cpumask(cpus);
}

static void drop(struct read_back *r)
{
	rt_bandwidth_free(&r->bw);
	rt_kernel_free(&r->k);
}

TEST(debian_6_1_has_rt_throttling_only)
{
	struct read_back r;
	char words[256];

	read_tree(&r, FIX "kernel-6.1");
	EXPECT_STR(r.k.release, "6.1.0-57-amd64");
	/* no random/boot_id in this tree: unknown, never made up */
	EXPECT_STR(r.k.boot_id, "");
	EXPECT_EQ(r.k.major, 6);
	EXPECT_EQ(r.k.minor, 1);
	EXPECT_EQ(r.bw.regime, RT_BW_THROTTLING);
	EXPECT_EQ(r.bw.throttling, 1);
	EXPECT_EQ(r.bw.fair_server, 0);
	EXPECT_EQ(r.bw.rt_runtime_us, 950000);
	EXPECT_EQ(rt_bandwidth_limit_ns(&r.bw), 50000000);
	/* debugfs says the mode in force */
	EXPECT_STR(r.k.mode, "voluntary");
	rt_kernel_describe(&r.k, words, sizeof(words));
	EXPECT_STR(words, "PREEMPT_DYNAMIC (voluntary)");
	EXPECT_EQ(rt_kernel_feature(&r.k, "RT_PUSH_IPI"), 1);
	EXPECT_EQ(rt_kernel_feature(&r.k, "RT_RUNTIME_SHARE"), 0);
	EXPECT_EQ(rt_kernel_feature(&r.k, "NO_SUCH_FEATURE"), -1);
	EXPECT_STR(r.k.sched_ext, "not built");
	drop(&r);
}

TEST(debian_6_1_with_runtime_minus_one_has_neither)
{
	struct read_back r;

	read_tree(&r, FIX "kernel-6.1-nothrottle");
	EXPECT_EQ(r.bw.regime, RT_BW_NEITHER);
	EXPECT_EQ(r.bw.throttling, 0);
	/* no debugfs: the mode is the boot default, and said to be so */
	EXPECT_STR(r.k.mode, "voluntary");
	EXPECT_STR(r.k.mode_source, "the boot default");
	EXPECT_CONTAINS(r.k.mode_why, "debugfs is not mounted");
	EXPECT_STR(r.k.features, "");
	EXPECT_CONTAINS(r.k.features_why, "/sys/kernel/debug/sched/features");
	drop(&r);
}

TEST(debian_6_12_has_the_fair_server_only)
{
	struct read_back r;

	read_tree(&r, FIX "kernel-6.12");
	/* the sysctls say 950000/1000000, but without RT group scheduling nothing throttles */
	EXPECT_EQ(r.bw.rt_runtime_us, 950000);
	EXPECT_EQ(r.bw.group_sched, 0);
	EXPECT_EQ(r.bw.throttling, 0);
	EXPECT_EQ(r.bw.regime, RT_BW_FAIR_SERVER);
	ASSERT_EQ(r.bw.nfair, 2);
	EXPECT_EQ(r.bw.fair[0].runtime_ns, 50000000);
	EXPECT_EQ(r.bw.fair[1].runtime_ns, 20000000);
	EXPECT_EQ(r.bw.fair[1].period_ns, 1000000000);
	EXPECT_EQ(rt_bandwidth_fair_same(&r.bw), 0);
	EXPECT_EQ(rt_bandwidth_limit_ns(&r.bw), 50000000);
	EXPECT_STR(r.k.mode, "full");
	EXPECT_STR(r.k.mode_source, "preempt= at boot");
	EXPECT_EQ(rt_kernel_feature(&r.k, "RT_PUSH_IPI"), 0);
	EXPECT_STR(r.k.sched_ext, "enabled: simple");
	drop(&r);
}

TEST(debian_6_12_rt_with_the_fair_server_off_has_neither)
{
	struct read_back r;

	read_tree(&r, FIX "kernel-6.12-rt");
	EXPECT_STR(r.k.model, "PREEMPT_RT");
	EXPECT_EQ(r.bw.regime, RT_BW_NEITHER);
	EXPECT_EQ(rt_bandwidth_fair_same(&r.bw), 1);
	EXPECT_STR(r.k.sched_ext, "disabled");
	drop(&r);
}

TEST(rt_group_sched_in_config_gz_has_both)
{
	struct read_back r;
	char words[256];

	read_tree(&r, FIX "kernel-6.18");
	/* the boot's id, which tells a result's sitting */
	EXPECT_STR(r.k.boot_id, "3f1c2a9e-8d4b-4c6e-9a1f-0b2c3d4e5f60");
	EXPECT_CONTAINS(r.k.config.source, "/proc/config.gz");
	EXPECT_EQ(r.bw.group_sched, 1);
	EXPECT_EQ(r.bw.regime, RT_BW_BOTH);
	/* the fair server's values cannot be read: unknown, and why */
	EXPECT_TRUE(r.bw.fair == NULL);
	EXPECT_CONTAINS(r.bw.fair_why, "fair_server/cpu0/runtime");
	EXPECT_STR(r.k.mode, "none");
	rt_kernel_describe(&r.k, words, sizeof(words));
	EXPECT_CONTAINS(words, "none, the boot default");
	drop(&r);
}

TEST(no_configuration_leaves_the_regime_unknown_and_says_why)
{
	struct read_back r;

	read_tree(&r, FIX "kernel-6.13-noconfig");
	EXPECT_EQ(r.bw.regime, RT_BW_UNKNOWN);
	EXPECT_EQ(r.bw.throttling, -1);
	EXPECT_EQ(r.bw.fair_server, 1);
	EXPECT_CONTAINS(r.bw.why, "CONFIG_RT_GROUP_SCHED");
	EXPECT_STR(r.k.model, "PREEMPT_LAZY");
	drop(&r);
}

TEST(cgroup_v1_rt_runtime_tells_rt_group_sched)
{
	struct read_back r;

	read_tree(&r, FIX "kernel-6.13-cgroupv1");
	EXPECT_EQ(r.bw.group_sched, 1);
	EXPECT_CONTAINS(r.bw.group_source, "cgroup v1");
	EXPECT_EQ(r.bw.regime, RT_BW_BOTH);
	drop(&r);
}

TEST(nothing_readable_is_unknown)
{
	struct read_back r;

	read_tree(&r, FIX "none");
	EXPECT_STR(r.k.release, "unknown");
	EXPECT_EQ(r.bw.regime, RT_BW_UNKNOWN);
	EXPECT_TRUE(r.bw.why[0] != '\0');
	EXPECT_TRUE(r.k.config.text == NULL);
	drop(&r);
}

TEST(config_options)
{
	struct rt_kconfig k;
	char val[16];

	ASSERT_EQ(rt_kconfig_read(&k, FIX "kernel-6.1", "6.1.0-57-amd64"), 0);
	EXPECT_EQ(rt_kconfig_get(&k, "CONFIG_PREEMPT_DYNAMIC", val, sizeof(val)), 1);
	EXPECT_STR(val, "y");
	EXPECT_EQ(rt_kconfig_get(&k, "CONFIG_RT_GROUP_SCHED", NULL, 0), 0);
	/* a prefix of an option is not the option */
	EXPECT_EQ(rt_kconfig_get(&k, "CONFIG_PREEMPT", NULL, 0), 0);
	rt_kconfig_free(&k);
	EXPECT_EQ(rt_kconfig_read(&k, FIX "none", "6.1"), -ENOENT);
	EXPECT_EQ(rt_kconfig_get(&k, "CONFIG_SMP", NULL, 0), -ENOENT);
}

TEST(regime_names_round_trip)
{
	int i;

	for (i = RT_BW_NEITHER; i <= RT_BW_BOTH; i++)
		EXPECT_EQ(rt_bw_regime_of(rt_bw_regime_names[i]), i);
	EXPECT_EQ(rt_bw_regime_of("throttled"), RT_BW_UNKNOWN);
}

