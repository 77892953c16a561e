// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output files, whole or absent: named only when committed, never over an
 * existing file or link, the umask's mode, the errno of a failed write.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_outfile.h"
#include "tap.h"

static int exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/* The names in @dir, sorted, joined by spaces. */
static void names(const char *dir, char *out, size_t len)
{
	struct dirent **e;
	int i, n = scandir(dir, &e, NULL, alphasort);
	size_t o = 0;

	out[0] = '\0';
	for (i = 0; i < n; i++) {
		if (e[i]->d_name[0] != '.' && o < len)
			o += snprintf(out + o, len - o, "%s%s", o ? " " : "", e[i]->d_name);
		free(e[i]);
	}
	free(n > 0 ? e : NULL);
}

/* A file another program writes by name: in a folder of its own, renamed or not. */
static void private_folder(const char *dir)
{
	char path[256], other[256], moved[256], list[1024], tmpdir[PATH_MAX + 32];
	struct rt_outfile o;
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/t.dat", dir);
	tap_is(rt_outfile_open_private(&o, path), 0, "a trace file opens in a private folder");
	tap_ok(!lstat(o.dir, &st) && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700,
	       "  %s, mode 0700", o.dir);
	tap_ok(!strncmp(o.tmp, "/proc/self/fd/", 14) && !strcmp(o.name, "t.dat") && exists(o.tmp),
	       "  the file named through the folder's descriptor: %s", o.tmp);
	/* the recorder's per-CPU file, written beside it by name */
	fd = openat(o.lock, "t.dat.inst.cpu0", O_WRONLY | O_CREAT | O_EXCL, 0600);
	close(fd);
	fputs("trace", o.f);
	strcpy(tmpdir, o.dir);
	tap_is(rt_outfile_commit(&o), 0, "  commit");
	tap_ok(!stat(path, &st) && st.st_size == 5, "  the file has its name, whole");
	tap_ok(!exists(tmpdir), "  the folder is gone with what else it held");

	/* another user renames the folder away and plants a link to a folder of theirs */
	unlink(path);
	snprintf(other, sizeof(other), "%s/theirs", dir);
	mkdir(other, 0755);
	tap_is(rt_outfile_open_private(&o, path), 0, "opened again");
	snprintf(moved, sizeof(moved), "%s/moved", dir);
	rename(o.dir, moved);
	tap_ok(!symlink(other, o.dir), "  its folder renamed away, a link to another folder at its name");
	fd = openat(o.lock, "t.dat.inst.cpu0", O_WRONLY | O_CREAT | O_EXCL, 0600);
	close(fd);
	fputs("trace", o.f);
	strcpy(tmpdir, o.dir);
	tap_is(rt_outfile_commit(&o), 0, "  commit");
	names(other, list, sizeof(list));
	tap_ok(!*list, "  nothing was written in the other folder (%s)", list);
	tap_ok(!stat(path, &st) && st.st_size == 5, "  the file has its name, whole");
	names(moved, list, sizeof(list));
	tap_ok(!*list, "  and what the moved folder held went with it (%s)", list);
	unlink(tmpdir);
	rmdir(moved);
	rmdir(other);
	unlink(path);

	tap_is(rt_outfile_open_private(&o, path), 0, "opened again");
	strcpy(tmpdir, o.dir);
	rt_outfile_abort(&o);
	tap_ok(!exists(path) && !exists(tmpdir), "abort: no file, no folder");
}

/* What killed runs left is swept; a live run's, a link, another user's file are not. */
static void sweep(const char *dir)
{
	char path[256], a[256], b[256], c[256], d[256], list[1024];
	struct rt_outfile live;
	int fd;

	snprintf(path, sizeof(path), "%s/r.json", dir);
	snprintf(a, sizeof(a), "%s/r.json.tmp.AAAAAA", dir);
	fd = open(a, O_WRONLY | O_CREAT | O_EXCL, 0600);
	close(fd);
	snprintf(b, sizeof(b), "%s/r.json.tmp.BBBBBB", dir);
	mkdir(b, 0700);
	snprintf(c, sizeof(c), "%s/r.json.tmp.BBBBBB/r.json.inst.cpu1", dir);
	fd = open(c, O_WRONLY | O_CREAT | O_EXCL, 0600);
	close(fd);
	snprintf(c, sizeof(c), "%s/r.json.tmp.CCCCCC", dir);
	symlink("/etc/passwd", c);
	snprintf(d, sizeof(d), "%s/r.json.tmp.DDDDDD", dir);
	fd = open(d, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fchown(fd, 65534, 65534))
		printf("# fchown: %s\n", strerror(errno));
	close(fd);
	tap_is(rt_outfile_open_private(&live, path), 0, "a live run's trace file");
	tap_is(rt_outfile_sweep(dir, "r.json.tmp."), 2,
	       "the sweep removes a dead run's file and folder (2)");
	names(dir, list, sizeof(list));
	tap_ok(strlen(list) == 3 * 17 + 2 && strstr(list, "r.json.tmp.CCCCCC") &&
	       strstr(list, "r.json.tmp.DDDDDD") && !strstr(list, "AAAAAA") && !strstr(list, "BBBBBB"),
	       "  and keeps the live run's, a link and another user's file (%s)", list);
	tap_is(rt_outfile_sweep(dir, "r.json.tmp."), 0, "  a second sweep finds nothing more");
	rt_outfile_abort(&live);
	tap_ok(!access("/etc/passwd", R_OK), "  the link's target is there");
	unlink(c);
	unlink(d);
}

