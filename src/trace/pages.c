// SPDX-License-Identifier: GPL-2.0-only
/*
 * A trace.dat's CPU data read in place: where a buffer's pages are stored
 * as the kernel wrote them (trace-cmd's flyrecord, uncompressed), each
 * CPU's pages are walked with libtraceevent's kbuffer, read from the file a
 * run of pages at a time into a buffer of the walk's own, and the CPUs
 * merged by time. libtracecmd says where each CPU's data begins and ends
 * (its first and last records); its own reader, which allocates every
 * record and reads pages through its cache, took most of an analysis's
 * time. Where the layout cannot be verified (a compressed file, another
 * byte order), the caller reads through libtracecmd.
 *
 * Read, not mapped: a map's pages fault in one by one and, given back as
 * the walk goes (its memory must not grow with the file), cost every
 * other CPU running the process a TLB flush; read into a buffer, a page
 * costs its copy.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <kbuffer.h>
#include <trace-cmd.h>

#include "trace/internal/pages.h"

/*
 * Exported by libtracecmd since its first release, declared in trace-cmd's
 * private header, which Debian's libtracecmd-dev does not install: the last
 * record of a CPU, as tracecmd_read_cpu_first() gives its first.
 */
struct tep_record *tracecmd_read_cpu_last(struct tracecmd_input *handle, int cpu);

/* A cursor's buffer holds this many pages read at once (64 KiB of 4 KiB pages). */
#define READ_PAGES 16
/* Bytes past the buffer's pages, so that a damaged page's last event header read past it stays inside. */
#define SLACK 64
/* A page's header: its time (8 bytes), then its data's length (a long) with flags above these bits. */
#define COMMIT_MASK ((1ULL << 27) - 1)

/* One CPU's pages, and where its reading stands. */
struct cursor {
	struct kbuffer *kbuf;
	int fd;
	size_t page_size;
	off_t first, end;		/* its first page, past its last (file offsets); equal: none */
	off_t at;			/* the page loaded */
	const char *page;		/* it, in buf */
	size_t long_size;		/* the recording kernel's long: its pages' header */
	char *buf;			/* pages read: READ_PAGES of them at most */
	off_t buf_at;			/* where they are in the file */
	size_t buf_len;
	struct tep_record r;		/* the event it stands on, in buf */
	int cpu;
	bool damaged;			/* a page it could not read: the walk fails */
};

struct trace_pages {
	int fd;
	size_t page_size;
	struct cursor *cur;		/* a whole CPU each */
	int ncur;
	struct cursor **heap;
	enum kbuffer_long_size lsize;
	enum kbuffer_endian endian;
};

/*
 * Whether page @p's header is sane: its data fits in the page. kbuffer
 * trusts it, and reads past the page from a damaged one.
 */
static bool sane(const struct cursor *c, const char *p)
{
	uint64_t commit = 0;
	uint32_t commit32;

	if (c->long_size == 8) {
		memcpy(&commit, p + 8, 8);
	} else {
		memcpy(&commit32, p + 8, 4);
		commit = commit32;
	}
	return (commit & COMMIT_MASK) + 8 + c->long_size <= c->page_size;
}

static int cursor_init(struct cursor *c, const struct trace_pages *p, int cpu)
{
	memset(c, 0, sizeof(*c));
	c->fd = p->fd;
	c->page_size = p->page_size;
	c->cpu = cpu;
	c->long_size = p->lsize == KBUFFER_LSIZE_8 ? 8 : 4;
	c->kbuf = kbuffer_alloc(p->lsize, p->endian);
	c->buf = calloc(1, READ_PAGES * p->page_size + SLACK);
	return c->kbuf && c->buf ? 0 : -ENOMEM;
}

static void cursor_free(struct cursor *c)
{
	if (c->kbuf)
		kbuffer_free(c->kbuf);
	free(c->buf);
}

