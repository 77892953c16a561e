// SPDX-License-Identifier: GPL-2.0-only
/*
 * The benchmark driver (src/bench/): a minimal third benchmark written only
 * as a description, and a stand-in whose runs report what the test decides,
 * run through bench_main() in a child process; what it prints, writes and
 * exits with is checked.
 *
 * The driver takes SCHED_FIFO for its coordinator, as every benchmark does:
 * these tests run as root (make check does) and skip, saying so, without
 * RT privilege.
 */
#include <fcntl.h>
#include <getopt.h>
#include <sys/resource.h>

#include "bench.h"
#include "harness.h"
#include "rt_clock.h"
#include "rt_sched.h"

/* ------------------------------------------------------------------------
 * spin: a third benchmark, whole. N SCHED_FIFO threads, each doing units of
 * busy work until the duration ends; the table counts the units.
 */
struct spin_cfg {
	int nr_threads;
	int64_t duration_ns;
	struct bitmask *cpus;
	struct cli_common common;
};

struct spin_run {
	struct spin_cfg *cfg;
	struct rt_work work;
	struct bench_gate gate;
	atomic_bool stop;
	struct spin_thread {
		struct bench_thread bt;
		struct spin_run *run;
		uint64_t units;
	} threads[8];
};

static void spin_usage(FILE *out)
{
	fprintf(out, "Usage: spin [-t N] [-d TIME]\n" CLI_USAGE_COMMON);
}

static void spin_parse(struct bench *b, int argc, char **argv)
{
	static const struct rt_optspec threads = { "--threads", RT_OPT_INT, 1, 8, 0 };
	static const struct rt_optspec duration = { "--duration", RT_OPT_DURATION,
						    RT_NSEC_PER_MSEC, RT_NSEC_PER_SEC, RT_NSEC_PER_SEC };
	static const struct option opts[] = { { "threads", required_argument, NULL, 't' },
					      { "duration", required_argument, NULL, 'd' },
					      CLI_LONG_OPTIONS, { NULL, 0, NULL, 0 } };
	static const char shorts[] = ":t:d:" CLI_SHORT_OPTIONS;
	struct spin_cfg *cfg = b->cfg;
	int c;

	cli_common_init(&cfg->common, spin_usage);
	while ((c = getopt_long(argc, argv, shorts, opts, NULL)) != -1) {
		if (c == 't')
			cfg->nr_threads = (int)cli_opt(&threads, optarg);
		else if (c == 'd')
			cfg->duration_ns = cli_opt(&duration, optarg);
		else
			cli_common_option(&cfg->common, c, optarg, argv, shorts);
	}
	cfg->cpus = cli_common_done(&cfg->common, argc, argv);
	b->common = &cfg->common;
	b->cpus = cfg->cpus;
	b->base_prio = 1;
	b->nr_threads = (size_t)cfg->nr_threads;
	b->coordinator_prio = 1 + cfg->nr_threads;
	b->unit_ns = 100 * RT_NSEC_PER_USEC;
	b->trace_buffer_kb = 1024;
	b->trace_run_kb = 1024;
}

static void spin_header(const struct bench *b)
{
	printf("spin: %zu threads\n", b->nr_threads);
}

static void *spin_thread(void *arg)
{
	struct spin_thread *t = arg;

	if (!bench_thread_begin(&t->bt, &t->run->gate)) {
		while (!atomic_load(&t->run->stop)) {
			rt_busy_loop(&t->run->work, 1);
			t->units++;
		}
		bench_thread_end(&t->bt);
	}
	bench_thread_exit(&t->bt, NULL);
	return NULL;
}

static struct bench_thread *spin_nth(void *ctx, size_t i)
{
	return &((struct spin_run *)ctx)->threads[i].bt;
}

