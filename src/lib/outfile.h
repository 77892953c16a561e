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
 * killed run (unlocked) from a live run's file, and sweep it; and as every
 * run writing PATH names its temporary alike, a second run is refused
 * (-EBUSY) while the first holds it.
 *
 * An output is a handle: the open functions make it, rt_outfile_free()
 * frees it (and removes what was not committed).
 */
struct rt_outfile;

/* PATH's temporary is PATH.tmp.rtsched: one name, which reserves PATH for the run */
#define RT_OUTFILE_TEMP ".tmp.rtsched"

int rt_outfile_open(struct rt_outfile **out, const char *path);
int rt_outfile_open_private(struct rt_outfile **out, const char *path);
int rt_outfile_fd(struct rt_outfile **out, int fd, int buffering);
int rt_outfile_commit(struct rt_outfile *o);
void rt_outfile_abort(struct rt_outfile *o);
void rt_outfile_free(struct rt_outfile *o);
void rt_outfile_remove_temp(const struct rt_outfile *o);

FILE *rt_outfile_stream(const struct rt_outfile *o);
const char *rt_outfile_path(const struct rt_outfile *o);
const char *rt_outfile_temp(const struct rt_outfile *o);
const char *rt_outfile_folder(const struct rt_outfile *o);
int rt_outfile_folder_fd(const struct rt_outfile *o);
const char *rt_outfile_name(const struct rt_outfile *o);
int rt_outfile_error(const struct rt_outfile *o);

int rt_outfile_sweep(const char *folder, const char *prefix);
int rt_outfile_sweep_beside(const char *path, const char *suffix);
int rt_outfile_same(const char *a, const char *b);

#endif
