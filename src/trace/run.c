// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run's task set for the trace analysis: its threads' windows and
 * affinities, the table's migrations to agree with, the CPUs' placement.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>

#include "trace/analysis.h"
#include "trace/internal/walk.h"

/**
 * trace_run_init - @run's tasks, one per window of @w (@n), before
 * its events; @have_proc: the windows carry /proc's migrations
 *
 * Returns 0 or -ENOMEM. trace_run_free() frees them.
 */
int trace_run_init(struct trace_run *run, const struct trace_window *w, size_t n,
			 bool have_proc)
{
	struct trace_task *tasks;
	struct trace_cpu *cpus;
	uint64_t *mig;
	size_t i, ncpus = 0;
	int c;

	/* the CPUs of the threads' affinities; any CPU when one is not known */
	for (i = 0; i < n; i++) {
		for (c = CPU_SETSIZE - 1; w[i].affinity_known && c >= 0; c--) {
			if (CPU_ISSET(c, &w[i].affinity))
				break;
		}
		ncpus = !w[i].affinity_known ? CPU_SETSIZE :
			ncpus > (size_t)c + 1 ? ncpus : (size_t)c + 1;
	}
	tasks = calloc(n, sizeof(*tasks));
	mig = calloc(n, sizeof(*mig));
	cpus = calloc(ncpus ? ncpus : 1, sizeof(*cpus));
	if (!tasks || !mig || !cpus) {
		free(tasks);
		free(mig);
		free(cpus);
		return -ENOMEM;
	}
	run->tasks = tasks;
	run->proc_migrations = mig;
	run->cpus = cpus;
	run->n = n;
	run->ncpus = ncpus;
	run->have_proc = have_proc;
	for (i = 0; i < n; i++) {
		trace_task_init(&run->tasks[i], w[i].tid, (uint64_t)w[i].start,
				(uint64_t)w[i].end);
		trace_task_affinity(&run->tasks[i], w[i].affinity_known ? &w[i].affinity : NULL);
		run->proc_migrations[i] = w[i].proc_migrations;
	}
	return 0;
}

void trace_run_free(struct trace_run *run)
{
	free(run->tasks);
	free(run->proc_migrations);
	free(run->cpus);
	run->tasks = NULL;
	run->proc_migrations = NULL;
	run->cpus = NULL;
}
