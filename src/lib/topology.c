// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machine's topology: each CPU's core, last-level cache, package and
 * NUMA node, the distances between nodes, and what they make of a move from
 * one CPU to another and of a default set of CPUs. The cores, caches and
 * packages come from sysfs (libnuma has no word for them); the nodes and
 * their distances from libnuma on this machine, from the same sysfs files
 * under a fixture's root in the tests.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cpus.h"
#include "lib/kfile.h"
#include "lib/topology.h"

#define CPU_DIR "/sys/devices/system/cpu"
#define NODE_DIR "/sys/devices/system/node"
#define MAX_CACHE_INDEX 16

const char *const rt_level_names[RT_LEVELS] = { "node", "package", "cache", "core", "CPU" };
const char *const rt_distance_names[RT_DISTANCES] = { "sibling", "cache", "node", "remote" };

/* The number after @prefix in a directory entry's name ("cpu12"), or -1. */
static int entry_number(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	char *end;
	long v;

	if (strncmp(name, prefix, n) || name[n] < '0' || name[n] > '9')
		return -1;
	v = strtol(name + n, &end, 10);
	return *end || v > 1 << 20 ? -1 : (int)v;
}

/* The highest number of a "cpuN" ("nodeN") entry of @dir, or -1. */
static int highest_entry(const char *dir, const char *prefix)
{
	struct dirent *e;
	int max = -1, n;
	DIR *d = opendir(dir);

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		n = entry_number(e->d_name, prefix);
		max = n > max ? n : max;
	}
	closedir(d);
	return max;
}

/*
 * The lowest CPU of the list in @path, or -1: its first number, as sysfs
 * writes its lists in order. (libnuma's parser takes only this machine's
 * CPUs; a fixture's are another machine's.)
 */
static int lowest_of(const char *path)
{
	char buf[4096], *end;
	long v;

	if (rt_kfile_read(path, buf, sizeof(buf)) <= 0)
		return -1;
	v = strtol(buf, &end, 10);
	return end == buf || v < 0 || v > 1 << 20 ? -1 : (int)v;
}

/* @cpu's last-level cache (its lowest CPU) and that cache's level. */
static int last_cache(const char *cpu_dir, int *level)
{
	char path[1024], type[32];
	int i, lvl, best = 0, cache = -1;

	for (i = 0; i < MAX_CACHE_INDEX; i++) {
		snprintf(path, sizeof(path), "%s/cache/index%d/type", cpu_dir, i);
		if (rt_kfile_read(path, type, sizeof(type)) <= 0)
			continue;
		if (!strncmp(type, "Instruction", 11))
			continue;
		snprintf(path, sizeof(path), "%s/cache/index%d/level", cpu_dir, i);
		lvl = (int)rt_kfile_long(path, 0);
		if (lvl <= best)
			continue;
		snprintf(path, sizeof(path), "%s/cache/index%d/shared_cpu_list", cpu_dir, i);
		cache = lowest_of(path);
		best = lvl;
	}
	*level = cache >= 0 ? best : 0;
	return cache;
}

/* A fixture's node of @cpu: the "nodeN" entry in its directory, as sysfs has it. */
static int node_entry(const char *cpu_dir)
{
	struct dirent *e;
	int node = 0, n;
	DIR *d = opendir(cpu_dir);

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		n = entry_number(e->d_name, "node");
		if (n >= 0)
			node = n;
	}
	closedir(d);
	return node;
}

/* The distances between nodes: libnuma's on this machine, a fixture's distance files. */
static void read_distances(struct rt_topology *t, const char *root, bool live)
{
	char path[512], buf[4096], *p, *end;
	int a, b;
	long v;

	for (a = 0; a < t->nr_nodes; a++) {
		if (live) {
			for (b = 0; b < t->nr_nodes; b++)
				t->distance[a * t->nr_nodes + b] = numa_distance(a, b);
			continue;
		}
		snprintf(path, sizeof(path), "%s" NODE_DIR "/node%d/distance", root, a);
		if (rt_kfile_read(path, buf, sizeof(buf)) <= 0)
			continue;
		for (b = 0, p = buf; b < t->nr_nodes; b++, p = end) {
			v = strtol(p, &end, 10);
			if (end == p)
				break;
			t->distance[a * t->nr_nodes + b] = (int)v;
		}
	}
}

/**
 * rt_topology_read - where each CPU of the machine under @root ("" for this
 * one, a fixture's tree in the tests) sits
 *
 * Returns 0, -ENOENT when sysfs lists no CPU, -ENOMEM.
 */
