// SPDX-License-Identifier: GPL-2.0-only
/*
 * The benchmark driver (src/bench/): a stand-in benchmark whose threads the
 * driver runs for real, doing what each test asks (count, stall, never stop,
 * send a signal), and whose rows the test may fix, run through bench_main()
 * in a child process; what it prints, writes and exits with is checked.
 *
 * The driver takes SCHED_FIFO for its coordinator, as every benchmark does:
 * these tests run as root (make check does) and skip, saying so, without
 * RT privilege.
 */
#include <fcntl.h>
#include <getopt.h>
#include <sys/resource.h>

#include "bench/bench.h"
#include "harness.h"
#include "lib/clock.h"
#include "lib/sched.h"

/* ------------------------------------------------------------------------
 * stand-in: a benchmark whose two threads do what the test asks, run by the
 * driver for real (created, gated, watched, stopped, joined), and whose
 * rows are then set to what the test decides: fixed counts, a failure,
 * threads that do not stop, a stall, a signal, a check that fails.
 */
struct stand_in_cfg {
	struct bench_params p;
};

static const struct bench_defaults stand_in_defaults = {
	.duration_ns = RT_NSEC_PER_SEC / 5, .base_prio = 1, .min_span = 1,
};

enum stand_in_body {
	BODY_COUNT,		/* count until told to stop */
	BODY_DEAF,		/* count, never looking at the stop */
	BODY_FREEZE,		/* count 10, then sleep until told to stop: no progress */
	BODY_SIGNAL,		/* thread 1 sends SIGTERM after 10 passes; both count on */
	BODY_SIGNAL_DEAF,	/* the same, and thread 1 never stops */
	BODY_SIGNAL_TWICE,	/* thread 1 sends SIGTERM, then SIGINT, and never stops */
};

static int stand_in_status;	/* what prepare() returns */
static int stand_in_prio1;	/* thread 1's priority, when not 2 */
static enum stand_in_body stand_in_body;
static enum bench_watch stand_in_watch;
static bool stand_in_fixed_rows = true;	/* collect() sets the rows */
static int stand_in_signal;	/* a signal collect() says interrupted the run */
static int stand_in_interrupt_run = -1;
static bool stand_in_cut_short;	/* the signal came before the run's time was over */
static bool stand_in_fails_check;
static bool stand_in_idle;	/* collect() sets rows of no pass */
static double stand_in_speed = -1;	/* collect() sets the busy loop's speed */

static int stand_in_runs;
static struct bench_thread stand_in_threads[2];

static void stand_in_usage(FILE *out)
{
	fprintf(out, "Usage: stand-in [-t N] [-d TIME]\n" CLI_USAGE_COMMON);
}

static const struct bench_params *stand_in_parse(void *config, int argc, char **argv)
{
	static const struct rt_optspec threads = { "--threads", RT_OPT_INT, 1, 8, 0 };
	static const struct option opts[] = { { "threads", required_argument, NULL, 't' },
					      BENCH_LONG_OPTIONS, CLI_LONG_OPTIONS,
					      { NULL, 0, NULL, 0 } };
	static const char shorts[] = ":t:" BENCH_SHORT_OPTIONS CLI_SHORT_OPTIONS;
	struct stand_in_cfg *cfg = config;
	int c;

	bench_params_init(&cfg->p, &stand_in_defaults, stand_in_usage);
	while ((c = getopt_long(argc, argv, shorts, opts, NULL)) != -1) {
		if (c == 't')
			cli_opt(&threads, optarg);
		else if (!bench_params_option(&cfg->p, c, optarg))
			cli_common_option(&cfg->p.common, c, optarg, argv, shorts);
	}
	cfg->p.cpus = cli_common_done(&cfg->p.common, argc, argv);
	bench_params_threads(&cfg->p, 2, 2);
	cfg->p.coordinator_cpu = -1;
	cfg->p.unit_ns = 100 * RT_NSEC_PER_USEC;
	cfg->p.trace_buffer_kb = 1024;
	cfg->p.trace_run_kb = 1024;
	return &cfg->p;
}

static void stand_in_header(const struct bench *b)
{
	(void)b;
	printf("stand-in: two rows\n");
}

static int stand_in_thread(struct bench_thread *t)
{
	bool one = t == &stand_in_threads[1];
	uint64_t n;

	for (n = 0;; n++) {
		bool deaf = stand_in_body == BODY_DEAF ||
			    (one && (stand_in_body == BODY_SIGNAL_DEAF ||
				     stand_in_body == BODY_SIGNAL_TWICE));

		if (!deaf && bench_thread_stopping(t))
			return 0;
		if (stand_in_body == BODY_FREEZE && n >= 10) {
			rt_sleep_ns(RT_NSEC_PER_MSEC);
			continue;
		}
		if (one && n == 10 && stand_in_body >= BODY_SIGNAL)
			kill(getpid(), SIGTERM);
		/* another signal: the same one this soon would be the same request */
		if (one && n == 60 && stand_in_body == BODY_SIGNAL_TWICE)
			kill(getpid(), SIGINT);
		rt_sleep_ns(RT_NSEC_PER_MSEC);
		bench_thread_count(t);
	}
}

