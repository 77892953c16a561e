// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output files that are whole or absent (result files, trace files).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/outfile.h"

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

/* An output in the state every output starts from: nothing open, nothing named. */
static struct rt_outfile *new_output(const char *path)
{
	struct rt_outfile *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->fd = -1;
	o->lock = -1;
	o->path = path;
	return o;
}

/**
 * rt_outfile_fd - a stream that writes to descriptor @fd itself (not a copy:
 * whatever @fd is at the time), buffered as @buffering says (_IOLBF,
 * _IOFBF), keeping the errno of its first failed write (rt_outfile_error());
 * for standard output. No file, nothing to commit.
 *
 * Returns 0 (*@out the output) or a negative errno.
 */
int rt_outfile_fd(struct rt_outfile **out, int fd, int buffering)
{
	static const cookie_io_functions_t io = { .write = cookie_write };
	struct rt_outfile *o = new_output(NULL);
	int err;

	*out = NULL;
	if (!o)
		return -ENOMEM;
	o->fd = fd;
	o->f = fopencookie(o, "w", io);
	if (o->f && !setvbuf(o->f, NULL, buffering, BUFSIZ)) {
		*out = o;
		return 0;
	}
	err = o->f ? -EINVAL : -errno;
	if (o->f)
		fclose(o->f);	/* the stream goes, the descriptor stays */
	free(o);
	return err;
}

/* The stream over o->fd, with the mode a file the user writes gets. */
static int stream(struct rt_outfile *o)
{
	static const cookie_io_functions_t io = { .write = cookie_write, .close = cookie_close };
	mode_t mask = umask(0);

	umask(mask);
	/* mkstemp() makes it 0600; a result is the user's like any file they write */
	if (fchmod(o->fd, 0666 & ~mask))
		return -errno;
	o->f = fopencookie(o, "w", io);
	return o->f ? 0 : -errno;
}

/* A file's start: @path must not exist (a file, a folder, a link even if dangling). */
static int start(struct rt_outfile **out, const char *path)
{
	struct stat st;

	if (!lstat(path, &st))
		return -EEXIST;
	*out = new_output(path);
	return *out ? 0 : -ENOMEM;
}

/* A failed open's end: what it made goes, and the output with it. */
static int failed(struct rt_outfile **out, int err)
{
	rt_outfile_free(*out);
	*out = NULL;
	return err;
}

/* Remove what the folder @fd holds (not its subfolders); closes @fd. */
static void empty_folder(int fd)
{
	DIR *d = fdopendir(fd);
	struct dirent *e;

	if (!d) {
		close(fd);
		return;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
}

/*
 * Take @name in the folder @dir from a killed run: lock it (a live run
 * holds its lock), check that the name still is the file locked, then
 * remove it (a private folder with what it holds). Only a holder of the
 * lock removes a temporary by name, so nothing but the debris goes.
 * Returns 0 (removed), -EBUSY (a live run's), or another negative errno
 * (not a temporary of this user's, or gone meanwhile: -ENOENT).
 */
static int take_debris(int dir, const char *name)
{
	struct stat st, now;
	int fd, flags, err = 0;

	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (st.st_uid != geteuid() || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
		return -EPERM;
	flags = S_ISDIR(st.st_mode) ? O_DIRECTORY : O_NONBLOCK;
	fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | flags);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB))
		err = errno == EWOULDBLOCK ? -EBUSY : -errno;
	else if (fstat(fd, &st) || fstatat(dir, name, &now, AT_SYMLINK_NOFOLLOW) ||
		 st.st_ino != now.st_ino || st.st_dev != now.st_dev)
		err = -ENOENT;	/* removed, and perhaps taken by a new run, meanwhile */
	if (!err && S_ISDIR(st.st_mode))
		empty_folder(fcntl(fd, F_DUPFD_CLOEXEC, 0));
	if (!err && unlinkat(dir, name, S_ISDIR(st.st_mode) ? AT_REMOVEDIR : 0))
		err = -errno;
	close(fd);
	return err;
}

/*
 * @fd, made as PATH.new.XXXXXX (@pending), is locked and only then named
 * @final (PATH.tmp.rtsched): no sweep ever sees a live run's temporary
 * unlocked. The name is the same for every run writing PATH, so that it
 * reserves PATH for this run: a second run finds it held (-EBUSY) before
 * it runs; a killed run's is taken over. Returns 0 or a negative errno
 * (@pending removed, @final empty).
 */
static int lock_and_name(int fd, char *pending, char *final, bool folder)
{
	int err = flock(fd, LOCK_EX | LOCK_NB) ? -errno : 0, tries;

	for (tries = 0; !err && tries < 8; tries++) {
		if (!renameat2(AT_FDCWD, pending, AT_FDCWD, final, RENAME_NOREPLACE))
			return 0;
		err = -errno;
		if (err == -EEXIST)
			err = take_debris(AT_FDCWD, final);
		if (err == -ENOENT)
			err = 0;	/* gone meanwhile: try again */
	}
	if (!err)
		err = -EBUSY;
	if (folder)
		rmdir(pending);
	else
		unlink(pending);
	final[0] = '\0';
	return err;
}

