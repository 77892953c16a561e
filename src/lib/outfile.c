// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output files that are whole or absent (result files, trace files).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_outfile.h"

/* stdio's writes, through write(2), keeping the errno of the first failure */
static ssize_t cookie_write(void *cookie, const char *buf, size_t len)
{
	struct rt_outfile *o = cookie;
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = write(o->fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!o->err)
				o->err = n < 0 ? errno : ENOSPC;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static int cookie_close(void *cookie)
{
	struct rt_outfile *o = cookie;
	int ret = close(o->fd);

	o->fd = -1;
	return ret;
}

/**
 * rt_outfile_fd - a stream that writes to descriptor @fd itself (not a copy:
 * whatever @fd is at the time), keeping the errno of its first failed write
 * in o->err; for standard output. No file, nothing to commit.
 *
 * Returns 0 or a negative errno.
 */
int rt_outfile_fd(struct rt_outfile *o, int fd)
{
	static const cookie_io_functions_t io = { .write = cookie_write };

	memset(o, 0, sizeof(*o));
	o->fd = fd;
	o->f = fopencookie(o, "w", io);
	return o->f ? 0 : -errno;
}

/**
 * rt_outfile_open - start writing the file @path, or standard output for "-"
 *
 * Creates the temporary file beside @path now, so that a name that cannot
 * be written is refused before any work is done. "-" writes to a duplicate
 * of standard output's descriptor, taken now.
 *
 * Returns 0, or a negative errno: -EEXIST when @path exists (a file, a
 * directory, a symbolic link even if dangling), -ENAMETOOLONG, or what
 * creating the temporary file returned.
 */
int rt_outfile_open(struct rt_outfile *o, const char *path)
{
	static const cookie_io_functions_t io = { .write = cookie_write, .close = cookie_close };
	struct stat st;
	mode_t mask;
	int err;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->path = path;
	if (!strcmp(path, "-")) {
		/* a descriptor of its own: the program may point stdout elsewhere */
		o->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
		o->f = o->fd < 0 ? NULL : fopencookie(o, "w", io);
		if (o->f)
			return 0;
		err = -errno;
		rt_outfile_abort(o);
		return err;
	}
	if (!lstat(path, &st))
		return -EEXIST;
	if ((size_t)snprintf(o->tmp, sizeof(o->tmp), "%s.tmp.XXXXXX", path) >= sizeof(o->tmp)) {
		o->tmp[0] = '\0';
		return -ENAMETOOLONG;
	}
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0) {
		err = -errno;
		o->tmp[0] = '\0';
		return err;
	}
	/* mkstemp() makes it 0600; a result is the user's like any file they write */
	mask = umask(0);
	umask(mask);
	o->f = fopencookie(o, "w", io);
	if (fchmod(o->fd, 0666 & ~mask) || !o->f) {
		err = -errno;
		rt_outfile_abort(o);
		return err;
	}
	return 0;
}

/**
 * rt_outfile_abort - remove the temporary file; nothing gets the name
 */
void rt_outfile_abort(struct rt_outfile *o)
{
	if (o->f)
		fclose(o->f);
	else if (o->fd >= 0)
		close(o->fd);
	o->f = NULL;
	o->fd = -1;
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = '\0';
}

/**
 * rt_outfile_commit - write out, sync and give the file its name
 *
 * The rename does not replace a file that appeared meanwhile
 * (RENAME_NOREPLACE). Standard output ("-") is only flushed.
 *
 * Returns 0, or a negative errno: the first write error (-ENOSPC on a full
 * disk), or what syncing or renaming returned; the temporary file is then
 * removed.
 */
int rt_outfile_commit(struct rt_outfile *o)
{
	int ret = 0;

	if (!o->f)
		return -EBADF;
	if (fflush(o->f) || o->err)
		ret = -(o->err ? o->err : EIO);
	/* a file is synced before it is named; standard output is only flushed */
	if (!ret && o->tmp[0] && fsync(o->fd))
		ret = -errno;
	if (fclose(o->f) && !ret)
		ret = -(o->err ? o->err : errno);
	o->f = NULL;
	if (!o->tmp[0])
		return ret;
	if (!ret && renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->path, RENAME_NOREPLACE))
		ret = -errno;
	if (ret)
		unlink(o->tmp);
	o->tmp[0] = '\0';
	return ret;
}

/* The name @path will have: its folder resolved, then its last component. */
static char *final_name(const char *path)
{
	char *d = strdup(path), *b = strdup(path), *dir, *out = NULL;

	if (d && b) {
		dir = realpath(dirname(d), NULL);
		if (dir && asprintf(&out, "%s/%s", dir, basename(b)) < 0)
			out = NULL;
		free(dir);
	}
	free(d);
	free(b);
	return out;
}

/**
 * rt_outfile_same - do @a and @b name the same file (to be created)?
 *
 * Compares the names with their folders resolved ("x", "./x" and "/cwd/x"
 * are one file); names whose folder cannot be resolved are compared as given.
 */
int rt_outfile_same(const char *a, const char *b)
{
	char *fa = final_name(a), *fb = final_name(b);
	int same = fa && fb ? !strcmp(fa, fb) : !strcmp(a, b);

	free(fa);
	free(fb);
	return same;
}
