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

#include "bench/bench.h"
#include "cli/cli.h"
#include "migrate/migrate.h"
#include "lib/clock.h"
#include "lib/cpus.h"
#include "lib/opts.h"
#include "lib/sched.h"
#include "lib/report.h"

#define DEFAULT_LOOPS 50

static const struct rt_optspec spec_threads = { "--threads", RT_OPT_INT, 1, RT_PRIO_MAX - 1, 0 };
static const struct rt_optspec spec_locks = { "--locks", RT_OPT_INT, 1, 1024, 0 };
static const struct rt_optspec spec_loops = { "--loops", RT_OPT_INT, 1, 100000000, 0 };
static const struct rt_optspec spec_unit = { "--unit", RT_OPT_DURATION, 10 * RT_NSEC_PER_USEC,
					     RT_NSEC_PER_SEC, RT_NSEC_PER_MSEC };

static const struct option long_options[] = {
	{ "mode", required_argument, NULL, 'm' },
	{ "threads", required_argument, NULL, 't' },
	{ "locks", required_argument, NULL, 'l' },
	{ "pi", no_argument, NULL, 'p' },
	{ "loops", required_argument, NULL, 'L' },
	{ "unit", required_argument, NULL, 'u' },
	BENCH_LONG_OPTIONS,
	CLI_LONG_OPTIONS,
	{ NULL, 0, NULL, 0 },
};
/* leading ':' so that a missing argument is told apart from an unknown option */
static const char short_options[] = ":m:t:l:pL:u:" BENCH_SHORT_OPTIONS CLI_SHORT_OPTIONS;

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
		"  -c, --cpus LIST        run on these CPUs, e.g. 0-3,6 (default: all usable,\n"
		"                         or the whole nodes, caches or cores of them that\n"
		"                         the mode's shape fits)\n"
		"  -q, --quiet            print the table only\n"
		CLI_USAGE_COMMON
		"\n"
		"TIME takes a unit: us, ms, s, m or h. Exit status: 0 ran, 2 bad usage,\n"
		"3 a system call failed, 4 a requirement is missing (RT privilege), 5 no\n"
		"result: no thread completed a pass, or the machine starved a stuck run.\n"
		"See migrate(8).\n");
}

static const struct mig_mode *parse_mode(const char *arg)
{
	const struct mig_mode *m = mig_mode_named(arg);

	if (!m)
		cli_die(EXIT_USAGE, "invalid --mode '%s': expected lockstep, paired or contention",
			arg);
	return m;
}

static const struct bench_params *parse_options(void *config, int argc, char **argv)
{
	struct mig_cfg *cfg = config;
	char err[512];
	int c;

	bench_params_init(&cfg->p, &mig_defaults, usage);
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
		case 'L':
			cfg->loops = cli_opt(&spec_loops, optarg);
			cfg->set_loops = true;
			break;
		case 'u':
			cfg->unit_ns = cli_opt(&spec_unit, optarg);
			break;
		default:
			if (!bench_params_option(&cfg->p, c, optarg))
				cli_common_option(&cfg->p.common, c, optarg, argv, short_options);
		}
	}
	cfg->p.cpus = cli_common_done(&cfg->p.common, argc, argv);
	/* without -c or -t, the mode's shape on as many CPUs as it fits */
	if (!cfg->set_threads) {
		int fit = cfg->mode->fit_cpus(cfg, err, sizeof(err));

		cfg->p.cpus = cli_fit_cpus(&cfg->p.common, cfg->p.cpus, fit, err);
	}
	if (mig_configure(cfg, rt_cpus_count(cfg->p.cpus), err, sizeof(err)))
		cli_die(EXIT_USAGE, "%s", err);
	/* the benchmark threads at base + id, the coordinator above them */
	bench_params_threads(&cfg->p, (size_t)cfg->nr_threads, cfg->nr_threads);
	cfg->p.coordinator_cpu = -1;
	cfg->p.unit_ns = cfg->unit_ns;
	cfg->p.trace_buffer_kb = mig_trace_buffer_kb(cfg);
	cfg->p.trace_run_kb = mig_trace_run_kb(cfg);
	return &cfg->p;
}

static void header(const struct bench *b)
{
	const struct mig_cfg *cfg = b->cfg;
	char cpus[256], unit[32], dur[32];

	rt_cpus_format(cfg->p.cpus, cpus, sizeof(cpus));
	rt_format_duration(unit, sizeof(unit), cfg->unit_ns);
	printf("migrate %s: mode %s, %d threads (SCHED_FIFO %d-%d), %d locks (%s), CPUs %s\n",
	       RT_VERSION, cfg->mode->name, cfg->nr_threads, cfg->p.base_prio,
	       cfg->p.base_prio + cfg->nr_threads - 1, cfg->nr_locks, cfg->pi ? "PI" : "no PI",
	       cpus);
	printf("%s\n", cfg->mode->summary);
	if (cfg->mode->timed) {
		rt_format_duration(dur, sizeof(dur), cfg->p.duration_ns);
		printf("unit %s of CPU time (about %llu busy loops), duration %s\n", unit,
		       (unsigned long long)b->work.loops_per_unit, dur);
	} else {
		printf("unit %s of CPU time (about %llu busy loops), %lld loops\n", unit,
		       (unsigned long long)b->work.loops_per_unit, (long long)cfg->loops);
	}
}

/* migrate's own settings in "config" */
static void json_config(struct rt_json *j, const struct bench *b)
{
	const struct mig_cfg *cfg = b->cfg;

	rt_json_str(j, "mode", cfg->mode->name);
	rt_json_int(j, "threads", cfg->nr_threads);
	rt_json_int(j, "locks", cfg->nr_locks);
	rt_json_bool(j, "pi", cfg->pi);
	rt_json_int_or_null(j, "loops", cfg->loops, !cfg->mode->timed);
	rt_json_int(j, "unit_ns", cfg->unit_ns);
	rt_json_uint(j, "unit_loops", b->work.loops_per_unit);
}

static const struct bench_ops migrate_ops = {
	.name = "migrate",
	.stuck_exit = EXIT_SYSCALL,
	.parse = parse_options,
	.header = header,
	.prepare = mig_prepare,
	.release = mig_release,
	.json_config = json_config,
	.json_head = bench_json_migrations_source,
	.json_run_head = bench_json_measured,
};

int main(int argc, char **argv)
{
	static struct mig_cfg cfg = {
		.mode = &mig_contention,
		.loops = DEFAULT_LOOPS,
		.unit_ns = RT_NSEC_PER_MSEC,
	};

	bench_main(&migrate_ops, &cfg, argc, argv);
}