/* PATH + SUFFIX into @buf, or -ENAMETOOLONG */
static int name_with(char *buf, size_t len, const char *path, const char *suffix)
{
	return (size_t)snprintf(buf, len, "%s%s", path, suffix) >= len ? -ENAMETOOLONG : 0;
}

/**
 * rt_outfile_open - start writing the file @path, or standard output for "-"
 *
 * Creates the temporary file beside @path now (exclusively, by mkostemp()),
 * so that a name that cannot be written is refused before any work is
 * done. "-" writes to a duplicate of standard output's descriptor, taken now.
 *
 * Returns 0 (*@out the output), or a negative errno: -EEXIST when @path
 * exists (a file, a directory, a symbolic link even if dangling),
 * -ENAMETOOLONG, or what creating the temporary file returned.
 */
int rt_outfile_open(struct rt_outfile **out, const char *path)
{
	static const cookie_io_functions_t io = { .write = cookie_write, .close = cookie_close };
	char pending[PATH_MAX + 32];
	struct rt_outfile *o;
	int err;

	*out = NULL;
	if (!strcmp(path, "-")) {
		o = *out = new_output(path);
		if (!o)
			return -ENOMEM;
		/* a descriptor of its own: the program may point stdout elsewhere */
		o->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
		o->f = o->fd < 0 ? NULL : fopencookie(o, "w", io);
		return o->f ? 0 : failed(out, -errno);
	}
	err = start(out, path);
	if (err)
		return err;
	o = *out;
	err = name_with(o->tmp, sizeof(o->tmp), path, RT_OUTFILE_TEMP);
	if (!err)
		err = name_with(pending, sizeof(pending), path, ".new.XXXXXX");
	if (err) {
		o->tmp[0] = '\0';
		return failed(out, err);
	}
	o->fd = mkostemp(pending, O_CLOEXEC);
	if (o->fd < 0) {
		o->tmp[0] = '\0';
		return failed(out, -errno);
	}
	o->lock = o->fd;
	err = lock_and_name(o->fd, pending, o->tmp, false);
	if (!err)
		err = stream(o);
	return err ? failed(out, err) : 0;
}

/**
 * rt_outfile_open_private - start writing the file @path from a private
 * folder: PATH.tmp.XXXXXX/NAME (mode 0700, NAME the last part of @path),
 * for a file that another program writes by name beside this process
 *
 * rt_outfile_temp() names the file through the folder's descriptor
 * (/proc/self/fd/N/NAME), so that what this process reads, removes or
 * renames is that folder's, whatever is renamed around it; a child process
 * that writes there fchdir()s to rt_outfile_folder_fd() and uses
 * rt_outfile_name().
 *
 * Returns 0, or a negative errno as rt_outfile_open().
 */
int rt_outfile_open_private(struct rt_outfile **out, const char *path)
{
	char copy[PATH_MAX], pending[PATH_MAX + 32];
	struct rt_outfile *o;
	struct stat st;
	int err;

	*out = NULL;
	err = start(out, path);
	if (err)
		return err;
	o = *out;
	err = name_with(copy, sizeof(copy), path, "");
	if (!err)
		err = name_with(o->dir, sizeof(o->dir), path, RT_OUTFILE_TEMP);
	if (!err)
		err = name_with(pending, sizeof(pending), path, ".new.XXXXXX");
	if (!err && !mkdtemp(pending))
		err = -errno;
	if (err) {
		o->dir[0] = '\0';
		return failed(out, err);
	}
	/* the folder made, not one planted in its place since */
	o->lock = open(pending, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (o->lock < 0 || fstat(o->lock, &st) || st.st_uid != geteuid() ||
	    (st.st_mode & 07777) != 0700) {
		err = o->lock < 0 ? -errno : -EPERM;
		o->dir[0] = '\0';
		rmdir(pending);
		return failed(out, err);
	}
	err = lock_and_name(o->lock, pending, o->dir, true);
	if (err)
		return failed(out, err);
	snprintf(o->tmp, sizeof(o->tmp), "/proc/self/fd/%d/%s", o->lock, basename(copy));
	o->name = strrchr(o->tmp, '/') + 1;
	o->fd = openat(o->lock, o->name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		       0600);
	err = o->fd < 0 ? -errno : stream(o);
	return err ? failed(out, err) : 0;
}

/* The private folder and what it holds go; its lock with it. */
static void remove_private(struct rt_outfile *o)
{
	if (o->dir[0] && o->lock >= 0) {
		empty_folder(dup(o->lock));
		rmdir(o->dir);
	}
	if (o->lock >= 0 && o->lock != o->fd)
		close(o->lock);
	o->lock = -1;
	o->dir[0] = '\0';
}

/**
 * rt_outfile_abort - remove the temporary file; nothing gets the name
 */
void rt_outfile_abort(struct rt_outfile *o)
{
	if (!o)
		return;
	/* removed while its lock is held: a sweep never takes another run's name */
	if (o->tmp[0] && !o->dir[0])
		unlink(o->tmp);
	if (o->f)
		fclose(o->f);
	else if (o->fd >= 0)
		close(o->fd);
	if (o->lock == o->fd)
		o->lock = -1;
	o->f = NULL;
	o->fd = -1;
	remove_private(o);
	o->tmp[0] = '\0';
}

/**
 * rt_outfile_commit - write out, sync and give the file its name
 *
 * The rename does not replace a file that appeared meanwhile
 * (RENAME_NOREPLACE). Standard output ("-") is only flushed. A private
 * folder is removed with what else it holds.
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
	/* named, or removed, while its lock is held: no sweep takes it meanwhile */
	if (o->tmp[0] && !ret &&
	    renameat2(o->dir[0] ? o->lock : AT_FDCWD, o->dir[0] ? o->name : o->tmp, AT_FDCWD,
		      o->path, RENAME_NOREPLACE))
		ret = -errno;
	if (o->tmp[0] && ret && !o->dir[0])
		unlink(o->tmp);
	/* a file's data is synced by now; standard output's close is its last word */
	if (fclose(o->f) && !ret && !o->tmp[0])
		ret = -(o->err ? o->err : errno);
	o->f = NULL;
	if (o->lock == o->fd)
		o->lock = -1;
	o->fd = -1;
	remove_private(o);
	o->tmp[0] = '\0';
	return ret;
}

