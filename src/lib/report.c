// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-thread table in the shape of the commit message.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "lib/report.h"
#include "lib/stats.h"

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

/**
 * rt_summary_of - the statistics of every cell of @nruns runs of @nrows rows
 * @runs: run after run
 *
 * Returns 0 or -ENOMEM; rt_summary_free() frees @s.
 */
int rt_summary_of(const struct rt_row *runs, size_t nruns, size_t nrows, struct rt_summary *s)
{
	size_t slots = nruns ? nruns : 1, i, r;
	struct rt_row *totals = calloc(slots, sizeof(*totals));
	double *v = calloc(slots, sizeof(*v));
	int c;

	s->runs = nruns;
	s->rows = nrows;
	s->cell = calloc((nrows + 1) * RT_ROW_COLUMNS, sizeof(*s->cell));
	if (!totals || !v || !s->cell) {
		free(totals);
		free(v);
		rt_summary_free(s);
		return -ENOMEM;
	}
	for (r = 0; r < nruns; r++)
		rt_report_sum(&runs[r * nrows], nrows, &totals[r]);
	for (i = 0; i <= nrows; i++) {
		for (c = 0; c < RT_ROW_COLUMNS; c++) {
			for (r = 0; r < nruns; r++)
				v[r] = rt_row_get(i < nrows ? &runs[r * nrows + i] : &totals[r], c);
			rt_stats_of(v, nruns, &s->cell[i * RT_ROW_COLUMNS + (size_t)c]);
		}
	}
	free(totals);
	free(v);
	return 0;
}

/* The statistics of @column in row @row (@s->rows: the total). */
const struct rt_stats *rt_summary_cell(const struct rt_summary *s, size_t row, int column)
{
	return &s->cell[row * RT_ROW_COLUMNS + (size_t)column];
}

void rt_summary_free(struct rt_summary *s)
{
	free(s->cell);
	s->cell = NULL;
}

/**
 * rt_report_table_stats - the table over repeated runs, each cell "mean ± sd"
 *
 * The total row gives the mean and deviation of the runs' totals.
 *
 * Returns 0, or -EIO when writing to @out failed.
 */
int rt_report_table_stats(FILE *out, const struct rt_summary *s)
{
	const struct rt_stats *st;
	size_t i;
	int c;

	fprintf(out, "Task");
	for (c = 0; c < RT_ROW_COLUMNS; c++)
		fprintf(out, "%12s \u00b1 %7s", rt_row_names[c], "sd");
	fprintf(out, "\n----");
	for (c = 0; c < RT_ROW_COLUMNS; c++)
		fprintf(out, "%12s   %7s", "----", "--");
	fputc('\n', out);
	for (i = 0; i <= s->rows; i++) {
		if (i < s->rows)
			fprintf(out, "%3zu:", i);
		else
			fprintf(out, "\ntotal:");
		for (c = 0; c < RT_ROW_COLUMNS; c++) {
			st = rt_summary_cell(s, i, c);
			fprintf(out, "%*.1f \u00b1 %7.1f", i < s->rows || c ? 12 : 10, st->mean, st->sd);
		}
		fputc('\n', out);
	}
	fprintf(out, "(mean \u00b1 sample standard deviation over %zu runs)\n", s->runs);
	return ferror(out) ? -EIO : 0;
}
