// SPDX-License-Identifier: GPL-2.0-only
/*
 * A live trace instance as a source of events (source.h): its scheduler
 * events read after a run and handed out in time order, what the
 * statically linked programs do instead of reading a trace.dat (libtracecmd
 * is a shared library only). A walk streams the events (a page per CPU in
 * memory, however long the run) and empties the buffers: the instance's
 * buffers must hold the whole run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include <tracefs.h>

#include "trace/internal/decode.h"
#include "trace/internal/source_impl.h"

struct tracelive {
	struct trace_source src;
	char *instance;
};

struct live {
	struct trace_decoder dec;
	const struct trace_walk_ops *ops;
	void *ctx;
	int ret;
};

/*
 * Each event as libtracefs hands it out: it reads every CPU's buffer a page
 * at a time and gives the oldest event first (since its 1.2), so the walk
 * holds a page per CPU, whatever the run's length.
 */
static int pass_on(struct tep_event *event, struct tep_record *r, int cpu, void *ctx)
{
	struct live *l = ctx;
	struct trace_event e;

	(void)event;
	if (trace_decode(&l->dec, r, cpu, &e, NULL, 0, NULL) != TRACE_DECODED_EVENT)
		return 0;
	l->ret = l->ops->event ? l->ops->event(&e, l->ctx) : l->ops->counted(1, e.ts, e.ts, l->ctx);
	return l->ret;
}

static int walk(struct trace_source *s, const struct trace_walk_ops *ops, void *ctx,
		char *err, size_t len)
{
	static const char *const systems[] = { "sched", NULL };
	const char *name = ((struct tracelive *)s)->instance;
	struct tracefs_instance *inst = tracefs_instance_alloc(NULL, name);
	struct tep_handle *tep = tracefs_local_events_system(NULL, systems);
	struct live l = { .ops = ops, .ctx = ctx, .ret = 0 };
	int ret = 0;

	if (!inst || !tep) {
		snprintf(err, len, "cannot read %s", s->name);
		ret = -EIO;
		goto out;
	}
	trace_decoder_init(&l.dec, tep);
	if (tracefs_iterate_raw_events(tep, inst, NULL, 0, pass_on, &l) < 0 && !l.ret) {
		snprintf(err, len, "reading %s: %s", s->name, strerror(EIO));
		ret = -EIO;
	} else if (l.ret) {
		snprintf(err, len, "analysing the events: %s", strerror(-l.ret));
		ret = l.ret;
	}
out:
	if (tep)
		tep_free(tep);
	tracefs_instance_free(inst);
	return ret;
}

/* The tasks' names are /proc's: the run just ended. */
static const char *comm(const struct trace_source *s, pid_t pid)
{
	(void)s;
	(void)pid;
	return NULL;
}

static const char *buffer_of(const struct trace_source *s)
{
	return ((const struct tracelive *)s)->instance;
}

static void close_live(struct trace_source *s)
{
	free(((struct tracelive *)s)->instance);
	free(s->name);
	free(s);
}

static const struct trace_source_impl tracelive_impl = {
	.walk = walk, .comm = comm, .buffer = buffer_of, .close = close_live,
};

/**
 * trace_source_live - the buffers of the trace instance @instance as a
 * source of scheduler events; each walk reads (and so empties) them
 *
 * Returns 0, or -ENOMEM with @err saying so.
 */
int trace_source_live(struct trace_source **sp, const char *instance, char *err, size_t len)
{
	struct tracelive *l = calloc(1, sizeof(*l));

	*sp = NULL;
	if (l) {
		l->src.impl = &tracelive_impl;
		l->instance = strdup(instance);
		if (asprintf(&l->src.name, "the trace instance %s", instance) < 0)
			l->src.name = NULL;
	}
	if (!l || !l->instance || !l->src.name) {
		if (l)
			close_live(&l->src);
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	*sp = &l->src;
	return 0;
}
