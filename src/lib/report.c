// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-thread table in the shape of the commit message.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "rt_report.h"
#include "rt_stats.h"

/* The columns, in the table's order and by the names the JSON uses. */
const char *const rt_row_names[RT_ROW_COLUMNS] = { "vol", "nonvol", "migrated", "iterations" };

/**
 * rt_row_get - column @column (0-3, in rt_row_names' order) of @r
 */
double rt_row_get(const struct rt_row *r, int column)
{
	const uint64_t v[RT_ROW_COLUMNS] = { r->vol, r->nonvol, r->migrated, r->iterations };

	return (double)v[column];
}

/**
 * rt_report_sum - @total = the column sums of @rows
 */
void rt_report_sum(const struct rt_row *rows, size_t n, struct rt_row *total)
{
	size_t i;

	*total = (struct rt_row){ 0 };
	for (i = 0; i < n; i++) {
		total->vol += rows[i].vol;
		total->nonvol += rows[i].nonvol;
		total->migrated += rows[i].migrated;
		total->iterations += rows[i].iterations;
	}
}

/**
 * rt_report_table - write the table of commit 43fa5460fe60 to @out
 *
 * One row per thread, labelled by its index (higher index, higher
 * priority), a blank line and the column sums:
 *
 *   Task        vol    nonvol   migrated     iterations
 *   ----        ---    ------   --------     ----------
 *     0:         53      3220       1470             98
 *
 *   total:     5156       4977      6341            787
 *
 * Returns 0, or -EIO when writing to @out failed.
 */
int rt_report_table(FILE *out, const struct rt_row *rows, size_t n)
{
	struct rt_row t;
	size_t i;

	fprintf(out, "Task        vol    nonvol   migrated     iterations\n");
	fprintf(out, "----        ---    ------   --------     ----------\n");
	for (i = 0; i < n; i++)
		fprintf(out, "%3zu:%11" PRIu64 "%10" PRIu64 "%11" PRIu64 "%15" PRIu64 "\n", i,
			rows[i].vol, rows[i].nonvol, rows[i].migrated, rows[i].iterations);
	rt_report_sum(rows, n, &t);
	fprintf(out, "\ntotal:%9" PRIu64 "%10" PRIu64 "%11" PRIu64 "%15" PRIu64 "\n", t.vol,
		t.nonvol, t.migrated, t.iterations);
	return ferror(out) ? -EIO : 0;
}

/* One cell: the mean and standard deviation of @column over the runs' rows @row. */
static void cell(FILE *out, const struct rt_row *runs, size_t nruns, size_t nrows, size_t row,
		 int column, double *scratch, int width)
{
	struct rt_stats st;
	size_t r;

	for (r = 0; r < nruns; r++) {
		if (row < nrows) {
			scratch[r] = rt_row_get(&runs[r * nrows + row], column);
		} else {
			struct rt_row t;

			rt_report_sum(&runs[r * nrows], nrows, &t);
			scratch[r] = rt_row_get(&t, column);
		}
	}
	rt_stats_of(scratch, nruns, &st);
	fprintf(out, "%*.1f \u00b1 %7.1f", width, st.mean, st.sd);
}

/**
 * rt_report_table_stats - the table over repeated runs, each cell "mean ± sd"
 * @runs: @nruns runs of @nrows rows each, run after run
 *
 * The total row gives the mean and deviation of the runs' totals.
 *
 * Returns 0, -ENOMEM, or -EIO when writing to @out failed.
 */
int rt_report_table_stats(FILE *out, const struct rt_row *runs, size_t nruns, size_t nrows)
{
	double *scratch = calloc(nruns ? nruns : 1, sizeof(*scratch));
	size_t i;
	int c;

	if (!scratch)
		return -ENOMEM;
	fprintf(out, "Task");
	for (c = 0; c < RT_ROW_COLUMNS; c++)
		fprintf(out, "%12s \u00b1 %7s", rt_row_names[c], "sd");
	fprintf(out, "\n----");
	for (c = 0; c < RT_ROW_COLUMNS; c++)
		fprintf(out, "%12s   %7s", "----", "--");
	fputc('\n', out);
	for (i = 0; i <= nrows; i++) {
		if (i < nrows)
			fprintf(out, "%3zu:", i);
		else
			fprintf(out, "\ntotal:");
		for (c = 0; c < RT_ROW_COLUMNS; c++)
			cell(out, runs, nruns, nrows, i, c, scratch, i < nrows || c ? 12 : 10);
		fputc('\n', out);
	}
	fprintf(out, "(mean \u00b1 sample standard deviation over %zu runs)\n", nruns);
	free(scratch);
	return ferror(out) ? -EIO : 0;
}
