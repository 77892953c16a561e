// SPDX-License-Identifier: GPL-2.0-only
/*
 * The benchmark thread's lifecycle and the gate that lets the threads into
 * the measured run.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "signals.h"
#include "thread.h"
#include "rt_clock.h"
#include "rt_sched.h"
#include "rt_sync.h"
#include "rt_tracer.h"
#include "rt_work.h"

/*
 * Small stacks: with mlockall() every stack page is resident, and the
 * default 8 MiB would lock half a gigabyte at 64 threads. The threads use a
 * few kilobytes (two /proc buffers and a marker line).
 */
#define THREAD_STACK (128 * 1024)

#define PROCSTAT_WHAT "reading /proc/self/task/TID/{status,sched}"

/* Both barriers count the threads and the coordinator. */
int bench_gate_init(struct bench_gate *g, size_t nr_threads)
{
	int ret = rt_barrier_init(&g->ready, (unsigned int)nr_threads + 1);

	return ret ? ret : rt_barrier_init(&g->start, (unsigned int)nr_threads + 1);
}

void bench_gate_destroy(struct bench_gate *g)
{
	rt_barrier_destroy(&g->ready);
	rt_barrier_destroy(&g->start);
}

/* Attributes for benchmark threads: the small stack; the caller adds affinity. */
int bench_attr_init(pthread_attr_t *attr)
{
	int ret = -pthread_attr_init(attr);

	if (!ret)
		ret = -pthread_attr_setstacksize(attr, THREAD_STACK);
	return ret;
}

/**
 * bench_thread_create - start @fn(@arg) at SCHED_FIFO @prio
 *
 * Signals are for the coordinator: the thread is created with them blocked.
 * Returns 0 or a negative errno (-EPERM: SCHED_FIFO refused).
 */
int bench_thread_create(struct bench_thread *t, pthread_attr_t *attr, int prio,
			void *(*fn)(void *), void *arg)
{
	sigset_t old;
	int ret;

	ret = rt_sched_attr_fifo(attr, prio);
	if (ret)
		return ret;
	bench_signals_block(&old);
	ret = -pthread_create(&t->thread, attr, fn, arg);
	bench_signals_restore(&old);
	return ret;
}

/**
 * bench_thread_fail - record the first failure of @t and stop the run
 *
 * Returns @err, so that a thread can "return bench_thread_fail(...)".
 */
int bench_thread_fail(struct bench_thread *t, const char *what, int err)
{
	if (!t->err) {
		t->err = err;
		t->err_what = what;
	}
	atomic_store(t->stop, true);
	return err;
}

/* Wait on @b, marked waiting for a watchdog; Returns 0 or the recorded negative errno. */
int bench_thread_wait(struct bench_thread *t, pthread_barrier_t *b)
{
	int ret;

	atomic_store_explicit(&t->waiting, true, memory_order_relaxed);
	ret = rt_barrier_wait(b);
	atomic_store_explicit(&t->waiting, false, memory_order_relaxed);
	return ret ? bench_thread_fail(t, "pthread_barrier_wait", ret) : 0;
}

/**
 * bench_thread_begin - from the thread's start to the run's: its tid, a
 * precise timer, the gate, then the window opens on its start counters
 *
 * Counters are read by each thread for itself: /proc of a running thread is
 * read by nobody else during the run. Returns 0 or the recorded negative errno.
 */
int bench_thread_begin(struct bench_thread *t, struct bench_gate *gate)
{
	int ret;

	t->tid = gettid();
	/* what placement is measured against: nothing here changes it later */
	t->affinity_known = !sched_getaffinity(0, sizeof(t->affinity), &t->affinity);
	ret = rt_work_thread_init();
	if (ret)
		bench_thread_fail(t, "prctl(PR_SET_TIMERSLACK)", ret);
	ret = bench_thread_wait(t, &gate->ready);
	if (!ret)
		ret = bench_thread_wait(t, &gate->start);
	if (ret)
		return ret;
	t->win_start = rt_now_ns(CLOCK_MONOTONIC);
	ret = rt_procstat_read("/proc", t->tid, &t->start);
	return ret ? bench_thread_fail(t, PROCSTAT_WHAT, ret) : t->err;
}

