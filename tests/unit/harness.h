/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Named unit tests, in the manner of the kernel's kselftest_harness.h:
 *
 *   TEST(name) { EXPECT_EQ(f(2), 4); }
 *   TEST_TIMEOUT(name, seconds) { ... }
 *   TEST_TABLE(name, struct row, rows) { EXPECT_EQ(f(row->in), row->want); }
 *
 * Each test registers itself and runs in a child process of its own under
 * a timeout (10 s unless said), so that a crash or a hang fails that test
 * and the others still run; a hung test's threads are described (state,
 * kernel stack) before it is killed. A table-driven test runs once per row, named
 * "name/ROW" by the row's .name. Every failed check says its file and line;
 * EXPECT_* go on after a failure, ASSERT_* end the test. TEST_SKIP(why)
 * skips the test, saying why. TEARDOWN(fn) { ... } runs after every test
 * of the file, however it ended (what a test made on disk goes). Every C
 * unit test uses this harness: one TAP emitter for C, as tap.bash is for
 * bash and taplib.py for Python.
 *
 * The output is TAP: the plan first, then "ok N - name" or "not ok N -
 * name" per test, the failures as "# file:line: ..." lines before it.
 * With an argument, only the tests whose name contains it run.
 */
#ifndef RT_HARNESS_H
#define RT_HARNESS_H

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define HARNESS_MAX 512
#define HARNESS_TIMEOUT 10
#define HARNESS_SKIP 77	/* a child's exit status: skipped */

struct rt_test {
	const char *name;
	const char *row;	/* a table row's name, or NULL */
	const void *variant;	/* the row */
	void (*fn)(struct rt_test *t);
	const char *file;
	int line;
	int timeout;
	int failed;		/* checks that failed, in the child */
};

static struct rt_test harness_tests[HARNESS_MAX];
static int harness_count;

static void __attribute__((unused)) harness_add(const char *name, const char *row,
						 const void *variant, void (*fn)(struct rt_test *),
						 const char *file, int line, int timeout)
{
	if (harness_count == HARNESS_MAX) {
		fprintf(stderr, "harness.h: more than %d tests\n", HARNESS_MAX);
		exit(2);
	}
	harness_tests[harness_count++] = (struct rt_test){ name, row, variant, fn, file, line,
							   timeout, 0 };
}

/* "# file:line: message", every line of the message a TAP comment */
static void __attribute__((format(printf, 4, 5), unused))
harness_fail(struct rt_test *t, const char *file, int line, const char *fmt, ...)
{
	char msg[8192], *c;
	va_list ap;

	t->failed++;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printf("# %s:%d: ", file, line);
	for (c = msg; *c; c++) {
		putchar(*c);
		if (*c == '\n' && c[1])
			printf("#   ");
	}
	printf("\n");
}

