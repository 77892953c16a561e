// SPDX-License-Identifier: GPL-2.0-only
/* Summary statistics against values computed by hand. */
#include <math.h>
#include <stdlib.h>

#include "lib/report.h"
#include "lib/stats.h"
#include "harness.h"

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(b) > 1 ? fabs(b) : 1);
}

TEST(mean_sd_min_max)
{
	/* mean 5, squared deviations 9+1+1+9+0 = 20, sample variance 20/4 = 5 */
	const double v[] = { 2, 4, 6, 8, 5 };
	struct rt_stats s;

	rt_stats_of(v, 5, &s);
	EXPECT(s.n == 5 && near(s.mean, 5), "mean of 2 4 6 8 5 is %g, expected 5", s.mean);
	EXPECT(near(s.sd, sqrt(5.0)), "sample sd is %.6f, expected sqrt(5)", s.sd);
	EXPECT(s.min == 2 && s.max == 8, "min %g max %g, expected 2 and 8", s.min, s.max);
	rt_stats_of(v, 1, &s);
	EXPECT(s.mean == 2 && s.sd == 0, "one value: mean %g sd %g, expected 2 and 0", s.mean, s.sd);
	rt_stats_of(v, 0, &s);
	EXPECT(s.n == 0 && s.mean == 0 && s.sd == 0, "no value: all zero");
}

TEST(large_close_values_keep_their_sd)
{
	/* deviations -6 -3 3 6: variance 90/3 = 30, without cancellation */
	const double big[] = { 1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16 };
	struct rt_stats s;

	rt_stats_of(big, 4, &s);
	EXPECT(near(s.mean, 1e9 + 10) && near(s.sd, sqrt(30.0)),
	       "mean %.3f sd %.9f, expected 1e9 + 10 and sqrt(30)", s.mean, s.sd);
}

TEST(summary_of_two_runs_of_two_threads)
{
	const struct rt_row runs[] = { { 10, 20, 30, 40 }, { 1, 2, 3, 4 },
				       { 14, 20, 30, 44 }, { 3, 2, 3, 6 } };
	struct rt_summary sum;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	ASSERT(!rt_summary_of(runs, 2, 2, &sum), "the summary of two runs of two threads");
	/* the total's iterations: the mean of the runs' totals (44 + 50) / 2 */
	EXPECT_EQ(rt_summary_cell(&sum, 2, 3)->mean, 47);
	EXPECT_EQ(rt_summary_cell(&sum, 2, 3)->n, 2);
	f = open_memstream(&buf, &len);
	ASSERT(f, "open_memstream");
	rt_report_table_stats(f, &sum);
	fclose(f);
	rt_summary_free(&sum);
	EXPECT_CONTAINS(buf, "  0:        12.0 ±     2.8");
	/* the total's vol is the mean of the runs' totals (11, 17) */
	EXPECT_CONTAINS(buf, "total:      14.0 ±     4.2");
	EXPECT_CONTAINS(buf, "(mean ± sample standard deviation over 2 runs)");
	free(buf);
}
