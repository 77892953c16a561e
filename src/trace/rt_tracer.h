/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_TRACER_H
#define RT_TRACER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "rt_schedan.h"

/*
 * A tracefs instance of the benchmark's own for the scheduler's events of
 * its threads, on CLOCK_MONOTONIC; trace-cmd's recorder (rt_recorder.h)
 * streams it to a trace.dat, read as a source of events (source.h).
 */

/* A private tracefs instance: opaque (tracer.c). */
struct rt_tracer;

/* The buffer of each CPU outside the run: a page or so, for stray events. */
#define RT_TRACER_IDLE_KB 4

struct bitmask;
/* rt_tracer_open() returns -EFBIG when the buffers asked for do not fit in memory */
int rt_tracer_open(struct rt_tracer **t, const char *name, size_t buffer_kb,
		   const struct bitmask *cpus, char *err, size_t len);
char *rt_tracer_dir(struct rt_tracer *t);
const char *rt_tracer_name(const struct rt_tracer *t);
int rt_tracer_filter(struct rt_tracer *t, const pid_t *tids, size_t n);
int rt_tracer_start(struct rt_tracer *t);
int rt_tracer_begin(struct rt_tracer *t, const pid_t *tids, size_t n);
int rt_tracer_stop(struct rt_tracer *t);
bool rt_tracer_is_on(const struct rt_tracer *t);
uint64_t rt_tracer_lost(const struct rt_tracer *t);
void rt_tracer_close(struct rt_tracer *t);
int rt_tracer_sweep(const char *prefix);

#endif
