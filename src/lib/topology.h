/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_TOPOLOGY_H
#define RT_TOPOLOGY_H

#include <numa.h>
#include <stddef.h>

/*
 * Where each CPU sits: its core (the SMT siblings), its last-level cache,
 * its package and its NUMA node. Cores and caches are named by their lowest
 * CPU; -1 where the kernel does not say.
 */
struct rt_cpu_place {
	int core;
	int cache;
	int package;
	int node;
};

struct rt_topology {
	int nr_cpus;			/* entries of cpu[]: CPUs 0 to nr_cpus - 1 */
	struct rt_cpu_place *cpu;	/* offline CPUs: all -1 */
	int cache_level;		/* the last-level cache's level (3 for L3), 0 unknown */
	int nr_nodes;			/* nodes 0 to nr_nodes - 1 */
	int *distance;			/* nr_nodes x nr_nodes, as the firmware gives them */
};

/* The groupings a default CPU set is made of, widest first. */
enum rt_level { RT_LEVEL_NODE, RT_LEVEL_PACKAGE, RT_LEVEL_CACHE, RT_LEVEL_CORE, RT_LEVEL_CPU,
		RT_LEVELS };
extern const char *const rt_level_names[RT_LEVELS];

/* How far a move from one CPU to another goes: what the two still share. */
enum rt_distance { RT_DIST_SIBLING, RT_DIST_CACHE, RT_DIST_NODE, RT_DIST_REMOTE,
		   RT_DISTANCES };
extern const char *const rt_distance_names[RT_DISTANCES];

int rt_topology_read(struct rt_topology *t, const char *root);
void rt_topology_free(struct rt_topology *t);
enum rt_distance rt_topology_distance(const struct rt_topology *t, int from, int to);
struct bitmask *rt_topology_subset(const struct rt_topology *t, const struct bitmask *cpus,
				   int max, enum rt_level *level);
int rt_topology_count(const struct rt_topology *t, const struct bitmask *cpus,
		      enum rt_level level);
int rt_topology_describe(const struct rt_topology *t, const struct bitmask *cpus, char *buf,
			 size_t len);

#endif
