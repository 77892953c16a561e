// SPDX-License-Identifier: GPL-2.0-only
/*
 * The process's heap in transparent huge pages, for a program about to make
 * a great many small allocations: libtraceevent parses a trace.dat's copy
 * of /proc/kallsyms into a quarter of a million of them as the file opens,
 * and each new 4 KiB page of heap they touch is a page fault (on this
 * project's 2-CPU virtual machine, 60 ms of the open's 95). Backed by 2 MiB
 * pages, the heap faults once per 2 MiB.
 *
 * The kernel's policy decides (/sys/kernel/mm/transparent_hugepage/enabled):
 * "madvise", Debian's default, gives them where asked, "always" everywhere,
 * "never" nowhere; asking changes nothing else. The heap's memory is touched
 * as before: what the process holds grows by at most a huge page's rounding.
 */
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/heap.h"

#define HUGE_PAGE (2UL << 20)
/* under malloc's mapping threshold (128 KiB): served from the heap */
#define SMALL (120UL << 10)

/**
 * rt_heap_huge - grow the heap by about @bytes of address space now (none
 * of it touched) and ask for it in transparent huge pages; later growth of
 * the heap comes @bytes at a time too
 *
 * For a single-threaded start-up: it reads the program break. Returns 0, or
 * a negative errno, with the heap working as before: -ENOTSUP, a malloc
 * that is not glibc's (a sanitizer's); -ENOMEM, the heap did not grow (a
 * malloc that does not use the program break).
 */
int rt_heap_huge(size_t bytes)
{
	char *start = sbrk(0), *top, *from;
	void *held[8];
	int n = 0, i, ret = 0;

	if (start == (void *)-1 || !mallopt(M_TOP_PAD, (int)(bytes < INT32_MAX ? bytes : INT32_MAX)))
		return -ENOTSUP;
	/* the heap grows at the first allocation its top cannot serve */
	while (n < 8 && (char *)sbrk(0) < start + bytes / 2) {
		held[n] = malloc(SMALL);
		if (!held[n])
			break;
		n++;
	}
	top = sbrk(0);
	from = (char *)(((uintptr_t)start + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
	if (top == (void *)-1 || top < from + HUGE_PAGE)
		ret = -ENOMEM;
	else if (madvise(from, (size_t)(top - from), MADV_HUGEPAGE))
		ret = -errno;
	for (i = 0; i < n; i++)
		free(held[i]);
	return ret;
}