static int spin_run(struct bench *b, struct bench_run *r, char *err, size_t len)
{
	static struct spin_run run;
	pthread_attr_t attr;
	size_t i;
	int ret;

	run = (struct spin_run){ .cfg = b->cfg, .work = b->work };
	ret = bench_gate_init(&run.gate, b->nr_threads);
	if (!ret)
		ret = bench_attr_init(&attr);
	if (ret)
		return ret;
	ret = rt_cpus_attr_affinity(&attr, b->cpus);
	for (i = 0; !ret && i < b->nr_threads; i++) {
		run.threads[i] = (struct spin_thread){ .bt.stop = &run.stop, .run = &run };
		ret = bench_thread_create(&run.threads[i].bt, &attr, 1 + (int)i, spin_thread,
					  &run.threads[i]);
	}
	pthread_attr_destroy(&attr);
	if (!ret)
		ret = bench_release(&run.gate, b->tracer, spin_nth, &run, b->nr_threads,
				    &r->mlock_err, &r->start_ns, err, len);
	if (ret) {
		r->denied = ret == -EPERM;
		snprintf(err, len, "starting the threads: %s", strerror(-ret));
		return ret;
	}
	rt_sleep_until_intr(r->start_ns + run.cfg->duration_ns);
	r->interrupted = rt_stop_signal(b->stop);
	r->cut_short = r->interrupted &&
		       rt_now_ns(CLOCK_MONOTONIC) < r->start_ns + run.cfg->duration_ns;
	atomic_store(&run.stop, true);
	r->have_migrations = true;
	for (i = 0; i < b->nr_threads; i++) {
		pthread_join(run.threads[i].bt.thread, NULL);
		r->have_migrations &= bench_thread_row(&run.threads[i].bt, run.threads[i].units,
						       &r->rows[i], r->windows ? &r->windows[i] : NULL);
		r->end_ns = run.threads[i].bt.end_ns > r->end_ns ? run.threads[i].bt.end_ns : r->end_ns;
	}
	return 0;
}

static bool spin_report(struct bench *b)
{
	bench_print_table(b, NULL);
	return true;
}

static void spin_json(struct rt_json *j, const struct bench *b)
{
	const struct spin_cfg *cfg = b->cfg;

	rt_json_int(j, "threads", cfg->nr_threads);
	rt_json_int(j, "duration_ns", cfg->duration_ns);
}

static const struct bench_ops spin_ops = {
	.name = "spin",
	.stuck_exit = EXIT_SYSCALL,
	.parse = spin_parse,
	.header = spin_header,
	.run = spin_run,
	.report = spin_report,
	.json_config = spin_json,
};
/* ---------------------------------------------------------------------- */

/*
 * stand-in: its runs do no work and report what the test asked through
 * stand_in_status: fixed rows, a failure, threads that do not stop, a
 * signal, a check that fails.
 */
static int stand_in_status;	/* 0, or what run() returns */
static int stand_in_signal;	/* the signal that "interrupts" this run */
static int stand_in_interrupt_run = -1;
static bool stand_in_cut_short;	/* the signal came before the run's time was over */
static bool stand_in_fails_check;

static int stand_in_runs;

static void stand_in_run_rows(struct bench_run *r)
{
	size_t i;

	for (i = 0; i < 2; i++)
		r->rows[i] = (struct rt_row){ 10 + (uint64_t)stand_in_runs * 2, 5, 1 + i,
					      100 * (i + 1) };
}

static int stand_in_run(struct bench *b, struct bench_run *r, char *err, size_t len)
{
	(void)b;
	if (stand_in_status) {
		snprintf(err, len, "what the stand-in was told to say (%d)", stand_in_status);
		return stand_in_status;
	}
	r->start_ns = rt_now_ns(CLOCK_MONOTONIC);
	r->end_ns = r->start_ns + RT_NSEC_PER_SEC / 2;
	r->have_migrations = true;
	stand_in_run_rows(r);
	if (stand_in_runs == stand_in_interrupt_run) {
		r->interrupted = stand_in_signal;
		r->cut_short = stand_in_cut_short;
	}
	stand_in_runs++;
	return 0;
}

static void stand_in_header(const struct bench *b)
{
	(void)b;
	printf("stand-in: two rows\n");
}

static bool stand_in_report(struct bench *b)
{
	bench_print_table(b, "the stand-in's table");
	if (stand_in_fails_check)
		printf("FAIL: as asked\n");
	return !stand_in_fails_check;
}

static void stand_in_parse(struct bench *b, int argc, char **argv)
{
	spin_parse(b, argc, argv);
	b->nr_threads = 2;
	b->coordinator_prio = 3;
}

static const struct bench_ops stand_in_ops = {
	.name = "stand-in",
	.stuck_exit = EXIT_CHECK,
	.parse = stand_in_parse,
	.header = stand_in_header,
	.run = stand_in_run,
	.report = stand_in_report,
	.json_config = spin_json,
};

/* What one invocation left. */
struct outcome {
	int status;		/* exit status, or 128 + the signal that killed it */
	char out[16384], err[4096], json[32768];
};

static void slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? 0 : read(fd, buf, len - 1);

	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
}