#define TEST_TIMEOUT(fn, seconds)                                                        \
	static void fn(struct rt_test *_t);                                                \
	static void __attribute__((constructor)) fn##_register(void)                       \
	{                                                                                  \
		harness_add(#fn, NULL, NULL, fn, __FILE__, __LINE__, seconds);             \
	}                                                                                  \
	static void fn(struct rt_test *_t __attribute__((unused)))

#define TEST(fn) TEST_TIMEOUT(fn, HARNESS_TIMEOUT)

/* One test per row of @table (an array of @type, each with a .name). */
#define TEST_TABLE(fn, type, table)                                                      \
	static void fn(struct rt_test *_t, const type *row);                               \
	static void fn##_row(struct rt_test *_t)                                           \
	{                                                                                  \
		fn(_t, (const type *)_t->variant);                                         \
	}                                                                                  \
	static void __attribute__((constructor)) fn##_register(void)                       \
	{                                                                                  \
		size_t i_;                                                                 \
                                                                                           \
		for (i_ = 0; i_ < sizeof(table) / sizeof((table)[0]); i_++)                \
			harness_add(#fn, (table)[i_].name, &(table)[i_], fn##_row, __FILE__,  \
				    __LINE__, HARNESS_TIMEOUT);                            \
	}                                                                                  \
	static void fn(struct rt_test *_t __attribute__((unused)),                         \
		       const type *row __attribute__((unused)))

/* Checks that go on after a failure. */
#define EXPECT(cond, ...)                                                                \
	do {                                                                               \
		if (!(cond))                                                               \
			harness_fail(_t, __FILE__, __LINE__, __VA_ARGS__);                 \
	} while (0)

#define EXPECT_TRUE(cond) EXPECT(cond, "expected %s", #cond)

#define EXPECT_EQ(got, want)                                                             \
	do {                                                                               \
		long long g_ = (long long)(got), w_ = (long long)(want);                  \
		if (g_ != w_)                                                              \
			harness_fail(_t, __FILE__, __LINE__, "%s is %lld, expected %s (%lld)", \
				     #got, g_, #want, w_);                                 \
	} while (0)

#define EXPECT_NEAR(got, want, tol)                                                      \
	do {                                                                               \
		double g_ = (double)(got), w_ = (double)(want);                            \
		if (!(g_ - w_ <= (tol) && w_ - g_ <= (tol)))                               \
			harness_fail(_t, __FILE__, __LINE__, "%s is %g, expected %s (%g)",  \
				     #got, g_, #want, w_);                                 \
	} while (0)

#define EXPECT_STR(got, want)                                                            \
	do {                                                                               \
		const char *g_ = (got), *w_ = (want);                                      \
		if (!g_ || !w_ || strcmp(g_, w_))                                          \
			harness_fail(_t, __FILE__, __LINE__, "%s is '%s', expected '%s'",   \
				     #got, g_ ? g_ : "(null)", w_ ? w_ : "(null)");        \
	} while (0)

#define EXPECT_CONTAINS(text, part)                                                      \
	do {                                                                               \
		const char *g_ = (text), *p_ = (part);                                     \
		if (!g_ || !strstr(g_, p_))                                                \
			harness_fail(_t, __FILE__, __LINE__, "%s does not contain '%s': '%s'", \
				     #text, p_, g_ ? g_ : "(null)");                       \
	} while (0)

/* Checks that end the test when they fail. */
#define ASSERT(cond, ...)                                                                \
	do {                                                                               \
		if (!(cond)) {                                                             \
			harness_fail(_t, __FILE__, __LINE__, __VA_ARGS__);                 \
			return;                                                            \
		}                                                                          \
	} while (0)

#define ASSERT_TRUE(cond) ASSERT(cond, "expected %s", #cond)

#define ASSERT_EQ(got, want)                                                             \
	do {                                                                               \
		int f_ = _t->failed;                                                       \
		EXPECT_EQ(got, want);                                                      \
		if (_t->failed != f_)                                                      \
			return;                                                            \
	} while (0)

#define TEST_SKIP(...)                                                                   \
	do {                                                                               \
		printf("# SKIP ");                                                         \
		printf(__VA_ARGS__);                                                       \
		printf("\n");                                                              \
		fflush(stdout);                                                            \
		_exit(HARNESS_SKIP);                                                       \
	} while (0)

static void harness_name(const struct rt_test *t, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", t->name, t->row ? "/" : "", t->row ? t->row : "");
}

/*
 * A teardown every test of the file gets after its body, however the body
 * ended (an ASSERT returns from it), as kselftest's FIXTURE_TEARDOWN: files
 * and folders a test made go even when a check failed. The child leaves by
 * _exit(), so that nothing of the parent's atexit() runs twice: atexit()
 * would not do.
 */
static void (*harness_teardown)(void);

#define TEARDOWN(fn)                                                                     \
	static void fn(void);                                                              \
	static void __attribute__((constructor)) fn##_teardown_register(void)              \
	{                                                                                  \
		harness_teardown = fn;                                                     \
	}                                                                                  \
	static void fn(void)

/* In the child: run @t, say its verdict, exit. */
static void __attribute__((noreturn)) harness_child(struct rt_test *t)
{
	/* the parent's limit, and this one a little later where it has no pidfd */
	alarm((unsigned int)t->timeout + 2);
	t->fn(t);
	if (harness_teardown)
		harness_teardown();
	fflush(stdout);
	_exit(t->failed ? 1 : 0);
}

/*
 * Where a child that ran out of time was, as TAP comments: each thread's
 * state and the top of its kernel stack (root reads it), so that a hang
 * says whether it waited in the kernel, and on what, or ran.
 */
static void harness_where(pid_t pid)
{
	char path[96], line[160], stat[512], *state;
	int tid, frames, threads = 0;
	FILE *f;
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	while (d && (e = readdir(d)) && threads < 8) {
		tid = atoi(e->d_name);
		if (tid <= 0)
			continue;
		threads++;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, tid);
		f = fopen(path, "r");
		state = f && fgets(stat, sizeof(stat), f) ? strrchr(stat, ')') : NULL;
		if (f)
			fclose(f);
		printf("# the hung child's thread %d: state %c, in the kernel at:", tid,
		       state && state[1] && state[2] ? state[2] : '?');
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stack", (int)pid, tid);
		f = fopen(path, "r");
		for (frames = 0; f && frames < 6 && fgets(line, sizeof(line), f); frames++) {
			char *fn = strstr(line, "] ") ? strstr(line, "] ") + 2 : line;

			printf(" %s%.*s", frames ? "< " : "", (int)strcspn(fn, "\n"), fn);
		}
		if (f)
			fclose(f);
		printf("%s\n", frames ? "" : " (not known)");
	}
	if (d)
		closedir(d);
}

/*
 * Wait for the child @pid at most @timeout seconds (by a pidfd; without one,
 * until the child's own alarm). Returns 1 when it ran out of time: it was
 * then described and killed. @status is the child's.
 */
static int harness_wait(pid_t pid, int timeout, int *status)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0), ret = 0;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct timespec now, end;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += timeout;
	while (fd >= 0) {
		long ms;

		clock_gettime(CLOCK_MONOTONIC, &now);
		ms = (end.tv_sec - now.tv_sec) * 1000 + (end.tv_nsec - now.tv_nsec) / 1000000;
		if (ms <= 0) {
			harness_where(pid);
			kill(pid, SIGKILL);
			ret = 1;
			break;
		}
		if (poll(&p, 1, (int)ms) > 0)
			break;
	}
	if (fd >= 0)
		close(fd);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(*status) && WTERMSIG(*status) == SIGALRM)
		ret = 1;
	return ret;
}

/* Run one test in a child; Returns 1 when it failed. */
static int harness_run(struct rt_test *t, int n)
{
	char name[256], why[128] = "";
	int status, fail, late;
	pid_t pid;

	harness_name(t, name, sizeof(name));
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		printf("not ok %d - %s # fork: %s\n", n, name, strerror(errno));
		return 1;
	}
	if (!pid)
		harness_child(t);
	late = harness_wait(pid, t->timeout, &status);
	if (!late && WIFEXITED(status) && WEXITSTATUS(status) == HARNESS_SKIP) {
		printf("ok %d - %s # SKIP (see above)\n", n, name);
		return 0;
	}
	fail = late || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
	if (late)
		snprintf(why, sizeof(why), " # TIMED OUT after %d s (%s:%d)", t->timeout, t->file,
			 t->line);
	else if (WIFSIGNALED(status))
		snprintf(why, sizeof(why), " # killed by signal %d (%s:%d)", WTERMSIG(status),
			 t->file, t->line);
	printf("%sok %d - %s%s\n", fail ? "not " : "", n, name, why);
	return fail;
}

int main(int argc, char **argv)
{
	int i, n = 0, failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < harness_count; i++) {
		char name[256];

		harness_name(&harness_tests[i], name, sizeof(name));
		if (argc < 2 || strstr(name, argv[1]))
			n++;
	}
	printf("TAP version 13\n1..%d\n", n);
	for (i = 0, n = 0; i < harness_count; i++) {
		char name[256];

		harness_name(&harness_tests[i], name, sizeof(name));
		if (argc < 2 || strstr(name, argv[1]))
			failed += harness_run(&harness_tests[i], ++n);
	}
	printf("# %d passed, %d failed\n", n - failed, failed);
	return failed ? 1 : 0;
}

#endif
