// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machine's topology from sysfs trees written here: two sockets of four
 * cores with two threads each, numbered as servers number them (the
 * siblings of CPU 0 is CPU 8), a last-level cache and a NUMA node per
 * socket, and an offline CPU; the same with one node and no cache
 * information. What a move between two CPUs crosses, and the default CPU
 * sets made of whole groups.
 */
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "harness.h"
#include "lib/cpus.h"
#include "lib/topology.h"
#include "trace/window.h"

static char root[64];

static void __attribute__((format(printf, 2, 3))) put(const char *text, const char *fmt, ...)
{
	char path[512], *p;
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	for (p = path + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	}
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/*
 * CPU c of 16: thread c / 8 of core c % 8, cores 0-3 in socket 0, 4-7 in
 * socket 1; one node per socket when @numa, else one node; an L3 per
 * socket when @caches. CPU 16 is offline.
 */
static void server(bool numa, bool caches)
{
	char dir[256], list[64];
	int c, core, pkg;

	snprintf(root, sizeof(root), "/tmp/rtsched-topo-XXXXXX");
	if (!mkdtemp(root))
		exit(2);
	for (c = 0; c < 16; c++) {
		core = c % 8;
		pkg = core / 4;
		snprintf(dir, sizeof(dir), "%s/sys/devices/system/cpu/cpu%d", root, c);
		snprintf(list, sizeof(list), "%d,%d\n", core, core + 8);
		put(list, "%s/topology/thread_siblings_list", dir);
		snprintf(list, sizeof(list), "%d\n", pkg);
		put(list, "%s/topology/physical_package_id", dir);
		put("", "%s/node%d", dir, numa ? pkg : 0);
		if (!caches)
			continue;
		put("Data\n", "%s/cache/index0/type", dir);
		put("1\n", "%s/cache/index0/level", dir);
		snprintf(list, sizeof(list), "%d,%d\n", core, core + 8);
		put(list, "%s/cache/index0/shared_cpu_list", dir);
		put("Instruction\n", "%s/cache/index1/type", dir);
		put("1\n", "%s/cache/index1/level", dir);
		put("Unified\n", "%s/cache/index3/type", dir);
		put("3\n", "%s/cache/index3/level", dir);
		snprintf(list, sizeof(list), "%d-%d,%d-%d\n", 4 * pkg, 4 * pkg + 3, 4 * pkg + 8,
			 4 * pkg + 11);
		put(list, "%s/cache/index3/shared_cpu_list", dir);
	}
	put("", "%s/sys/devices/system/cpu/cpu16/online", root);
	put("10 21\n", "%s/sys/devices/system/node/node0/distance", root);
	if (numa)
		put("21 10\n", "%s/sys/devices/system/node/node1/distance", root);
}

TEARDOWN(remove_tree)
{
	char cmd[128];

	if (root[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd))
			fprintf(stderr, "# could not remove %s\n", root);
	}
}

/* CPUs "a-b,c" of the fixture's machine: libnuma's parser takes only this one's. */
static struct bitmask *list(const char *l)
{
	struct bitmask *m = numa_allocate_cpumask();
	char *end;
	long a, b;

	while (*l) {
		a = b = strtol(l, &end, 10);
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		while (a <= b)
			numa_bitmask_setbit(m, (unsigned int)a++);
		l = *end == ',' ? end + 1 : end;
	}
	return m;
}

static const char *fmt(const struct bitmask *m)
{
	static char buf[4][64];
	static int k;
	char *b = buf[k++ % 4];

	rt_cpus_format(m, b, 64);
	return b;
}

