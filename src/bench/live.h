/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --watch, --on-threshold and --on-end: the run's waits watched live
 * (trace/watch.h) by a thread of the coordinator's, their figures kept in
 * fixed memory, and each wait longer than a threshold acted on as it is
 * seen: the trace around it saved from a flight recorder (trace/flight.h),
 * a signal sent, a shell command run, or the run stopped. Every crossing is
 * explained in words, under the table and in the result file.
 */
#ifndef BENCH_LIVE_H
#define BENCH_LIVE_H

#include <sched.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "cli/cli.h"
#include "lib/json.h"

struct bench;
struct bench_live;

void bench_live_parse(const struct cli_common *co);
int bench_live_open(struct bench_live **lp, const struct bench *b, char *note, size_t note_len,
		    char *err, size_t len);
int bench_live_begin(struct bench_live *l, int run, const pid_t *tids,
		     const cpu_set_t *const *affinity, size_t n, sem_t *wake, char *err, size_t len);
void bench_live_started(struct bench_live *l, int64_t start_ns);
bool bench_live_stopping(const struct bench_live *l);
int bench_live_end(struct bench_live *l, char *err, size_t len);
void bench_live_finish(struct bench_live *l);
void bench_live_print(const struct bench_live *l);
const char *bench_live_stopped_by(const struct bench_live *l);
void bench_live_json(struct rt_json *j, const struct bench_live *l);

#endif
