// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run every mode shares: lock steps with their trace markers, benchmark
 * threads with their counters, the start barrier and a watchdog on the end.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "migrate.h"
#include "run.h"
#include "rt_clock.h"
#include "rt_cpus.h"
#include "rt_sched.h"
#include "rt_sync.h"
#include "rt_tracemark.h"

/* Time allowed past the expected end before the watchdog calls a thread stuck. */
#define WATCHDOG_GRACE_NS (5 * RT_NSEC_PER_SEC)
/* After a signal, how long the threads get to stop. */
#define SIGNAL_GRACE_NS (RT_NSEC_PER_SEC / 2)

/* Count a migration the thread can see itself, for kernels without /proc/.../sched. */
static void note_cpu(struct mig_thread *t)
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

int mig_lock(struct mig_run *run, struct mig_thread *t, uint64_t iter, int lock)
{
	int ret;

	rt_tracemark("thread %d iter %llu, taking lock %d\n", t->id, (unsigned long long)iter,
		     lock);
	atomic_store_explicit(&t->bt.waiting, true, memory_order_relaxed);
	ret = rt_mutex_lock(&run->locks[lock]);
	atomic_store_explicit(&t->bt.waiting, false, memory_order_relaxed);
	if (ret)
		return bench_thread_fail(&t->bt, "pthread_mutex_lock", ret);
	atomic_store_explicit(&t->holds, lock + 1, memory_order_relaxed);
	rt_tracemark("thread %d iter %llu, took lock %d\n", t->id, (unsigned long long)iter, lock);
	note_cpu(t);
	return 0;
}

int mig_unlock(struct mig_run *run, struct mig_thread *t, uint64_t iter, int lock)
{
	int ret;

	rt_tracemark("thread %d iter %llu, unlock lock %d\n", t->id, (unsigned long long)iter,
		     lock);
	atomic_store_explicit(&t->holds, 0, memory_order_relaxed);
	ret = rt_mutex_unlock(&run->locks[lock]);
	if (ret)
		return bench_thread_fail(&t->bt, "pthread_mutex_unlock", ret);
	atomic_fetch_add_explicit(&t->steps, 1, memory_order_relaxed);
	return 0;
}

/**
 * mig_take - take @lock, do @units of busy work holding it, release it
 *
 * Returns 0 or the negative errno recorded by mig_fail().
 */
int mig_take(struct mig_run *run, struct mig_thread *t, uint64_t iter, int lock, uint64_t units)
{
	int ret = mig_lock(run, t, iter, lock);

	if (ret)
		return ret;
	rt_busy_loop(&run->work, units);
	return mig_unlock(run, t, iter, lock);
}

/**
 * mig_sleep - sleep @units units (none for 0), marking it in the trace
 */
int mig_sleep(struct mig_run *run, struct mig_thread *t, uint64_t iter, uint64_t units)
{
	int ret;

	rt_tracemark("thread %d iter %llu sleeping\n", t->id, (unsigned long long)iter);
	if (!units)
		return 0;
	ret = rt_sleep_ns((int64_t)units * run->work.unit_ns);
	if (ret)
		return bench_thread_fail(&t->bt, "clock_nanosleep", ret);
	note_cpu(t);
	return 0;
}

/**
 * mig_wait - wait on barrier @b; Returns 0 or the recorded negative errno
 */
int mig_wait(struct mig_thread *t, pthread_barrier_t *b)
{
	int ret = bench_thread_wait(&t->bt, b);

	if (!ret)
		note_cpu(t);
	return ret;
}

/* A benchmark thread: the shared lifecycle around the mode's body. */
static void *thread_main(void *arg)
{
	struct mig_thread *t = arg;
	struct mig_run *run = t->run;

	t->last_cpu = -1;
	if (!bench_thread_begin(&t->bt, &run->gate)) {
		note_cpu(t);
		run->cfg->mode->body(run, t);
		/* after a signal's grace the main thread may have read the end for us */
		bench_thread_end(&t->bt);
	}
	bench_thread_exit(&t->bt, &run->done);
	return NULL;
}

static int alloc_run(struct mig_run *run)
{
	const struct mig_cfg *cfg = run->cfg;
	int i, ret;

	run->threads = calloc((size_t)cfg->nr_threads, sizeof(*run->threads));
	run->locks = calloc((size_t)cfg->nr_locks, sizeof(*run->locks));
	if (!run->threads || !run->locks)
		return -ENOMEM;
	for (i = 0; i < cfg->nr_locks; i++) {
		ret = rt_mutex_init(&run->locks[i], cfg->pi);
		if (ret)
			return ret;
	}
	if (sem_init(&run->done, 0, 0))
		return -errno;
	ret = bench_gate_init(&run->gate, (size_t)cfg->nr_threads);
	if (ret)
		return ret;
	return cfg->mode->setup ? cfg->mode->setup(run) : 0;
}

