// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output files, whole or absent: named only when committed, never over an
 * existing file or link, the umask's mode, the errno of a failed write.
 */
#include <errno.h>
#include <signal.h>
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

	tap_is(rt_outfile_open(&o, "-"), 0, "- opens standard output");
	tap_ok(o.f != stdout && o.tmp[0] == '\0', "  through a descriptor of its own, no file");
	rt_outfile_abort(&o);
	rmdir(dir);
	return tap_done();
}
