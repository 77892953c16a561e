// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-thread table in the shape of the commit message.
 */
#include <errno.h>
#include <inttypes.h>

#include "rt_report.h"

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
