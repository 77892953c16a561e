// SPDX-License-Identifier: GPL-2.0-only
/*
 * migrate: SCHED_FIFO threads of rising priority contend on mutexes; per
 * thread, count voluntary and involuntary context switches, migrations and
 * iterations. The experiment behind kernel commit 43fa5460fe60 ("sched: Try
 * not to migrate higher priority RT tasks").
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "migrate.h"
#include "results.h"
#include "tracing.h"
#include "run.h"
#include "rt_clock.h"
#include "rt_cpus.h"
#include "rt_opts.h"
#include "rt_report.h"
#include "rt_sched.h"
#include "rt_tracemark.h"

#define PRIO_MAX 99
#define DEFAULT_BASE_PRIO 1
#define DEFAULT_LOOPS 50

static const struct mig_mode *const modes[] = { &mig_lockstep, &mig_paired, &mig_contention };

static const struct rt_optspec spec_threads = { "--threads", RT_OPT_INT, 1, PRIO_MAX - 1, 0 };
static const struct rt_optspec spec_locks = { "--locks", RT_OPT_INT, 1, 1024, 0 };
static const struct rt_optspec spec_loops = { "--loops", RT_OPT_INT, 1, 100000000, 0 };
static const struct rt_optspec spec_base = { "--base-prio", RT_OPT_INT, 1, PRIO_MAX - 1, 0 };
static const struct rt_optspec spec_duration = { "--duration", RT_OPT_DURATION,
						 10 * RT_NSEC_PER_MSEC, 24 * 3600 * RT_NSEC_PER_SEC,
						 RT_NSEC_PER_SEC };
static const struct rt_optspec spec_unit = { "--unit", RT_OPT_DURATION, 10 * RT_NSEC_PER_USEC,
					     RT_NSEC_PER_SEC, RT_NSEC_PER_MSEC };

static const struct option long_options[] = {
	{ "mode", required_argument, NULL, 'm' },
	{ "threads", required_argument, NULL, 't' },
	{ "locks", required_argument, NULL, 'l' },
	{ "pi", no_argument, NULL, 'p' },
	{ "duration", required_argument, NULL, 'd' },
	{ "loops", required_argument, NULL, 'L' },
	{ "unit", required_argument, NULL, 'u' },
	{ "base-prio", required_argument, NULL, 'b' },
	{ "cpus", required_argument, NULL, 'c' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "repeat", required_argument, NULL, 'r' },
	CLI_LONG_OPTIONS,
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};
/* leading ':' so that a missing argument is told apart from an unknown option */
static const char short_options[] = ":m:t:l:pd:L:u:b:c:qr:hV";

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: migrate [OPTION]...\n"
		"SCHED_FIFO threads of rising priority contend on mutexes; print per thread\n"
		"the voluntary and involuntary context switches, migrations and iterations.\n"
		"\n"
		"  -m, --mode MODE        lockstep, paired or contention (default)\n"
		"  -t, --threads N        benchmark threads, 1-98 (lockstep: CPUs + 1,\n"
		"                         paired: locks + 1, contention: 2 x CPUs)\n"
		"  -l, --locks N          mutexes, 1-1024 (default: one per CPU)\n"
		"  -p, --pi               priority-inheritance mutexes (PTHREAD_PRIO_INHERIT)\n"
		"  -d, --duration TIME    contention: how long to run, 10ms-24h (default 10s;\n"
		"                         a number alone is seconds)\n"
		"  -L, --loops N          lockstep, paired: passes per thread, 1-100000000\n"
		"                         (default 50)\n"
		"  -u, --unit TIME        the unit of busy work and sleep, 10us-1s (default\n"
		"                         1ms; a number alone is milliseconds)\n"
		"  -b, --base-prio N      thread id runs at SCHED_FIFO N + id, 1-98 (default 1);\n"
		"                         N + threads (the coordinating thread) must be <= 99\n"
		"  -c, --cpus LIST        run on these CPUs, e.g. 0-3,6 (default: all usable)\n"
		"  -q, --quiet            print the table only\n"
		CLI_USAGE_COMMON
		"  -h, --help             show this help and exit\n"
		"  -V, --version          show the version and exit\n"
		"\n"
		"TIME takes a unit: us, ms, s, m or h. Exit status: 0 ran, 2 bad usage,\n"
		"3 a system call failed, 4 a requirement is missing (RT privilege).\n"
		"See migrate(8).\n");
}

