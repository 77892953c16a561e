/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Recording a benchmark's runs: a private trace instance for the scheduler's
 * events of its threads, switched on for each run, and how its events reach
 * the analysis, chosen once: streamed by trace-cmd's recorder to a trace.dat
 * read at the end (trace_recording_stream()), or read from the instance's
 * buffers after each run (the statically linked programs, which have no
 * trace.dat). The same calls serve both.
 */
#ifndef TRACE_RECORD_H
#define TRACE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "trace/analysis.h"

struct bitmask;
struct trace_recording;

int trace_recording_open(struct trace_recording **rp, const char *prefix, size_t buffer_kb,
			 const struct bitmask *cpus, char *err, size_t len);
const char *trace_recording_dir(const struct trace_recording *r);
const char *trace_recording_instance(const struct trace_recording *r);
int trace_recording_stream(struct trace_recording *r, int dir_fd, const char *name,
			   const char *path, char *err, size_t len);
int trace_recording_begin(struct trace_recording *r, const pid_t *tids, size_t n);
void trace_recording_pause(struct trace_recording *r);
void trace_recording_mark(struct trace_recording *r, int run, const struct trace_window *w,
			  size_t n, enum rt_bw_regime regime, uint64_t limit_ns,
			  const struct rt_topology *topo);
int trace_recording_run_done(struct trace_recording *r, struct trace_span *span, size_t n,
			     char *err, size_t len);
int trace_recording_finish(struct trace_recording *r, struct trace_span *spans, size_t nruns,
			   size_t n, bool (*give_up)(void), char *err, size_t len);
void trace_recording_close(struct trace_recording *r);
int trace_recording_sweep(const char *prefix);

#endif
