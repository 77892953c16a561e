// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's small files (/proc, /sys, cgroups): one value, one line or
 * one list at a time, and where a filesystem is mounted.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/kfile.h"

/**
 * rt_kfile_read - read @path into @buf (@len bytes with the NUL), without
 * its trailing newlines
 *
 * Returns the length, or a negative errno.
 */
int rt_kfile_read(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return (int)n;
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return (int)n;
}

/**
 * rt_kfile_long - the number in @path, or @fallback when it cannot be read
 * or is no number
 */
long rt_kfile_long(const char *path, long fallback)
{
	char buf[64], *end;
	long v;

	if (rt_kfile_read(path, buf, sizeof(buf)) <= 0)
		return fallback;
	errno = 0;
	v = strtol(buf, &end, 10);
	return errno || end == buf ? fallback : v;
}

/**
 * rt_kfile_mount - where a filesystem of @type is mounted, from
 * @root/proc/mounts; with @opt (may be NULL), the first whose options
 * include it (cgroup v1's controllers)
 *
 * @out is "" when there is none.
 */
void rt_kfile_mount(const char *root, const char *type, const char *opt, char *out, size_t len)
{
	char path[PATH_MAX], line[1024];
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/proc/mounts", root);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && !out[0]) {
		char dev[64], dir[512], t[32], opts[512], *o, *save;

		if (sscanf(line, "%63s %511s %31s %511s", dev, dir, t, opts) != 4 || strcmp(t, type))
			continue;
		for (o = strtok_r(opts, ",", &save); o && opt; o = strtok_r(NULL, ",", &save)) {
			if (!strcmp(o, opt))
				break;
		}
		if (!opt || o)
			snprintf(out, len, "%s", dir);
	}
	fclose(f);
}
