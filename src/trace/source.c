// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one interface to a trace's events (source.h), over its two sources.
 */
#include <stdlib.h>

#include "trace/internal/source_impl.h"

/**
 * trace_source_walk - hand each scheduler event of @s to @ops, in time order
 *
 * Returns 0, what an operation returned to stop the walk, or a negative
 * errno; @err then says what failed (the source, or the reader).
 */
int trace_source_walk(struct trace_source *s, const struct trace_walk_ops *ops, void *ctx,
		      char *err, size_t len)
{
	return s->impl->walk(s, ops, ctx, err, len);
}

/* The buffer @s reads: "" for a trace.dat's top one, else an instance's name. */
const char *trace_source_buffer(const struct trace_source *s)
{
	return s->impl->buffer(s);
}

/* The name @s knows @pid by, or NULL. */
const char *trace_source_comm(const struct trace_source *s, pid_t pid)
{
	return s->impl->comm(s, pid);
}

/* Close @s (NULL: nothing). */
void trace_source_close(struct trace_source *s)
{
	if (s)
		s->impl->close(s);
}
