// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run every benchmark shares (runner.h): the threads a benchmark
 * describes, created, gated, released, waited for, watched, abandoned or
 * joined, and their rows.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bench/bench.h"
#include "bench/runner.h"
#include "bench/signals.h"
#include "bench/watch.h"
#include "lib/clock.h"
#include "lib/cpus.h"
#include "lib/sched.h"
#include "lib/sync.h"
#include "trace/record.h"

/*
 * Small stacks: with mlockall() every stack page is resident, and the
 * default 8 MiB would lock half a gigabyte at 64 threads. The threads use a
 * few kilobytes (two /proc buffers and a marker line).
 */
#define THREAD_STACK (128 * 1024)

/*
 * One run's state, the run's own (bench_run.runner). It outlives the run
 * when threads are abandoned: they still use it until the process exits,
 * and a run after one that left threads behind never starts.
 */
struct bench_runner {
	struct bench_threads desc;	/* the benchmark's description, kept */
	const struct bench_threads *set;	/* &desc */
	size_t nr;
	/*
	 * The gate: each thread has its tid (ready), then all start at once.
	 * Barriers, not a mutex and a condition: ThreadSanitizer's runtime
	 * locks spin, and threads of several SCHED_FIFO priorities waking
	 * together on one CPU onto a mutex spun for ever above the one that
	 * held its lock.
	 */
	pthread_barrier_t ready, start;
	atomic_bool off;		/* the run is called off: out of the gate, no body */
	sem_t done;			/* posted by each thread as it ends, and by the watcher */
	atomic_bool stop;		/* the threads leave at their next step */
	struct bench_watcher watcher;
};

static struct bench_thread *nth(const struct bench_runner *R, size_t i)
{
	return bench_threads_nth(R->set, i);
}

static void name_of(const struct bench_runner *R, size_t i, char *buf, size_t len)
{
	if (R->set->name)
		R->set->name(R->set->ctx, i, buf, len);
	else
		snprintf(buf, len, "thread %zu", i);
}

/* A thread at the gate: Returns 0 to go on into the run, -ECANCELED when it is called off. */
static int arrive(struct bench_thread *t)
{
	struct bench_runner *R = t->runner;
	int ret = bench_thread_wait(t, &R->ready);

	if (!ret)
		ret = bench_thread_wait(t, &R->start);
	return !ret && atomic_load(&R->off) ? -ECANCELED : ret;
}

/* A place at the gate for a thread that could not be created, when the run is called off. */
static void *filler(void *arg)
{
	struct bench_runner *R = arg;

	rt_barrier_wait(&R->ready);
	rt_barrier_wait(&R->start);
	return NULL;
}

/* A benchmark thread: the shared lifecycle around the benchmark's body. */
static void *thread_main(void *arg)
{
	struct bench_thread *t = arg;

	bench_thread_setup(t);
	if (!arrive(t) && !bench_thread_open(t)) {
		t->body(t);
		/* after a signal's grace the coordinator may have read the end for us */
		bench_thread_end(t);
	}
	bench_thread_exit(t, &t->runner->done);
	return NULL;
}

static int init(struct bench_runner *R, const struct bench_threads *set, size_t nr)
{
	int ret;

	*R = (struct bench_runner){ .desc = *set, .set = &R->desc, .nr = nr };
	ret = rt_barrier_init(&R->ready, (unsigned int)nr + 1);
	if (!ret)
		ret = rt_barrier_init(&R->start, (unsigned int)nr + 1);
	if (!ret && sem_init(&R->done, 0, 0))
		ret = -errno;
	return ret;
}

/* The run's state gone, once every thread of @out is joined (or none was created). */
static void destroy(struct bench_run *out)
{
	struct bench_runner *R = out->runner;

	sem_destroy(&R->done);
	rt_barrier_destroy(&R->ready);
	rt_barrier_destroy(&R->start);
	free(R);
	out->runner = NULL;
}

/* Thread @t at its priority, on its CPU or the benchmark's, signals blocked. */
static int create(const struct bench *b, struct bench_runner *R, struct bench_thread *t,
		  char *err, size_t len, const char *name)
{
	pthread_attr_t attr;
	sigset_t old;
	int ret;

	ret = -pthread_attr_init(&attr);
	if (!ret)
		ret = rt_sched_attr_stack(&attr, THREAD_STACK);
	if (!ret)
		ret = t->cpu >= 0 ? rt_cpu_attr_pin(&attr, t->cpu) :
				    rt_cpus_attr_affinity(&attr, b->params->cpus);
	if (ret) {
		snprintf(err, len, "thread attributes: %s", strerror(-ret));
		return ret;
	}
	ret = rt_sched_attr_fifo(&attr, t->prio);
	if (!ret) {
		t->stop = &R->stop;
		t->runner = R;
		bench_signals_block(&old);
		ret = -pthread_create(&t->thread, &attr, thread_main, t);
		bench_signals_restore(&old);
	}
	pthread_attr_destroy(&attr);
	if (ret && t->cpu >= 0)
		snprintf(err, len, "creating %s at SCHED_FIFO %d on CPU %d: %s", name, t->prio,
			 t->cpu, strerror(-ret));
	else if (ret)
		snprintf(err, len, "creating %s at SCHED_FIFO %d: %s", name, t->prio,
			 strerror(-ret));
	return ret;
}

