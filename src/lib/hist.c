// SPDX-License-Identifier: GPL-2.0-only
/*
 * Percentiles of latencies from a histogram of fixed size.
 */
#include <string.h>

#include "lib/hist.h"
#include "lib/json.h"

static unsigned int bucket_of(uint64_t v)
{
	unsigned int msb, shift;

	if (v < RT_HIST_EXACT)
		return (unsigned int)v;
	msb = 63 - (unsigned int)__builtin_clzll(v);	/* 6 or more */
	shift = msb - 5;				/* keep the top 6 bits */
	return RT_HIST_EXACT + (msb - 6) * RT_HIST_SUB + (unsigned int)(v >> shift) - RT_HIST_SUB;
}

/* The middle of bucket @b. */
static uint64_t value_of(unsigned int b)
{
	unsigned int msb, shift;
	uint64_t low;

	if (b < RT_HIST_EXACT)
		return b;
	msb = (b - RT_HIST_EXACT) / RT_HIST_SUB + 6;
	shift = msb - 5;
	low = (uint64_t)((b - RT_HIST_EXACT) % RT_HIST_SUB + RT_HIST_SUB) << shift;
	return low + (1ULL << shift) / 2;
}

/**
 * rt_hist_init - empty @h
 */
void rt_hist_init(struct rt_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

/**
 * rt_hist_add - count one value of @ns
 */
void rt_hist_add(struct rt_hist *h, uint64_t ns)
{
	h->bucket[bucket_of(ns)]++;
	h->count++;
	h->sum += ns;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
}

/**
 * rt_hist_pct - the @p-th percentile (0-100) by nearest rank
 *
 * Exact for p = 0 and p = 100 (min and max), within 3% otherwise.
 * Returns 0 for an empty histogram.
 */
uint64_t rt_hist_pct(const struct rt_hist *h, double p)
{
	uint64_t rank, seen = 0, v;
	unsigned int b;

	if (!h->count)
		return 0;
	if (p <= 0)
		return h->min;
	if (p >= 100)
		return h->max;
	rank = (uint64_t)(p / 100.0 * (double)h->count + 0.999999);
	if (rank < 1)
		rank = 1;
	for (b = 0; b < RT_HIST_BUCKETS; b++) {
		seen += h->bucket[b];
		if (seen >= rank)
			break;
	}
	v = value_of(b);
	/* the middle of a bucket can lie outside what was seen */
	return v < h->min ? h->min : v > h->max ? h->max : v;
}

/**
 * rt_hist_merge - add every value of @from to @into
 */
void rt_hist_merge(struct rt_hist *into, const struct rt_hist *from)
{
	unsigned int b;

	for (b = 0; b < RT_HIST_BUCKETS; b++)
		into->bucket[b] += from->bucket[b];
	into->count += from->count;
	into->sum += from->sum;
	if (from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
}

/**
 * rt_hist_summarise - the count, median, 99th percentile and maximum of @h
 */
void rt_hist_summarise(const struct rt_hist *h, struct rt_hist_sum *s)
{
	s->count = h->count;
	s->median = rt_hist_pct(h, 50);
	s->p99 = rt_hist_pct(h, 99);
	s->max = h->count ? h->max : 0;
}

/**
 * rt_hist_json - the fields count, median, p99 and max of @s, in the JSON
 * object the caller opened
 */
void rt_hist_json(struct rt_json *j, const struct rt_hist_sum *s)
{
	rt_json_uint(j, "count", s->count);
	rt_json_uint(j, "median", s->median);
	rt_json_uint(j, "p99", s->p99);
	rt_json_uint(j, "max", s->max);
}