static int stand_in_stalled(void *ctx, size_t i, int64_t for_ns, char *err, size_t len)
{
	(void)ctx;
	(void)for_ns;
	if (stand_in_watch == BENCH_WATCH_POLL) {
		printf("stand-in: thread %zu stalled\n", i);
		return 0;
	}
	snprintf(err, len, "thread %zu stalled", i);
	return -ETIMEDOUT;
}

static void stand_in_late(void *ctx, size_t i, int64_t since_ns, char *err, size_t len)
{
	(void)ctx;
	(void)since_ns;
	snprintf(err, len, "thread %zu is late", i);
}

static struct bench_thread *stand_in_nth(void *ctx, size_t i)
{
	(void)ctx;
	return &stand_in_threads[i];
}

static int stand_in_prepare(const struct bench *b, struct bench_run *r, struct bench_threads *set)
{
	const struct stand_in_cfg *cfg = b->cfg;
	int i;

	(void)r;
	if (stand_in_status)
		return stand_in_status;
	for (i = 0; i < 2; i++)
		stand_in_threads[i] = (struct bench_thread){
			.prio = i && stand_in_prio1 ? stand_in_prio1 : 1 + i, .cpu = -1,
			.body = stand_in_thread };
	*set = (struct bench_threads){ .nth = stand_in_nth,
				       .duration_ns = cfg->p.duration_ns,
				       .limit_ns = cfg->p.duration_ns + RT_NSEC_PER_SEC,
				       .signal_grace_ns = stand_in_watch == BENCH_WATCH_THREAD ?
							  RT_NSEC_PER_SEC / 5 : 0,
				       .stop_grace_ns = RT_NSEC_PER_SEC / 2,
				       .watch = stand_in_watch,
				       .stall_ns = RT_NSEC_PER_SEC / 10,
				       .poll_ns = RT_NSEC_PER_SEC / 50,
				       .stalled = stand_in_stalled, .late = stand_in_late };
	return 0;
}

static void stand_in_collect(const struct bench *b, struct bench_run *r)
{
	size_t i;

	(void)b;
	if (stand_in_fixed_rows) {
		r->end_ns = r->start_ns + RT_NSEC_PER_SEC / 2;
		r->have_migrations = true;
		for (i = 0; i < 2; i++)
			r->rows[i] = (struct rt_row){ 10 + (uint64_t)stand_in_runs * 2, 5, 1 + i,
						      stand_in_idle ? 0 : 100 * (i + 1) };
	}
	if (stand_in_speed >= 0)
		r->machine.speed = stand_in_speed;
	if (stand_in_runs == stand_in_interrupt_run) {
		r->interrupted = stand_in_signal;
		r->cut_short = stand_in_cut_short;
	}
	stand_in_runs++;
}

static bool stand_in_report(struct bench *b)
{
	bench_print_table(b, "the stand-in's table");
	if (stand_in_fails_check)
		printf("FAIL: as asked\n");
	return !stand_in_fails_check;
}

static void stand_in_json(struct rt_json *j, const struct bench *b)
{
	(void)b;
	rt_json_int(j, "threads", 2);	/* its own; the driver writes duration_ns */
}

static const struct bench_ops stand_in_ops = {
	.name = "stand-in",
	.stuck_exit = EXIT_CHECK,
	.parse = stand_in_parse,
	.header = stand_in_header,
	.prepare = stand_in_prepare,
	.collect = stand_in_collect,
	.report = stand_in_report,
	.json_config = stand_in_json,
};

