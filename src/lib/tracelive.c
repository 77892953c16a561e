// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scheduler's events of a live trace instance, read after a run and
 * handed out in time order: what the statically linked programs do instead
 * of reading a trace.dat (libtracecmd is a shared library only). It holds a
 * run's events in memory (the per-CPU buffers are read one after another,
 * then sorted); the instance's buffers must hold the whole run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include <tracefs.h>

#include "rt_sevdecode.h"
#include "rt_tracedat.h"

struct live {
	struct rt_sev_decoder dec;
	struct rt_sev *ev;
	size_t n, cap;
	int err;
};

static int collect(struct tep_event *event, struct tep_record *r, int cpu, void *ctx)
{
	struct live *l = ctx;
	struct rt_sev e;

	(void)event;
	if (rt_sev_decode(&l->dec, r, cpu, &e, NULL, 0, NULL) != RT_DECODED_EVENT)
		return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 65536;
		struct rt_sev *ev = realloc(l->ev, cap * sizeof(*ev));

		if (!ev) {
			l->err = -ENOMEM;
			return -1;
		}
		l->ev = ev;
		l->cap = cap;
	}
	l->ev[l->n++] = e;
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct rt_sev *x = a, *y = b;

	return (x->ts > y->ts) - (x->ts < y->ts);
}

/**
 * rt_tracelive_walk - read (and so empty) the buffers of the instance @name
 * and hand each scheduler event to ops->event, in time order
 *
 * Returns 0, what ops->event returned to stop, or a negative errno with
 * @err saying what failed.
 */
int rt_tracelive_walk(const char *name, const struct rt_tracedat_ops *ops, void *ctx, char *err,
		      size_t len)
{
	static const char *const systems[] = { "sched", NULL };
	struct tracefs_instance *inst = tracefs_instance_alloc(NULL, name);
	struct tep_handle *tep = tracefs_local_events_system(NULL, systems);
	struct live l = { .err = 0 };
	size_t i;
	int ret = 0;

	if (!inst || !tep) {
		snprintf(err, len, "cannot read the trace instance %s", name);
		ret = -EIO;
		goto out;
	}
	rt_sev_decoder_init(&l.dec, tep);
	if (tracefs_iterate_raw_events(tep, inst, NULL, 0, collect, &l) < 0 && !l.err)
		l.err = -EIO;
	if (l.err) {
		snprintf(err, len, "reading the trace instance %s: %s", name, strerror(-l.err));
		ret = l.err;
		goto out;
	}
	if (l.n)
		qsort(l.ev, l.n, sizeof(*l.ev), by_time);
	for (i = 0; i < l.n && !ret; i++)
		ret = ops->event(&l.ev[i], ctx);
	if (ret)
		snprintf(err, len, "analysing the events: %s", strerror(-ret));
out:
	free(l.ev);
	if (tep)
		tep_free(tep);
	tracefs_instance_free(inst);
	return ret;
}
