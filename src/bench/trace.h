/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --trace for the benchmarks: the recording (src/trace/record.h) tied to
 * the process's outputs, cleanups and signals.
 */
#ifndef BENCH_TRACE_H
#define BENCH_TRACE_H

#include <stddef.h>

#include "trace/analysis.h"
#include "trace/record.h"

void bench_trace_sweep(void);
int64_t bench_trace_buffer_kb(int64_t planned, int64_t given, int ncpus, char *note, size_t len);
int bench_trace_open(struct trace_recording **rp, size_t buffer_kb, const struct bitmask *cpus,
		     char *err, size_t len);
int bench_trace_run_done(struct trace_recording *r, struct trace_span *span, size_t n,
			 char *err, size_t len);
int bench_trace_finish(struct trace_recording *r, struct trace_span *spans, size_t nruns,
		       size_t n, char *err, size_t len);
int bench_trace_out_open(const char *path, char *err, size_t len);
void bench_trace_out_close(void);

#endif
