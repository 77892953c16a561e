// SPDX-License-Identifier: GPL-2.0-only
/*
 * The unit test harness (harness.h) tells a failure, a crash, a hang and a
 * skip apart, and says where a check failed. With HARNESS_SELFTEST set this
 * program holds tests that go wrong on purpose; the real tests run it so.
 */
#include <fcntl.h>

#include "harness.h"

enum { SELFTEST_LINE_EXPECT = __LINE__ + 8 };	/* the failing EXPECT_EQ below */
static void sample_fails(struct rt_test *_t)
{
	EXPECT_EQ(1 + 1, 2);
	EXPECT_STR("a", "a");
	EXPECT_CONTAINS("haystack", "hay");
	EXPECT_NEAR(0.1 + 0.2, 0.3, 1e-9);
	EXPECT_TRUE(2 > 1);
	EXPECT_EQ(1 + 1, 3);
	ASSERT_TRUE(0);
	EXPECT_TRUE(!"not reached after ASSERT");
}

static void sample_crashes(struct rt_test *_t)
{
	(void)_t;
	abort();	/* SIGABRT: what sanitizers also turn a crash into */
}

static void sample_hangs(struct rt_test *_t)
{
	(void)_t;
	for (;;)
		pause();
}

static void sample_skips(struct rt_test *_t)
{
	(void)_t;
	TEST_SKIP("nothing to test here");
}

static void sample_passes(struct rt_test *_t)
{
	EXPECT_EQ(2, 2);
}

/* a message of several lines, one looking like a verdict: each stays a comment */
static void sample_says_lines(struct rt_test *_t)
{
	EXPECT(0, "first line\nnot ok 99 - a line of the message");
}

/* after every test, however it ended: here it says so, for the samples */
TEARDOWN(say_teardown)
{
	if (getenv("HARNESS_SELFTEST"))
		printf("# teardown ran\n");
}

static void __attribute__((constructor)) samples(void)
{
	if (!getenv("HARNESS_SELFTEST"))
		return;
	harness_add("example_fails", NULL, NULL, sample_fails, __FILE__, __LINE__, 5);
	harness_add("example_crashes", NULL, NULL, sample_crashes, __FILE__, __LINE__, 5);
	harness_add("example_hangs", NULL, NULL, sample_hangs, __FILE__, __LINE__, 1);
	harness_add("example_skips", NULL, NULL, sample_skips, __FILE__, __LINE__, 5);
	harness_add("example_passes", "row", NULL, sample_passes, __FILE__, __LINE__, 5);
	harness_add("example_says_lines", NULL, NULL, sample_says_lines, __FILE__, __LINE__, 5);
}

/* Run this program with the samples, whose names contain @filter; its output in @buf. */
static int run_samples(const char *filter, char *buf, size_t len)
{
	int fds[2], status;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (!pid) {
		dup2(fds[1], 1);
		setenv("HARNESS_SELFTEST", "1", 1);
		execl("/proc/self/exe", "test_harness", filter, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while (got < len - 1 && (n = read(fds[0], buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST_TIMEOUT(verdicts_of_the_samples, 20)
{
	char out[8192], line[128];

	EXPECT_EQ(run_samples("example", out, sizeof(out)), 1);
	EXPECT_CONTAINS(out, "TAP version 13\n1..6\n");
	/* the teardown after a test that an ASSERT ended, and after a passing one */
	EXPECT_CONTAINS(out, "# teardown ran\nnot ok 1 - example_fails\n");
	EXPECT_CONTAINS(out, "# teardown ran\nok 5 - example_passes/row\n");
	EXPECT_CONTAINS(out, "not ok 2 - example_crashes # killed by signal 6");
	EXPECT_CONTAINS(out, "not ok 3 - example_hangs # TIMED OUT after 1 s");
	/* the hung child described before it went: pause() sleeps in the kernel */
	EXPECT_CONTAINS(out, "# the hung child's thread ");
	EXPECT_CONTAINS(out, ": state S, in the kernel at: ");
	EXPECT_CONTAINS(out, "# SKIP nothing to test here\nok 4 - example_skips # SKIP");
	EXPECT_CONTAINS(out, "ok 5 - example_passes/row\n");
	EXPECT_CONTAINS(out, "# 2 passed, 4 failed\n");
	EXPECT_CONTAINS(out, ": first line\n#   not ok 99 - a line of the message\n"
			     "# teardown ran\nnot ok 6 - ");
	/* the failed checks, where they are, and nothing after ASSERT */
	snprintf(line, sizeof(line), "# %s:%d: 1 + 1 is 2, expected 3 (3)\n", __FILE__,
		 SELFTEST_LINE_EXPECT);
	EXPECT_CONTAINS(out, line);
	snprintf(line, sizeof(line), "# %s:%d: expected 0\n", __FILE__, SELFTEST_LINE_EXPECT + 1);
	EXPECT_CONTAINS(out, line);
	EXPECT(!strstr(out, "not reached"), "a failed ASSERT ends the test: %s", out);
	EXPECT(!strstr(out, "is 2, expected 2"), "passing checks say nothing: %s", out);
}

TEST_TIMEOUT(a_filter_runs_only_its_tests, 20)
{
	char out[4096];

	EXPECT_EQ(run_samples("example_passes", out, sizeof(out)), 0);
	EXPECT_CONTAINS(out, "1..1\n# teardown ran\nok 1 - example_passes/row\n");
}