/* The page at @at, read with the ones after it (up to the cursor's end) if it is not in the buffer; NULL: unreadable. */
static char *page_at(struct cursor *c, off_t at)
{
	size_t want, got = 0;
	ssize_t n;

	if (at >= c->buf_at && at + (off_t)c->page_size <= c->buf_at + (off_t)c->buf_len)
		return c->buf + (at - c->buf_at);
	want = (size_t)(c->end - at) < READ_PAGES * c->page_size ? (size_t)(c->end - at) :
								      READ_PAGES * c->page_size;
	c->buf_at = at;
	while (got < want) {
		n = pread(c->fd, c->buf + got, want - got, at + (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	c->buf_len = got;
	return got >= c->page_size ? c->buf : NULL;
}

/*
 * Load the page at @at: its first event into c->r, or 1 when it holds
 * none; -EINVAL for a page that cannot be read or whose header says more
 * data than a page holds (a damaged file: its events would be read past
 * the page).
 */
static int load(struct cursor *c, off_t at)
{
	char *p = page_at(c, at);

	c->at = at;
	c->page = p;
	if (!p || !sane(c, p) || kbuffer_load_subbuffer(c->kbuf, p))
		return -EINVAL;
	c->r.data = kbuffer_read_event(c->kbuf, &c->r.ts);
	c->r.missed_events = kbuffer_missed_events(c->kbuf);
	return c->r.data ? 0 : 1;
}

/* The cursor's next event (@first: its first page's first); false past its last page. */
static bool advance(struct cursor *c, bool first)
{
	int ret;

	if (!first) {
		c->r.data = kbuffer_next_event(c->kbuf, &c->r.ts);
		c->r.missed_events = 0;
		if (c->r.data)
			goto have;
	}
	for (;;) {
		if (!first)
			c->at += (off_t)c->page_size;
		first = false;
		if (c->at >= c->end)
			return false;
		ret = load(c, c->at);
		if (ret < 0) {
			c->damaged = true;
			return false;
		}
		if (!ret)
			break;
	}
have:
	c->r.size = kbuffer_event_size(c->kbuf);
	c->r.cpu = c->cpu;
	/* an event that says it runs past its page is a damaged page */
	if (c->r.size < 0 || (const char *)c->r.data < c->page ||
	    (size_t)((const char *)c->r.data - c->page) + (size_t)c->r.size > c->page_size) {
		c->damaged = true;
		return false;
	}
	return true;
}

/* Cursor @c at its first event again, whatever an earlier walk left; false: no events. */
static bool rewind_cursor(struct cursor *c)
{
	c->damaged = false;
	if (c->first >= c->end)
		return false;
	c->at = c->first;
	return advance(c, true);
}

/* Whether the event @c stands on is record @want (the same time and bytes). */
static bool same(const struct cursor *c, const struct tep_record *want)
{
	return c->r.data && c->r.ts == want->ts && c->r.size == want->size &&
	       !memcmp(c->r.data, want->data, (size_t)want->size);
}

/* Whether the last event of @c's last page is record @last (the page is loaded into @c). */
static bool ends_with(struct cursor *c, const struct tep_record *last)
{
	unsigned long long ts = 0, t;
	void *data, *prev = NULL;
	int size = 0;

	if (load(c, c->end - (off_t)c->page_size))
		return false;
	for (data = c->r.data, t = c->r.ts; data; data = kbuffer_next_event(c->kbuf, &t)) {
		prev = data;
		ts = t;
		size = kbuffer_event_size(c->kbuf);
	}
	return prev && ts == last->ts && size == last->size &&
	       !memcmp(prev, last->data, (size_t)size);
}

/*
 * CPU @c->cpu's pages, from its first record's page to its last's, checked:
 * reading the first page in place must give libtracecmd's first record,
 * and the last page its last. Returns 0 (an empty CPU too, with no pages),
 * or -ENOTSUP.
 */
static int find_pages(struct tracecmd_input *h, struct cursor *c, size_t file_len)
{
	struct tep_record *first = tracecmd_read_cpu_first(h, c->cpu), *last;
	unsigned long long mask = ~(unsigned long long)(c->page_size - 1);
	int ret = -ENOTSUP;

	if (!first)
		return 0;
	last = tracecmd_read_cpu_last(h, c->cpu);
	if (last && first->offset < file_len && last->offset < file_len &&
	    last->offset >= first->offset) {
		c->first = (off_t)(first->offset & mask);
		c->end = (off_t)(last->offset & mask) + (off_t)c->page_size;
		if (rewind_cursor(c) && same(c, first) && ends_with(c, last))
			ret = 0;
	}
	if (ret)
		c->first = c->end = 0;
	if (last)
		tracecmd_free_record(last);
	tracecmd_free_record(first);
	return ret;
}

static bool before(const struct cursor *a, const struct cursor *b)
{
	return a->r.ts < b->r.ts || (a->r.ts == b->r.ts && a->cpu < b->cpu);
}

static void sift_down(struct cursor **h, int n, int i)
{
	struct cursor *t;
	int c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && before(h[c + 1], h[c]))
			c++;
		if (!before(h[c], h[i]))
			return;
		t = h[c];
		h[c] = h[i];
		h[i] = t;
		i = c;
	}
}

void trace_pages_close(struct trace_pages *p)
{
	int i;

	if (!p)
		return;
	for (i = 0; p->cur && i < p->ncur; i++)
		cursor_free(&p->cur[i]);
	if (p->fd >= 0)
		close(p->fd);
	free(p->cur);
	free(p->heap);
	free(p);
}

/**
 * trace_pages_open - read the @cpus CPUs of buffer @h of the trace.dat open as
 * @fd in place, when its layout allows (@fd stays the caller's)
 *
 * Returns 0 with @pp set, -ENOTSUP where the file must be read through
 * libtracecmd (compressed, another byte order or word size, a layout that
 * did not verify), -ENOMEM.
 */
int trace_pages_open(struct trace_pages **pp, struct tracecmd_input *h, struct tep_handle *tep,
		     int cpus, int fd, size_t file_len)
{
	struct trace_pages *p = calloc(1, sizeof(*p));
	int i, ret = 0;

	*pp = NULL;
	if (!p)
		return -ENOMEM;
	p->fd = -1;
	if (tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep) || tep_is_old_format(tep) ||
	    cpus <= 0) {
		free(p);
		return -ENOTSUP;
	}
	p->lsize = tep_get_long_size(tep) == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4;
	p->endian = tep_is_local_bigendian(tep) ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE;
	/*
	 * libtracecmd does not give the file's page size to the tep; the
	 * recording machine's is taken as this one's, and the checks of each
	 * CPU's first and last records refuse it where it is not
	 */
	p->page_size = (size_t)(tep_get_page_size(tep) > 0 ? tep_get_page_size(tep) :
				sysconf(_SC_PAGESIZE));
	p->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	p->cur = calloc((size_t)cpus, sizeof(*p->cur));
	p->heap = calloc((size_t)cpus, sizeof(*p->heap));
	if (p->fd < 0)
		ret = -ENOTSUP;
	else if (!p->cur || !p->heap)
		ret = -ENOMEM;
	else
		p->ncur = cpus;
	for (i = 0; !ret && i < cpus; i++) {
		ret = cursor_init(&p->cur[i], p, i);
		if (!ret)
			ret = find_pages(h, &p->cur[i], file_len);
	}
	if (ret) {
		trace_pages_close(p);
		return ret;
	}
	*pp = p;
	return 0;
}