static int start_threads(struct mig_run *run, int *started, char *err, size_t len)
{
	const struct mig_cfg *cfg = run->cfg;
	pthread_attr_t attr;
	int i, ret;

	ret = bench_attr_init(&attr);
	if (!ret)
		ret = rt_cpus_attr_affinity(&attr, cfg->cpus);
	if (ret) {
		snprintf(err, len, "thread attributes: %s", strerror(-ret));
		return ret;
	}
	for (i = 0; i < cfg->nr_threads; i++) {
		struct mig_thread *t = &run->threads[i];

		t->run = run;
		t->id = i;
		t->bt.stop = &run->stop;
		ret = bench_thread_create(&t->bt, &attr, cfg->base_prio + i, thread_main, t);
		if (ret) {
			snprintf(err, len, "creating thread %d at SCHED_FIFO %d: %s", i,
				 cfg->base_prio + i, strerror(-ret));
			break;
		}
		(*started)++;
	}
	pthread_attr_destroy(&attr);
	return ret;
}

/* What the watchdog saw: the thread it names, in @err; the run is stopped. */
static void report_stuck(struct mig_run *run, int64_t deadline, char *err, size_t len)
{
	const struct mig_cfg *cfg = run->cfg;
	int stalled = atomic_load(&run->stalled);
	const struct mig_thread *t = run->threads;
	int n, holds;

	atomic_store(&run->stop, true);
	if (stalled) {
		t = &run->threads[stalled - 1];
		holds = atomic_load(&t->holds);
		n = snprintf(err, len, "watchdog: no lock step for %.1f s: thread %d (tid %d, "
			     "SCHED_FIFO %d) ", (double)run->stall_ns / RT_NSEC_PER_SEC, t->id,
			     (int)t->bt.tid, cfg->base_prio + t->id);
		if (n > 0 && (size_t)n < len && holds)
			snprintf(err + n, len - (size_t)n,
				 "holds lock %d and does not let go; %llu lock steps done", holds - 1,
				 (unsigned long long)atomic_load(&t->steps));
		else if (n > 0 && (size_t)n < len)
			snprintf(err + n, len - (size_t)n,
				 "is stuck outside the locks; %llu lock steps done",
				 (unsigned long long)atomic_load(&t->steps));
	} else {
		/* past the deadline: the one the others wait for, as the watchdog names it */
		t = &run->threads[mig_pick_stuck(run)];
		snprintf(err, len,
			 "watchdog: thread %d (tid %d, SCHED_FIFO %d) did not finish within %.1f s "
			 "of the start; %llu lock steps done",
			 t->id, (int)t->bt.tid, cfg->base_prio + t->id,
			 (double)(deadline - run->start_ns) / RT_NSEC_PER_SEC,
			 (unsigned long long)atomic_load(&t->steps));
	}
}

/*
 * Wait through the run (contention), then for the threads to end, until
 * @deadline. Without periodic wake-ups: the main thread runs above
 * the benchmark threads, and waking during the run would preempt one of
 * them and show up in the table. A signal ends the sleep and the wait
 * (no SA_RESTART): the run is stopped and the threads get SIGNAL_GRACE_NS.
 *
 * Returns 0 when every thread ended (or, after a signal, once the grace is
 * over), -ETIMEDOUT when the deadline passed first.
 */
static int wait_threads(struct mig_run *run, int started, int64_t deadline,
			struct bench_run *out)
{
	const struct mig_cfg *cfg = run->cfg;
	bool measuring = cfg->mode->timed;
	struct timespec ts;
	int finished = 0;
	int64_t until;

	for (;;) {
		if (rt_stop_now(run->stop_req))
			return -EINTR;
		if (rt_stop_signal(run->stop_req) && !out->interrupted) {
			int64_t grace = rt_now_ns(CLOCK_MONOTONIC) + SIGNAL_GRACE_NS;

			out->interrupted = rt_stop_signal(run->stop_req);
			/* timed: before its duration was over; else: before its threads ended */
			out->cut_short = measuring || (!cfg->mode->timed && finished < started);
			measuring = false;
			atomic_store(&run->stop, true);
			deadline = grace < deadline ? grace : deadline;
		}
		if (finished == started)
			return 0;
		until = measuring ? run->start_ns + cfg->duration_ns : deadline;
		/*
		 * One wait for the duration and for the ends, which a signal
		 * interrupts: sem_timedwait() takes CLOCK_REALTIME; neither
		 * sem_clockwait() nor clock_nanosleep() would do, as
		 * ThreadSanitizer does not treat them as blocking calls and
		 * holds back a signal that arrives during them until they end.
		 */
		ts = rt_ns_to_ts(rt_now_ns(CLOCK_REALTIME) + until - rt_now_ns(CLOCK_MONOTONIC));
		if (!sem_timedwait(&run->done, &ts)) {
			if (atomic_load(&run->stalled))
				return -ETIMEDOUT;
			finished++;
		} else if (errno == ETIMEDOUT && !measuring) {
			return out->interrupted ? 0 : -ETIMEDOUT;
		} else if (errno != ETIMEDOUT && errno != EINTR) {
			return -errno;
		}
		/* the duration is over, or a thread ended early (it failed) */
		if (measuring && (finished || rt_now_ns(CLOCK_MONOTONIC) >= until)) {
			measuring = false;
			atomic_store(&run->stop, true);
		}
	}
}

