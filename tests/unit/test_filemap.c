// SPDX-License-Identifier: GPL-2.0-only
/*
 * rt_filemap_release: the pages of a file mapped read-only and private are
 * no longer resident after it, and the mapping still reads the file.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/filemap.h"
#include "harness.h"

#define PAGES 256

/* The mapping at @p's resident size in KiB, from /proc/self/smaps; -1 if not found. */
static long rss_kb(const volatile void *p)
{
	char line[512];
	unsigned long lo;
	long kb = -1;
	bool in = false;
	FILE *f = fopen("/proc/self/smaps", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%*x ", &lo) == 1 && strchr(line, '-') < strchr(line, ' '))
			in = lo == (unsigned long)p;
		else if (in && !strncmp(line, "Rss:", 4))
			kb = strtol(line + 4, NULL, 10);
	}
	if (f)
		fclose(f);
	return kb;
}

TEST(released_pages_read_again)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)page * PAGES, i;
	char path[] = "/tmp/rtsched-filemap-XXXXXX", *buf = malloc(len);
	volatile const char *p;
	unsigned long sum = 0, want = 0;
	struct stat st;
	int fd = mkstemp(path);

	ASSERT_TRUE(fd >= 0 && buf);
	for (i = 0; i < len; i++)
		buf[i] = (char)(i * 7 + 3);
	ASSERT_EQ(write(fd, buf, len), (ssize_t)len);
	ASSERT_EQ(fstat(fd, &st), 0);
	p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	ASSERT_TRUE(p != MAP_FAILED);
	for (i = 0; i < len; i += (size_t)page) {
		sum += (unsigned char)p[i];
		want += (unsigned char)buf[i];
	}
	EXPECT_EQ(sum, want);
	/* every page touched is resident in the mapping */
	EXPECT_EQ(rss_kb(p), (long)(len / 1024));
	EXPECT_EQ(rt_filemap_release(&st), 1);
	EXPECT_EQ(rss_kb(p), 0);
	for (sum = 0, i = 0; i < len; i += (size_t)page)
		sum += (unsigned char)p[i];
	EXPECT_EQ(sum, want);
	EXPECT_EQ(memcmp((const void *)p, buf, len), 0);
	munmap((void *)p, len);
	close(fd);
	unlink(path);
	free(buf);
}

TEST(other_files_are_left_alone)
{
	struct stat st = { .st_ino = 1, .st_dev = 0 };

	/* no mapping of such a file: nothing dropped, nothing failed */
	EXPECT_EQ(rt_filemap_release(&st), 0);
}
