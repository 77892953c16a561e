// SPDX-License-Identifier: GPL-2.0-only
/*
 * A trace.dat (trace-cmd's file, trace-cmd.dat(5)) as a source of events
 * (source.h): its scheduler events and markers decoded with libtracecmd and
 * libtraceevent, in time order, one at a time; whatever the file's size,
 * the reader holds a record per CPU and gives back the pages it read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <trace-cmd.h>

#include "lib/filemap.h"
#include "trace/internal/decode.h"
#include "trace/internal/source_impl.h"
#include "trace/internal/pages.h"

struct tracedat {
	struct trace_source src;
	struct tracecmd_input *top;	/* the file */
	struct tracecmd_input *inst;	/* the instance's buffer read, or NULL: top */
	struct tep_handle *tep;
	char *buffer;			/* its name; "" for the top buffer */
	struct trace_decoder dec;
	const struct trace_walk_ops *ops;
	void *ctx;
	int ret;			/* what stopped the walk */
	struct stat st;			/* the file, whose mapped pages are given back */
	struct trace_pages *pages;		/* its CPU data read in place, or NULL: by libtracecmd */
	unsigned long records;
};

/* Every this many records, the pages of the file read so far go (rt_filemap_release()). */
#define RELEASE_EVERY 65536

/* Whether this build reads trace.dat (the static one does not: src/static/tracedat.c). */
bool trace_source_file_supported(void)
{
	return true;
}

static struct tracecmd_input *handle(const struct tracedat *d)
{
	return d->inst ? d->inst : d->top;
}

/* Does buffer @h hold any record? (Reading a CPU's first one rewinds it.) */
static int has_records(struct tracecmd_input *h, int cpus)
{
	struct tep_record *r;
	int cpu, found = 0;

	for (cpu = 0; cpu < cpus; cpu++) {
		r = tracecmd_read_cpu_first(h, cpu);
		if (r) {
			found = 1;
			tracecmd_free_record(r);
		}
	}
	return found;
}

/*
 * The buffer named @name ("" or "top": the top one), or without a name the
 * top buffer if it holds records, else the first instance that does.
 */
static int choose_buffer(struct tracedat *d, const char *name, const char *path, char *err,
			 size_t len)
{
	int n = tracecmd_buffer_instances(d->top), cpus = tep_get_cpus(d->tep), i;
	const char *iname;

	if (name && (!*name || !strcmp(name, "top")))
		return (d->buffer = strdup("")) ? 0 : -ENOMEM;
	if (!name && has_records(d->top, cpus))
		return (d->buffer = strdup("")) ? 0 : -ENOMEM;
	for (i = 0; i < n; i++) {
		iname = tracecmd_buffer_instance_name(d->top, i);
		if (!iname || (name && strcmp(iname, name)))
			continue;
		d->inst = tracecmd_buffer_instance_handle(d->top, i);
		if (!d->inst) {
			snprintf(err, len, "%s: cannot read its buffer %s", path, iname);
			return -EIO;
		}
		if (name || has_records(d->inst, cpus))
			return (d->buffer = strdup(iname)) ? 0 : -ENOMEM;
		tracecmd_close(d->inst);
		d->inst = NULL;
	}
	if (name)
		snprintf(err, len, "%s has no buffer named %s", path, name);
	else
		snprintf(err, len, "%s holds no events", path);
	return -ENOENT;
}

static int find_events(struct tracedat *d, const char *path, char *err, size_t len)
{
	trace_decoder_init(&d->dec, d->tep);
	if (d->dec.missing[TRACE_EV_SWITCH]) {
		snprintf(err, len, "%s: its sched:sched_switch format has no field '%s' (not the "
			 "kernel's format, or a damaged file): cannot analyse it", path,
			 d->dec.missing[TRACE_EV_SWITCH]);
		return -EINVAL;
	}
	if (d->dec.id[TRACE_EV_SWITCH] < 0) {
		snprintf(err, len, "%s has no sched:sched_switch events to analyse (record them: "
			 "trace-cmd record -e sched ...)", path);
		return -ENOENT;
	}
	return 0;
}

/* The buffer's pages read in place where the file allows (tdpages.c); else by libtracecmd. */
static int in_place(struct tracedat *d, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return 0;
	ret = trace_pages_open(&d->pages, handle(d), d->tep, tep_get_cpus(d->tep), fd,
			       (size_t)d->st.st_size);
	close(fd);
	return ret == -ENOMEM ? ret : 0;
}