int rt_topology_read(struct rt_topology *t, const char *root)
{
	bool live = !*root && numa_available() >= 0;
	char dir[512], cpu_dir[600], path[700];
	int c, level, max_node = 0;

	*t = (struct rt_topology){ 0 };
	snprintf(dir, sizeof(dir), "%s" CPU_DIR, root);
	t->nr_cpus = highest_entry(dir, "cpu") + 1;
	if (t->nr_cpus <= 0)
		return -ENOENT;
	t->cpu = calloc((size_t)t->nr_cpus, sizeof(*t->cpu));
	if (!t->cpu)
		return -ENOMEM;
	for (c = 0; c < t->nr_cpus; c++) {
		struct rt_cpu_place *p = &t->cpu[c];

		snprintf(cpu_dir, sizeof(cpu_dir), "%s/cpu%d", dir, c);
		snprintf(path, sizeof(path), "%s/topology/thread_siblings_list", cpu_dir);
		p->core = lowest_of(path);
		if (p->core < 0) {
			/* offline: no topology */
			*p = (struct rt_cpu_place){ -1, -1, -1, -1 };
			continue;
		}
		snprintf(path, sizeof(path), "%s/topology/physical_package_id", cpu_dir);
		p->package = (int)rt_kfile_long(path, -1);
		p->cache = last_cache(cpu_dir, &level);
		t->cache_level = level > t->cache_level ? level : t->cache_level;
		p->node = live ? numa_node_of_cpu(c) : !*root ? 0 : node_entry(cpu_dir);
		if (p->node < 0)
			p->node = 0;
		max_node = p->node > max_node ? p->node : max_node;
	}
	t->nr_nodes = max_node + 1;
	t->distance = calloc((size_t)t->nr_nodes * (size_t)t->nr_nodes, sizeof(*t->distance));
	if (!t->distance) {
		rt_topology_free(t);
		return -ENOMEM;
	}
	read_distances(t, root, live);
	return 0;
}

void rt_topology_free(struct rt_topology *t)
{
	free(t->cpu);
	free(t->distance);
	*t = (struct rt_topology){ 0 };
}

static const struct rt_cpu_place *place(const struct rt_topology *t, int cpu)
{
	static const struct rt_cpu_place unknown = { -1, -1, -1, -1 };

	return cpu >= 0 && cpu < t->nr_cpus ? &t->cpu[cpu] : &unknown;
}

/**
 * rt_topology_distance - how far a move from CPU @from to CPU @to goes: to a
 * sibling of the same core, within the last-level cache, within the NUMA
 * node, or to another node
 *
 * Where the kernel does not say what two CPUs share, they share less.
 */
enum rt_distance rt_topology_distance(const struct rt_topology *t, int from, int to)
{
	const struct rt_cpu_place *a = place(t, from), *b = place(t, to);

	if (a->core >= 0 && a->core == b->core)
		return RT_DIST_SIBLING;
	if (a->cache >= 0 && a->cache == b->cache)
		return RT_DIST_CACHE;
	if (a->node >= 0 && a->node == b->node)
		return RT_DIST_NODE;
	return RT_DIST_REMOTE;
}

/* @cpu's group at @level, or -1 where the kernel does not say. */
static int key(const struct rt_topology *t, int cpu, enum rt_level level)
{
	const struct rt_cpu_place *p = place(t, cpu);

	switch (level) {
	case RT_LEVEL_NODE:
		return p->node;
	case RT_LEVEL_PACKAGE:
		return p->package;
	case RT_LEVEL_CACHE:
		return p->cache;
	case RT_LEVEL_CORE:
		return p->core;
	default:
		return cpu;
	}
}

static bool isset(const struct bitmask *m, int c)
{
	return c >= 0 && (unsigned int)c < m->size && numa_bitmask_isbitset(m, (unsigned int)c);
}

/* The CPUs of @cpus in @level's group @k, or 0 when a CPU of them has no group there. */
static int group_size(const struct rt_topology *t, const struct bitmask *cpus,
		      enum rt_level level, int k)
{
	int c, n = 0;

	for (c = 0; c < (int)cpus->size; c++)
		n += isset(cpus, c) && key(t, c, level) == k;
	return n;
}

/* Whether @cpu is the first CPU of @cpus in its group at @level. */
static bool first_of_group(const struct rt_topology *t, const struct bitmask *cpus,
			   enum rt_level level, int cpu)
{
	int c;

	for (c = 0; c < cpu; c++) {
		if (isset(cpus, c) && key(t, c, level) == key(t, cpu, level))
			return false;
	}
	return true;
}

/* Whether every CPU of @cpus has a group at @level. */
static bool level_known(const struct rt_topology *t, const struct bitmask *cpus,
			enum rt_level level)
{
	int c;

	for (c = 0; c < (int)cpus->size; c++) {
		if (isset(cpus, c) && key(t, c, level) < 0)
			return false;
	}
	return true;
}