/*
 * Call the run off: the @created threads let out of the gate, without their
 * bodies, and joined; the places of those not created filled by SCHED_OTHER
 * threads that only pass it. When a filler cannot be created either, the
 * threads are left at the gate until the process exits. @ready: the
 * coordinator passed the ready barrier already.
 */
static void call_off(struct bench_run *out, size_t created, bool ready)
{
	struct bench_runner *R = out->runner;
	size_t nfill = R->nr - created, i;
	pthread_t *fill = calloc(nfill + 1, sizeof(*fill));
	pthread_attr_t attr;
	sigset_t old;
	int ret;

	atomic_store(&R->off, true);
	ret = fill ? -pthread_attr_init(&attr) : -ENOMEM;
	if (!ret)
		ret = rt_sched_attr_other(&attr);
	bench_signals_block(&old);
	for (i = 0; !ret && i < nfill; i++)
		ret = -pthread_create(&fill[i], &attr, filler, R);
	bench_signals_restore(&old);
	if (fill)
		pthread_attr_destroy(&attr);
	if (ret) {
		free(fill);
		return;
	}
	if (!ready)
		rt_barrier_wait(&R->ready);
	rt_barrier_wait(&R->start);
	for (i = 0; i < created; i++)
		pthread_join(nth(R, i)->thread, NULL);
	for (i = 0; i < nfill; i++)
		pthread_join(fill[i], NULL);
	free(fill);
	destroy(out);
}

/* The live watch of the run's threads, whose tids and CPUs are known now. */
static int live_begin(const struct bench *b, struct bench_run *out, char *err, size_t len)
{
	struct bench_runner *R = out->runner;
	const cpu_set_t **aff = calloc(R->nr, sizeof(*aff));
	pid_t *tids = calloc(R->nr, sizeof(*tids));
	size_t i;
	int ret = -ENOMEM;

	if (tids && aff) {
		for (i = 0; i < R->nr; i++) {
			const struct bench_thread *t = nth(R, i);

			tids[i] = t->tid;
			aff[i] = t->affinity_known ? &t->affinity : NULL;
		}
		ret = bench_live_begin(b->live, (int)(out - b->runs), tids, aff, R->nr, &R->done,
				       err, len);
	} else {
		snprintf(err, len, "out of memory");
	}
	free(tids);
	free(aff);
	return ret;
}

/*
 * Create the threads, lock memory, wait until each has its tid, start the
 * trace for them, release them together. Every stack exists by then: memory
 * is locked with MCL_CURRENT (MCL_FUTURE would make later allocations fail
 * under an RLIMIT_MEMLOCK).
 */
static int start(const struct bench *b, struct bench_run *out, char *err, size_t len)
{
	struct bench_runner *R = out->runner;
	char name[64];
	pid_t *tids;
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < R->nr; i++) {
		name_of(R, i, name, sizeof(name));
		ret = create(b, R, nth(R, i), err, len, name);
	}
	if (ret) {
		out->denied = ret == -EPERM;
		call_off(out, i - 1, false);
		return ret;
	}
	out->mlock_err = mlockall(MCL_CURRENT) ? errno : 0;
	ret = rt_barrier_wait(&R->ready);
	if (ret) {
		snprintf(err, len, "the gate: %s", strerror(-ret));
		return ret;
	}
	if (b->trace) {
		tids = calloc(R->nr, sizeof(*tids));
		ret = -ENOMEM;
		if (tids) {
			for (i = 0; i < R->nr; i++)
				tids[i] = nth(R, i)->tid;
			ret = trace_recording_begin(b->trace, tids, R->nr);
		}
		free(tids);
		if (ret) {
			snprintf(err, len, "starting the trace: %s", strerror(-ret));
			call_off(out, R->nr, true);
			return ret;
		}
	}
	if (b->live) {
		ret = live_begin(b, out, err, len);
		if (ret) {
			call_off(out, R->nr, true);
			return ret;
		}
	}
	/* /proc/stat read before the gate opens, not by the coordinator inside the run */
	bench_machine_start(&out->machine, b->params->cpus);
	ret = rt_barrier_wait(&R->start);
	if (ret) {
		snprintf(err, len, "start barrier: %s", strerror(-ret));
		return ret;
	}
	out->start_ns = rt_now_ns(CLOCK_MONOTONIC);
	bench_live_started(b->live, out->start_ns);
	return 0;
}

