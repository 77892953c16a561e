/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_STATS_H
#define RT_STATS_H

#include <stddef.h>

/* Summary of repeated measurements of one quantity. */
struct rt_stats {
	size_t n;
	double mean;
	double sd;	/* sample standard deviation (n - 1); 0 for one value */
	double min;
	double max;
};

void rt_stats_of(const double *v, size_t n, struct rt_stats *s);

#endif
