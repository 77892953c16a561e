// SPDX-License-Identifier: GPL-2.0-only
/*
 * Isolation and the RT scheduler's root domains, from fixture trees: cgroup
 * v2 partitions (isolated, root, invalid) with boot-time isolated and
 * nohz_full CPUs, and cgroup v1 cpusets whose root does not balance.
 */
#include <string.h>

#include "harness.h"
#include "lib/cpus.h"
#include "lib/domains.h"

#define FIX "tests/fixtures/"

static struct bitmask *list(const char *l)
{
	struct bitmask *all = numa_allocate_cpumask(), *m;
	int bad;

	numa_bitmask_setall(all);
	m = rt_cpus_parse(l, all, &bad);
	numa_free_cpumask(all);
	return m;
}

static const char *fmt(const struct bitmask *m)
{
	static char buf[8][64];
	static int k;
	char *b = buf[k++ % 8];

	if (!m)
		return "(null)";
	if (!rt_cpus_count(m))
		return "";
	rt_cpus_format(m, b, 64);
	return b;
}

TEST(an_isolated_partition_joins_the_default_root_domain)
{
	struct rt_domains d;

	ASSERT_EQ(rt_domains_read(&d, FIX "domains-v2-isolated"), 0);
	/* an invalid partition (/bad on CPU 0) is a member: CPU 0 stays the machine's */
	ASSERT_EQ(d.n, 2);
	EXPECT_STR(d.dom[0].name, "the machine's");
	EXPECT_STR(fmt(d.dom[0].cpus), "0");
	EXPECT_STR(d.dom[1].name, "isolated");
	EXPECT_STR(fmt(d.dom[1].cpus), "1");
	EXPECT_STR(fmt(d.isolated), "1");
	EXPECT_STR(fmt(d.nohz_full), "1");
	/* the process: in /rt/job, whose nearest partition is /rt */
	EXPECT_STR(d.partition, "isolated partition /rt");
	EXPECT_STR(fmt(d.cpuset), "1");
	rt_domains_free(&d);
}

TEST(a_root_partition_is_a_root_domain_of_its_own)
{
	struct rt_domains d;

	ASSERT_EQ(rt_domains_read(&d, FIX "domains-v2-root"), 0);
	ASSERT_EQ(d.n, 2);
	EXPECT_STR(fmt(d.dom[0].cpus), "0");
	EXPECT_STR(d.dom[1].name, "cgroup partition /part");
	EXPECT_STR(fmt(d.dom[1].cpus), "1");
	EXPECT_STR(fmt(d.isolated), "");
	EXPECT_STR(d.partition, "the machine's root partition");
	EXPECT_STR(fmt(d.cpuset), "0-1");
	rt_domains_free(&d);
}

TEST(isolcpus_at_boot)
{
	struct rt_domains d;

	ASSERT_EQ(rt_domains_read(&d, FIX "domains-boot-isolated"), 0);
	ASSERT_EQ(d.n, 2);
	EXPECT_STR(fmt(d.dom[1].cpus), "1");
	/* cgroup v2 without the cpuset controller: no cpuset to tell */
	EXPECT_TRUE(d.cpuset == NULL);
	EXPECT_STR(d.partition, "");
	rt_domains_free(&d);
}

struct span_row {
	const char *name;
	const char *tree;
	const char *cpus;
	int domains;
	size_t first;
};

static const struct span_row spans[] = {
	{ .name = "one CPU", .tree = "domains-v2-root", .cpus = "1", .domains = 1, .first = 1 },
	{ .name = "across a root partition", .tree = "domains-v2-root", .cpus = "0-1",
	  .domains = 2, .first = 0 },
	{ .name = "across an isolated partition", .tree = "domains-v2-isolated", .cpus = "0-1",
	  .domains = 2, .first = 0 },
	{ .name = "across boot isolated", .tree = "domains-boot-isolated", .cpus = "0-1",
	  .domains = 2, .first = 0 },
};

TEST_TABLE(cpus_fall_in_root_domains, struct span_row, spans)
{
	char tree[256];
	struct bitmask *cpus = list(row->cpus);
	struct rt_domains d;
	size_t which[4];

	snprintf(tree, sizeof(tree), FIX "%s", row->tree);
	ASSERT_EQ(rt_domains_read(&d, tree), 0);
	ASSERT_EQ(rt_domains_of(&d, cpus, which, 4), row->domains);
	EXPECT_EQ(which[0], row->first);
	numa_free_cpumask(cpus);
	rt_domains_free(&d);
}

TEST(housekeeping_leaves_out_isolated_and_nohz_full)
{
	struct bitmask *all = list("0-1"), *hk;
	struct rt_domains d;

	ASSERT_EQ(rt_domains_read(&d, FIX "domains-v2-isolated"), 0);
	hk = rt_domains_housekeeping(&d, all);
	EXPECT_STR(fmt(hk), "0");
	EXPECT_TRUE(rt_domains_quiet(&d, 1));
	EXPECT_TRUE(!rt_domains_quiet(&d, 0));
	numa_free_cpumask(hk);
	rt_domains_free(&d);
	ASSERT_EQ(rt_domains_read(&d, FIX "domains-v2-root"), 0);
	hk = rt_domains_housekeeping(&d, all);
	EXPECT_STR(fmt(hk), "0-1");
	numa_free_cpumask(hk);
	numa_free_cpumask(all);
	rt_domains_free(&d);
}

TEST(cgroup_v1_without_balancing_at_the_root_is_unknown)
{
	struct bitmask *cpus = list("0-1");
	struct rt_domains d;
	size_t which[2];

	ASSERT_EQ(rt_domains_read(&d, FIX "domains-v1-nobalance"), 0);
	EXPECT_EQ(d.n, 0);
	EXPECT_CONTAINS(d.why, "sched_load_balance");
	EXPECT_EQ(rt_domains_of(&d, cpus, which, 2), -1);
	EXPECT_STR(d.partition, "cgroup v1 cpuset /rt");
	EXPECT_STR(fmt(d.cpuset), "1");
	numa_free_cpumask(cpus);
	rt_domains_free(&d);
}

TEST(nothing_readable)
{
	struct rt_domains d;

	ASSERT_EQ(rt_domains_read(&d, FIX "none"), 0);
	EXPECT_EQ(d.n, 0);
	EXPECT_TRUE(d.online == NULL);
	EXPECT_STR(fmt(d.isolated), "");
	EXPECT_TRUE(d.cpuset == NULL);
	rt_domains_free(&d);
}

