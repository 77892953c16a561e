// SPDX-License-Identifier: GPL-2.0-only
/*
 * A trace.dat's CPU data read in place: where a buffer's pages are stored
 * as the kernel wrote them (trace-cmd's flyrecord, uncompressed), each
 * CPU's pages are walked with libtraceevent's kbuffer straight from a map of
 * the file, and the CPUs merged by time. libtracecmd says where each CPU's
 * data begins and ends (its first and last records); its own reader, which
 * allocates every record and reads pages through its cache, took most of an
 * analysis's time. Where the layout cannot be verified (a compressed file,
 * another byte order), the caller reads through libtracecmd.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <kbuffer.h>
#include <trace-cmd.h>

#include "tdpages.h"

/*
 * Exported by libtracecmd since its first release, declared in trace-cmd's
 * private header, which Debian's libtracecmd-dev does not install: the last
 * record of a CPU, as tracecmd_read_cpu_first() gives its first.
 */
struct tep_record *tracecmd_read_cpu_last(struct tracecmd_input *handle, int cpu);

/* One CPU's pages, and where its reading stands. */
struct cursor {
	struct kbuffer *kbuf;
	const char *first;		/* its first page, or NULL: no data */
	const char *page, *end;		/* the page loaded, the end of its data */
	const char *map;		/* the file's map, for the records' offsets */
	const char *kept;		/* its pages from here on are resident; before, given back */
	struct tep_record r;		/* the event it stands on, in the map */
	int cpu;
	bool damaged;			/* a page it could not read: the walk fails */
};

/* A CPU's pages read are given back in runs of this many. */
#define RELEASE_PAGES 256

struct td_pages {
	const char *map;
	size_t map_len;
	size_t page_size;
	struct cursor *cur;
	int ncur;
	struct cursor **heap;
};

/*
 * Load page @p: its first event into c->r, or 1 when it holds none;
 * -EINVAL for a page whose header says more data than a page holds (a
 * damaged file: its events would be read past the page).
 */
static int load(struct cursor *c, const char *p, size_t page_size)
{
	c->page = p;
	if (kbuffer_load_subbuffer(c->kbuf, (void *)p) ||
	    (size_t)kbuffer_subbuffer_size(c->kbuf) + (size_t)kbuffer_start_of_data(c->kbuf) >
	    page_size)
		return -EINVAL;
	c->r.data = kbuffer_read_event(c->kbuf, &c->r.ts);
	c->r.missed_events = kbuffer_missed_events(c->kbuf);
	return c->r.data ? 0 : 1;
}

/* The cursor's next event; false past its last page. */
static bool advance(struct cursor *c, size_t page_size, bool first)
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
			c->page += page_size;
		first = false;
		/*
		 * The pages read go back every RELEASE_PAGES: the process's
		 * memory does not grow with the file, and the pages ahead stay
		 */
		if ((size_t)(c->page - c->kept) >= RELEASE_PAGES * page_size) {
			madvise((void *)c->kept, (size_t)(c->page - c->kept), MADV_DONTNEED);
			c->kept = c->page;
		}
		if (c->page >= c->end)
			return false;
		ret = load(c, c->page, page_size);
		if (ret < 0) {
			c->damaged = true;
			return false;
		}
		if (!ret)
			break;
	}
have:
	c->r.size = kbuffer_event_size(c->kbuf);
	c->r.offset = (unsigned long long)(c->page - c->map) +
		      (unsigned long long)kbuffer_curr_offset(c->kbuf);
	return true;
}

/* Whether the event @c stands on is record @want (the same time and bytes). */
static bool same(const struct cursor *c, const struct tep_record *want)
{
	return c->r.data && c->r.ts == want->ts && c->r.size == want->size &&
	       !memcmp(c->r.data, want->data, (size_t)want->size);
}

/* Whether the last event of @c's last page is record @last. */
static bool ends_with(const struct cursor *c, const struct td_pages *p,
		      const struct tep_record *last)
{
	struct cursor at = *c;
	unsigned long long ts = 0, t;
	void *data, *prev = NULL;
	int size = 0;

	if (load(&at, c->end - p->page_size, p->page_size))
		return false;
	for (data = at.r.data, t = at.r.ts; data; data = kbuffer_next_event(at.kbuf, &t)) {
		prev = data;
		ts = t;
		size = kbuffer_event_size(at.kbuf);
	}
	return prev && ts == last->ts && size == last->size &&
	       !memcmp(prev, last->data, (size_t)size);
}

/*
 * CPU @cpu's pages, from its first record's page to its last's, checked:
 * reading the first page in place must give libtracecmd's first record.
 * Returns 0 (an empty CPU too, with no pages), or -ENOTSUP.
 */
