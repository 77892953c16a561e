/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_REPORT_H
#define RT_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One thread's line of the table: what it did during the measured run. */
struct rt_row {
	uint64_t vol;
	uint64_t nonvol;
	uint64_t migrated;
	uint64_t iterations;
};

void rt_report_sum(const struct rt_row *rows, size_t n, struct rt_row *total);
int rt_report_table(FILE *out, const struct rt_row *rows, size_t n);
int rt_report_table_stats(FILE *out, const struct rt_row *runs, size_t nruns, size_t nrows);
double rt_row_get(const struct rt_row *r, int column);

#define RT_ROW_COLUMNS 4
extern const char *const rt_row_names[RT_ROW_COLUMNS];

#endif
