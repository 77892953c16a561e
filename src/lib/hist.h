/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_HIST_H
#define RT_HIST_H

#include <stdint.h>

/*
 * A fixed-memory histogram of nanosecond values: exact below 64 ns, then 32
 * buckets per power of two, so that any percentile is within 1/32 (3%) of
 * the true value; min, max, count and sum are exact. Recording is a few
 * instructions and never allocates, so it can sit in a measured loop.
 */
#define RT_HIST_EXACT 64
#define RT_HIST_SUB 32
#define RT_HIST_BUCKETS (RT_HIST_EXACT + (64 - 6) * RT_HIST_SUB)

struct rt_hist {
	uint64_t count;
	uint64_t sum;
	uint64_t min;
	uint64_t max;
	uint64_t bucket[RT_HIST_BUCKETS];
};

/* What a histogram says in four numbers (all 0 when it is empty). */
struct rt_hist_sum {
	uint64_t count;
	uint64_t median;
	uint64_t p99;
	uint64_t max;
};

void rt_hist_init(struct rt_hist *h);
void rt_hist_add(struct rt_hist *h, uint64_t ns);
uint64_t rt_hist_pct(const struct rt_hist *h, double p);
void rt_hist_merge(struct rt_hist *into, const struct rt_hist *from);
void rt_hist_summarise(const struct rt_hist *h, struct rt_hist_sum *s);

struct rt_json;
void rt_hist_json(struct rt_json *j, const struct rt_hist_sum *s);

#endif