/* The same, its report the driver's own (the table and the time measured). */
static const struct bench_ops plain_ops = {
	.name = "plain",
	.stuck_exit = EXIT_SYSCALL,
	.parse = stand_in_parse,
	.header = stand_in_header,
	.prepare = stand_in_prepare,
	.json_config = stand_in_json,
	.json_head = bench_json_migrations_source,
	.json_run_head = bench_json_measured,
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
		static struct stand_in_cfg cfg;

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

/* The driver runs the threads a benchmark describes, and reports them itself. */
TEST_TIMEOUT(described_threads_run, 30)
{
	struct outcome o;
	int zero;

	need_rt();
	stand_in_fixed_rows = false;
	invoke(&plain_ops, &o, "-d 200ms");
	EXPECT_EQ(o.status, 0);
	EXPECT_CONTAINS(o.out, "stand-in: two rows\nkernel ");
	EXPECT_CONTAINS(o.out, "Task");
	EXPECT_CONTAINS(o.out, "total:");
	EXPECT_CONTAINS(o.out, "(duration 200ms), start-up ");
	EXPECT_STR(o.err, "");
	EXPECT_CONTAINS(o.json, "\"schema\": \"rtsched-result/1\"");
	EXPECT_CONTAINS(o.json, "\"tool\": \"plain\"");
	EXPECT_CONTAINS(o.json, "\"duration_ns\": 200000000");
	EXPECT_CONTAINS(o.json, "\"migrations_source\": \"se.nr_migrations\"");
	EXPECT_EQ(lines_with(o.json, "\"measured_s\""), 1);
	EXPECT_CONTAINS(o.json, "\"partial\": false");
	/* the threads did work, which each row counts */
	EXPECT_EQ(row_counts(o.json, "iterations", &zero), 2 + 1);	/* the rows and the total */
	EXPECT(!zero, "every thread counted its passes: %s", o.json);
}

/* A thread that cannot be created: the others are let go, one line, exit 3, no hang. */
TEST_TIMEOUT(creation_failure_lets_the_others_go, 30)
{
	struct outcome o;

	need_rt();
	stand_in_prio1 = 100;
	invoke(&stand_in_ops, &o, "-q");
	EXPECT_EQ(o.status, EXIT_SYSCALL);
	EXPECT_STR(o.err, "stand-in: creating thread 1 at SCHED_FIFO 100: Invalid argument\n");
	EXPECT_STR(o.json, "");
}

/* The watcher thread: a run whose threads made no progress is stuck. */
TEST_TIMEOUT(watcher_finds_a_stall, 30)
{
	struct outcome o;

	need_rt();
	stand_in_watch = BENCH_WATCH_THREAD;
	stand_in_body = BODY_FREEZE;
	invoke(&stand_in_ops, &o, "-q -d 3s");
	EXPECT_EQ(o.status, EXIT_CHECK);	/* the stand-in's stuck_exit */
	EXPECT_STR(o.err, "stand-in: thread 0 stalled\n");
	EXPECT_STR(o.json, "");
}

/* Polling: each stalled thread is told to the benchmark, which may stop the run and go on. */
TEST_TIMEOUT(poll_stops_a_stalled_run, 30)
{
	struct outcome o;

	need_rt();
	stand_in_watch = BENCH_WATCH_POLL;
	stand_in_body = BODY_FREEZE;
	stand_in_fixed_rows = false;
	invoke(&plain_ops, &o, "-d 1s");
	EXPECT_EQ(o.status, 0);
	EXPECT_CONTAINS(o.out, "stand-in: thread 0 stalled\n");
	EXPECT_CONTAINS(o.out, "stand-in: thread 1 stalled\n");
	EXPECT_CONTAINS(o.out, "total:");
	EXPECT(strstr(o.json, "\"measured_s\": 0."), "stopped before its second: %s", o.json);
}

/* A thread that never stops is late: named, and the process leaves it running. */
TEST_TIMEOUT(deaf_thread_is_late, 30)
{
	struct outcome o;

	need_rt();
	stand_in_body = BODY_DEAF;
	invoke(&stand_in_ops, &o, "-q -d 100ms");
	EXPECT_EQ(o.status, EXIT_CHECK);
	EXPECT_STR(o.err, "stand-in: thread 0 is late\n");
	EXPECT_STR(o.json, "");
	EXPECT(!strstr(o.out, "Task"), "no table after a stuck run: %s", o.out);
}

/* A real signal in the run: it stops, the result is partial, exit 128 + SIGTERM. */
TEST_TIMEOUT(signal_stops_the_run, 30)
{
	struct outcome o;

	need_rt();
	stand_in_body = BODY_SIGNAL;
	stand_in_fixed_rows = false;
	invoke(&plain_ops, &o, "-d 1s");
	EXPECT_EQ(o.status, 128 + SIGTERM);
	EXPECT_CONTAINS(o.out, "PARTIAL: SIGTERM stopped run 1 after 0.");
	EXPECT(!strstr(o.out, "did not stop in time"), "every thread stopped: %s", o.out);
	EXPECT_CONTAINS(o.json, "\"partial\": true");
}

/* After the signal's grace, a thread still running is abandoned: its counters read by main. */
TEST_TIMEOUT(signal_grace_abandons, 30)
{
	struct outcome o;

	need_rt();
	stand_in_watch = BENCH_WATCH_THREAD;
	stand_in_body = BODY_SIGNAL_DEAF;
	stand_in_fixed_rows = false;
	invoke(&plain_ops, &o, "-d 1s");
	EXPECT_EQ(o.status, 128 + SIGTERM);
	EXPECT_CONTAINS(o.out, "PARTIAL: 1 threads did not stop in time: the main thread read "
			       "their counters");
	EXPECT_CONTAINS(o.json, "\"partial\": true");
	/* without a signal's grace (polling), the same thread is late */
	stand_in_watch = BENCH_WATCH_POLL;
	invoke(&stand_in_ops, &o, "-q -d 1s");
	EXPECT_EQ(o.status, EXIT_CHECK);
	EXPECT_STR(o.err, "stand-in: thread 1 is late\n");
}

/* A second signal during the first's grace: out at once, no table, no result file. */
TEST_TIMEOUT(second_signal_leaves_at_once, 30)
{
	struct outcome o;

	need_rt();
	stand_in_watch = BENCH_WATCH_THREAD;
	stand_in_body = BODY_SIGNAL_TWICE;
	invoke(&stand_in_ops, &o, "-d 1s");
	EXPECT_EQ(o.status, 128 + SIGTERM);
	EXPECT(!strstr(o.out, "Task"), "no table: %s", o.out);
	EXPECT_STR(o.json, "");
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
	  "stand-in: setting up the run: Input/output error\n" },
	{ "failure-names-the-run", -EIO, "-q -r 2", EXIT_SYSCALL,
	  "stand-in: run 1: setting up the run: Input/output error\n" },
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

/* A failed check on a starved machine is no verdict: its own status and line. */
TEST_TIMEOUT(starved_failure_is_no_verdict, 30)
{
	struct outcome o;

	need_rt();
	stand_in_fails_check = true;
	stand_in_speed = 0.03;
	invoke(&stand_in_ops, &o, "-q");
	EXPECT_EQ(o.status, EXIT_STARVED);
	EXPECT_STR(o.err, "stand-in: no verdict: the machine starved the run: the threads' busy "
		   "loop ran at 3% of its calibrated speed while the kernel counted the time as "
		   "theirs (a virtual CPU its host did not run)\n");
	EXPECT_CONTAINS(o.json, "\"return_code\": 5");
	EXPECT_CONTAINS(o.json, "\"starved\": true");
}

/* A starved run that passed is still a run: said under the tables, exit 0. */
TEST_TIMEOUT(starved_pass_is_said, 30)
{
	struct outcome o;

	need_rt();
	stand_in_speed = 0.1;
	invoke(&stand_in_ops, &o, "-q");
	EXPECT_EQ(o.status, EXIT_RAN);
	EXPECT_CONTAINS(o.out, "note: the machine starved the run: the threads' busy loop ran at "
			"10%");
	EXPECT_CONTAINS(o.json, "\"busy_speed\": 0.1");
}

/* A run in which no thread completed a pass is no result: never a table of zeros with 0. */
TEST_TIMEOUT(no_pass_is_no_result, 30)
{
	static const char said[] = "stand-in: not a result: no thread completed a pass in run 1 "
				   "(measured 0.500 s)";
	static const char starved[] = "; the machine starved run 1: ";
	const char *rest;
	struct outcome o;

	need_rt();
	stand_in_idle = true;
	invoke(&stand_in_ops, &o, "-q -r 2");
	EXPECT_EQ(o.status, EXIT_STARVED);
	/*
	 * one line; where the hypervisor stole time meanwhile (15% once in a
	 * make check here), the machine's evidence follows on it
	 */
	rest = o.err + strlen(said);
	EXPECT(!strncmp(o.err, said, strlen(said)) &&
	       (!strcmp(rest, "\n") || !strncmp(rest, starved, strlen(starved))) &&
	       strchr(o.err, '\n') == o.err + strlen(o.err) - 1,
	       "o.err is '%s'", o.err);
	EXPECT_CONTAINS(o.json, "\"return_code\": 5");
}

/* A healthy machine: the evidence is in the result, and says so. */
TEST_TIMEOUT(the_machine_is_measured, 30)
{
	struct outcome o;

	need_rt();
	invoke(&stand_in_ops, &o, "-q");
	EXPECT_EQ(o.status, EXIT_RAN);
	EXPECT_CONTAINS(o.json, "\"machine\": {");
	EXPECT_CONTAINS(o.json, "\"starved\": false");
	/* the stand-in does no busy work: no speed to tell */
	EXPECT_CONTAINS(o.json, "\"busy_speed\": null");
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

	invoke(&stand_in_ops, &o, "-t 9");
	EXPECT_EQ(o.status, EXIT_USAGE);
	EXPECT_STR(o.err, "stand-in: invalid --threads '9': expected an integer from 1 to 8\n");
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