TEST(each_cpu_has_its_core_cache_package_and_node)
{
	struct rt_topology t;

	server(true, true);
	ASSERT_EQ(rt_topology_read(&t, root), 0);
	EXPECT_EQ(t.nr_cpus, 17);
	EXPECT_EQ(t.cache_level, 3);
	EXPECT_EQ(t.cpu[9].core, 1);
	EXPECT_EQ(t.cpu[9].cache, 0);
	EXPECT_EQ(t.cpu[13].cache, 4);
	EXPECT_EQ(t.cpu[13].package, 1);
	EXPECT_EQ(t.cpu[13].node, 1);
	/* offline: nothing known */
	EXPECT_EQ(t.cpu[16].core, -1);
	EXPECT_EQ(t.cpu[16].node, -1);
	ASSERT_EQ(t.nr_nodes, 2);
	EXPECT_EQ(t.distance[0], 10);
	EXPECT_EQ(t.distance[1], 21);
	EXPECT_EQ(t.distance[2], 21);
	rt_topology_free(&t);
}

TEST(a_move_is_as_far_as_what_the_two_cpus_no_longer_share)
{
	struct rt_topology t;

	server(true, true);
	ASSERT_EQ(rt_topology_read(&t, root), 0);
	EXPECT_EQ(rt_topology_distance(&t, 0, 8), RT_DIST_SIBLING);
	EXPECT_EQ(rt_topology_distance(&t, 0, 1), RT_DIST_CACHE);
	EXPECT_EQ(rt_topology_distance(&t, 9, 3), RT_DIST_CACHE);
	EXPECT_EQ(rt_topology_distance(&t, 0, 4), RT_DIST_REMOTE);
	EXPECT_EQ(rt_topology_distance(&t, 12, 3), RT_DIST_REMOTE);
	/* a CPU the kernel says nothing of shares nothing */
	EXPECT_EQ(rt_topology_distance(&t, 0, 16), RT_DIST_REMOTE);
	EXPECT_EQ(rt_topology_distance(&t, 0, 99), RT_DIST_REMOTE);
	EXPECT_STR(rt_distance_names[RT_DIST_CACHE], "cache");
	rt_topology_free(&t);
}

TEST(without_numa_or_cache_information_the_sockets_share_a_node)
{
	struct rt_topology t;

	server(false, false);
	ASSERT_EQ(rt_topology_read(&t, root), 0);
	EXPECT_EQ(t.cache_level, 0);
	EXPECT_EQ(t.nr_nodes, 1);
	EXPECT_EQ(rt_topology_distance(&t, 0, 8), RT_DIST_SIBLING);
	EXPECT_EQ(rt_topology_distance(&t, 0, 1), RT_DIST_NODE);
	EXPECT_EQ(rt_topology_distance(&t, 0, 4), RT_DIST_NODE);
	rt_topology_free(&t);
}

TEST(groups_are_counted_over_the_cpus_given)
{
	struct rt_topology t;
	struct bitmask *all = list("0-15"), *half = list("0-1,8-9");

	server(true, true);
	ASSERT_EQ(rt_topology_read(&t, root), 0);
	EXPECT_EQ(rt_topology_count(&t, all, RT_LEVEL_NODE), 2);
	EXPECT_EQ(rt_topology_count(&t, all, RT_LEVEL_CACHE), 2);
	EXPECT_EQ(rt_topology_count(&t, all, RT_LEVEL_CORE), 8);
	EXPECT_EQ(rt_topology_count(&t, half, RT_LEVEL_CORE), 2);
	EXPECT_EQ(rt_topology_count(&t, half, RT_LEVEL_NODE), 1);
	numa_free_cpumask(all);
	numa_free_cpumask(half);
	rt_topology_free(&t);
}

struct fit {
	const char *name;
	const char *cpus;
	int max;
	const char *want;
	enum rt_level level;
};

static const struct fit fits[] = {
	{ .name = "a node fits", .cpus = "0-15", .max = 8, .want = "0-3,8-11",
	  .level = RT_LEVEL_NODE },
	{ .name = "both nodes", .cpus = "0-15", .max = 16, .want = "0-15",
	  .level = RT_LEVEL_NODE },
	{ .name = "the first node, not a part of the next", .cpus = "0-15", .max = 15,
	  .want = "0-3,8-11", .level = RT_LEVEL_NODE },
	{ .name = "whole cores", .cpus = "0-15", .max = 5, .want = "0-1,8-9",
	  .level = RT_LEVEL_CORE },
	{ .name = "no core fits", .cpus = "0-15", .max = 1, .want = "0", .level = RT_LEVEL_CPU },
	/* an affinity mask that splits the cores: the groups are of the CPUs given */
	{ .name = "of the cpus given", .cpus = "1-7", .max = 4, .want = "1-3",
	  .level = RT_LEVEL_NODE },
};

