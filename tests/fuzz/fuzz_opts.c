// SPDX-License-Identifier: GPL-2.0-only
/* Option values: integers, durations, and the messages about them. */
#include <stdio.h>

#include "fuzz.h"
#include "lib/opts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct rt_optspec specs[] = {
		{ "--threads", RT_OPT_INT, 1, 98, 0 },
		{ "--inversions", RT_OPT_INT, 1, 1000000000000LL, 0 },
		{ "--duration", RT_OPT_DURATION, 10000000, 86400000000000LL, 1000000000 },
		{ "--hold", RT_OPT_DURATION, 0, 100000000, 1000 },
	};
	char err[RT_OPT_ERRLEN], *s = fuzz_string(data, size), buf[64];
	int64_t v;
	size_t i;

	if (!s)
		return 0;
	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		if (!rt_opt_parse(&specs[i], s, &v, err, sizeof(err))) {
			/* what is accepted is within the range */
			if (v < specs[i].min || v > specs[i].max)
				abort();
			rt_format_duration(buf, sizeof(buf), v);
		}
	}
	free(s);
	return 0;
}