/* What the machine gave the threads so far, into @out->machine. */
static void machine_end(const struct bench *b, struct bench_run *out)
{
	const struct bench_runner *R = out->runner;
	uint64_t loops = 0, units = 0;
	size_t i;

	for (i = 0; i < R->nr; i++) {
		loops += atomic_load_explicit(&nth(R, i)->busy_loops, memory_order_relaxed);
		units += atomic_load_explicit(&nth(R, i)->busy_units, memory_order_relaxed);
	}
	bench_machine_end(&out->machine, b->params->cpus, loops, units, b->work.loops_per_unit,
			  b->work.unit_ns);
}

static int64_t after(int64_t t, int64_t ns)
{
	return ns && t < INT64_MAX - ns ? t + ns : INT64_MAX;
}

static int64_t earliest(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* The run is stuck: thread @i (the watchdog's pick) named in @err; it still runs. */
static int late(struct bench_runner *R, int64_t since_ns, char *err, size_t len)
{
	atomic_store(&R->stop, true);
	R->set->late(R->set->ctx, bench_watch_pick(R->set, R->nr), since_ns, err, len);
	return -ETIMEDOUT;
}

/* The threads that have ended: each sets its flag before it posts R->done. */
static size_t count_finished(const struct bench_runner *R)
{
	size_t i, n = 0;

	for (i = 0; i < R->nr; i++)
		n += atomic_load(&nth(R, i)->finished);
	return n;
}

/*
 * Wait through the run, then for the threads to end. One wait on R->done,
 * which the threads' ends, the watcher and a signal interrupt (no
 * SA_RESTART): sem_timedwait() takes CLOCK_REALTIME; neither
 * sem_clockwait() nor clock_nanosleep() would do, as ThreadSanitizer does
 * not treat them as blocking calls and holds back a signal that arrives
 * during them until they end. Without a poll the coordinator, above the
 * threads, wakes only when something is due: waking during the run would
 * preempt one of them and show up in the table.
 *
 * Returns 0 when every thread ended (or, after a signal, once its grace is
 * over), -EINTR on a second signal, -ETIMEDOUT when the run is stuck.
 */
static int wait_run(const struct bench *b, struct bench_run *out, char *err, size_t len)
{
	struct bench_runner *R = out->runner;
	const struct bench_threads *s = R->set;
	int64_t start = out->start_ns, now, until, ts_ns;
	int64_t measured = s->duration_ns ? after(start, s->duration_ns) : INT64_MAX;
	int64_t limit = after(start, s->limit_ns), stop_by = INT64_MAX, abandon_at = INT64_MAX;
	int64_t poll = s->watch == BENCH_WATCH_POLL ? after(start, s->poll_ns) : INT64_MAX;
	bool measuring = s->duration_ns > 0, stopped = false, any;
	size_t finished = 0, stalled;
	struct timespec ts;
	int ret;

	for (;;) {
		finished = count_finished(R);
		if (rt_stop_now(b->stop)) {
			snprintf(err, len, "stopped by a second signal");
			return -EINTR;
		}
		now = rt_now_ns(CLOCK_MONOTONIC);
		if (rt_stop_signal(b->stop) && !out->interrupted) {
			out->interrupted = rt_stop_signal(b->stop);
			/* timed: before its duration was over; else: before its threads ended */
			out->cut_short = measuring || (!s->duration_ns && finished < R->nr);
			if (s->signal_grace_ns)
				abandon_at = after(now, s->signal_grace_ns);
			atomic_store(&R->stop, true);
		}
		if (finished == R->nr)
			return 0;
		if (!out->threshold_stop && bench_live_stopping(b->live)) {
			/* a threshold's stop: the run ends here, as by its duration */
			out->threshold_stop = true;
			out->cut_short = measuring;
			atomic_store(&R->stop, true);
		}
		stalled = atomic_exchange(&R->watcher.stalled, 0);
		if (stalled) {
			ret = s->stalled(s->ctx, stalled - 1, R->watcher.for_ns, err, len);
			atomic_store(&R->stop, true);
			if (ret)
				return ret;
		}
		if (!stopped && poll <= now) {
			any = false;
			ret = bench_watch_poll(&R->watcher, now, &any, err, len);
			if (ret || any)
				atomic_store(&R->stop, true);
			if (ret)
				return ret;
			while (poll <= now)
				poll = after(poll, s->poll_ns);
			/* how fast its own CPU runs, the machine's evidence */
			bench_machine_probe(&out->machine, &b->work);
		}
		if (measuring && now >= measured)
			atomic_store(&R->stop, true);
		if (!stopped && atomic_load(&R->stop)) {
			/* the duration, a stall, a failure or a signal: the end is due */
			stopped = true;
			measuring = false;
			poll = INT64_MAX;
			stop_by = after(now, s->stop_grace_ns);
		}
		if (now >= abandon_at)
			return 0;
		if (now >= limit || now >= stop_by)
			return out->interrupted && s->signal_grace_ns ? 0 :
			       late(R, earliest(limit, stop_by) - start, err, len);
		until = earliest(earliest(measuring ? measured : INT64_MAX, poll),
				 earliest(earliest(limit, stop_by), abandon_at));
		ts_ns = until == INT64_MAX ? INT64_MAX / 2 : until - now;
		ts = rt_ns_to_ts(rt_now_ns(CLOCK_REALTIME) + ts_ns);
		if (!sem_timedwait(&R->done, &ts) || errno == EINTR)
			continue;
		if (errno != ETIMEDOUT) {
			snprintf(err, len, "waiting for the threads: %s", strerror(errno));
			return -errno;
		}
		/* woken by its timer: how late, the machine's evidence */
		bench_machine_woke(&out->machine, until, rt_now_ns(CLOCK_MONOTONIC));
	}
}

/* The first failure of a thread that was not abandoned, in @err. */
static int first_failure(const struct bench_runner *R, char *err, size_t len)
{
	char name[64];
	size_t i;

	for (i = 0; i < R->nr; i++) {
		const struct bench_thread *t = nth(R, i);

		if (!t->abandoned && t->err) {
			name_of(R, i, name, sizeof(name));
			snprintf(err, len, "%s: %s: %s", name, t->err_what, strerror(-t->err));
			return t->err;
		}
	}
	return 0;
}

/* Each thread's row and window, and the run's end. */
static void rows(struct bench_run *out)
{
	const struct bench_runner *R = out->runner;
	size_t i;

	out->have_migrations = true;
	out->end_ns = out->start_ns;
	for (i = 0; i < R->nr; i++) {
		const struct bench_thread *t = nth(R, i);

		out->have_migrations &= bench_thread_row(t, &out->rows[i],
							 out->windows ? &out->windows[i] : NULL);
		if (t->end_ns > out->end_ns)
			out->end_ns = t->end_ns;
	}
	for (i = 0; !out->have_migrations && i < R->nr; i++)
		out->rows[i].migrated = atomic_load_explicit(&nth(R, i)->cpu_changes,
							     memory_order_relaxed);
}

/**
 * bench_threads_run - one run of @set's threads (b->params->nr_threads of them), into @out
 *
 * The calling thread is the coordinator: it must already run SCHED_FIFO
 * above the threads. A first signal (b->stop) stops the run, as its
 * duration would (@out->interrupted); a second makes it return -EINTR at
 * once, leaving the threads as they are.
 *
 * Returns 0 (@out has the rows, times and status; threads abandoned after a
 * signal's grace are counted in @out->unfinished and still run), -EINTR,
 * -ETIMEDOUT when the run is stuck (@err names the thread; the threads
 * still run), or another negative errno with @err saying what failed.
 */
int bench_threads_run(const struct bench *b, const struct bench_threads *set,
		      struct bench_run *out, char *err, size_t len)
{
	struct bench_runner *R = calloc(1, sizeof(*R));
	size_t i;
	int ret;

	ret = R ? init(R, set, b->params->nr_threads) : -ENOMEM;
	if (ret) {
		free(R);
		snprintf(err, len, "setting up the run's gate: %s", strerror(-ret));
		return ret;
	}
	out->runner = R;
	ret = start(b, out, err, len);
	if (ret)
		return ret;
	ret = bench_watch_start(&R->watcher, R->set, R->nr, &R->done, out->start_ns);
	if (ret) {
		atomic_store(&R->stop, true);
		snprintf(err, len, "starting the watchdog: %s", strerror(-ret));
		return ret;
	}
	ret = wait_run(b, out, err, len);
	machine_end(b, out);
	if (ret == -EINTR)
		return ret;	/* asked to go at once: the threads, the watcher are left */
	bench_watch_stop(&R->watcher, ret != -ETIMEDOUT);
	if (b->trace)
		trace_recording_pause(b->trace);
	if (!ret && b->live)
		ret = bench_live_end(b->live, err, len);
	if (ret)
		return ret;
	if (out->interrupted) {
		for (i = 0; i < R->nr; i++)
			out->unfinished += bench_thread_abandon(nth(R, i));
	}
	ret = first_failure(R, err, len);
	if (ret)
		return ret;
	/* every thread has ended: joining is immediate, and orders their writes before ours */
	if (!out->unfinished) {
		for (i = 0; i < R->nr; i++)
			pthread_join(nth(R, i)->thread, NULL);
	}
	rows(out);
	if (!out->unfinished)
		destroy(out);
	return 0;
}
