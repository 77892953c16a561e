// SPDX-License-Identifier: GPL-2.0-only
/*
 * The live watch (watch.h): each CPU's buffer of the instance read a page
 * at a time, without blocking (tracefs_cpu_read), its events walked by
 * libtraceevent's kbuffer and decoded as the analysis decodes them; the
 * CPUs merged in time order. An event is walked only once every other CPU
 * is known to hold nothing earlier: it has a later event at hand, or it was
 * read empty after that time (less a margin, for an event stamped before
 * the read and written just after it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

#include "trace/internal/decode.h"
#include "trace/internal/walk.h"
#include "trace/watch.h"

/* The names the switches said, by pid: a fixed table, a later pid in a slot replacing it. */
#define NAMES 4096

struct name {
	int32_t pid;
	char comm[16];
};

/* An event is stamped as it is reserved and readable once written: this long at most between. */
#define MARGIN_NS 2000000ULL

struct cpu_reader {
	struct tracefs_cpu *tcpu;
	struct kbuffer *kbuf;
	char *page;
	int size;			/* of a page read */
	int cpu;
	void *data;			/* the event at hand in the page, or NULL */
	unsigned long long ts;
	uint64_t done_until;		/* read empty: nothing earlier is to come */
	bool dry;			/* read empty in this poll */
};

struct trace_watch {
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	struct trace_decoder dec;
	struct cpu_reader *cpus;
	int ncpus;
	struct trace_task *tasks;
	size_t ntasks;
	struct trace_sched_walk *walk;
	struct trace_watch_figure fig[TRACE_WAITS];
	uint64_t events, lost;
	struct name *names;		/* NAMES of them */
	void (*fn)(const struct trace_wait *, void *);	/* during a poll */
	void *ctx;
};

/* A wait ended: into its figure, then told. */
static void waited(const struct trace_wait *wait, void *ctx)
{
	struct trace_watch *w = ctx;
	struct trace_watch_figure *f = &w->fig[wait->kind];
	uint64_t ns = wait->end - wait->start;
	const struct name *nm = wait->holder > 0 ? &w->names[wait->holder % NAMES] : NULL;
	struct trace_wait named = *wait;

	if (nm && nm->pid == wait->holder)
		memcpy(named.holder_comm, nm->comm, sizeof(named.holder_comm));
	f->count++;
	rt_hist_add(&f->hist, ns);
	if (f->count == 1 || ns > f->worst.end - f->worst.start)
		f->worst = named;
	if (w->fn)
		w->fn(&named, w->ctx);
}

static void reader_free(struct cpu_reader *c)
{
	if (c->tcpu)
		tracefs_cpu_close(c->tcpu);
	if (c->kbuf)
		kbuffer_free(c->kbuf);
	free(c->page);
}

/* Each CPU of the machine that has a buffer in the instance. */
static int open_readers(struct trace_watch *w)
{
	int n = tep_get_cpus(w->tep), c;

	if (n <= 0)
		n = (int)sysconf(_SC_NPROCESSORS_CONF);
	w->cpus = calloc((size_t)n, sizeof(*w->cpus));
	if (!w->cpus)
		return -ENOMEM;
	for (c = 0; c < n; c++) {
		struct cpu_reader r = { .cpu = c };

		r.tcpu = tracefs_cpu_open(w->inst, c, true);
		if (!r.tcpu)
			continue;	/* no such CPU (possible, not present) */
		r.size = tracefs_cpu_read_size(r.tcpu);
		r.kbuf = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST);
		r.page = r.size > 0 ? malloc((size_t)r.size) : NULL;
		w->cpus[w->ncpus++] = r;	/* freed with the watch, whole or not */
		if (!r.kbuf || !r.page)
			return -ENOMEM;
	}
	return w->ncpus ? 0 : -ENOENT;
}

/**
 * trace_watch_open - watch the trace instance @instance (its events enabled
 * and filtered by its owner) for the waits of @threads
 * @regime, @limit_ns: the kernel's RT bandwidth limits, as the analysis takes them
 *
 * Returns 0, or a negative errno with @err saying what failed.
 */
