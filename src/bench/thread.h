/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The life every benchmark thread shares, whatever it does in between:
 * created at its SCHED_FIFO priority with signals blocked, it takes its tid,
 * waits at the gate with the others, reads its counters at the start and at
 * the end of its own window, records its first failure, and leaves
 * SCHED_FIFO. The coordinator locks memory and opens the gate.
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

#include "rt_procstat.h"
#include "rt_report.h"

struct rt_tracer;

/* A thread's window for the trace analysis: its tid, its times, its /proc count. */
struct bench_window {
	pid_t tid;
	int64_t start, end;		/* around its two counter readings, CLOCK_MONOTONIC */
	uint64_t proc_migrations;	/* the table's migrated */
	cpu_set_t affinity;		/* the CPUs it could run on, */
	bool affinity_known;		/* when known (placement) */
};

/* The start of a run: every thread has its tid (ready), then the run begins (start). */
struct bench_gate {
	pthread_barrier_t ready;
	pthread_barrier_t start;
};

/*
 * One benchmark thread's part that the lifecycle owns. Written by the thread
 * itself until it is joined, except the atomics, which a watchdog reads, and
 * the end of a thread abandoned after a signal's grace (bench_thread_claim_end).
 */
struct bench_thread {
	pthread_t thread;
	pid_t tid;
	atomic_bool *stop;		/* the run's: a failure stops it */
	struct rt_counters start, end;	/* read by the thread itself */
	int64_t end_ns;			/* CLOCK_MONOTONIC when it stopped */
	int64_t win_start, win_end;	/* around its two counter readings */
	cpu_set_t affinity;		/* read by the thread as the run starts */
	bool affinity_known;
	atomic_bool waiting;		/* in a barrier (or a lock the program marks) */
	atomic_bool end_claimed;	/* its end is being read: by itself, or by main */
	atomic_bool finished;		/* its end counters are read */
	bool abandoned;			/* main read its end: it ran on past the grace */
	int err;			/* negative errno of the first failure */
	const char *err_what;		/* the call that failed */
};

int bench_gate_init(struct bench_gate *g, size_t nr_threads);
void bench_gate_destroy(struct bench_gate *g);

int bench_attr_init(pthread_attr_t *attr);
int bench_thread_create(struct bench_thread *t, pthread_attr_t *attr, int prio,
			void *(*fn)(void *), void *arg);

int bench_thread_fail(struct bench_thread *t, const char *what, int err);
int bench_thread_wait(struct bench_thread *t, pthread_barrier_t *b);
int bench_thread_begin(struct bench_thread *t, struct bench_gate *gate);
void bench_thread_end(struct bench_thread *t);
void bench_thread_exit(struct bench_thread *t, sem_t *done);
bool bench_thread_abandon(struct bench_thread *t);
bool bench_thread_row(const struct bench_thread *t, uint64_t iterations, struct rt_row *row,
		      struct bench_window *win);

int bench_release(struct bench_gate *gate, struct rt_tracer *tracer,
		  struct bench_thread *(*nth)(void *ctx, size_t i), void *ctx, size_t nr_threads,
		  int *mlock_err, int64_t *start_ns, char *err, size_t len);

#endif
