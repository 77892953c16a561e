/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a source of events provides (source.h): each one embeds struct
 * trace_source first and fills its operations.
 */
#ifndef TRACE_SOURCE_IMPL_H
#define TRACE_SOURCE_IMPL_H

#include "trace/source.h"

struct trace_source_impl {
	/* hand every event to @ops; 0, the reader's stop, or a negative errno */
	int (*walk)(struct trace_source *s, const struct trace_walk_ops *ops, void *ctx,
		    char *err, size_t len);
	/* the name the source knows @pid by, or NULL */
	const char *(*comm)(const struct trace_source *s, pid_t pid);
	/* the buffer read: "" for a file's top one, the instance's name */
	const char *(*buffer)(const struct trace_source *s);
	void (*close)(struct trace_source *s);
};

struct trace_source {
	const struct trace_source_impl *impl;
	char *name;	/* the file's path, or "the trace instance NAME" */
};

#endif