/* The window closes on the end counters, unless main read them already (bench_thread_abandon). */
void bench_thread_end(struct bench_thread *t)
{
	int ret;

	if (atomic_exchange(&t->end_claimed, true))
		return;
	t->end_ns = rt_now_ns(CLOCK_MONOTONIC);
	ret = rt_procstat_read("/proc", t->tid, &t->end);
	if (ret)
		bench_thread_fail(t, PROCSTAT_WHAT, ret);
	t->win_end = rt_now_ns(CLOCK_MONOTONIC);
}

/*
 * The thread's last step: finished, told to the coordinator through @done
 * (when not NULL) while still above the CPUs' other work, then out of SCHED_FIFO.
 */
void bench_thread_exit(struct bench_thread *t, sem_t *done)
{
	atomic_store(&t->finished, true);
	if (done)
		sem_post(done);
	rt_sched_leave();
}

/**
 * bench_thread_abandon - read the end of a thread still running past a
 * signal's grace, from the coordinator
 *
 * Returns true when it did; false when the thread had finished or was
 * reading its own end (which takes microseconds: it is given them).
 */
bool bench_thread_abandon(struct bench_thread *t)
{
	int n;

	if (atomic_load(&t->finished))
		return false;
	if (atomic_exchange(&t->end_claimed, true)) {
		for (n = 0; n < 10000 && !atomic_load(&t->finished); n++)
			rt_sleep_ns(10000);
		return false;
	}
	t->abandoned = true;
	t->end_ns = t->win_end = rt_now_ns(CLOCK_MONOTONIC);
	if (rt_procstat_read("/proc", t->tid, &t->end))
		t->end = t->start;
	return true;
}

/**
 * bench_thread_row - @t's row of the table, with @iterations, and its
 * window for the trace (when @win is not NULL)
 *
 * Returns whether the kernel counted its migrations (/proc/.../sched).
 */
bool bench_thread_row(const struct bench_thread *t, uint64_t iterations, struct rt_row *row,
		      struct bench_window *win)
{
	struct rt_counters d;

	rt_counters_delta(&t->end, &t->start, &d);
	*row = (struct rt_row){ d.vol, d.nonvol, d.migrations, iterations };
	if (win)
		*win = (struct bench_window){ t->tid, t->win_start, t->win_end, d.migrations,
					      t->affinity, t->affinity_known };
	return d.have_migrations;
}

/**
 * bench_release - lock memory and let the created threads into the run
 *
 * Every stack exists now: memory is locked with MCL_CURRENT (MCL_FUTURE
 * would make later allocations fail under an RLIMIT_MEMLOCK); @mlock_err
 * gets its errno, 0 when locked. Once every thread has its tid (the ready
 * barrier) the trace starts for them (@nth gives thread i), then the start
 * barrier opens the run and @start_ns is its time.
 *
 * Returns 0, or a negative errno with @err saying what failed.
 */
int bench_release(struct bench_gate *gate, struct rt_tracer *tracer,
		  struct bench_thread *(*nth)(void *ctx, size_t i), void *ctx, size_t nr_threads,
		  int *mlock_err, int64_t *start_ns, char *err, size_t len)
{
	pid_t *tids;
	size_t i;
	int ret;

	*mlock_err = mlockall(MCL_CURRENT) ? errno : 0;
	ret = rt_barrier_wait(&gate->ready);
	if (!ret && tracer) {
		tids = calloc(nr_threads, sizeof(*tids));
		ret = -ENOMEM;
		if (tids) {
			for (i = 0; i < nr_threads; i++)
				tids[i] = nth(ctx, i)->tid;
			ret = rt_tracer_begin(tracer, tids, nr_threads);
		}
		free(tids);
		if (ret) {
			snprintf(err, len, "starting the trace: %s", strerror(-ret));
			return ret;
		}
	}
	if (!ret)
		ret = rt_barrier_wait(&gate->start);
	if (ret) {
		snprintf(err, len, "start barrier: %s", strerror(-ret));
		return ret;
	}
	*start_ns = rt_now_ns(CLOCK_MONOTONIC);
	return 0;
}