static const struct mig_mode *parse_mode(const char *arg)
{
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (!strcmp(arg, modes[i]->name))
			return modes[i];
	}
	cli_die(EXIT_USAGE, "invalid --mode '%s': expected lockstep, paired or contention", arg);
}

static void parse_options(int argc, char **argv, struct mig_cfg *cfg)
{
	char err[RT_OPT_ERRLEN];
	int c;

	cli_common_init(&cfg->common, usage);
	opterr = 0;
	while ((c = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
		switch (c) {
		case 'm':
			cfg->mode = parse_mode(optarg);
			break;
		case 't':
			cfg->nr_threads = (int)cli_opt(&spec_threads, optarg);
			cfg->set_threads = true;
			break;
		case 'l':
			cfg->nr_locks = (int)cli_opt(&spec_locks, optarg);
			cfg->set_locks = true;
			break;
		case 'p':
			cfg->pi = true;
			break;
		case 'd':
			cfg->duration_ns = cli_opt(&spec_duration, optarg);
			cfg->set_duration = true;
			break;
		case 'L':
			cfg->loops = cli_opt(&spec_loops, optarg);
			cfg->set_loops = true;
			break;
		case 'u':
			cfg->unit_ns = cli_opt(&spec_unit, optarg);
			break;
		case 'b':
			cfg->base_prio = (int)cli_opt(&spec_base, optarg);
			break;
		default:
			cli_common_option(&cfg->common, c, optarg, argv, short_options);
		}
	}
	cfg->cpus = cli_common_done(&cfg->common, argc, argv);
	if (cfg->mode->configure(cfg, rt_cpus_count(cfg->cpus), err, sizeof(err)))
		cli_die(EXIT_USAGE, "%s", err);
	/* thread id runs at base + id; the coordinating thread at base + nr_threads */
	if (cfg->base_prio + cfg->nr_threads > PRIO_MAX)
		cli_die(EXIT_USAGE,
		    "%d threads at --base-prio %d need SCHED_FIFO priorities %d-%d, past %d: "
		    "accepted: --threads up to %d at this base, or --base-prio up to %d",
		    cfg->nr_threads, cfg->base_prio, cfg->base_prio,
		    cfg->base_prio + cfg->nr_threads, PRIO_MAX, PRIO_MAX - cfg->base_prio,
		    PRIO_MAX - cfg->nr_threads);
	if (cfg->mode->worst_case_ns(cfg) > MIG_WORST_CASE_MAX) {
		char unit[32];

		rt_format_duration(unit, sizeof(unit), cfg->unit_ns);
		cli_die(EXIT_USAGE,
			"--loops %lld with --locks %d, --threads %d and --unit %s: a run of --mode "
			"%s could take longer than %lld years, which no deadline holds; accepted: "
			"fewer --loops or a shorter --unit",
			(long long)cfg->loops, cfg->nr_locks, cfg->nr_threads, unit, cfg->mode->name,
			(long long)(MIG_WORST_CASE_MAX / RT_NSEC_PER_SEC / (365LL * 24 * 3600)));
	}
}

static void print_notes(const struct bitmask *cpus, const struct rt_work *work)
{
	char notes[CLI_NOTES][CLI_NOTE_LEN];
	int i, n = cli_env_notes(cpus, work, notes);

	for (i = 0; i < n; i++)
		printf("note: %s\n", notes[i]);
}

static void print_header(const struct mig_cfg *cfg, const struct rt_work *work)
{
	char cpus[256], unit[32], dur[32];

	rt_cpus_format(cfg->cpus, cpus, sizeof(cpus));
	rt_format_duration(unit, sizeof(unit), cfg->unit_ns);
	printf("migrate %s: mode %s, %d threads (SCHED_FIFO %d-%d), %d locks (%s), CPUs %s\n",
	       RT_VERSION, cfg->mode->name, cfg->nr_threads, cfg->base_prio,
	       cfg->base_prio + cfg->nr_threads - 1, cfg->nr_locks, cfg->pi ? "PI" : "no PI",
	       cpus);
	printf("%s\n", cfg->mode->summary);
	if (cfg->duration_ns) {
		rt_format_duration(dur, sizeof(dur), cfg->duration_ns);
		printf("unit %s of CPU time (about %llu busy loops), duration %s\n", unit,
		       (unsigned long long)work->loops_per_unit, dur);
	} else {
		printf("unit %s of CPU time (about %llu busy loops), %lld loops\n", unit,
		       (unsigned long long)work->loops_per_unit, (long long)cfg->loops);
	}
	cli_print_kernel(stdout);
	print_notes(cfg->cpus, work);
	printf("\n");
	fflush(stdout);
}

/* What an interrupted run covers, said under its table. */
static void print_partial(const struct mig_outcome *last, int runs, int complete)
{
	if (!last->interrupted)
		return;
	if (complete < runs)
		printf("\nPARTIAL: %s stopped run %d after %.3f s; the figures are those of the "
		       "%d whole run%s before it (run %d is in the result file, marked partial)\n",
		       cli_signal_name(last->interrupted), runs,
		       (double)(last->end_ns - last->start_ns) / RT_NSEC_PER_SEC, complete,
		       complete == 1 ? "" : "s", runs);
	else
		printf("\nPARTIAL: %s stopped run %d after %.3f s; the counts cover it up to "
		       "then\n",
		       cli_signal_name(last->interrupted), runs,
		       (double)(last->end_ns - last->start_ns) / RT_NSEC_PER_SEC);
	if (last->unfinished)
		printf("PARTIAL: %d threads did not stop in time: the main thread read their "
		       "counters\n",
		       last->unfinished);
}

static void print_results(const struct mig_cfg *cfg, const struct rt_row *rows,
			  const struct rt_summary *sum, const struct mig_outcome *outs)
{
	int64_t shortest = INT64_MAX, longest = 0, d;
	size_t n = (size_t)cfg->nr_threads;
	int r;

	if (cfg->common.complete == 1) {
		cli_print_table(rows, n, NULL);
	} else if (rt_report_table_stats(stdout, sum)) {
		cli_die(EXIT_SYSCALL, "formatting the table: %s", strerror(errno));
	}
	if (!outs[0].migrations_from_proc)
		printf("\nmigrated: sched_getcpu() changes seen by each thread (a lower bound): "
		       "this kernel has no /proc/self/task/TID/sched\n");
	print_partial(&outs[cfg->common.repeat - 1], cfg->common.repeat, cfg->common.complete);
	if (!cfg->common.quiet) {
		for (r = 0; r < cfg->common.repeat; r++) {
			d = outs[r].end_ns - outs[r].start_ns;
			shortest = d < shortest ? d : shortest;
			longest = d > longest ? d : longest;
		}
		if (cfg->common.repeat == 1)
			printf("\nmeasured %.3f s", (double)longest / RT_NSEC_PER_SEC);
		else
			printf("\n%d runs, each measured %.3f-%.3f s", cfg->common.repeat,
			       (double)shortest / RT_NSEC_PER_SEC, (double)longest / RT_NSEC_PER_SEC);
		if (cfg->duration_ns) {
			char asked[32];

			rt_format_duration(asked, sizeof(asked), cfg->duration_ns);
			printf(" (duration %s)", asked);
		}
		printf(", start-up %.1f ms\n", (double)outs[0].startup_ns / RT_NSEC_PER_MSEC);
	}
	/* a failed write to stdout is said at the exit, once the files are written (cli_exit) */
	fflush(stdout);
}

struct config_ctx {
	const struct mig_cfg *cfg;
	const struct rt_work *work;
};

/* migrate's own settings in "config" */
static void config_fields(struct rt_json *j, const void *arg)
{
	const struct config_ctx *c = arg;
	const struct mig_cfg *cfg = c->cfg;

	rt_json_str(j, "mode", cfg->mode->name);
	rt_json_int(j, "threads", cfg->nr_threads);
	rt_json_int(j, "locks", cfg->nr_locks);
	rt_json_bool(j, "pi", cfg->pi);
	rt_json_int_or_null(j, "duration_ns", cfg->duration_ns, cfg->duration_ns != 0);
	rt_json_int_or_null(j, "loops", cfg->loops, cfg->duration_ns == 0);
	rt_json_int(j, "unit_ns", cfg->unit_ns);
	rt_json_uint(j, "unit_loops", c->work->loops_per_unit);
}

static void write_json(struct cli_result *res, const struct mig_cfg *cfg, int argc, char **argv,
		       const struct rt_row *rows, const struct rt_summary *sum,
		       const struct mig_outcome *outs,
		       const struct rt_work *work, const struct cli_trace_run *traces)
{
	struct rt_json *j = cli_result_begin(res, "migrate", argc, argv, cfg->cpus, work);
	size_t n = (size_t)cfg->nr_threads;
	int r;

	if (!j)
		return;
	cli_result_config(j, config_fields, &(struct config_ctx){ cfg, work }, &cfg->common,
			  cfg->base_prio, cfg->cpus);
	rt_json_str(j, "migrations_source",
		    outs[0].migrations_from_proc ? "se.nr_migrations" : "sched_getcpu");
	rt_json_array(j, "runs");
	for (r = 0; r < cfg->common.repeat; r++) {
		rt_json_object(j, NULL);
		rt_json_double(j, "measured_s",
			       (double)(outs[r].end_ns - outs[r].start_ns) / RT_NSEC_PER_SEC);
		rt_json_double(j, "startup_ms", (double)outs[r].startup_ns / RT_NSEC_PER_MSEC);
		cli_json_rows(j, &rows[(size_t)r * n], n);
		if (traces)
			cli_trace_json(j, &traces[r]);
		if (r >= cfg->common.complete)
			rt_json_bool(j, "partial", true);
		rt_json_end(j);
	}
	rt_json_end(j);
	cli_json_summary(j, sum);
	rt_json_bool(j, "partial", outs[cfg->common.repeat - 1].interrupted != 0);
	cli_result_commit(res, outs[cfg->common.repeat - 1].interrupted ?
				       128 + outs[cfg->common.repeat - 1].interrupted :
				       EXIT_RAN);
}

/*
 * Without --trace-buffer: room for the events of the run, about 200 KiB a
 * second per thread spread over the CPUs (measured: some 3000 events a
 * second per thread of the contention test), 8 MiB for runs of loops.
 */
static int64_t trace_buffer_kb(const struct mig_cfg *cfg)
{
	int64_t kb;

	if (cfg->common.trace_buffer_kb)
		return cfg->common.trace_buffer_kb;
	if (!cfg->duration_ns)
		return 8192;
	kb = 4096 + cfg->nr_threads * (cfg->duration_ns / RT_NSEC_PER_SEC + 1) * 200 /
			    rt_cpus_count(cfg->cpus);
	return kb > 1024 * 1024 ? 1024 * 1024 : kb;
}

int main(int argc, char **argv)
{
	int64_t main_start = rt_now_ns(CLOCK_MONOTONIC);
	struct mig_cfg cfg = {
		.mode = &mig_contention,
		.loops = DEFAULT_LOOPS,
		.unit_ns = RT_NSEC_PER_MSEC,
		.base_prio = DEFAULT_BASE_PRIO,
	};
	struct mig_run run = { .cfg = &cfg, .proc_root = "/proc" };
	struct cli_trace_run *traces = NULL;
	struct cli_result res = { 0 };
	static struct rt_tracer tracer;	/* closed at exit, after main returns */
	struct mig_outcome *outs;
	struct rt_summary sum;
	char err[512];
	struct rt_row *rows;
	int main_prio, ret, r;

	cli_init("migrate");
	parse_options(argc, argv, &cfg);
	cli_signals_install();
	cli_env_check();
	/* instances of runs killed by SIGKILL go now, whether this run traces or not */
	cli_trace_sweep();
	run.stop_req = &cli_stop;
	if (cfg.common.json)
		cli_result_open(&res, cfg.common.json);
	if (cfg.common.trace_out)
		cli_trace_out_open(cfg.common.trace_out);

	main_prio = cfg.base_prio + cfg.nr_threads;
	ret = rt_sched_probe(main_prio);
	if (ret)
		cli_no_rt_privilege(main_prio, ret);

	rows = calloc((size_t)cfg.nr_threads * (size_t)cfg.common.repeat, sizeof(*rows));
	outs = calloc((size_t)cfg.common.repeat, sizeof(*outs));
	if (!rows || !outs)
		cli_die(EXIT_SYSCALL, "out of memory");
	ret = rt_work_calibrate(&run.work, cfg.unit_ns);
	if (ret)
		cli_die(EXIT_SYSCALL, "calibrating the busy loop: %s", strerror(-ret));

	/* Markers are for trace-cmd; without tracefs there is nothing to mark. */
	rt_tracemark_open();
	if (cfg.common.trace) {
		cli_trace_open(&tracer, (size_t)trace_buffer_kb(&cfg), cfg.cpus);
		run.tracer = &tracer;
		traces = calloc((size_t)cfg.common.repeat, sizeof(*traces));
		if (!traces)
			cli_die(EXIT_SYSCALL, "out of memory");
	}

	ret = rt_cpus_set_affinity(cfg.cpus);
	if (ret)
		cli_die(EXIT_SYSCALL, "sched_setaffinity: %s", strerror(-ret));
	ret = rt_sched_set_fifo(pthread_self(), main_prio);
	if (ret == -EPERM)
		cli_no_rt_privilege(main_prio, ret);
	if (ret)
		cli_die(EXIT_SYSCALL, "pthread_setschedparam: %s", strerror(-ret));

	if (!cfg.common.quiet)
		print_header(&cfg, &run.work);

	for (r = 0; r < cfg.common.repeat; r++) {
		struct mig_outcome *out = &outs[r];

		atomic_store(&run.stop, false);
		if (run.tracer)
			out->windows = calloc((size_t)cfg.nr_threads, sizeof(*out->windows));
		ret = mig_execute(&run, &rows[(size_t)r * (size_t)cfg.nr_threads], out, err,
				  sizeof(err));
		if (ret == -EINTR)
			cli_exit_if_asked();	/* a second signal: the engine returned at once */
		if (out->denied)
			cli_no_rt_privilege(main_prio, ret);
		if (ret == -ETIMEDOUT) {
			/* stuck threads still hold the CPUs: say so and leave without waiting */
			fprintf(stderr, "migrate: %s%s\n", cfg.common.repeat > 1 ? "run " : "", err);
			cli_exit_running(EXIT_SYSCALL);
		}
		if (ret)
			cli_die(EXIT_SYSCALL, "%s%s", cfg.common.repeat > 1 ? "run " : "", err);
		if (out->interrupted)
			cfg.common.repeat = r + 1;
		out->startup_ns = out->start_ns - (r ? outs[r - 1].end_ns : main_start);
		if (run.tracer)
			cli_trace_analyse(&tracer, &traces[r], out->windows, (size_t)cfg.nr_threads, r);
		/* an unlocked run is still a run: say what it may have cost */
		if (out->mlock_err && !r)
			cli_warn("memory not locked (mlockall: %s): page faults may add noise; "
				 "raise RLIMIT_MEMLOCK or grant CAP_IPC_LOCK",
				 strerror(out->mlock_err));
	}
	cli_runs_done(&cfg.common, cfg.common.repeat, outs[cfg.common.repeat - 1].interrupted);
	if (rt_summary_of(rows, (size_t)cfg.common.complete, (size_t)cfg.nr_threads, &sum))
		cli_die(EXIT_SYSCALL, "out of memory");
	print_results(&cfg, rows, &sum, outs);
	if (traces)
		cli_trace_print(traces, (size_t)cfg.common.repeat);
	cli_trace_out_close();
	write_json(&res, &cfg, argc, argv, rows, &sum, outs, &run.work, traces);
	rt_summary_free(&sum);
	if (traces) {
		for (r = 0; r < cfg.common.repeat; r++)
			cli_trace_free(&traces[r]);
		free(traces);
		for (r = 0; r < cfg.common.repeat; r++)
			free(outs[r].windows);
	}
	ret = outs[cfg.common.repeat - 1].interrupted;
	/* threads still run: nothing freed or closed under them (their trace_marker) */
	if (ret && outs[cfg.common.repeat - 1].unfinished)
		cli_exit_running(128 + ret);
	rt_tracemark_close();
	if (ret)
		cli_exit(128 + ret);
	numa_free_cpumask(cfg.cpus);
	free(outs);
	free(rows);
	cli_exit(EXIT_RAN);
}