/* Run bench_main(@ops) with the arguments after @ops in a child; --json FILE is added. */
static void invoke(const struct bench_ops *ops, struct outcome *o, const char *args)
{
	char dir[] = "/tmp/rtsched-driver-XXXXXX", out[64], err[64], json[64], line[256];
	char *argv[24], *save = NULL, *tok;
	int argc = 0, status;
	pid_t pid;

	memset(o, 0, sizeof(*o));
	if (!mkdtemp(dir))
		return;
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	snprintf(json, sizeof(json), "%s/r.json", dir);
	snprintf(line, sizeof(line), "%s %s --json %s", ops->name, args, json);
	for (tok = strtok_r(line, " ", &save); tok && argc < 23; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	fflush(stdout);
	pid = fork();
	if (!pid) {
		static struct spin_cfg cfg = { .nr_threads = 2, .duration_ns = RT_NSEC_PER_SEC / 5 };

		dup2(open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600), 1);
		dup2(open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600), 2);
		optind = 1;
		bench_main(ops, &cfg, argc, argv);
	}
	waitpid(pid, &status, 0);
	o->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	slurp(out, o->out, sizeof(o->out));
	slurp(err, o->err, sizeof(o->err));
	slurp(json, o->json, sizeof(o->json));
	unlink(out);
	unlink(err);
	unlink(json);
	rmdir(dir);
}

static void need_rt(void)
{
	if (rt_sched_probe(99))
		TEST_SKIP("no SCHED_FIFO here (run as root, as make check does)");
}

static int lines_with(const char *text, const char *part)
{
	int n = 0;

	for (; (text = strstr(text, part)); text++)
		n++;
	return n;
}

/*
 * The integer values of @key in @json, the rows' and the total's (a summary's are not
 * integers): how many there are, and in @zero how many are 0.
 */
static int row_counts(const char *json, const char *key, int *zero)
{
	char pat[64];
	const char *p = json;
	char *end;
	long v;
	int n = 0;

	snprintf(pat, sizeof(pat), "\"%s\": ", key);
	*zero = 0;
	while ((p = strstr(p, pat))) {
		p += strlen(pat);
		v = strtol(p, &end, 10);
		if (end == p)
			continue;
		n++;
		*zero += v == 0;
	}
	return n;
}

TEST_TIMEOUT(third_benchmark_runs, 30)
{
	struct outcome o;
	int zero;

	need_rt();
	invoke(&spin_ops, &o, "-t 2 -d 200ms");
	EXPECT_EQ(o.status, 0);
	EXPECT_CONTAINS(o.out, "spin: 2 threads\nkernel ");
	EXPECT_CONTAINS(o.out, "Task");
	EXPECT_CONTAINS(o.out, "total:");
	EXPECT_STR(o.err, "");
	EXPECT_CONTAINS(o.json, "\"schema\": \"rtsched-result/1\"");
	EXPECT_CONTAINS(o.json, "\"tool\": \"spin\"");
	EXPECT_CONTAINS(o.json, "\"duration_ns\": 200000000");
	EXPECT_CONTAINS(o.json, "\"partial\": false");
	/* the threads did work, which each row counts */
	EXPECT_EQ(row_counts(o.json, "iterations", &zero), 2 + 1);	/* the rows and the total */
	EXPECT(!zero, "every thread counted units: %s", o.json);
}

TEST_TIMEOUT(repeats_give_mean_and_sd, 30)
{
	struct outcome o;

	need_rt();
	stand_in_runs = 0;
	invoke(&stand_in_ops, &o, "-q -r 3");
	EXPECT_EQ(o.status, 0);
	EXPECT_CONTAINS(o.out, "the stand-in's table\n");
	/* vol 10, 12, 14: mean 12, sd 2 */
	EXPECT_CONTAINS(o.out, "12.0 \u00b1     2.0");
	EXPECT(!strstr(o.out, "stand-in: two rows"), "-q: no header: %s", o.out);
	EXPECT_EQ(lines_with(o.json, "\"measured_s\""), 0);
	EXPECT_EQ(lines_with(o.json, "\"rows\""), 3 + 1);	/* and the summary's */
	EXPECT_CONTAINS(o.json, "\"repeat\": 3");
}

/* A run's status, and what the driver makes of it. */
struct status_case {
	const char *name;
	int status;
	const char *args;
	int want_exit;
	const char *want_err;
};

static const struct status_case status_cases[] = {
	{ "failure-exits-3", -EIO, "-q", EXIT_SYSCALL,
	  "stand-in: what the stand-in was told to say (-5)\n" },
	{ "failure-names-the-run", -EIO, "-q -r 2", EXIT_SYSCALL,
	  "stand-in: run 1: what the stand-in was told to say (-5)\n" },
	{ "stuck-threads-exit-as-told", -ETIMEDOUT, "-q", EXIT_CHECK,
	  "stand-in: what the stand-in was told to say (-110)\n" },
};

