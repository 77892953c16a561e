/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The run every benchmark shares, made by the driver from a description of
 * its threads: it creates them at their priorities on their CPUs with
 * signals blocked, gates them until each has its tid (the trace starts for
 * them then) and releases them at once, waits for the duration or a stop,
 * watches their progress, gives them a grace after a signal and returns at
 * once on a second, abandons the threads still running past the grace,
 * joins the others and reads their rows. A thread that cannot be created
 * stops the run: those created already are let out of the gate and joined.
 */
#ifndef BENCH_RUNNER_H
#define BENCH_RUNNER_H

#include <stddef.h>
#include <stdint.h>

#include "bench/thread.h"

struct bench;
struct bench_run;

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
 * @threads: the threads, in table order, their fields marked "described"
 *           filled in, when they are one array of struct bench_thread
 * @nth: else thread i of the table
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
	struct bench_thread *threads;
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
	return set->threads ? &set->threads[i] : set->nth(set->ctx, i);
}

int bench_threads_run(const struct bench *b, const struct bench_threads *set,
		      struct bench_run *out, char *err, size_t len);

#endif
