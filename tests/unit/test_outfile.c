// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output files, whole or absent: named only when committed, never over an
 * existing file or link, the umask's mode, the errno of a failed write; a
 * file another program writes lives in a private folder reached through its
 * descriptor; what killed runs left is swept, what live runs hold is not.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/outfile.h"
#include "harness.h"

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

/* A folder of the test's own, and PATH (its r.json); removed after the test. */
static char dir[64];
static char path[128];

static int rm(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

TEARDOWN(remove_dir)
{
	if (dir[0])
		nftw(dir, rm, 16, FTW_DEPTH | FTW_PHYS);
}

static int setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/rtsched-outfile-XXXXXX");
	if (!mkdtemp(dir)) {
		dir[0] = '\0';
		return -1;
	}
	snprintf(path, sizeof(path), "%s/r.json", dir);
	return 0;
}

TEST(named_only_when_committed)
{
	char tmp[PATH_MAX + 32];
	struct rt_outfile *o;
	struct stat st;

	ASSERT(!setup(), "a folder for the test");
	ASSERT(rt_outfile_open(&o, path) == 0, "a result file opens");
	fputs("{}\n", rt_outfile_stream(o));
	EXPECT(!exists(path), "not there under its name while written");
	EXPECT(exists(rt_outfile_temp(o)), "but beside it, as %s", rt_outfile_temp(o));
	strcpy(tmp, rt_outfile_temp(o));
	EXPECT_EQ(rt_outfile_commit(o), 0);
	EXPECT(!rt_outfile_stream(o) && !*rt_outfile_temp(o), "no stream, no temporary once committed");
	rt_outfile_free(o);
	EXPECT(stat(path, &st) == 0 && st.st_size == 3, "then it is there, whole");
	EXPECT(!exists(tmp), "and the temporary name is gone");
}

TEST(never_over_a_file_or_a_link)
{
	char link[256], tmp[PATH_MAX + 32];
	struct rt_outfile *o;

	ASSERT(!setup(), "a folder for the test");
	fclose(fopen(path, "w"));
	EXPECT_EQ(rt_outfile_open(&o, path), -EEXIST);	/* an existing result */
	unlink(path);
	snprintf(link, sizeof(link), "%s/dangling", dir);
	ASSERT(!symlink("/nonexistent/target", link), "a dangling symbolic link");
	EXPECT_EQ(rt_outfile_open(&o, link), -EEXIST);	/* refused at open */
	ASSERT(rt_outfile_open(&o, path) == 0, "opened");
	fputs("new", rt_outfile_stream(o));
	/* another writer gets there first: its file is not replaced */
	fclose(fopen(path, "w"));
	strcpy(tmp, rt_outfile_temp(o));
	EXPECT_EQ(rt_outfile_commit(o), -EEXIST);
	rt_outfile_free(o);
	EXPECT(!exists(tmp), "the temporary file is removed");
	snprintf(link, sizeof(link), "%s/none/r.json", dir);
	EXPECT_EQ(rt_outfile_open(&o, link), -ENOENT);	/* a folder that does not exist */
}

static const struct mode_case {
	const char *name;
	mode_t umask, mode;
} modes[] = { { "umask_022", 022, 0644 }, { "umask_077", 077, 0600 } };

TEST_TABLE(the_umasks_mode, struct mode_case, modes)
{
	struct rt_outfile *o;
	struct stat st;

	ASSERT(!setup(), "a folder for the test");
	umask(row->umask);
	ASSERT(rt_outfile_open(&o, path) == 0, "opened");
	EXPECT_EQ(rt_outfile_commit(o), 0);
	rt_outfile_free(o);
	ASSERT(stat(path, &st) == 0, "committed");
	EXPECT_EQ(st.st_mode & 0777, row->mode);
}

TEST(a_failed_write_keeps_its_errno)
{
	char tmp[PATH_MAX + 32], big[8192];
	struct rt_outfile *o;
	struct rlimit fsize;

	ASSERT(!setup(), "a folder for the test");
	/* the file size limit stands for a full disk */
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &fsize);
	ASSERT(rt_outfile_open(&o, path) == 0, "opened");
	strcpy(tmp, rt_outfile_temp(o));
	setrlimit(RLIMIT_FSIZE, &(struct rlimit){ 1000, fsize.rlim_max });
	memset(big, 'x', sizeof(big));
	fwrite(big, 1, sizeof(big), rt_outfile_stream(o));
	fwrite(big, 1, sizeof(big), rt_outfile_stream(o));
	/* a write that fails past the first buffer: its errno */
	EXPECT_EQ(rt_outfile_commit(o), -EFBIG);
	rt_outfile_free(o);
	setrlimit(RLIMIT_FSIZE, &fsize);
	EXPECT(!exists(path) && !exists(tmp), "no file, no temporary file");
}

