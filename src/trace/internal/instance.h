/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TRACE_INSTANCE_H
#define TRACE_INSTANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "trace/events.h"

/*
 * A tracefs instance of the benchmark's own for the scheduler's events of
 * its threads, on CLOCK_MONOTONIC; trace-cmd's recorder (trace_recorder.h)
 * streams it to a trace.dat, read as a source of events (source.h).
 */

/* A private tracefs instance: opaque (tracer.c). */
struct trace_instance;

/* The buffer of each CPU outside the run: a page or so, for stray events. */
#define TRACE_INSTANCE_IDLE_KB 4

struct bitmask;
/* trace_instance_open() returns -EFBIG when the buffers asked for do not fit in memory */
int trace_instance_open(struct trace_instance **t, const char *name, size_t buffer_kb,
			const struct bitmask *cpus, char *err, size_t len);
int trace_instance_open_private(struct trace_instance **t, const char *prefix, size_t buffer_kb,
				const struct bitmask *cpus, char *err, size_t len);
int trace_instance_overwrite(struct trace_instance *t, bool on);
int trace_instance_mark(struct trace_instance *t, const char *line);
char *trace_instance_dir(struct trace_instance *t);
const char *trace_instance_name(const struct trace_instance *t);
int trace_instance_filter(struct trace_instance *t, const pid_t *tids, size_t n);
int trace_instance_start(struct trace_instance *t);
int trace_instance_begin(struct trace_instance *t, const pid_t *tids, size_t n);
int trace_instance_stop(struct trace_instance *t);
bool trace_instance_is_on(const struct trace_instance *t);
uint64_t trace_instance_lost(const struct trace_instance *t);
void trace_instance_close(struct trace_instance *t);
int trace_instance_sweep(const char *prefix);

#endif