int trace_watch_open(struct trace_watch **wp, const char *instance,
		     const struct trace_watch_thread *threads, size_t n, enum rt_bw_regime regime,
		     uint64_t limit_ns, char *err, size_t len)
{
	static const char *const systems[] = { "sched", NULL };
	struct trace_watch *w = calloc(1, sizeof(*w));
	size_t i;
	int k, ret = -ENOMEM;

	*wp = NULL;
	if (!w)
		goto fail;
	for (k = 0; k < TRACE_WAITS; k++)
		rt_hist_init(&w->fig[k].hist);
	w->inst = tracefs_instance_alloc(NULL, instance);
	w->tep = tracefs_local_events_system(NULL, systems);
	if (!w->inst || !w->tep) {
		ret = -EIO;
		snprintf(err, len, "cannot read the scheduler's event formats");
		goto fail;
	}
	trace_decoder_init(&w->dec, w->tep);
	ret = open_readers(w);
	if (ret) {
		snprintf(err, len, "opening the instance %s's buffers: %s", instance, strerror(-ret));
		goto fail;
	}
	w->tasks = calloc(n ? n : 1, sizeof(*w->tasks));
	w->names = calloc(NAMES, sizeof(*w->names));
	ret = -ENOMEM;
	if (!w->tasks || !w->names)
		goto nomem;
	w->ntasks = n;
	for (i = 0; i < n; i++) {
		/* nothing counts until the run starts (trace_watch_window()) */
		trace_task_init(&w->tasks[i], threads[i].tid, UINT64_MAX, UINT64_MAX);
		trace_task_affinity(&w->tasks[i], threads[i].affinity);
	}
	w->walk = trace_sched_walk_new(w->tasks, n, NULL, NULL);
	if (!w->walk)
		goto nomem;
	trace_sched_walk_regime(w->walk, regime, limit_ns);
	trace_sched_walk_waits(w->walk, waited, w);
	*wp = w;
	return 0;
nomem:
	snprintf(err, len, "out of memory");
fail:
	trace_watch_close(w);
	return ret;
}

/* The next event of @c: in its page, else the next page, if there is one now. */
static void advance(struct trace_watch *w, struct cpu_reader *c, uint64_t now)
{
	int missed, got;

	if (c->data)
		c->data = kbuffer_next_event(c->kbuf, &c->ts);
	while (!c->data && !c->dry) {
		got = tracefs_cpu_read(c->tcpu, c->page, true);
		if (got <= 0 || kbuffer_load_subbuffer(c->kbuf, c->page)) {
			c->dry = true;
			c->done_until = now > MARGIN_NS ? now - MARGIN_NS : 0;
			return;
		}
		missed = kbuffer_missed_events(c->kbuf);
		if (missed)
			w->lost += missed > 0 ? (uint64_t)missed : 1;
		c->data = kbuffer_read_event(c->kbuf, &c->ts);
	}
}

/* The name a switch in @r gives @pid (@side: prev 0, next 1). */
static void remember(struct trace_watch *w, struct tep_record *r, int32_t pid, int side)
{
	struct name *nm = &w->names[pid % NAMES];

	if (pid <= 0 || nm->pid == pid)
		return;
	nm->pid = pid;
	trace_decode_comm(&w->dec, r, TRACE_EV_SWITCH, side, nm->comm, sizeof(nm->comm));
}

/* Walk @c's event at hand, and go to its next. */
static int take(struct trace_watch *w, struct cpu_reader *c, uint64_t now)
{
	struct tep_record r = { .ts = c->ts, .cpu = c->cpu, .data = c->data,
				.size = kbuffer_event_size(c->kbuf) };
	struct trace_event e;
	int ret = 0;

	if (trace_decode(&w->dec, &r, c->cpu, &e, NULL, 0, NULL) == TRACE_DECODED_EVENT) {
		w->events++;
		if (e.type == TRACE_EV_SWITCH) {
			remember(w, &r, e.pid, 0);
			remember(w, &r, e.pid2, 1);
		}
		ret = trace_sched_walk_feed(w->walk, &e);
		/* a CPU's clock a little behind another's: not the watch's to refuse */
		if (ret == -EINVAL)
			ret = 0;
	}
	advance(w, c, now);
	return ret;
}

