/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The live watch of a run: a trace instance's per-CPU buffers read while
 * the run goes, the CPUs' events merged in time order behind a watermark
 * and walked as they come (the walk of the trace analysis), so that each
 * wait of a benchmark thread (struct trace_wait: placement, wake-up, PI
 * boost) is known within a poll of its end. Its memory is fixed: a page and
 * a state per CPU, a state per thread and a histogram per kind of wait,
 * however long the run.
 */
#ifndef TRACE_WATCH_H
#define TRACE_WATCH_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/hist.h"
#include "trace/events.h"

struct trace_watch;

/* What the watch says of one kind of wait over everything it read. */
struct trace_watch_figure {
	uint64_t count;			/* waits of that kind that ended */
	struct rt_hist hist;		/* their lengths, ns */
	struct trace_wait worst;	/* the longest, when count > 0 */
};

/* A thread to watch: its tid and, for placement, the CPUs it may use. */
struct trace_watch_thread {
	pid_t tid;
	const cpu_set_t *affinity;	/* NULL: not known */
};

int trace_watch_open(struct trace_watch **wp, const char *instance,
		     const struct trace_watch_thread *threads, size_t n, enum rt_bw_regime regime,
		     uint64_t limit_ns, char *err, size_t len);
void trace_watch_window(struct trace_watch *w, uint64_t start);
int trace_watch_poll(struct trace_watch *w, uint64_t until, void (*fn)(const struct trace_wait *,
		     void *), void *ctx, char *err, size_t len);
int trace_watch_drain(struct trace_watch *w, void (*fn)(const struct trace_wait *, void *),
		      void *ctx, char *err, size_t len);
const struct trace_watch_figure *trace_watch_figure(const struct trace_watch *w,
						    enum trace_wait_kind kind);
uint64_t trace_watch_events(const struct trace_watch *w);
uint64_t trace_watch_lost(const struct trace_watch *w);
void trace_watch_close(struct trace_watch *w);

#endif
