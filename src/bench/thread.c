// SPDX-License-Identifier: GPL-2.0-only
/*
 * The benchmark thread's lifecycle: its window, its counters, its failure,
 * its end.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/thread.h"
#include "lib/clock.h"
#include "lib/sched.h"
#include "lib/sync.h"
#include "lib/work.h"

#define PROCSTAT_WHAT "reading /proc/self/task/TID/{status,sched}"

/*
 * A migration the thread can see itself, for kernels without /proc/.../sched:
 * noted where it wakes (the driver notes it as the run starts)
 */
void bench_thread_note_cpu(struct bench_thread *t)
{
	int cpu = sched_getcpu();

	if (cpu >= 0 && cpu != t->last_cpu) {
		if (t->last_cpu >= 0)
			atomic_store_explicit(&t->cpu_changes,
					      atomic_load_explicit(&t->cpu_changes,
								   memory_order_relaxed) + 1,
					      memory_order_relaxed);
		t->last_cpu = cpu;
	}
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
 * bench_thread_setup - the thread's first step: its tid, its CPUs, a precise timer
 *
 * A failure is recorded (bench_thread_open returns it): the thread still
 * takes its place at the gate, which counts it.
 */
void bench_thread_setup(struct bench_thread *t)
{
	int ret;

	t->tid = gettid();
	t->last_cpu = -1;
	/* what placement is measured against: nothing here changes it later */
	t->affinity_known = !sched_getaffinity(0, sizeof(t->affinity), &t->affinity);
	ret = rt_work_thread_init();
	if (ret)
		bench_thread_fail(t, "prctl(PR_SET_TIMERSLACK)", ret);
}

/**
 * bench_thread_open - through the gate: the window opens on its start counters
 *
 * Counters are read by each thread for itself: /proc of a running thread is
 * read by nobody else during the run. Returns 0 or the recorded negative errno.
 */
int bench_thread_open(struct bench_thread *t)
{
	int ret;

	bench_thread_note_cpu(t);
	t->win_start = rt_now_ns(CLOCK_MONOTONIC);
	ret = rt_procstat_read("/proc", t->tid, &t->start);
	/* what the coordinator may read if it abandons the thread (bench_thread_abandon) */
	atomic_store(&t->opened, true);
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
 * while still above the CPUs' other work, then out of SCHED_FIFO.
 */
void bench_thread_exit(struct bench_thread *t, sem_t *done)
{
	atomic_store(&t->finished, true);
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
	/* its start, published by the thread when its window opened: else none to read */
	t->unopened = !atomic_load(&t->opened);
	if (t->unopened)
		memset(&t->end, 0, sizeof(t->end));
	else if (rt_procstat_read("/proc", t->tid, &t->end))
		t->end = t->start;
	return true;
}

/**
 * bench_thread_row - @t's row of the table and its window for the trace
 * (when @win is not NULL)
 *
 * Returns whether the kernel counted its migrations (/proc/.../sched).
 */
bool bench_thread_row(const struct bench_thread *t, struct rt_row *row,
		      struct trace_window *win)
{
	struct rt_counters d = { 0 };

	if (!t->unopened)
		rt_counters_delta(&t->end, &t->start, &d);
	*row = (struct rt_row){ d.vol, d.nonvol, d.migrations,
				atomic_load_explicit(&t->iterations, memory_order_relaxed) };
	if (win)
		*win = (struct trace_window){ t->tid, t->unopened ? t->win_end : t->win_start,
					      t->win_end, d.migrations, t->affinity,
					      t->affinity_known };
	return t->unopened || d.have_migrations;
}