/* The end counters of threads still running after a signal's grace, read by main. */
static void read_unfinished(struct mig_run *run, struct bench_run *out)
{
	int i;

	for (i = 0; i < run->cfg->nr_threads; i++)
		out->unfinished += bench_thread_abandon(&run->threads[i].bt);
}

static void free_run(struct mig_run *run)
{
	int i;

	if (run->cfg->mode->teardown)
		run->cfg->mode->teardown(run);
	if (run->locks) {
		for (i = 0; i < run->cfg->nr_locks; i++)
			rt_mutex_destroy(&run->locks[i]);
	}
	sem_destroy(&run->done);
	free(run->locks);
	free(run->threads);
	run->locks = NULL;
	run->threads = NULL;
}

static void collect(struct mig_run *run, struct bench_run *out)
{
	int i;

	out->have_migrations = true;
	out->end_ns = run->start_ns;
	for (i = 0; i < run->cfg->nr_threads; i++) {
		const struct mig_thread *t = &run->threads[i];

		out->have_migrations &=
			bench_thread_row(&t->bt, atomic_load_explicit(&t->iterations,
								     memory_order_relaxed),
					 &out->rows[i], out->windows ? &out->windows[i] : NULL);
		if (t->bt.end_ns > out->end_ns)
			out->end_ns = t->bt.end_ns;
	}
	if (!out->have_migrations) {
		for (i = 0; i < run->cfg->nr_threads; i++)
			out->rows[i].migrated = atomic_load_explicit(&run->threads[i].cpu_changes,
								     memory_order_relaxed);
	}
}

static struct bench_thread *nth_thread(void *ctx, size_t i)
{
	return &((struct mig_run *)ctx)->threads[i].bt;
}

/**
 * mig_execute - run the benchmark @run->cfg describes into @out
 *
 * The calling thread must already run SCHED_FIFO above the benchmark
 * threads. It waits on the start barrier with them, sleeps through the run
 * (a timed mode) or until they finish, then joins them with a deadline.
 *
 * Returns 0, or a negative errno with @err saying what failed: -ETIMEDOUT
 * when threads did not finish in time (@err names the one the others wait
 * for; they still run). A first signal (@run->stop_req) ends the run early
 * (@out->interrupted); a second makes it return -EINTR at once, leaving the
 * threads as they are.
 */
int mig_execute(struct mig_run *run, struct bench_run *out, char *err, size_t len)
{
	const struct mig_cfg *cfg = run->cfg;
	int started = 0, i, ret;
	int64_t deadline;

	ret = alloc_run(run);
	if (ret) {
		snprintf(err, len, "setting up locks and barriers: %s", strerror(-ret));
		free_run(run);
		return ret;
	}
	ret = start_threads(run, &started, err, len);
	if (ret) {
		/*
		 * Threads already created wait on the start barrier, which cannot
		 * be cancelled: leave them to the process's exit.
		 */
		if (!started)
			free_run(run);
		out->denied = ret == -EPERM;
		return ret;
	}
	ret = bench_release(&run->gate, run->tracer, nth_thread, run, (size_t)cfg->nr_threads,
			    &out->mlock_err, &run->start_ns, err, len);
	if (ret)
		return ret;
	out->start_ns = run->start_ns;

	deadline = run->start_ns + cfg->mode->worst_case_ns(cfg) + WATCHDOG_GRACE_NS;
	ret = mig_watch_start(run);
	if (ret) {
		atomic_store(&run->stop, true);
		snprintf(err, len, "starting the watchdog thread: %s", strerror(-ret));
		return ret;
	}
	ret = wait_threads(run, started, deadline, out);
	if (ret == -EINTR) {
		/* asked to go at once: the threads, the watchdog are left as they are */
		snprintf(err, len, "stopped by a second signal");
		return ret;
	}
	mig_watch_stop(run, ret != -ETIMEDOUT);
	if (run->tracer)
		rt_tracer_stop(run->tracer);
	if (ret == -ETIMEDOUT) {
		report_stuck(run, deadline, err, len);
		return ret;
	}
	if (ret) {
		snprintf(err, len, "waiting for the threads: %s", strerror(-ret));
		return ret;
	}
	if (out->interrupted)
		read_unfinished(run, out);
	for (i = 0; i < cfg->nr_threads; i++) {
		const struct bench_thread *t = &run->threads[i].bt;

		if (!t->abandoned && t->err) {
			snprintf(err, len, "thread %d: %s: %s", i, t->err_what, strerror(-t->err));
			return t->err;
		}
	}
	/* every thread has posted: joining is immediate, and orders their writes before ours */
	if (!out->unfinished) {
		for (i = 0; i < started; i++)
			pthread_join(run->threads[i].bt.thread, NULL);
	}
	collect(run, out);
	/* threads still running use the run's memory until the process exits */
	if (!out->unfinished)
		free_run(run);
	return 0;
}
