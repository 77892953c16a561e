// SPDX-License-Identifier: GPL-2.0-only
/* The latency histogram: exact ends, percentiles within its stated error. */
#include <stdlib.h>

#include "rt_hist.h"
#include "tap.h"

static int within(uint64_t got, uint64_t want, double rel)
{
	double d = (double)got - (double)want;

	return (d < 0 ? -d : d) <= rel * (double)want;
}

int main(void)
{
	static struct rt_hist h, g;
	uint64_t i, worst = 0;

	rt_hist_init(&h);
	tap_is(rt_hist_pct(&h, 50), 0, "an empty histogram has no percentile");
	for (i = 1; i <= 1000; i++)
		rt_hist_add(&h, i * 1000);	/* 1 us .. 1 ms */
	tap_is(h.count, 1000, "count");
	tap_is(h.min, 1000, "min is exact");
	tap_is(h.max, 1000000, "max is exact");
	tap_is(rt_hist_pct(&h, 100), 1000000, "p100 is the max");
	tap_ok(within(rt_hist_pct(&h, 50), 500000, 1.0 / 32), "p50 within 3%%: %llu",
	       (unsigned long long)rt_hist_pct(&h, 50));
	tap_ok(within(rt_hist_pct(&h, 99), 990000, 1.0 / 32), "p99 within 3%%: %llu",
	       (unsigned long long)rt_hist_pct(&h, 99));
	tap_is(h.sum, 500500000ULL, "sum is exact");

	rt_hist_init(&g);
	for (i = 0; i < 64; i++)
		rt_hist_add(&g, i);
	tap_is(rt_hist_pct(&g, 50), 31, "values below 64 ns are exact");

	/* every value lands in a bucket whose middle is within 1/32 of it */
	for (i = 64; i < (1ULL << 40); i = i * 17 / 16 + 1) {
		rt_hist_init(&g);
		rt_hist_add(&g, i);
		rt_hist_add(&g, UINT64_MAX / 2);	/* keep the clamp to max out of the way */
		uint64_t v = rt_hist_pct(&g, 50);
		uint64_t d = v > i ? v - i : i - v;

		if (d * 1000 / i > worst)
			worst = d * 1000 / i;
	}
	tap_ok(worst <= 1000 / 32, "the worst relative error over 64 ns..1100 s is %.1f%%",
	       worst / 10.0);

	rt_hist_add(&g, UINT64_MAX);
	tap_is(g.max, UINT64_MAX, "the largest value fits");
	rt_hist_merge(&h, &g);
	tap_is(h.count, 1003, "merge adds the counts");
	tap_is(h.max, UINT64_MAX, "  and keeps the max");
	return tap_done();
}
