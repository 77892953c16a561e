// SPDX-License-Identifier: GPL-2.0-only
/* Summary statistics against values computed by hand. */
#include <math.h>
#include <stdlib.h>

#include "rt_report.h"
#include "rt_stats.h"
#include "tap.h"

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(b) > 1 ? fabs(b) : 1);
}

int main(void)
{
	/* mean 5, squared deviations 9+1+1+9+0 = 20, sample variance 20/4 = 5 */
	const double v[] = { 2, 4, 6, 8, 5 };
	const double big[] = { 1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16 };
	struct rt_stats s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	rt_stats_of(v, 5, &s);
	tap_ok(s.n == 5 && near(s.mean, 5), "mean of 2 4 6 8 5 is 5");
	tap_ok(near(s.sd, sqrt(5.0)), "sample sd is sqrt(5) (%.6f)", s.sd);
	tap_ok(s.min == 2 && s.max == 8, "min 2, max 8");
	rt_stats_of(v, 1, &s);
	tap_ok(s.mean == 2 && s.sd == 0, "one value: sd 0");
	rt_stats_of(v, 0, &s);
	tap_ok(s.n == 0 && s.mean == 0 && s.sd == 0, "no value: all zero");
	/* deviations -6 -3 3 6: variance 90/3 = 30, without cancellation */
	rt_stats_of(big, 4, &s);
	tap_ok(near(s.mean, 1e9 + 10) && near(s.sd, sqrt(30.0)),
	       "large close values keep their sd (%.9f)", s.sd);

	{
		/* two runs of two threads */
		const struct rt_row runs[] = { { 10, 20, 30, 40 }, { 1, 2, 3, 4 },
					       { 14, 20, 30, 44 }, { 3, 2, 3, 6 } };
		struct rt_summary sum;

		tap_ok(!rt_summary_of(runs, 2, 2, &sum), "the summary of two runs of two threads");
		tap_ok(rt_summary_cell(&sum, 2, 3)->mean == 47 && rt_summary_cell(&sum, 2, 3)->n == 2,
		       "the total's iterations: the mean of the runs' totals (44 + 50) / 2");
		f = open_memstream(&buf, &len);
		rt_report_table_stats(f, &sum);
		fclose(f);
		rt_summary_free(&sum);
		tap_ok(strstr(buf, "  0:        12.0 ±     2.8") != NULL,
		       "thread 0's vol is 12.0 ± 2.8 over two runs");
		tap_ok(strstr(buf, "total:      14.0 ±     4.2") != NULL,
		       "the total's vol is the mean of the runs' totals (11, 17)");
		tap_ok(strstr(buf, "(mean ± sample standard deviation over 2 runs)") != NULL,
		       "the table says what its cells are");
		free(buf);
	}
	return tap_done();
}
