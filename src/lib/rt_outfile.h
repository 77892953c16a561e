/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_OUTFILE_H
#define RT_OUTFILE_H

#include <limits.h>
#include <stdio.h>

/*
 * An output file that is whole or absent: written to a temporary file
 * beside its name, which it gets only when everything was written and
 * synced. It never replaces an existing file, not even a dangling symbolic
 * link; it is created with the mode the umask gives (0666 & ~umask), as any
 * file a user writes; and the first write error is kept with its errno
 * (a full disk is ENOSPC, not a bare I/O error).
 */
struct rt_outfile {
	const char *path;		/* NULL: none; "-": standard output */
	char tmp[PATH_MAX + 32];	/* the temporary file; empty for standard output */
	FILE *f;			/* where to write */
	int fd;				/* the temporary file's descriptor, under f */
	int err;			/* the first write error (positive errno), 0 if none */
};

int rt_outfile_open(struct rt_outfile *o, const char *path);
int rt_outfile_fd(struct rt_outfile *o, int fd);
int rt_outfile_commit(struct rt_outfile *o);
void rt_outfile_abort(struct rt_outfile *o);
int rt_outfile_same(const char *a, const char *b);

#endif
