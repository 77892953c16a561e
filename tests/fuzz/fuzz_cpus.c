// SPDX-License-Identifier: GPL-2.0-only
/* CPU lists through libnuma's parser and our checks. */
#include "fuzz.h"
#include "lib/cpus.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct bitmask *usable;
	char *s = fuzz_string(data, size), buf[256];
	struct bitmask *m;
	int bad;

	if (!usable)
		usable = rt_cpus_usable();
	if (!s || !usable) {
		free(s);
		return 0;
	}
	m = rt_cpus_parse(s, usable, &bad);
	if (m) {
		/* a list that parses names usable CPUs only, at least one */
		if (rt_cpus_count(m) < 1 || bad != -1)
			abort();
		rt_cpus_format(m, buf, sizeof(buf));
		numa_free_cpumask(m);
	}
	free(s);
	return 0;
}
