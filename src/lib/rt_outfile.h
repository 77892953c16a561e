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
 *
 * Nothing is ever opened twice by name where another user could plant a
 * link: the temporary file is created exclusively and written through its
 * descriptor; a file that another program must write by name (trace-cmd
 * writes its output and FILE.INSTANCE.cpuN beside it) lives in a private
 * folder (mode 0700) of its own. Each temporary holds an flock() for as
 * long as its run lives, so that a later run can tell the debris of a
 * killed run (unlocked) from a live run's file, and sweep it.
 */
struct rt_outfile {
	const char *path;		/* NULL: none; "-": standard output */
	char tmp[PATH_MAX + 32];	/* the temporary file; empty for standard output */
	char dir[PATH_MAX + 32];	/* the private folder holding it, or empty */
	const char *name;		/* in a private folder: the file's name there (in tmp) */
	FILE *f;			/* where to write */
	int fd;				/* the temporary file's descriptor, under f */
	int lock;			/* what holds the temporary's lock: fd, or the folder */
	int err;			/* the first write error (positive errno), 0 if none */
};

int rt_outfile_open(struct rt_outfile *o, const char *path);
int rt_outfile_open_private(struct rt_outfile *o, const char *path);
int rt_outfile_sweep(const char *folder, const char *prefix);
int rt_outfile_fd(struct rt_outfile *o, int fd);
int rt_outfile_commit(struct rt_outfile *o);
void rt_outfile_abort(struct rt_outfile *o);
int rt_outfile_same(const char *a, const char *b);

#endif