/**
 * rt_topology_count - how many groups of @level the CPUs @cpus span
 *
 * Returns the count, or -1 where the kernel does not say.
 */
int rt_topology_count(const struct rt_topology *t, const struct bitmask *cpus,
		      enum rt_level level)
{
	int c, n = 0;

	if (!level_known(t, cpus, level))
		return -1;
	for (c = 0; c < (int)cpus->size; c++)
		n += isset(cpus, c) && first_of_group(t, cpus, level, c);
	return n;
}

/**
 * rt_topology_subset - at most @max CPUs of @cpus, made of whole groups:
 * the first nodes that fit together, else the first packages, caches,
 * cores, else the first @max CPUs; @level says which
 *
 * Groups are taken in the order of their lowest CPU until the next one
 * would not fit. Returns a mask to free with numa_free_cpumask() (all of
 * @cpus when they fit), or NULL with errno set.
 */
struct bitmask *rt_topology_subset(const struct rt_topology *t, const struct bitmask *cpus,
				   int max, enum rt_level *level)
{
	struct bitmask *out = numa_allocate_cpumask();
	enum rt_level l;
	int c, d, n, taken;

	if (!out) {
		errno = ENOMEM;
		return NULL;
	}
	for (l = RT_LEVEL_NODE; l < RT_LEVELS; l++) {
		if (l < RT_LEVEL_CPU && !level_known(t, cpus, l))
			continue;
		taken = 0;
		for (c = 0; c < (int)cpus->size && c < (int)out->size; c++) {
			if (!isset(cpus, c) || !first_of_group(t, cpus, l, c))
				continue;
			n = group_size(t, cpus, l, key(t, c, l));
			if (taken + n > max)
				break;
			for (d = c; d < (int)cpus->size; d++) {
				if (isset(cpus, d) && key(t, d, l) == key(t, c, l))
					numa_bitmask_setbit(out, (unsigned int)d);
			}
			taken += n;
		}
		if (taken) {
			*level = l;
			return out;
		}
	}
	*level = RT_LEVEL_CPU;
	return out;
}

/* "1 package", "2 packages", or "" where the kernel does not say */
static int count_words(char *buf, size_t len, int n, const char *one, const char *many)
{
	if (n < 0)
		return snprintf(buf, len, ", %s unknown", many);
	return snprintf(buf, len, ", %d %s", n, n == 1 ? one : many);
}

/**
 * rt_topology_describe - the topology of @cpus in words: "16 CPUs in 8
 * cores, 2 L3 caches, 2 packages, 2 NUMA nodes (distance 21 between them)"
 *
 * Returns what snprintf() returns.
 */
int rt_topology_describe(const struct rt_topology *t, const struct bitmask *cpus, char *buf,
			 size_t len)
{
	int ncpus = rt_topology_count(t, cpus, RT_LEVEL_CPU);
	int cores = rt_topology_count(t, cpus, RT_LEVEL_CORE);
	int nodes = rt_topology_count(t, cpus, RT_LEVEL_NODE), far = 0, a, b, c;
	char one[32] = "last-level cache", many[32] = "last-level caches";
	bool *has = calloc((size_t)t->nr_nodes + 1, sizeof(*has));
	size_t n = 0;

	if (t->cache_level) {
		snprintf(one, sizeof(one), "L%d cache", t->cache_level);
		snprintf(many, sizeof(many), "L%d caches", t->cache_level);
	}
	n += (size_t)snprintf(buf, len, "%d CPU%s in %d core%s", ncpus, ncpus == 1 ? "" : "s",
			      cores, cores == 1 ? "" : "s");
	if (n < len)
		n += (size_t)count_words(buf + n, len - n, rt_topology_count(t, cpus, RT_LEVEL_CACHE),
					 one, many);
	if (n < len)
		n += (size_t)count_words(buf + n, len - n,
					 rt_topology_count(t, cpus, RT_LEVEL_PACKAGE), "package",
					 "packages");
	if (n < len)
		n += (size_t)count_words(buf + n, len - n, nodes, "NUMA node", "NUMA nodes");
	/* the farthest two of the CPUs' nodes apart */
	for (c = 0; has && c < (int)cpus->size; c++) {
		if (isset(cpus, c) && place(t, c)->node >= 0 && place(t, c)->node < t->nr_nodes)
			has[place(t, c)->node] = true;
	}
	for (a = 0; has && a < t->nr_nodes; a++) {
		for (b = 0; has[a] && b < t->nr_nodes; b++) {
			if (has[b] && t->distance[a * t->nr_nodes + b] > far)
				far = t->distance[a * t->nr_nodes + b];
		}
	}
	free(has);
	if (nodes > 1 && far && n < len)
		n += (size_t)snprintf(buf + n, len - n, " (distance %d at most)", far);
	return (int)n;
}