TEST(abort_leaves_nothing)
{
	char tmp[PATH_MAX + 32];
	struct rt_outfile *o;

	ASSERT(!setup(), "a folder for the test");
	ASSERT(rt_outfile_open(&o, path) == 0, "opened");
	strcpy(tmp, rt_outfile_temp(o));
	rt_outfile_free(o);
	EXPECT(!exists(path) && !exists(tmp), "no file, no temporary file");
}

TEST(one_file_by_several_names)
{
	char other[256];

	ASSERT(!setup(), "a folder for the test");
	EXPECT(rt_outfile_same("r.json", "./r.json"), "r.json and ./r.json are one file");
	EXPECT(rt_outfile_same(path, path), "a path and itself are one file");
	snprintf(other, sizeof(other), "%s/../%s/r.json", dir, strrchr(dir, '/') + 1);
	EXPECT(rt_outfile_same(path, other), "and through .. too");
	EXPECT(!rt_outfile_same("a.json", "b.json"), "a.json and b.json are two");
}

TEST(standard_output)
{
	struct rt_outfile *o;

	EXPECT_EQ(rt_outfile_open(&o, "-"), 0);
	EXPECT(rt_outfile_stream(o) != stdout && rt_outfile_temp(o)[0] == '\0', "through a descriptor of its own, no file");
	rt_outfile_free(o);
}

/* A file another program writes by name: in a folder of its own. */
TEST(a_private_folder)
{
	char tpath[256], tmpdir[PATH_MAX + 32];
	struct rt_outfile *o;
	struct stat st;
	int fd;

	ASSERT(!setup(), "a folder for the test");
	snprintf(tpath, sizeof(tpath), "%s/t.dat", dir);
	ASSERT(rt_outfile_open_private(&o, tpath) == 0, "a trace file opens in a private folder");
	EXPECT(!lstat(rt_outfile_folder(o), &st) && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700,
	       "%s, mode 0700", rt_outfile_folder(o));
	EXPECT(!strncmp(rt_outfile_temp(o), "/proc/self/fd/", 14) && !strcmp(rt_outfile_name(o), "t.dat") && exists(rt_outfile_temp(o)),
	       "the file named through the folder's descriptor: %s", rt_outfile_temp(o));
	/* the recorder's per-CPU file, written beside it by name */
	fd = openat(rt_outfile_folder_fd(o), "t.dat.inst.cpu0", O_WRONLY | O_CREAT | O_EXCL, 0600);
	close(fd);
	fputs("trace", rt_outfile_stream(o));
	strcpy(tmpdir, rt_outfile_folder(o));
	EXPECT_EQ(rt_outfile_commit(o), 0);
	rt_outfile_free(o);
	EXPECT(!stat(tpath, &st) && st.st_size == 5, "the file has its name, whole");
	EXPECT(!exists(tmpdir), "the folder is gone with what else it held");
	unlink(tpath);
	ASSERT(rt_outfile_open_private(&o, tpath) == 0, "opened again");
	strcpy(tmpdir, rt_outfile_folder(o));
	rt_outfile_free(o);
	EXPECT(!exists(tpath) && !exists(tmpdir), "abort: no file, no folder");
}

/* Another user renames the folder away and plants a link to a folder of theirs. */
TEST(a_private_folder_swapped_for_a_link)
{
	char tpath[256], other[256], moved[256], list[1024];
	struct rt_outfile *o;
	struct stat st;
	int fd;

	ASSERT(!setup(), "a folder for the test");
	snprintf(tpath, sizeof(tpath), "%s/t.dat", dir);
	snprintf(other, sizeof(other), "%s/theirs", dir);
	snprintf(moved, sizeof(moved), "%s/moved", dir);
	mkdir(other, 0755);
	ASSERT(rt_outfile_open_private(&o, tpath) == 0, "opened");
	rename(rt_outfile_folder(o), moved);
	ASSERT(!symlink(other, rt_outfile_folder(o)), "its folder renamed away, a link to another at its name");
	fd = openat(rt_outfile_folder_fd(o), "t.dat.inst.cpu0", O_WRONLY | O_CREAT | O_EXCL, 0600);
	close(fd);
	fputs("trace", rt_outfile_stream(o));
	EXPECT_EQ(rt_outfile_commit(o), 0);
	rt_outfile_free(o);
	names(other, list, sizeof(list));
	EXPECT(!*list, "nothing was written in the other folder (%s)", list);
	EXPECT(!stat(tpath, &st) && st.st_size == 5, "the file has its name, whole");
	names(moved, list, sizeof(list));
	EXPECT(!*list, "what the moved folder held went with it (%s)", list);
}

