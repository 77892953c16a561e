// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RT bandwidth regimes by name, as the result files and the trace
 * markers write them.
 */
#include <string.h>

#include "lib/regime.h"

const char *const rt_bw_regime_names[] = {
	[RT_BW_UNKNOWN] = "unknown",	   [RT_BW_NEITHER] = "neither",
	[RT_BW_THROTTLING] = "throttling", [RT_BW_FAIR_SERVER] = "fair_server",
	[RT_BW_BOTH] = "both",
};

/**
 * rt_bw_regime_of - the regime named @name (rt_bw_regime_names), or
 * RT_BW_UNKNOWN
 */
enum rt_bw_regime rt_bw_regime_of(const char *name)
{
	int i;

	for (i = RT_BW_NEITHER; i <= RT_BW_BOTH; i++) {
		if (!strcmp(name, rt_bw_regime_names[i]))
			return (enum rt_bw_regime)i;
	}
	return RT_BW_UNKNOWN;
}