int main(void)
{
	char dir[] = "/tmp/rtsched-outfile-XXXXXX", path[256], link[256], tmp[PATH_MAX + 32];
	struct rt_outfile o;
	struct rlimit fsize;
	struct stat st;
	char big[8192];
	mode_t old;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/r.json", dir);
	tap_is(rt_outfile_open(&o, path), 0, "a result file opens");
	fputs("{}\n", o.f);
	tap_ok(!exists(path), "  and is not there under its name while written");
	tap_ok(exists(o.tmp), "  but beside it, as %s", o.tmp);
	strcpy(tmp, o.tmp);
	tap_is(rt_outfile_commit(&o), 0, "  commit");
	tap_ok(stat(path, &st) == 0 && st.st_size == 3, "  then it is there, whole");
	tap_ok(!exists(tmp), "  and the temporary name is gone");
	tap_is(rt_outfile_open(&o, path), -EEXIST, "an existing result is not overwritten: EEXIST");
	unlink(path);

	snprintf(link, sizeof(link), "%s/dangling", dir);
	tap_ok(!symlink("/nonexistent/target", link), "a dangling symbolic link");
	tap_is(rt_outfile_open(&o, link), -EEXIST, "  is refused at open: EEXIST");
	unlink(link);

	tap_is(rt_outfile_open(&o, path), 0, "opened again");
	fputs("new", o.f);
	/* another writer gets there first */
	fclose(fopen(path, "w"));
	strcpy(tmp, o.tmp);
	tap_is(rt_outfile_commit(&o), -EEXIST, "a result that appears meanwhile is not replaced");
	tap_ok(!exists(tmp), "  and the temporary file is removed");
	unlink(path);

	old = umask(022);
	rt_outfile_open(&o, path);
	rt_outfile_commit(&o);
	tap_ok(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644, "umask 022: mode 0644 (%o)",
	       st.st_mode & 0777);
	unlink(path);
	umask(077);
	rt_outfile_open(&o, path);
	rt_outfile_commit(&o);
	tap_ok(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600, "umask 077: mode 0600 (%o)",
	       st.st_mode & 0777);
	unlink(path);
	umask(old);

	/* a write that fails past the buffer: the file size limit stands for a full disk */
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &fsize);
	tap_is(rt_outfile_open(&o, path), 0, "opened again");
	strcpy(tmp, o.tmp);
	setrlimit(RLIMIT_FSIZE, &(struct rlimit){ 1000, fsize.rlim_max });
	memset(big, 'x', sizeof(big));
	fwrite(big, 1, sizeof(big), o.f);
	fwrite(big, 1, sizeof(big), o.f);
	tap_is(rt_outfile_commit(&o), -EFBIG, "a write that fails past the first buffer: its errno");
	setrlimit(RLIMIT_FSIZE, &fsize);
	tap_ok(!exists(path) && !exists(tmp), "  no file, no temporary file");

	tap_is(rt_outfile_open(&o, path), 0, "opened again");
	strcpy(tmp, o.tmp);
	rt_outfile_abort(&o);
	tap_ok(!exists(path) && !exists(tmp), "abort: no file, no temporary file");

	snprintf(link, sizeof(link), "%s/none/r.json", dir);
	tap_is(rt_outfile_open(&o, link), -ENOENT, "a folder that does not exist: ENOENT");

	tap_ok(rt_outfile_same("r.json", "./r.json"), "r.json and ./r.json are one file");
	tap_ok(rt_outfile_same(path, path), "a path and itself are one file");
	snprintf(link, sizeof(link), "%s/../%s/r.json", dir, strrchr(dir, '/') + 1);
	tap_ok(rt_outfile_same(path, link), "  and through .. too");
	tap_ok(!rt_outfile_same("a.json", "b.json"), "a.json and b.json are two");

	private_folder(dir);
	sweep(dir);

	tap_is(rt_outfile_open(&o, "-"), 0, "- opens standard output");
	tap_ok(o.f != stdout && o.tmp[0] == '\0', "  through a descriptor of its own, no file");
	rt_outfile_abort(&o);
	rmdir(dir);
	return tap_done();
}
