/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The life every benchmark thread shares, whatever it does in between: it
 * takes its tid, reads its counters at the start and at the end of its own
 * window, records its first failure, and leaves SCHED_FIFO. The run that
 * creates, gates and joins the threads is the driver's (runner.h).
 */
#ifndef BENCH_THREAD_H
#define BENCH_THREAD_H

#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "trace/analysis.h"
#include "lib/procstat.h"
#include "lib/report.h"
#include "lib/work.h"

/*
 * One benchmark thread: what the benchmark describes before the run (the
 * fields marked "described"), then the lifecycle's part. Written by the
 * thread itself until it is joined, except the atomics, which a watchdog
 * reads, and the end of a thread abandoned after a signal's grace
 * (bench_thread_abandon).
 */
struct bench_thread {
	int prio;			/* described: its SCHED_FIFO priority */
	int cpu;			/* described: its one CPU, or -1: the benchmark's CPUs */
	int (*body)(struct bench_thread *t);	/* described: its work, from the gate to
						 * its end; 0, or bench_thread_fail()'s */
	atomic_uint_fast64_t *progress;	/* described: what a watchdog watches (threads may
					 * share one); NULL: its iterations */
	atomic_uint_fast64_t iterations;	/* the table's: counted by the thread itself */
	atomic_uint_fast64_t cpu_changes;	/* sched_getcpu() changes it saw (no /proc sched) */
	atomic_uint_fast64_t busy_units;	/* units of busy work done (bench_thread_busy) */
	atomic_uint_fast64_t busy_loops;	/* the loops they took */
	int last_cpu;
	pthread_t thread;
	pid_t tid;
	atomic_bool *stop;		/* the run's: a failure stops it */
	struct bench_runner *runner;	/* the run it belongs to (runner.c's) */
	struct rt_counters start, end;	/* read by the thread itself */
	int64_t end_ns;			/* CLOCK_MONOTONIC when it stopped */
	int64_t win_start, win_end;	/* around its two counter readings */
	cpu_set_t affinity;		/* read by the thread as the run starts */
	bool affinity_known;
	atomic_bool waiting;		/* in a barrier (or a lock the program marks) */
	atomic_bool end_claimed;	/* its end is being read: by itself, or by main */
	atomic_bool opened;		/* its window is open: its start counters are read */
	atomic_bool finished;		/* its end counters are read */
	bool abandoned;			/* main read its end: it ran on past the grace */
	bool unopened;			/* abandoned before its window opened: no row */
	int err;			/* negative errno of the first failure */
	const char *err_what;		/* the call that failed */
};

/* @units units of busy work, tallied: how fast the CPU ran (bench_machine). */
static inline void bench_thread_busy(struct bench_thread *t, const struct rt_work *w,
				     uint64_t units)
{
	uint64_t loops = rt_busy_loop(w, units);

	atomic_store_explicit(&t->busy_loops,
			      atomic_load_explicit(&t->busy_loops, memory_order_relaxed) + loops,
			      memory_order_relaxed);
	atomic_store_explicit(&t->busy_units,
			      atomic_load_explicit(&t->busy_units, memory_order_relaxed) + units,
			      memory_order_relaxed);
}

#ifndef container_of
/* The structure of type @type whose member @member is at @ptr. */
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
#endif

/* One more pass of the thread's loop, counted by the thread itself. */
static inline void bench_thread_count(struct bench_thread *t)
{
	atomic_store_explicit(&t->iterations,
			      atomic_load_explicit(&t->iterations, memory_order_relaxed) + 1,
			      memory_order_relaxed);
}

/* Whether the run asks its threads to stop: a duration, a failure, a signal. */
static inline bool bench_thread_stopping(const struct bench_thread *t)
{
	return atomic_load_explicit(t->stop, memory_order_relaxed);
}

void bench_thread_note_cpu(struct bench_thread *t);
int bench_thread_fail(struct bench_thread *t, const char *what, int err);
int bench_thread_wait(struct bench_thread *t, pthread_barrier_t *b);
void bench_thread_setup(struct bench_thread *t);
int bench_thread_open(struct bench_thread *t);
void bench_thread_end(struct bench_thread *t);
void bench_thread_exit(struct bench_thread *t, sem_t *done);
bool bench_thread_abandon(struct bench_thread *t);
bool bench_thread_row(const struct bench_thread *t, struct rt_row *row,
		      struct trace_window *win);

#endif
