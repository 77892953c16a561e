/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a benchmark describes of one run for the driver (its ops->prepare):
 * the threads, the duration and limits, and how the run is watched. The
 * runner (runner.c) makes the run from it, the watchdog (watch.c) watches it.
 */
#ifndef BENCH_THREADS_H
#define BENCH_THREADS_H

#include <stddef.h>
#include <stdint.h>

#include "bench/thread.h"
#include "lib/clock.h"

/*
 * The watchdog's and the graces' times every program's run is described
 * with (struct bench_threads), the same for all but where a program's
 * shape adds to them.
 */
#define BENCH_LIMIT_GRACE_NS (5 * RT_NSEC_PER_SEC)	/* past the expected end: stuck */
#define BENCH_STALL_NS (5 * RT_NSEC_PER_SEC)		/* without progress: stalled */
#define BENCH_SIGNAL_GRACE_NS (RT_NSEC_PER_SEC / 2)	/* after a signal, to stop */
#define BENCH_STOP_GRACE_NS (2 * RT_NSEC_PER_SEC)	/* after the stop, to end a pass */
#define BENCH_POLL_MAX_NS (50 * RT_NSEC_PER_MSEC)	/* the coordinator's poll, at most */

/* How the run is watched for a stall (bench_threads.watch). */
enum bench_watch {
	/*
	 * A SCHED_OTHER watcher thread, which never preempts the benchmark's:
	 * the run is stalled when no thread moved its progress for stall_ns.
	 * The coordinator sleeps through the run, woken only by its end.
	 */
	BENCH_WATCH_THREAD,
	/*
	 * The coordinator looks every poll_ns: a thread is stalled when its
	 * own progress did not move for stall_ns.
	 */
	BENCH_WATCH_POLL,
};

/**
 * struct bench_threads - a run's threads and how to run them, as the
 * benchmark's prepare step describes them
 * @nth: thread i of the table, its fields marked "described" filled in
 * @ctx: the benchmark's state for the run, given to every callback
 * @duration_ns: the measured time, then the threads are told to stop;
 *               0: they end by themselves (a number of passes)
 * @limit_ns: from the start, past it the run is stuck; 0 for none
 * @stop_grace_ns: from a stop (the duration, a stall, a failure, a signal),
 *                 past it the run is stuck; 0 for none
 * @signal_grace_ns: from a signal, past it the threads still running are
 *                   abandoned (the coordinator reads their counters) and
 *                   the run ends; 0: a signal is a stop like the others
 * @watch: the watchdog's policy, with @stall_ns and (polling) @poll_ns
 * @stalled: thread @i stalled @for_ns (BENCH_WATCH_THREAD: the one @pick
 *           names); Returns 0 to stop the run and go on, or a negative
 *           errno with @err saying it (-ETIMEDOUT: the run is stuck)
 * @late: thread @i (@pick's) has not ended @since_ns after the start: @err
 * @pick: the thread the others wait for; NULL: the first one not finished
 * @name: thread @i as messages name it; NULL: "thread I"
 */
struct bench_threads {
	struct bench_thread *(*nth)(void *ctx, size_t i);
	void *ctx;
	int64_t duration_ns;
	int64_t limit_ns;
	int64_t stop_grace_ns;
	int64_t signal_grace_ns;
	enum bench_watch watch;
	int64_t stall_ns;
	int64_t poll_ns;
	int (*stalled)(void *ctx, size_t i, int64_t for_ns, char *err, size_t len);
	void (*late)(void *ctx, size_t i, int64_t since_ns, char *err, size_t len);
	size_t (*pick)(void *ctx);
	void (*name)(void *ctx, size_t i, char *buf, size_t len);
};

/* Thread @i of @set. */
static inline struct bench_thread *bench_threads_nth(const struct bench_threads *set, size_t i)
{
	return set->nth(set->ctx, i);
}

#endif