TEST_TABLE(a_default_set_is_made_of_whole_groups, struct fit, fits)
{
	struct rt_topology t;
	struct bitmask *cpus = list(row->cpus), *got;
	enum rt_level level = RT_LEVELS;

	server(true, true);
	ASSERT_EQ(rt_topology_read(&t, root), 0);
	got = rt_topology_subset(&t, cpus, row->max, &level);
	ASSERT_TRUE(got != NULL);
	EXPECT_STR(fmt(got), row->want);
	EXPECT_EQ(level, row->level);
	numa_free_cpumask(got);
	numa_free_cpumask(cpus);
	rt_topology_free(&t);
}

TEST(this_machine_has_a_topology)
{
	struct rt_topology t;
	int c = sched_getcpu();

	ASSERT_EQ(rt_topology_read(&t, ""), 0);
	ASSERT_TRUE(c >= 0 && c < t.nr_cpus);
	EXPECT_TRUE(t.cpu[c].core >= 0);
	EXPECT_TRUE(t.cpu[c].node >= 0);
	EXPECT_TRUE(t.nr_nodes >= 1);
	EXPECT_TRUE(t.distance[0] == 10 || t.distance[0] == 0);
	rt_topology_free(&t);
}

TEST(no_sysfs_is_an_error)
{
	struct rt_topology t;

	EXPECT_EQ(rt_topology_read(&t, "/nonexistent"), -ENOENT);
}

TEST(the_topology_in_words)
{
	struct rt_topology t;
	struct bitmask *all = list("0-15"), *one = list("0,8");
	char buf[256];

	server(true, true);
	ASSERT_EQ(rt_topology_read(&t, root), 0);
	rt_topology_describe(&t, all, buf, sizeof(buf));
	EXPECT_STR(buf, "16 CPUs in 8 cores, 2 L3 caches, 2 packages, 2 NUMA nodes (distance 21 "
		   "at most)");
	rt_topology_describe(&t, one, buf, sizeof(buf));
	EXPECT_STR(buf, "2 CPUs in 1 core, 1 L3 cache, 1 package, 1 NUMA node");
	numa_free_cpumask(all);
	numa_free_cpumask(one);
	rt_topology_free(&t);
}

/* The markers a run writes into its trace say the topology back to analyse. */
TEST(the_topology_from_a_trace_s_markers)
{
	struct rt_topology t = { 0 };

	EXPECT_EQ(trace_topology_read("rtsched topology: cache_level 3 nodes 2 distances "
				      "10,21,21,10", &t), 0);
	EXPECT_EQ(trace_topology_read("rtsched cpu 9: core 1 cache 0 package 0 node 0", &t), 0);
	EXPECT_EQ(trace_topology_read("rtsched cpu 12: core 4 cache 4 package 1 node 1", &t), 0);
	EXPECT_EQ(trace_topology_read("rtsched bandwidth: throttling limit_ns 50000000", &t),
		  -EINVAL);
	ASSERT_EQ(t.nr_cpus, 13);
	EXPECT_EQ(t.cache_level, 3);
	ASSERT_EQ(t.nr_nodes, 2);
	EXPECT_EQ(t.distance[1], 21);
	EXPECT_EQ(t.distance[3], 10);
	EXPECT_EQ(t.cpu[10].core, -1);	/* not said: nothing known */
	EXPECT_EQ(rt_topology_distance(&t, 9, 12), RT_DIST_REMOTE);
	EXPECT_EQ(rt_topology_distance(&t, 9, 10), RT_DIST_REMOTE);
	rt_topology_free(&t);
}
