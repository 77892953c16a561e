// SPDX-License-Identifier: GPL-2.0-only
/*
 * Summary statistics over repeated runs.
 */
#include <math.h>

#include "lib/stats.h"

/**
 * rt_stats_of - mean, sample standard deviation, min and max of @v
 *
 * Welford's method: one pass, no cancellation when the values are large and
 * close together (context switch counts of long runs). All zero for n = 0.
 */
void rt_stats_of(const double *v, size_t n, struct rt_stats *s)
{
	double m2 = 0, delta;
	size_t i;

	*s = (struct rt_stats){ .n = n };
	for (i = 0; i < n; i++) {
		delta = v[i] - s->mean;
		s->mean += delta / (double)(i + 1);
		m2 += delta * (v[i] - s->mean);
		if (!i || v[i] < s->min)
			s->min = v[i];
		if (!i || v[i] > s->max)
			s->max = v[i];
	}
	s->sd = n > 1 ? sqrt(m2 / (double)(n - 1)) : 0;
}
