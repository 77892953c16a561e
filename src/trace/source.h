/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where a trace's scheduler events come from, behind one interface: a
 * trace.dat read with libtracecmd (tracedat.c), or a live trace instance's
 * buffers read after a run (tracelive.c, what the statically linked
 * programs do: libtracecmd is a shared library only). A walk hands the
 * events to its reader in time order.
 */
#ifndef TRACE_SOURCE_H
#define TRACE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "trace/events.h"

struct trace_source;

struct trace_walk_ops {
	/* each scheduler event; non-zero stops the walk and is returned */
	int (*event)(const struct trace_event *e, void *ctx);
	/*
	 * or, where @event is NULL, the scheduler events counted, not decoded:
	 * @n of them from @first to @last (ns), told once or in parts. The
	 * source may then read its CPUs one after the other: each CPU's
	 * markers come in its own time order, not the trace's
	 */
	int (*counted)(uint64_t n, uint64_t first, uint64_t last, void *ctx);
	/* events the kernel dropped on @cpu before @ts (-1: how many is unknown) */
	void (*lost)(uint64_t ts, int cpu, long long n, void *ctx);
	/* a trace_marker line written by @pid (NULL: not asked for) */
	int (*marker)(uint64_t ts, int cpu, pid_t pid, const char *text, void *ctx);
};

bool trace_source_file_supported(void);
int trace_source_file(struct trace_source **s, const char *path, const char *buffer, char *err,
		      size_t len);
int trace_source_live(struct trace_source **s, const char *instance, char *err, size_t len);

int trace_source_walk(struct trace_source *s, const struct trace_walk_ops *ops, void *ctx,
		      char *err, size_t len);
const char *trace_source_buffer(const struct trace_source *s);
const char *trace_source_comm(const struct trace_source *s, pid_t pid);
void trace_source_close(struct trace_source *s);

#endif
