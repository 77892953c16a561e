/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PI_STRESS_H
#define PI_STRESS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cli.h"
#include "rt_cpus.h"
#include "rt_hist.h"
#include "rt_procstat.h"
#include "rt_stop.h"
#include "rt_tracer.h"
#include "rt_work.h"

enum pis_role { PIS_LOW, PIS_MEDIUM, PIS_HIGH, PIS_ROLES };

/* What the command line asked for. */
struct pis_cfg {
	int nr_groups;			/* -g, --groups */
	int64_t inversions;		/* -i, --inversions: per group; 0 for no limit */
	int64_t duration_ns;		/* -d, --duration; 0 for no limit */
	bool uniprocessor;		/* -u, --uniprocessor: every thread on one CPU */
	bool pi;			/* false with --no-pi: the control run */
	int64_t watchdog_ns;		/* -w, --watchdog: no progress for this long fails */
	int64_t hold_ns;		/* --hold: low's work once boosted, before unlocking */
	int64_t wait_bound_ns;		/* --wait-bound: the longest the high thread may wait */
	bool enforce_bound;		/* --wait-bound given: a longer wait fails the run */
	int base_prio;			/* -b, --base-prio: low; medium +1, high +2 */
	struct bitmask *cpus;		/* -c, --cpus, else the usable CPUs */
	struct cli_common common;	/* -q, -r, --json and the rest every program has */
	bool set_groups;
};

struct pis_group;

struct pis_thread {
	struct pis_group *group;
	enum pis_role role;
	pthread_t thread;
	pid_t tid;
	struct rt_counters start, end;	/* read by the thread itself */
	uint64_t iterations;		/* passes it completed */
	int64_t end_ns;
	int64_t win_start, win_end;	/* around its two counter readings */
	atomic_bool finished;
	int err;			/* negative errno of the first failure */
	const char *err_what;
};

/*
 * One inversion group: low, medium and high around one mutex, on one CPU.
 * Each pass: low holds the mutex; the three meet on @locked; high blocks on
 * the mutex while medium, runnable, would starve low; inheritance lifts low
 * above medium, low releases, high takes the mutex. They meet on @done.
 */
struct pis_group {
	struct pis_run *run;
	int id;
	int cpu;
	pthread_mutex_t mutex;
	pthread_barrier_t locked;
	pthread_barrier_t done;
	atomic_uint_fast64_t high_pass;	/* the last pass in which high got the mutex */
	atomic_uint_fast64_t low_pass;	/* the last pass in which low released it */
	atomic_uint_fast64_t progress;	/* passes completed: what the watchdog watches */
	bool go_on;			/* high's decision for the next pass, read after @done */
	bool unresolved;		/* medium stopped spinning only because the run stopped */
	bool stalled;			/* the watchdog saw no progress */
	uint64_t uncontended;		/* passes in which high found the mutex free */
	uint64_t medium_ran;		/* passes in which medium ran while high waited */
	struct rt_hist wait;		/* high's wait for the mutex, ns */
	struct pis_thread threads[PIS_ROLES];
};

struct pis_run {
	const struct pis_cfg *cfg;
	struct rt_work work;
	struct pis_group *groups;
	pthread_barrier_t ready;	/* every thread has its tid */
	pthread_barrier_t start;
	struct rt_tracer *tracer;	/* --trace, or NULL */
	atomic_bool stop;
	int coordinator_cpu;
	int64_t start_ns;
	int64_t end_ns;
	bool mlocked;
	int mlock_err;
	bool denied;			/* creating a SCHED_FIFO thread was refused */
	const struct rt_stop *stop_req;	/* asked from outside (a signal) to stop */
	int interrupted;		/* the signal that stopped the run, or 0 */
};

int pis_group_cpu(const struct pis_cfg *cfg, int group);
int pis_start(struct pis_run *run, char *err, size_t len);
int pis_watch(struct pis_run *run, char *err, size_t len);
void pis_free(struct pis_run *run);
void *pis_thread_main(void *arg);

#endif
