// SPDX-License-Identifier: GPL-2.0-only
/*
 * Giving back the pages of a file that a library maps read-only and private
 * (libtracecmd maps a trace.dat's CPU data whole, and every page read stays
 * resident until it is closed): dropped, they are read again from the file
 * when touched, so nothing changes for the library but the memory the
 * process holds, which no longer grows with the file.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>

#include "lib/filemap.h"

/**
 * rt_filemap_release - drop the resident pages of this process's read-only
 * private mappings of the file @st (its device and inode)
 *
 * Returns how many mappings it dropped, or a negative errno when
 * /proc/self/maps cannot be read.
 */
int rt_filemap_release(const struct stat *st)
{
	unsigned long lo, hi, ino;
	unsigned int major, minor;
	char line[512], perms[8];
	int n = 0;
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		return -errno;
	/* lo-hi perms offset major:minor inode path */
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s %*s %x:%x %lu", &lo, &hi, perms, &major, &minor,
			   &ino) != 6)
			continue;
		if (ino != st->st_ino || makedev(major, minor) != st->st_dev ||
		    perms[0] != 'r' || perms[1] != '-' || perms[3] != 'p')
			continue;
		if (!madvise((void *)lo, hi - lo, MADV_DONTNEED))
			n++;
	}
	fclose(f);
	return n;
}
