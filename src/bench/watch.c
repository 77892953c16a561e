// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run's watchdog. The watcher thread (BENCH_WATCH_THREAD) is
 * SCHED_OTHER: it never preempts a benchmark thread, and runs where a CPU
 * has no RT work, which is what a stuck run leaves (the others block on the
 * stuck thread's lock or barrier). A thread stuck busy on every CPU starves
 * it; the run's limit catches that case. Polling (BENCH_WATCH_POLL) is done
 * by the coordinator, above the threads, on each thread's own progress.
 */
#include <errno.h>
#include <stdlib.h>

#include "bench/watch.h"
#include "lib/clock.h"
#include "lib/sched.h"

#define WATCH_PERIOD_NS (RT_NSEC_PER_SEC / 2)
#define WATCH_STACK (64 * 1024)

static uint64_t progress_of(const struct bench_thread *t)
{
	return atomic_load_explicit(t->progress ? t->progress : &t->iterations,
				    memory_order_relaxed);
}

/* The thread the others wait for, as the benchmark names it, else the first not finished. */
size_t bench_watch_pick(const struct bench_threads *set, size_t nr)
{
	size_t i;

	if (set->pick)
		return set->pick(set->ctx);
	for (i = 0; i < nr; i++) {
		if (!atomic_load(&bench_threads_nth(set, i)->finished))
			return i;
	}
	return 0;
}

/* Every thread's progress and end, as one count that moves when any of them does. */
static uint64_t progress(const struct bench_watcher *w)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < w->nr; i++) {
		const struct bench_thread *t = bench_threads_nth(w->set, i);

		sum += progress_of(t) + atomic_load(&t->finished);
	}
	return sum;
}

static void *watch_main(void *arg)
{
	struct bench_watcher *w = arg;
	int64_t since = rt_now_ns(CLOCK_MONOTONIC), now;
	uint64_t last = progress(w), p;
	struct timespec ts;

	for (;;) {
		/* sem_timedwait() takes CLOCK_REALTIME; the window is measured on MONOTONIC */
		ts = rt_ns_to_ts(rt_now_ns(CLOCK_REALTIME) + WATCH_PERIOD_NS);
		if (!sem_timedwait(&w->quit, &ts))
			return NULL;
		now = rt_now_ns(CLOCK_MONOTONIC);
		p = progress(w);
		if (p != last) {
			last = p;
			since = now;
			continue;
		}
		if (now - since < w->set->stall_ns)
			continue;
		w->for_ns = now - since;
		atomic_store(&w->stalled, bench_watch_pick(w->set, w->nr) + 1);
		sem_post(w->wake);
		return NULL;
	}
}

/**
 * bench_watch_start - watch the run of @set's @nr threads, started at @start_ns
 *
 * A watcher thread posts @wake when the run stalls; polling keeps each
 * thread's last progress for bench_watch_poll(). Returns 0 or a negative errno.
 */
int bench_watch_start(struct bench_watcher *w, const struct bench_threads *set, size_t nr,
		      sem_t *wake, int64_t start_ns)
{
	pthread_attr_t attr;
	size_t i;
	int ret;

	*w = (struct bench_watcher){ .set = set, .nr = nr, .wake = wake };
	if (set->watch == BENCH_WATCH_POLL) {
		w->seen = calloc(nr, sizeof(*w->seen));
		w->moved = calloc(nr, sizeof(*w->moved));
		if (!w->seen || !w->moved)
			return -ENOMEM;
		for (i = 0; i < nr; i++)
			w->moved[i] = start_ns;
		return 0;
	}
	if (sem_init(&w->quit, 0, 0))
		return -errno;
	ret = -pthread_attr_init(&attr);
	if (ret)
		return ret;
	ret = rt_sched_attr_stack(&attr, WATCH_STACK);
	if (!ret)
		ret = rt_sched_attr_other(&attr);
	if (!ret)
		ret = -pthread_create(&w->thread, &attr, watch_main, w);
	pthread_attr_destroy(&attr);
	w->running = !ret;
	return ret;
}

/**
 * bench_watch_stop - stop watching; wait for the watcher unless the run is
 * stuck (it is SCHED_OTHER and may be starved: then it is left to the exit)
 */
void bench_watch_stop(struct bench_watcher *w, bool wait)
{
	free(w->seen);
	free(w->moved);
	w->seen = NULL;
	w->moved = NULL;
	if (!w->running)
		return;
	sem_post(&w->quit);
	if (wait) {
		pthread_join(w->thread, NULL);
		sem_destroy(&w->quit);
	}
	w->running = false;
}

/**
 * bench_watch_poll - look at each thread not finished at @now: each whose
 * progress has not moved for the stall window is told to the benchmark
 * (bench_threads.stalled), and @any set
 *
 * Returns 0, or the first stall the benchmark calls an error, with @err.
 */
int bench_watch_poll(struct bench_watcher *w, int64_t now, bool *any, char *err, size_t len)
{
	const struct bench_threads *set = w->set;
	size_t n;
	int ret;

	for (n = 0; n < w->nr; n++) {
		const struct bench_thread *t = bench_threads_nth(set, n);
		uint64_t p = progress_of(t);

		if (atomic_load(&t->finished))
			continue;
		if (p != w->seen[n]) {
			w->seen[n] = p;
			w->moved[n] = now;
		} else if (now - w->moved[n] >= set->stall_ns) {
			*any = true;
			ret = set->stalled(set->ctx, n, now - w->moved[n], err, len);
			if (ret)
				return ret;
		}
	}
	return 0;
}
