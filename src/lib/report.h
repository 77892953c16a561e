/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_REPORT_H
#define RT_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/stats.h"

/* One thread's line of the table: what it did during the measured run. */
struct rt_row {
	uint64_t vol;
	uint64_t nonvol;
	uint64_t migrated;
	uint64_t iterations;
};

#define RT_ROW_COLUMNS 4
extern const char *const rt_row_names[RT_ROW_COLUMNS];

/*
 * The statistics of every cell of a table over repeated runs, computed once
 * for the text and the result file: the rows, then the total (the runs'
 * totals), each RT_ROW_COLUMNS columns.
 */
struct rt_summary {
	size_t runs, rows;
	struct rt_stats *cell;		/* (rows + 1) * RT_ROW_COLUMNS */
};

void rt_report_sum(const struct rt_row *rows, size_t n, struct rt_row *total);
int rt_report_table(FILE *out, const struct rt_row *rows, size_t n);
int rt_summary_of(const struct rt_row *runs, size_t nruns, size_t nrows, struct rt_summary *s);
const struct rt_stats *rt_summary_cell(const struct rt_summary *s, size_t row, int column);
void rt_summary_free(struct rt_summary *s);
int rt_report_table_stats(FILE *out, const struct rt_summary *s);
double rt_row_get(const struct rt_row *r, int column);

#endif
