/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PI_STRESS_H
#define PI_STRESS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bench/bench.h"
#include "lib/clock.h"
#include "lib/cpus.h"
#include "lib/hist.h"
#include "lib/procstat.h"
#include "lib/work.h"

enum pis_role { PIS_LOW, PIS_MEDIUM, PIS_HIGH, PIS_ROLES };
extern const char *const pis_role_name[PIS_ROLES];	/* "low", "medium", "high" */

/* What the command line asked for. */
struct pis_cfg {
	int nr_groups;			/* -g, --groups */
	int64_t inversions;		/* -i, --inversions: per group; 0 for no limit */
	bool uniprocessor;		/* -u, --uniprocessor: every thread on one CPU */
	bool spread;			/* --spread: every thread free on every CPU */
	bool pi;			/* false with --no-pi: the control run */
	int64_t watchdog_ns;		/* -w, --watchdog: no progress for this long fails */
	int64_t hold_ns;		/* --hold: low's work once boosted, before unlocking */
	int64_t wait_bound_ns;		/* --wait-bound: the longest the high thread may wait */
	bool enforce_bound;		/* --wait-bound given: a longer wait fails the run */
	bool apart;			/* the coordinator is on a housekeeping CPU (its
					 * p.coordinator_cpu), else on the first of p.cpus */
	struct bench_params p;		/* -b (base_prio: low; medium +1, high +2), -c, -q,
					 * -r, --json and the rest every program has */
	bool set_groups;		/* given, not defaulted */
	bool set_watchdog;		/* -w given: refused when the holds outlast it */
	int queued_holds;		/* the groups whose holds can queue on one CPU */
	bool watchdog_grown;		/* without -w, grown to twice their holds */
};

/* Without --wait-bound, the waits reported: those this much over --hold. */
#define PIS_DEFAULT_REPORT_NS (5 * RT_NSEC_PER_MSEC)

struct pis_group;

struct pis_thread {
	struct bench_thread bt;
	struct pis_group *group;
	enum pis_role role;		/* bt.iterations: the passes it completed */
};

/*
 * One inversion group: low, medium and high around one mutex, on one CPU.
 * Each pass: low holds the mutex; the three meet on @locked; high blocks on
 * the mutex while medium, runnable, would starve low; inheritance lifts low
 * above medium, low releases, high takes the mutex. They meet on @done.
 * With --spread the three may run on any CPU: medium starves low only when
 * the other groups' threads hold every other CPU, and may run meanwhile.
 */
struct pis_group {
	struct pis_run *run;
	int id;
	int cpu;			/* -1 with --spread */
	pthread_mutex_t mutex;
	pthread_barrier_t locked;
	pthread_barrier_t done;
	atomic_uint_fast64_t high_pass;	/* the last pass in which high got the mutex */
	atomic_uint_fast64_t low_pass;	/* the last pass in which low released it */
	atomic_uint_fast64_t progress;	/* passes completed: what the watchdog watches */
	bool go_on;			/* high's decision for the next pass, read after @done */
	bool unresolved;		/* medium stopped spinning only because the run stopped */
	bool stalled;			/* the watchdog saw no progress */
	atomic_bool spinning;		/* medium spins, high waiting: an inversion pending */
	int withheld;			/* stalled with this role's thread runnable and no
					 * inversion pending (run.c's withheld()); -1 none */
	uint64_t uncontended;		/* passes in which high found the mutex free */
	uint64_t medium_ran;		/* passes in which medium ran while high waited */
	struct rt_hist wait;		/* high's wait for the mutex, ns */
	struct pis_thread threads[PIS_ROLES];
};

/* One run's state, shared by its groups; the driver runs their threads (runner.h). */
struct pis_run {
	const struct pis_cfg *cfg;
	struct rt_work work;
	struct pis_group *groups;
	int nr_groups;			/* of them, set up */
};

/* What one run left of a group, kept after its threads are gone (bench_run.own). */
struct pis_result {
	int cpu;			/* -1 with --spread */
	uint64_t inversions;
	double seconds;		/* the start barrier to the group's last thread's end */
	struct rt_hist_sum wait;	/* high's waits for the mutex, ns */
	bool stalled, unresolved;
	int withheld;			/* the group's, -1 none */
	uint64_t medium_ran, uncontended;
};

/* config.c: what the command line makes of the run */
extern const struct bench_defaults pis_defaults;
int pis_group_cpu(const struct pis_cfg *cfg, int group);
int pis_group_capacity(const struct pis_cfg *cfg, char *why, size_t len);
int pis_configure(struct pis_cfg *cfg, char *err, size_t len);
const char *pis_place(int cpu, char *buf, size_t len);
int64_t pis_trace_buffer_kb(const struct pis_cfg *cfg);
int64_t pis_trace_run_kb(const struct pis_cfg *cfg);

/* run.c, group.c: the run */
int pis_prepare(const struct bench *b, struct bench_run *r, struct bench_threads *set);
void pis_collect(const struct bench *b, struct bench_run *r);
void pis_release(const struct bench *b, struct bench_run *r);
int pis_thread_body(struct bench_thread *bt);

#endif
