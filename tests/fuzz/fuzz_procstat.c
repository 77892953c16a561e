// SPDX-License-Identifier: GPL-2.0-only
/* /proc/.../status and sched files as the kernel might write them, or not. */
#include "fuzz.h"
#include "lib/procstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	struct rt_counters c = { 0 };

	if (!s)
		return 0;
	rt_procstat_parse_status(s, &c);
	rt_procstat_parse_sched(s, &c);
	free(s);
	return 0;
}