TEST_TABLE(run_status, struct status_case, status_cases)
{
	struct outcome o;

	need_rt();
	stand_in_status = row->status;
	invoke(&stand_in_ops, &o, row->args);
	EXPECT_EQ(o.status, row->want_exit);
	EXPECT_STR(o.err, row->want_err);
	EXPECT_STR(o.json, "");		/* a result is whole or absent */
	EXPECT(!strstr(o.out, "Task"), "no table after a failed run: %s", o.out);
}

TEST_TIMEOUT(failed_check_exits_1, 30)
{
	struct outcome o;

	need_rt();
	stand_in_fails_check = true;
	invoke(&stand_in_ops, &o, "-q");
	EXPECT_EQ(o.status, EXIT_CHECK);
	EXPECT_CONTAINS(o.out, "FAIL: as asked");
	EXPECT_CONTAINS(o.json, "\"return_code\": 1");
}

/* the stand-in with @args, SIGTERM "arriving" in its second run */
static void interrupt_second_run(struct outcome *o, bool cut_short, const char *args)
{
	stand_in_runs = 0;
	stand_in_interrupt_run = 1;
	stand_in_signal = SIGTERM;
	stand_in_cut_short = cut_short;
	invoke(&stand_in_ops, o, args);
}

TEST_TIMEOUT(interrupted_run_is_partial, 30)
{
	struct outcome o;

	need_rt();
	interrupt_second_run(&o, true, "-q -r 3");
	EXPECT_EQ(o.status, 128 + SIGTERM);
	EXPECT_CONTAINS(o.out, "PARTIAL: SIGTERM stopped run 2 after 0.500 s; the figures are "
			       "those of the 1 whole run before it");
	/* one whole run: its rows, not mean ± sd */
	EXPECT(!strstr(o.out, "\u00b1"), "the table of one run: %s", o.out);
	EXPECT_EQ(lines_with(o.json, "\"rows\""), 2 + 1);	/* the partial run kept */
	EXPECT_EQ(lines_with(o.json, "\"partial\": true"), 2);	/* run 2, and the result */
	/* the runs asked for, not the runs made */
	EXPECT_CONTAINS(o.json, "\"repeat\": 3,");
}

/* a signal after a run had its whole time: that run is whole, the repeats end */
TEST_TIMEOUT(signal_after_a_whole_run, 30)
{
	struct outcome o;

	need_rt();
	interrupt_second_run(&o, false, "-q -r 3");
	EXPECT_EQ(o.status, 128 + SIGTERM);
	EXPECT_CONTAINS(o.out, "PARTIAL: SIGTERM came after run 2 had its whole time: 2 whole "
			       "runs of 3 asked");
	EXPECT_CONTAINS(o.out, "\u00b1");	/* two runs: mean ± sd */
	EXPECT_EQ(lines_with(o.json, "\"rows\""), 2 + 1);
	EXPECT_EQ(lines_with(o.json, "\"partial\": true"), 1);	/* the result: 2 of 3 */
	interrupt_second_run(&o, false, "-q -r 2");
	EXPECT_CONTAINS(o.out, "note: SIGTERM came after the last run had its whole time: every "
			       "run is whole");
	EXPECT(!strstr(o.json, "\"partial\": true"), "nothing partial: %s", o.json);
}

TEST(bad_option_one_line_exit_2)
{
	struct outcome o;

	invoke(&spin_ops, &o, "-t 9");
	EXPECT_EQ(o.status, EXIT_USAGE);
	EXPECT_STR(o.err, "spin: invalid --threads '9': expected an integer from 1 to 8\n");
	EXPECT_STR(o.out, "");
}

TEST(no_privilege_exits_4)
{
	struct outcome o;

	if (geteuid())
		TEST_SKIP("needs root, to drop to nobody");
	/* as nobody, with no RT limit: the driver's privilege check */
	if (!fork()) {
		struct rlimit none = { 0, 0 };

		setrlimit(RLIMIT_RTPRIO, &none);
		if (setgid(65534) || setuid(65534))
			_exit(99);
		invoke(&stand_in_ops, &o, "-q");
		_exit(o.status == EXIT_MISSING && strstr(o.err, "cannot run SCHED_FIFO threads at "
								 "priority 3") ? 0 : 1);
	}
	{
		int status;

		wait(&status);
		EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		       "exit 4 with the privilege message (child status %d)", status);
	}
}