/*
 * Walk what the buffers hold up to the watermark (@all: everything, the
 * run is over), telling @fn of each wait that ends.
 */
static int walk(struct trace_watch *w, uint64_t now, bool all,
		void (*fn)(const struct trace_wait *, void *), void *ctx, char *err, size_t len)
{
	int i, ret = 0;

	w->fn = fn;
	w->ctx = ctx;
	for (i = 0; i < w->ncpus; i++) {
		w->cpus[i].dry = false;
		if (!w->cpus[i].data)
			advance(w, &w->cpus[i], now);
	}
	while (!ret) {
		struct cpu_reader *first = NULL;
		uint64_t bound = UINT64_MAX;

		for (i = 0; i < w->ncpus; i++) {
			struct cpu_reader *c = &w->cpus[i];

			if (c->data && (!first || c->ts < first->ts))
				first = c;
			else if (!c->data && c->done_until < bound)
				bound = c->done_until;
		}
		if (!first || (!all && first->ts > bound))
			break;
		ret = take(w, first, now);
	}
	w->fn = NULL;
	if (ret)
		snprintf(err, len, "watching the events: %s", strerror(-ret));
	return ret;
}

/**
 * trace_watch_poll - read what the buffers hold now (@now_ns, CLOCK_MONOTONIC)
 * and walk it as far as the CPUs' order is known, telling @fn (with @ctx)
 * of each wait that ends
 *
 * Returns 0, or a negative errno with @err saying what failed (-ENOMEM).
 */
int trace_watch_poll(struct trace_watch *w, uint64_t now_ns,
		     void (*fn)(const struct trace_wait *, void *), void *ctx, char *err, size_t len)
{
	return walk(w, now_ns, false, fn, ctx, err, len);
}

/* The run is over: everything left walked, the waits still open ended. */
int trace_watch_drain(struct trace_watch *w, void (*fn)(const struct trace_wait *, void *),
		      void *ctx, char *err, size_t len)
{
	int ret = walk(w, UINT64_MAX, true, fn, ctx, err, len);

	w->fn = fn;
	w->ctx = ctx;
	trace_sched_walk_free(w->walk);
	w->walk = NULL;
	w->fn = NULL;
	return ret;
}

/**
 * trace_watch_window - the run started at @start (CLOCK_MONOTONIC ns): its
 * threads' waits count from then on, as the analysis counts a thread's
 * window (before, the coordinator setting the run up holds their CPU)
 */
void trace_watch_window(struct trace_watch *w, uint64_t start)
{
	size_t i;

	for (i = 0; i < w->ntasks; i++)
		w->tasks[i].win_start = start;
}

const struct trace_watch_figure *trace_watch_figure(const struct trace_watch *w,
						    enum trace_wait_kind kind)
{
	return &w->fig[kind];
}

/* The scheduler events walked. */
uint64_t trace_watch_events(const struct trace_watch *w)
{
	return w->events;
}

/* Events the kernel dropped before the watch read them (a page of unknown loss counts 1). */
uint64_t trace_watch_lost(const struct trace_watch *w)
{
	return w->lost;
}

void trace_watch_close(struct trace_watch *w)
{
	int i;

	if (!w)
		return;
	trace_sched_walk_free(w->walk);
	for (i = 0; w->cpus && i < w->ncpus; i++)
		reader_free(&w->cpus[i]);
	free(w->cpus);
	free(w->tasks);
	free(w->names);
	if (w->tep)
		tep_free(w->tep);
	tracefs_instance_free(w->inst);
	free(w);
}
