// SPDX-License-Identifier: GPL-2.0-only
/*
 * rt_heap_huge: the heap grows ahead (address space, not memory) and is
 * asked for in transparent huge pages; allocations go on as before.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/heap.h"
#include "harness.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif

/* Whether the mapping holding @p has VmFlags @flag, in /proc/self/smaps. */
static bool mapping_has(const void *p, const char *flag)
{
	unsigned long lo, hi, at = (unsigned long)p;
	char line[512];
	bool in = false, found = false;
	FILE *f = fopen("/proc/self/smaps", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
			in = lo <= at && at < hi;
		else if (in && !strncmp(line, "VmFlags:", 8))
			found = strstr(line, flag) != NULL;
	}
	if (f)
		fclose(f);
	return found;
}

TEST(heap_grown_ahead_in_huge_pages)
{
	char *start = sbrk(0), *mid;
	void *p[100000];
	size_t i, bad = 0;
	int ret = rt_heap_huge(64 << 20);

#ifdef SANITIZED
	/* the sanitizers' allocators are not glibc's: refused, nothing grows;
	 * the refusal is checked, and the growth this test is about is not
	 * there to test */
	EXPECT(ret == -ENOTSUP || ret == -ENOMEM, "ret %d", ret);
	if (_t->failed)
		return;
	TEST_SKIP("under a sanitizer rt_heap_huge() is refused (%d): no heap grows to test", ret);
#endif
	EXPECT_EQ(ret, 0);
	mid = start + (16 << 20);
	EXPECT((char *)sbrk(0) >= start + (32 << 20), "the break moved %ld MiB",
	       (long)(((char *)sbrk(0) - start) >> 20));
	EXPECT(mapping_has(mid, " hg"), "the heap at %p is advised for huge pages (VmFlags hg)",
	       (void *)mid);
	/* allocations work as before: small ones, written and read back */
	for (i = 0; i < 100000; i++) {
		p[i] = malloc(64);
		if (p[i])
			memset(p[i], (int)(i & 0xff), 64);
	}
	for (i = 0; i < 100000; i++) {
		bad += !p[i] || ((unsigned char *)p[i])[63] != (i & 0xff);
		free(p[i]);
	}
	EXPECT_EQ(bad, 0);
}
