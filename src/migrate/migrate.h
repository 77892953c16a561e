/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MIGRATE_H
#define MIGRATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cli/cli.h"
#include "bench/bench.h"
#include "lib/procstat.h"
#include "lib/work.h"

struct mig_mode;

/* What the command line asked for, with each mode's defaults filled in. */
struct mig_cfg {
	const struct mig_mode *mode;	/* -m, --mode */
	int nr_threads;			/* -t, --threads */
	int nr_locks;			/* -l, --locks */
	bool pi;			/* -p, --pi: PTHREAD_PRIO_INHERIT mutexes */
	int64_t loops;			/* -L, --loops (lockstep, paired) */
	int64_t unit_ns;		/* -u, --unit: one unit of busy work or sleep */
	struct bench_params p;		/* -b (base_prio: thread id runs at base + id), -c,
					 * -q, -r, --json and the rest every program has */
	bool set_threads, set_locks, set_loops;	/* given, not defaulted */
};

/*
 * One benchmark thread: the lifecycle's part (bench_thread, with its
 * iterations: completed passes of the mode's loop) and the lock steps'. The
 * atomics are read by the watchdog and, after a signal, by the main thread
 * while the thread may still run.
 */
struct mig_thread {
	struct bench_thread bt;
	struct mig_run *run;
	int id;				/* 0 is the lowest priority */
	atomic_uint_fast64_t steps;	/* lock steps done: progress for the watchdog */
	atomic_int holds;		/* for the watchdog: the lock it holds + 1, or 0 */
};

/* One run's state, shared by its threads; the driver runs them (runner.h). */
struct mig_run {
	const struct mig_cfg *cfg;
	struct rt_work work;
	pthread_mutex_t *locks;
	int nr_locks;			/* of them, initialised */
	struct mig_thread *threads;
	void *mode_data;
};

struct mig_mode {
	const char *name;
	const char *summary;
	bool timed;			/* a run lasts --duration; else --loops passes */
	/* Fill in defaults for @ncpus CPUs and check the combination. */
	int (*configure)(struct mig_cfg *cfg, int ncpus, char *err, size_t len);
	/* The most CPUs the default shape fits, and in @why the words that say why. */
	int (*fit_cpus)(const struct mig_cfg *cfg, char *why, size_t len);
	/* The longest a run can take when every step is serialised (mig_mul_sat). */
	int64_t (*worst_case_ns)(const struct mig_cfg *cfg);
	int (*setup)(struct mig_run *run);
	int (*body)(struct mig_run *run, struct mig_thread *t);
	void (*teardown)(struct mig_run *run);
};

extern const struct mig_mode mig_lockstep, mig_paired, mig_contention;

/* The longest worst case a deadline can hold (a run start plus it plus a grace). */
#define MIG_WORST_CASE_MAX (INT64_MAX / 2)

/* @a * @b * @c * @d, or INT64_MAX past it: each is in range, their product need not be */
static inline int64_t mig_mul_sat(int64_t a, int64_t b, int64_t c, int64_t d)
{
	int64_t r;

	if (__builtin_mul_overflow(a, b, &r) || __builtin_mul_overflow(r, c, &r) ||
	    __builtin_mul_overflow(r, d, &r))
		return INT64_MAX;
	return r;
}

/* config.c: what the command line makes of the run */
const struct mig_mode *mig_mode_named(const char *name);
int mig_configure(struct mig_cfg *cfg, int ncpus, char *err, size_t len);
int64_t mig_trace_buffer_kb(const struct mig_cfg *cfg);
int64_t mig_trace_run_kb(const struct mig_cfg *cfg);

/* run.c: the lock steps every mode is made of, and the run itself */
int mig_lock(struct mig_run *run, struct mig_thread *t, uint64_t iter, int lock);
int mig_unlock(struct mig_run *run, struct mig_thread *t, uint64_t iter, int lock);
int mig_take(struct mig_run *run, struct mig_thread *t, uint64_t iter, int lock, uint64_t units);
int mig_sleep(struct mig_run *run, struct mig_thread *t, uint64_t iter, uint64_t units);
int mig_wait(struct mig_thread *t, pthread_barrier_t *b);

/* One more pass of the mode's loop; only the thread itself counts. */
static inline void mig_iteration_done(struct mig_thread *t)
{
	bench_thread_count(&t->bt);
}

/* Whether the run asks the threads to stop (the duration, a failure, a signal). */
static inline bool mig_stopping(const struct mig_thread *t)
{
	return bench_thread_stopping(&t->bt);
}

/* config.c: migrate's defaults of the common parameters (-d: contention's) */
extern const struct bench_defaults mig_defaults;

int mig_prepare(const struct bench *b, struct bench_run *r, struct bench_threads *set);
void mig_release(const struct bench *b, struct bench_run *r);

/* watch.c: what the watchdog makes of a stuck run */
int64_t mig_stall_ns(const struct mig_cfg *cfg);
size_t mig_pick_stuck(void *run);
int mig_stalled(void *run, size_t i, int64_t for_ns, char *err, size_t len);
void mig_late(void *run, size_t i, int64_t since_ns, char *err, size_t len);

#endif
