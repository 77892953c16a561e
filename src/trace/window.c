// SPDX-License-Identifier: GPL-2.0-only
/*
 * The windows' markers (window.h), written at the end of a run and read
 * from a trace.dat.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cpus.h"
#include "trace/marker.h"
#include "trace/window.h"

/* The topology's markers (TRACE_TOPOLOGY_MARK, a TRACE_CPU_MARK per CPU with a place). */
static void mark_topology(const struct rt_topology *t)
{
	char dist[1024];
	size_t n = 0;
	int a, c;

	dist[0] = '\0';
	for (a = 0; a < t->nr_nodes * t->nr_nodes && n < sizeof(dist); a++)
		n += (size_t)snprintf(dist + n, sizeof(dist) - n, "%s%d", a ? "," : "",
				      t->distance[a]);
	/* too many nodes for one marker: their distances unsaid */
	trace_mark_all(TRACE_TOPOLOGY_MARK, t->cache_level, t->nr_nodes,
		       n < sizeof(dist) ? dist : "-");
	for (c = 0; c < t->nr_cpus; c++) {
		if (t->cpu[c].core >= 0)
			trace_mark_all(TRACE_CPU_MARK, c, t->cpu[c].core, t->cpu[c].cache,
				       t->cpu[c].package, t->cpu[c].node);
	}
}

/**
 * trace_window_mark_all - write run @run's windows into the trace, one
 * marker per thread (TRACE_WINDOW_MARK) after one of the kernel's RT
 * bandwidth limits (TRACE_REGIME_MARK, @regime and @limit_ns), into every
 * trace_marker open (trace_mark_all()): a trace.dat then says which
 * threads and times its tables are of, and how to read the limits' time,
 * for an analysis of the file alone: --trace's own, and a user's trace-cmd
 * record around the benchmark (the top instance's marker)
 */
void trace_window_mark_all(int run, const struct trace_window *w, size_t n,
			   enum rt_bw_regime regime, uint64_t limit_ns, const struct rt_topology *topo)
{
	char cpus[1024];
	size_t i;

	trace_mark_all(TRACE_REGIME_MARK, rt_bw_regime_names[regime],
		       (unsigned long long)limit_ns);
	if (topo)
		mark_topology(topo);
	for (i = 0; i < n; i++) {
		if (!w[i].affinity_known || rt_cpus_format_set(&w[i].affinity, cpus, sizeof(cpus)) < 0 ||
		    strlen(cpus) + 1 >= sizeof(cpus))
			snprintf(cpus, sizeof(cpus), "?");
		trace_mark_all(TRACE_WINDOW_MARK TRACE_WINDOW_CPUS, run, i, (int)w[i].tid,
			       (long long)w[i].start, (long long)w[i].end,
			       (unsigned long long)w[i].proc_migrations, cpus);
	}
}

/**
 * trace_window_read - read a window marker (TRACE_WINDOW_MARK) into @m
 *
 * Returns 0, or -EINVAL when @text is another marker.
 */
int trace_window_read(const char *text, struct trace_window_mark *m)
{
	unsigned long long migrations;
	long long start, end;
	char cpus[256];
	int tid, n;

	n = sscanf(text, TRACE_WINDOW_MARK " cpus %255s", &m->run, &m->row, &tid, &start, &end,
		   &migrations, cpus);
	if (n < 6)
		return -EINVAL;
	m->w.tid = tid;
	m->w.start = start;
	m->w.end = end;
	m->w.proc_migrations = migrations;
	m->w.affinity_known = n == 7 && !rt_cpus_parse_set(cpus, &m->w.affinity);
	return 0;
}

/**
 * trace_watch_mark_read - read a watched thread's marker (TRACE_WATCH_MARK):
 * its tid and, when the marker says them, its CPUs
 *
 * Returns 0, or -EINVAL when @text is another marker.
 */
int trace_watch_mark_read(const char *text, pid_t *tid, cpu_set_t *affinity, bool *affinity_known)
{
	char cpus[256];
	int t;

	if (sscanf(text, "rtsched watch: tid %d cpus %255s", &t, cpus) != 2 || t <= 0)
		return -EINVAL;
	*tid = t;
	*affinity_known = !rt_cpus_parse_set(cpus, affinity);
	return 0;
}

/**
 * trace_regime_read - read a marker of the RT bandwidth limits (TRACE_REGIME_MARK)
 *
 * Returns 0, or -EINVAL when @text is another marker.
 */
int trace_regime_read(const char *text, enum rt_bw_regime *regime, unsigned long long *limit_ns)
{
	char name[32];

	if (sscanf(text, "rtsched bandwidth: %31s limit_ns %llu", name, limit_ns) != 2)
		return -EINVAL;
	*regime = rt_bw_regime_of(name);
	return 0;
}

/* Make room in @t for CPU @cpu and node @node; -ENOMEM. */
static int grow(struct rt_topology *t, int cpu, int nodes)
{
	struct rt_cpu_place *p;
	int *d, c;

	if (cpu >= t->nr_cpus) {
		p = realloc(t->cpu, (size_t)(cpu + 1) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		for (c = t->nr_cpus; c <= cpu; c++)
			p[c] = (struct rt_cpu_place){ -1, -1, -1, -1 };
		t->cpu = p;
		t->nr_cpus = cpu + 1;
	}
	if (nodes > t->nr_nodes) {
		d = calloc((size_t)nodes * (size_t)nodes, sizeof(*d));
		if (!d)
			return -ENOMEM;
		free(t->distance);
		t->distance = d;
		t->nr_nodes = nodes;
	}
	return 0;
}

/**
 * trace_topology_read - read a marker of the topology (TRACE_TOPOLOGY_MARK
 * or TRACE_CPU_MARK) into @t, which starts zeroed and grows as CPUs come
 * (rt_topology_free() frees it)
 *
 * Returns 0, -EINVAL when @text is another marker, -ENOMEM.
 */
int trace_topology_read(const char *text, struct rt_topology *t)
{
	struct rt_cpu_place p;
	int cpu, level, nodes, i, ret;
	char dist[1024], *s, *end;

	if (sscanf(text, "rtsched cpu %d: core %d cache %d package %d node %d", &cpu, &p.core,
		   &p.cache, &p.package, &p.node) == 5) {
		if (cpu < 0 || cpu > 1 << 16 || p.node < -1 || p.node > 1 << 10)
			return -EINVAL;
		ret = grow(t, cpu, p.node + 1);
		if (!ret)
			t->cpu[cpu] = p;
		return ret;
	}
	if (sscanf(text, "rtsched topology: cache_level %d nodes %d distances %1023s", &level,
		   &nodes, dist) != 3 || nodes < 1 || nodes > 1 << 10)
		return -EINVAL;
	t->cache_level = level;
	ret = grow(t, -1, nodes);
	for (i = 0, s = dist; !ret && i < nodes * nodes && *s != '-'; i++, s = end + 1) {
		t->distance[i] = (int)strtol(s, &end, 10);
		if (end == s || (*end != ',' && *end))
			break;
		if (!*end)
			break;
	}
	return ret;
}
