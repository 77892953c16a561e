// SPDX-License-Identifier: GPL-2.0-only
/*
 * The windows' markers (window.h), written at the end of a run and read
 * from a trace.dat.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rt_cpus.h"
#include "rt_tracemark.h"
#include "window.h"

/**
 * trace_window_mark_all - write run @run's windows into the trace, one
 * marker per thread (TRACE_WINDOW_MARK) after one of the kernel's RT
 * bandwidth limits (TRACE_REGIME_MARK, @regime and @limit_ns), into every
 * trace_marker open (rt_tracemark_all()): a trace.dat then says which
 * threads and times its tables are of, and how to read the limits' time,
 * for an analysis of the file alone: --trace's own, and a user's trace-cmd
 * record around the benchmark (the top instance's marker)
 */
void trace_window_mark_all(int run, const struct trace_window *w, size_t n,
			   enum rt_bw_regime regime, uint64_t limit_ns)
{
	char cpus[1024];
	size_t i;

	rt_tracemark_all(TRACE_REGIME_MARK, rt_bw_regime_names[regime],
			 (unsigned long long)limit_ns);
	for (i = 0; i < n; i++) {
		if (!w[i].affinity_known || rt_cpus_format_set(&w[i].affinity, cpus, sizeof(cpus)) < 0 ||
		    strlen(cpus) + 1 >= sizeof(cpus))
			snprintf(cpus, sizeof(cpus), "?");
		rt_tracemark_all(TRACE_WINDOW_MARK TRACE_WINDOW_CPUS, run, i, (int)w[i].tid,
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
