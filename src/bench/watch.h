/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The run's watchdog, under either policy of enum bench_watch: a watcher
 * thread that wakes the coordinator when the run stalls, or the
 * coordinator's own look at each thread's progress.
 */
#ifndef BENCH_WATCH_H
#define BENCH_WATCH_H

#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/threads.h"

struct bench_watcher {
	const struct bench_threads *set;
	size_t nr;
	uint64_t *seen;			/* polling: each thread's progress when last moved */
	int64_t *moved;			/* and when */
	pthread_t thread;		/* the watcher thread, */
	bool running;			/* started and not stopped */
	sem_t quit;			/* posted to stop it */
	sem_t *wake;			/* posted by it on a stall */
	atomic_size_t stalled;		/* set by it: the stalled thread + 1 */
	int64_t for_ns;			/* how long nothing moved, when stalled */
};

int bench_watch_start(struct bench_watcher *w, const struct bench_threads *set, size_t nr,
		      sem_t *wake, int64_t start_ns);
void bench_watch_stop(struct bench_watcher *w, bool wait);
int bench_watch_poll(struct bench_watcher *w, int64_t now, bool *any, char *err, size_t len);
size_t bench_watch_pick(const struct bench_threads *set, size_t nr);

#endif