static int find_pages(struct td_pages *p, struct tracecmd_input *h, struct cursor *c)
{
	struct tep_record *first = tracecmd_read_cpu_first(h, c->cpu), *last;
	size_t mask = ~(p->page_size - 1);
	int ret = -ENOTSUP;

	c->map = p->map;
	if (!first) {
		c->first = c->page = c->end = NULL;
		return 0;
	}
	last = tracecmd_read_cpu_last(h, c->cpu);
	if (last && first->offset < p->map_len && last->offset < p->map_len &&
	    last->offset >= first->offset) {
		c->first = c->page = c->kept = p->map + (first->offset & mask);
		c->end = p->map + (last->offset & mask) + p->page_size;
		if (advance(c, p->page_size, true) && same(c, first) && ends_with(c, p, last))
			ret = 0;
	}
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

void td_pages_close(struct td_pages *p)
{
	int i;

	if (!p)
		return;
	for (i = 0; p->cur && i < p->ncur; i++)
		if (p->cur[i].kbuf)
			kbuffer_free(p->cur[i].kbuf);
	if (p->map)
		munmap((void *)p->map, p->map_len);
	free(p->cur);
	free(p->heap);
	free(p);
}

/**
 * td_pages_open - read the @cpus CPUs of buffer @h of the trace.dat open as
 * @fd in place, when its layout allows
 *
 * Returns 0 with @pp set, -ENOTSUP where the file must be read through
 * libtracecmd (compressed, another byte order or word size, a layout that
 * did not verify), -ENOMEM.
 */
int td_pages_open(struct td_pages **pp, struct tracecmd_input *h, struct tep_handle *tep,
		  int cpus, int fd, size_t file_len)
{
	struct td_pages *p = calloc(1, sizeof(*p));
	enum kbuffer_long_size lsize;
	int i, ret = 0;

	*pp = NULL;
	if (!p)
		return -ENOMEM;
	if (tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep) || tep_is_old_format(tep) ||
	    cpus <= 0) {
		free(p);
		return -ENOTSUP;
	}
	lsize = tep_get_long_size(tep) == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4;
	/*
	 * libtracecmd does not give the file's page size to the tep; the
	 * recording machine's is taken as this one's, and the checks of each
	 * CPU's first and last records refuse it where it is not
	 */
	p->page_size = (size_t)(tep_get_page_size(tep) > 0 ? tep_get_page_size(tep) :
				sysconf(_SC_PAGESIZE));
	p->map_len = file_len;
	p->map = mmap(NULL, file_len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p->map == MAP_FAILED) {
		p->map = NULL;
		td_pages_close(p);
		return -ENOTSUP;
	}
	p->cur = calloc((size_t)cpus, sizeof(*p->cur));
	p->heap = calloc((size_t)cpus, sizeof(*p->heap));
	p->ncur = cpus;
	if (!p->cur || !p->heap)
		ret = -ENOMEM;
	for (i = 0; !ret && i < cpus; i++) {
		p->cur[i].cpu = i;
		p->cur[i].kbuf = kbuffer_alloc(lsize, tep_is_local_bigendian(tep) ?
							   KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
		ret = p->cur[i].kbuf ? find_pages(p, h, &p->cur[i]) : -ENOMEM;
	}
	if (ret) {
		td_pages_close(p);
		return ret;
	}
	*pp = p;
	return 0;
}

/**
 * td_pages_walk - every event of every CPU from its first, in time order
 * (ties by CPU), to @fn; non-zero from @fn stops the walk and is returned,
 * -EINVAL when a page of the file was damaged (the events before it given)
 */
int td_pages_walk(struct td_pages *p, int (*fn)(struct tep_record *r, int cpu, void *ctx),
		  void *ctx)
{
	int n = 0, i, ret = 0;

	for (i = 0; i < p->ncur; i++) {
		struct cursor *c = &p->cur[i];

		c->damaged = false;
		if (!c->first)
			continue;
		/* from the first page again, whatever an earlier walk left */
		c->page = c->kept = c->first;
		if (advance(c, p->page_size, true))
			p->heap[n++] = c;
	}
	for (i = n / 2 - 1; i >= 0; i--)
		sift_down(p->heap, n, i);
	while (n && !ret) {
		struct cursor *c = p->heap[0];

		c->r.cpu = c->cpu;
		ret = fn(&c->r, c->cpu, ctx);
		if (!advance(c, p->page_size, false))
			p->heap[0] = p->heap[--n];
		sift_down(p->heap, n, 0);
	}
	for (i = 0; !ret && i < p->ncur; i++)
		ret = p->cur[i].damaged ? -EINVAL : 0;
	return ret;
}
