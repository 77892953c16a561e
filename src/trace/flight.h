/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A flight recorder: a trace instance of the run's scheduler events whose
 * buffers keep the recent past (the oldest events make room), so that a run
 * of hours can save the trace of a moment without keeping hours of trace.
 * Saving hands the instance to trace-cmd restore (its raw pages copied by a
 * child), which makes it a trace.dat, while a fresh instance records on:
 * nothing of the run goes unrecorded while a window is written.
 */
#ifndef TRACE_FLIGHT_H
#define TRACE_FLIGHT_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct bitmask;
struct trace_flight;

int trace_flight_open(struct trace_flight **fp, const char *prefix, size_t buffer_kb,
		      const struct bitmask *cpus, const cpu_set_t *writer, char *err, size_t len);
int trace_flight_begin(struct trace_flight *f, const pid_t *tids, size_t n);
void trace_flight_pause(struct trace_flight *f);
int trace_flight_save(struct trace_flight *f, int dir_fd, const char *file,
		      const char *const *marks, size_t n, char *err, size_t len);
int trace_flight_saved(struct trace_flight *f, char *err, size_t len);
void trace_flight_close(struct trace_flight *f);

#endif