/**
 * rt_outfile_free - free @o (may be NULL), removing what was not committed
 */
void rt_outfile_free(struct rt_outfile *o)
{
	if (!o)
		return;
	rt_outfile_abort(o);
	free(o);
}

/**
 * rt_outfile_remove_temp - remove @o's temporary file (a private folder
 * only when it holds nothing else: a later run's sweep takes the rest);
 * async-signal-safe, for an exit from a signal handler
 */
void rt_outfile_remove_temp(const struct rt_outfile *o)
{
	if (o->tmp[0])
		unlink(o->tmp);
	if (o->dir[0])
		rmdir(o->dir);
}

/* Where to write: NULL once committed or aborted. */
FILE *rt_outfile_stream(const struct rt_outfile *o)
{
	return o->f;
}

/* The name it gets ("-": standard output; NULL: a descriptor's stream). */
const char *rt_outfile_path(const struct rt_outfile *o)
{
	return o->path;
}

/* The temporary file's name until committed, else "". */
const char *rt_outfile_temp(const struct rt_outfile *o)
{
	return o->tmp;
}

/* The private folder's name, or "". */
const char *rt_outfile_folder(const struct rt_outfile *o)
{
	return o->dir;
}

/* The private folder's descriptor, or -1. */
int rt_outfile_folder_fd(const struct rt_outfile *o)
{
	return o->dir[0] ? o->lock : -1;
}

/* The file's name in its private folder, or NULL. */
const char *rt_outfile_name(const struct rt_outfile *o)
{
	return o->name;
}

/* The errno of the first failed write, or 0. */
int rt_outfile_error(const struct rt_outfile *o)
{
	return o->err;
}

/*
 * Is @name a temporary: NAME.tmp.rtsched, whatever NAME, or PREFIX*.tmp.XXXXXX
 * (six characters, no dot, after the last ".tmp.": the random names of the
 * scripts' folders and of earlier versions)?
 */
static bool swept_name(const char *name, const char *prefix)
{
	size_t n = strlen(name), p = strlen(prefix), t = strlen(RT_OUTFILE_TEMP);

	if (n > t && !strcmp(name + n - t, RT_OUTFILE_TEMP))
		return true;
	return n >= 11 && n >= p + 6 && !strncmp(name, prefix, p) &&
	       !strncmp(name + n - 11, ".tmp.", 5) && !strchr(name + n - 6, '.');
}

/**
 * rt_outfile_sweep - remove the temporaries of runs that died (SIGKILL, a
 * crash, a power cut) from @folder: files and private folders named
 * NAME.tmp.rtsched (any NAME) or PREFIX*.tmp.XXXXXX, this user's and not
 * locked by a live process (a run locks its temporary before it has that
 * name)
 *
 * Returns how many it removed, or a negative errno when @folder cannot be read.
 */
int rt_outfile_sweep(const char *folder, const char *prefix)
{
	int removed = 0;
	struct dirent *e;
	DIR *d = opendir(folder);

	if (!d)
		return -errno;
	while ((e = readdir(d)))
		if (swept_name(e->d_name, prefix))
			removed += !take_debris(dirfd(d), e->d_name);
	closedir(d);
	return removed;
}

/**
 * rt_outfile_sweep_beside - rt_outfile_sweep() in @path's folder, the
 * PREFIX being @path's own name followed by @suffix
 *
 * Returns as rt_outfile_sweep() does; -ENAMETOOLONG for a path too long.
 */
int rt_outfile_sweep_beside(const char *path, const char *suffix)
{
	char dir[PATH_MAX], name[NAME_MAX + 8];
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if ((size_t)snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path),
				  path) >= sizeof(dir))
		return -ENAMETOOLONG;
	if ((size_t)snprintf(name, sizeof(name), "%s%s", slash ? slash + 1 : path, suffix) >=
	    sizeof(name))
		return -ENAMETOOLONG;
	return rt_outfile_sweep(dir, name);
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
