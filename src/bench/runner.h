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

#include "bench/threads.h"

struct bench;
struct bench_run;

int bench_threads_run(const struct bench *b, const struct bench_threads *set,
		      struct bench_run *out, char *err, size_t len);

#endif