static int setup(struct tracedat *d, const char *path, const char *buffer, char *err,
		 size_t len)
{
	/* never waited on: a FIFO opens at once, and is refused */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), ret;

	if (fd < 0 || fstat(fd, &d->st)) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		snprintf(err, len, "cannot open %s: %s", path, strerror(e));
		return e > 0 ? -e : -EIO;
	}
	close(fd);
	if (!S_ISREG(d->st.st_mode)) {
		snprintf(err, len, "%s is not a regular file (%s): a trace.dat is a file", path,
			 S_ISDIR(d->st.st_mode) ? "a folder" : "a FIFO, a device or a socket");
		return -EINVAL;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	d->top = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!d->top) {
		snprintf(err, len, "%s is not a trace.dat that libtracecmd can read", path);
		return -EINVAL;
	}
	d->tep = tracecmd_get_tep(d->top);
	if (!d->tep) {
		snprintf(err, len, "%s: no event formats", path);
		return -EINVAL;
	}
	ret = find_events(d, path, err, len);
	if (ret)
		return ret;
	ret = choose_buffer(d, buffer, path, err, len);
	if (!ret)
		ret = in_place(d, path);
	return ret;
}

static int decode(struct tracecmd_input *h, struct tep_record *r, int cpu, void *ctx)
{
	struct tracedat *d = ctx;
	char text[1024];
	struct trace_event e;
	pid_t pid;

	(void)h;
	/* libtracecmd's maps of the file go back as it reads (the pages read in place are not mapped) */
	if (!d->pages && !(++d->records % RELEASE_EVERY))
		rt_filemap_release(&d->st);
	if (r->missed_events && d->ops->lost)
		d->ops->lost(r->ts, cpu, r->missed_events, d->ctx);
	/* only the scheduler events counted: the markers alone decoded */
	if (!d->ops->event && trace_decode_kind(&d->dec, r) == TRACE_DECODED_EVENT) {
		d->ret = d->ops->counted(1, r->ts, r->ts, d->ctx);
		return d->ret;
	}
	switch (trace_decode(&d->dec, r, cpu, &e, d->ops->marker ? text : NULL, sizeof(text),
			     &pid)) {
	case TRACE_DECODED_EVENT:
		d->ret = d->ops->event(&e, d->ctx);
		break;
	case TRACE_DECODED_MARKER:
		d->ret = d->ops->marker(r->ts, cpu, pid, text, d->ctx);
		break;
	case TRACE_DECODED_NONE:
		break;
	}
	return d->ret;
}

/* A CPU's next record, in a heap by time (then CPU, as trace-cmd orders ties). */
struct next {
	struct tep_record *r;
	int cpu;
};

static bool before(const struct next *a, const struct next *b)
{
	return a->r->ts < b->r->ts || (a->r->ts == b->r->ts && a->cpu < b->cpu);
}

static void sift_down(struct next *h, int n, int i)
{
	struct next t;
	int c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && before(&h[c + 1], &h[c]))
			c++;
		if (!before(&h[c], &h[i]))
			return;
		t = h[c];
		h[c] = h[i];
		h[i] = t;
		i = c;
	}
}

/*
 * Every record of the buffer in time order: each CPU from its first record
 * (tracecmd_read_cpu_first() rewinds it, so a source is walked again from
 * the start), merged through a heap of their next ones.
 */
static int decode_in_place(struct tep_record *r, int cpu, void *ctx)
{
	return decode(NULL, r, cpu, ctx);
}

/* Every record through libtracecmd's reader (a file its layout does not let be read in place). */
static int walk_records(struct tracedat *d, struct tracecmd_input *h, char *err, size_t len,
			const struct trace_walk_ops *ops, void *ctx)
{
	struct trace_source *s = &d->src;
	int cpus = tep_get_cpus(d->tep), n = 0, cpu, i;
	struct next *heap = calloc((size_t)(cpus > 0 ? cpus : 1), sizeof(*heap));

	d->ops = ops;
	d->ctx = ctx;
	d->ret = heap ? 0 : -ENOMEM;
	for (cpu = 0; heap && cpu < cpus; cpu++) {
		heap[n].r = tracecmd_read_cpu_first(h, cpu);
		heap[n].cpu = cpu;
		n += heap[n].r != NULL;
	}
	for (i = n / 2 - 1; i >= 0; i--)
		sift_down(heap, n, i);
	while (n && !d->ret) {
		d->ret = decode(h, heap[0].r, heap[0].cpu, d);
		tracecmd_free_record(heap[0].r);
		heap[0].r = tracecmd_read_data(h, heap[0].cpu);
		if (!heap[0].r)
			heap[0] = heap[--n];
		sift_down(heap, n, 0);
	}
	for (i = 0; i < n; i++)
		tracecmd_free_record(heap[i].r);
	free(heap);
	if (d->ret)
		snprintf(err, len, "analysing the events of %s: %s", s->name, strerror(-d->ret));
	return d->ret;
}