/* A run's temporary reserves its name: a second open is busy; a dead run's is taken over. */
TEST(the_name_reserved)
{
	struct rt_outfile *first, *second;
	char tmp[256], other[256];
	int fd;

	ASSERT(!setup(), "a folder for the test");
	ASSERT(rt_outfile_open(&first, path) == 0, "the first run's file");
	EXPECT_EQ(rt_outfile_open(&second, path), -EBUSY);
	EXPECT_EQ(rt_outfile_open_private(&second, path), -EBUSY);
	rt_outfile_free(first);
	/* a dead run's (unlocked) temporary of this name, and one of another name */
	snprintf(tmp, sizeof(tmp), "%s%s", path, RT_OUTFILE_TEMP);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0600);
	close(fd);
	snprintf(other, sizeof(other), "%s/other.json%s", dir, RT_OUTFILE_TEMP);
	fd = open(other, O_WRONLY | O_CREAT | O_EXCL, 0600);
	close(fd);
	ASSERT(rt_outfile_open(&first, path) == 0, "a dead run's temporary taken over");
	fputs("{}", rt_outfile_stream(first));
	EXPECT_EQ(rt_outfile_commit(first), 0);
	rt_outfile_free(first);
	EXPECT(!access(path, R_OK) && access(tmp, F_OK), "the file named, its temporary gone");
	EXPECT_EQ(rt_outfile_sweep(dir, "nothing."), 1);	/* another name's, by its suffix */
	EXPECT(access(other, F_OK), "other.json's temporary swept");
}

/* What killed runs left is swept; a live run's, a link, another user's file are not. */
TEST(the_sweep)
{
	char a[256], b[256], c[256], d[256], list[1024];
	struct rt_outfile *live;
	int fd;

	ASSERT(!setup(), "a folder for the test");
	snprintf(a, sizeof(a), "%s/r.json.tmp.AAAAAA", dir);
	fd = open(a, O_WRONLY | O_CREAT | O_EXCL, 0600);
	close(fd);
	snprintf(b, sizeof(b), "%s/r.json.tmp.BBBBBB", dir);
	mkdir(b, 0700);
	snprintf(c, sizeof(c), "%s/r.json.tmp.BBBBBB/r.json.inst.cpu1", dir);
	fd = open(c, O_WRONLY | O_CREAT | O_EXCL, 0600);
	close(fd);
	snprintf(c, sizeof(c), "%s/r.json.tmp.CCCCCC", dir);
	ASSERT(!symlink("/etc/passwd", c), "a link named like a temporary");
	snprintf(d, sizeof(d), "%s/r.json.tmp.DDDDDD", dir);
	fd = open(d, O_WRONLY | O_CREAT | O_EXCL, 0600);
	ASSERT(!fchown(fd, 65534, 65534), "a file of another user's: %s", strerror(errno));
	close(fd);
	ASSERT(rt_outfile_open_private(&live, path) == 0, "a live run's trace file");
	/* a dead run's file and folder */
	EXPECT_EQ(rt_outfile_sweep(dir, "r.json.tmp."), 2);
	names(dir, list, sizeof(list));
	EXPECT(strlen(list) == 2 * 17 + 18 + 2 && strstr(list, "r.json.tmp.CCCCCC") &&
	       strstr(list, "r.json.tmp.DDDDDD") && !strstr(list, "AAAAAA") && !strstr(list, "BBBBBB"),
	       "the live run's, the link and the other user's file kept: %s", list);
	EXPECT_EQ(rt_outfile_sweep(dir, "r.json.tmp."), 0);	/* nothing more */
	rt_outfile_free(live);
	EXPECT(!access("/etc/passwd", R_OK), "the link's target is there");
}
