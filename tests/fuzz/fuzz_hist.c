// SPDX-License-Identifier: GPL-2.0-only
/* The latency histogram on arbitrary values: percentiles stay in [min, max]. */
#include "fuzz.h"
#include "lib/hist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rt_hist h;
	size_t i;
	uint64_t v, p;

	rt_hist_init(&h);
	for (i = 0; i + 8 <= size; i += 8) {
		memcpy(&v, data + i, 8);
		rt_hist_add(&h, v);
	}
	if (!h.count)
		return 0;
	for (i = 0; i <= 100; i += 7) {
		p = rt_hist_pct(&h, (double)i);
		if (p < h.min || p > h.max)
			abort();
	}
	return 0;
}
