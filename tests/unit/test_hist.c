// SPDX-License-Identifier: GPL-2.0-only
/* The latency histogram: exact ends, percentiles within its stated error. */
#include <stdlib.h>

#include "lib/hist.h"
#include "harness.h"

static int within(uint64_t got, uint64_t want, double rel)
{
	double d = (double)got - (double)want;

	return (d < 0 ? -d : d) <= rel * (double)want;
}

TEST(exact_ends_and_percentiles)
{
	static struct rt_hist h;
	uint64_t i;

	rt_hist_init(&h);
	EXPECT_EQ(rt_hist_pct(&h, 50), 0);	/* an empty histogram has no percentile */
	for (i = 1; i <= 1000; i++)
		rt_hist_add(&h, i * 1000);	/* 1 us .. 1 ms */
	EXPECT_EQ(h.count, 1000);
	EXPECT_EQ(h.min, 1000);
	EXPECT_EQ(h.max, 1000000);
	EXPECT_EQ(rt_hist_pct(&h, 100), 1000000);
	EXPECT(within(rt_hist_pct(&h, 50), 500000, 1.0 / 32), "p50 %llu, not within 3%% of 500000",
	       (unsigned long long)rt_hist_pct(&h, 50));
	EXPECT(within(rt_hist_pct(&h, 99), 990000, 1.0 / 32), "p99 %llu, not within 3%% of 990000",
	       (unsigned long long)rt_hist_pct(&h, 99));
	EXPECT_EQ(h.sum, 500500000ULL);
}

TEST(small_values_are_exact)
{
	static struct rt_hist g;
	uint64_t i;

	rt_hist_init(&g);
	for (i = 0; i < 64; i++)
		rt_hist_add(&g, i);
	EXPECT_EQ(rt_hist_pct(&g, 50), 31);
}

TEST(relative_error_within_a_32nd)
{
	static struct rt_hist g;
	uint64_t i, v, d, worst = 0;

	/* every value lands in a bucket whose middle is within 1/32 of it */
	for (i = 64; i < (1ULL << 40); i = i * 17 / 16 + 1) {
		rt_hist_init(&g);
		rt_hist_add(&g, i);
		rt_hist_add(&g, UINT64_MAX / 2);	/* keep the clamp to max out of the way */
		v = rt_hist_pct(&g, 50);
		d = v > i ? v - i : i - v;
		if (d * 1000 / i > worst)
			worst = d * 1000 / i;
	}
	EXPECT(worst <= 1000 / 32, "the worst relative error over 64 ns..1100 s is %.1f%%",
	       worst / 10.0);
}

TEST(the_largest_value_and_merge)
{
	static struct rt_hist h, g;
	uint64_t i;

	rt_hist_init(&h);
	for (i = 1; i <= 1000; i++)
		rt_hist_add(&h, i * 1000);
	rt_hist_init(&g);
	rt_hist_add(&g, 5);
	rt_hist_add(&g, UINT64_MAX / 2);
	rt_hist_add(&g, UINT64_MAX);
	EXPECT(g.max == UINT64_MAX, "the largest value fits");
	rt_hist_merge(&h, &g);
	EXPECT_EQ(h.count, 1003);
	EXPECT(h.max == UINT64_MAX, "merge keeps the max");
	EXPECT_EQ(h.min, 5);
}