/* Events counted of a walk by CPU (ops->counted). */
struct counted {
	struct tracedat *d;
	uint64_t n, first, last;
};

/* A record of a walk by CPU: counted, else decoded as decode() does. */
static int count(struct tep_record *r, int cpu, void *ctx)
{
	struct counted *c = ctx;

	if (!r->missed_events && trace_decode_kind(&c->d->dec, r) == TRACE_DECODED_EVENT) {
		if (!c->n || r->ts < c->first)
			c->first = r->ts;
		if (!c->n || r->ts > c->last)
			c->last = r->ts;
		c->n++;
		return 0;
	}
	return decode(NULL, r, cpu, c->d);
}

/*
 * The events counted, not decoded (ops->counted: the first pass of an
 * analysis, which wants the markers and the count): each CPU's pages
 * alone, without the merge by time.
 */
static int walk_counted(struct tracedat *d)
{
	struct counted c = { .d = d };
	int cpu, ret = 0;

	for (cpu = 0; !ret && cpu < trace_pages_cpus(d->pages); cpu++)
		ret = trace_pages_walk_cpu(d->pages, cpu, count, &c);
	if (!ret && c.n)
		ret = d->ops->counted(c.n, c.first, c.last, d->ctx);
	return ret;
}

static int walk(struct trace_source *s, const struct trace_walk_ops *ops, void *ctx,
		char *err, size_t len)
{
	struct tracedat *d = (struct tracedat *)s;
	struct tracecmd_input *h = handle(d);

	if (d->pages) {
		d->ops = ops;
		d->ctx = ctx;
		d->ret = ops->event ? trace_pages_walk(d->pages, decode_in_place, d) : walk_counted(d);
		if (d->ret == -EBADMSG)
			snprintf(err, len, "%s is damaged: a page of its events says more than "
				 "the page holds", s->name);
		else if (d->ret)
			snprintf(err, len, "analysing the events of %s: %s", s->name,
				 strerror(-d->ret));
		return d->ret;
	}
	return walk_records(d, h, err, len, ops, ctx);
}

static const char *buffer_of(const struct trace_source *s)
{
	return ((const struct tracedat *)s)->buffer;
}

static const char *comm(const struct trace_source *s, pid_t pid)
{
	const char *comm = tep_data_comm_from_pid(((const struct tracedat *)s)->tep, pid);

	return comm && strcmp(comm, "<...>") ? comm : NULL;
}

static void close_file(struct trace_source *s)
{
	struct tracedat *d = (struct tracedat *)s;
	struct trace_pages *pages = d->pages;

	if (d->inst)
		tracecmd_close(d->inst);
	if (d->top)
		tracecmd_close(d->top);
	free(d->buffer);
	free(s->name);
	free(d);
	/* after d's free: gcc 12's analyzer loses d across a call given d->pages first */
	trace_pages_close(pages);
}

static const struct trace_source_impl tracedat_impl = {
	.walk = walk, .comm = comm, .buffer = buffer_of, .close = close_file,
};

/**
 * trace_source_file - the trace.dat @path as a source of scheduler events
 * @buffer: the buffer to read: an instance's name, "" or "top" for the top
 *	    one; NULL for the top one if it holds events, else the first
 *	    instance that does
 *
 * Returns 0, or a negative errno with @err saying what is wrong with the
 * file: -ENOENT (and other errnos of open()) it cannot be opened, or has no
 * sched_switch or no such buffer; -EINVAL it is not a trace.dat.
 */
int trace_source_file(struct trace_source **sp, const char *path, const char *buffer,
		      char *err, size_t len)
{
	struct tracedat *d = calloc(1, sizeof(*d));
	int ret;

	*sp = NULL;
	if (!d) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	d->src.impl = &tracedat_impl;
	d->src.name = strdup(path);
	ret = d->src.name ? setup(d, path, buffer, err, len) : -ENOMEM;
	if (ret == -ENOMEM)
		snprintf(err, len, "out of memory");
	if (ret) {
		close_file(&d->src);
		return ret;
	}
	*sp = (struct trace_source *)d;	/* src is its first member */
	return 0;
}