/**
 * trace_pages_walk - every event of every CPU from its first, in time order
 * (ties by CPU), to @fn; non-zero from @fn stops the walk and is returned,
 * -EBADMSG when a page of the file was damaged (the events before it given)
 */
int trace_pages_walk(struct trace_pages *p, int (*fn)(struct tep_record *r, int cpu, void *ctx),
		     void *ctx)
{
	int n = 0, i, ret = 0;

	for (i = 0; i < p->ncur; i++) {
		if (rewind_cursor(&p->cur[i]))
			p->heap[n++] = &p->cur[i];
	}
	for (i = n / 2 - 1; i >= 0; i--)
		sift_down(p->heap, n, i);
	while (n && !ret) {
		struct cursor *c = p->heap[0];

		ret = fn(&c->r, c->cpu, ctx);
		if (!advance(c, false))
			p->heap[0] = p->heap[--n];
		sift_down(p->heap, n, 0);
	}
	for (i = 0; !ret && i < p->ncur; i++)
		ret = p->cur[i].damaged ? -EBADMSG : 0;
	return ret;
}

/**
 * trace_pages_cpus - the number of CPUs trace_pages_walk_cpu() takes
 */
int trace_pages_cpus(const struct trace_pages *p)
{
	return p->ncur;
}

/**
 * trace_pages_walk_cpu - every event of CPU @cpu alone, in its order, to @fn
 *
 * Returns as trace_pages_walk() does.
 */
int trace_pages_walk_cpu(struct trace_pages *p, int cpu,
			 int (*fn)(struct tep_record *r, int cpu, void *ctx), void *ctx)
{
	struct cursor *c = &p->cur[cpu];
	bool more;
	int ret = 0;

	for (more = rewind_cursor(c); more && !ret; more = advance(c, false))
		ret = fn(&c->r, c->cpu, ctx);
	return ret ? ret : c->damaged ? -EBADMSG : 0;
}
