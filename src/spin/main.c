// SPDX-License-Identifier: GPL-2.0-only
/*
 * spin: SCHED_FIFO threads of rising priority, each busy on the CPUs of -c
 * for the whole duration, one more than the CPUs by default. The RT class
 * runs the highest runnable threads: the table shows who had the CPUs (the
 * units of work each did), how often the top threads moved and what the
 * lowest got. The driver (bench.h) does everything else.
 */
#include <getopt.h>
#include <stdio.h>
#include <sys/param.h>

#include "bench/bench.h"
#include "lib/clock.h"
#include "lib/cpus.h"
#include "lib/opts.h"
#include "lib/sched.h"

#define UNIT_NS (100 * RT_NSEC_PER_USEC)	/* a unit of busy work, the table's iteration */

struct spin_cfg {
	int nr_threads;			/* -t: thread id at SCHED_FIFO base + id (-b) */
	int64_t duration_ns;		/* -d */
	struct bench_params p;
};

static const struct rt_optspec spec_threads = { "--threads", RT_OPT_INT, 1, 98, 0 };
static const struct rt_optspec spec_base = { "--base-prio", RT_OPT_INT, 1, 98, 0 };
static const struct rt_optspec spec_duration = { "--duration", RT_OPT_DURATION, 10000000,
						 24 * 3600 * RT_NSEC_PER_SEC, RT_NSEC_PER_SEC };
static const struct option long_options[] = {
	{ "threads", required_argument, NULL, 't' }, { "duration", required_argument, NULL, 'd' },
	{ "base-prio", required_argument, NULL, 'b' }, CLI_LONG_OPTIONS, { NULL, 0, NULL, 0 },
};
static const char short_options[] = ":t:d:b:" CLI_SHORT_OPTIONS;

static void usage(FILE *out)
{
	fprintf(out, "Usage: spin [OPTION]...\n"
		"SCHED_FIFO threads of rising priority, each busy for the whole duration; print\n"
		"per thread the context switches, migrations and units of work (100us) it did.\n\n"
		"  -t, --threads N        busy threads, 1-98 (default: CPUs + 1)\n"
		"  -d, --duration TIME    how long, 10ms-24h (default 10s; a number alone is s)\n"
		"  -b, --base-prio N      thread id runs at SCHED_FIFO N + id, 1-98 (default 1)\n"
		"  -c, --cpus LIST        run on these CPUs, e.g. 0-3,6 (default: all usable)\n"
		"  -q, --quiet            print the table only\n" CLI_USAGE_COMMON
		"\nExit status: 0 ran, 2 bad usage, 3 a system call failed, 4 a requirement is\n"
		"missing (RT privilege), 5 no result: no thread did a unit of work. See\n"
		"spin(8).\n");
}

static const struct bench_params *parse(void *config, int argc, char **argv)
{
	struct spin_cfg *cfg = config;
	char err[512];
	int c;

	cli_common_init(&cfg->p.common, usage);
	while ((c = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
		if (c == 't')
			cfg->nr_threads = (int)cli_opt(&spec_threads, optarg);
		else if (c == 'd')
			cfg->duration_ns = cli_opt(&spec_duration, optarg);
		else if (c == 'b')
			cfg->p.base_prio = (int)cli_opt(&spec_base, optarg);
		else
			cli_common_option(&cfg->p.common, c, optarg, argv, short_options);
	}
	cfg->p.cpus = cli_common_done(&cfg->p.common, argc, argv);
	if (!cfg->nr_threads) {
		int fit = cli_fit_one_more(cfg->p.base_prio, err, sizeof(err));

		cfg->p.cpus = cli_fit_cpus(&cfg->p.common, cfg->p.cpus, fit, err);
	}
	if (!cfg->nr_threads)	/* CPUs + 1, never more than the priorities above -b hold */
		cfg->nr_threads = MIN(rt_cpus_count(cfg->p.cpus) + 1,
				      RT_PRIO_MAX - cfg->p.base_prio);
	if (cli_thread_prios(cfg->nr_threads, cfg->p.base_prio, err, sizeof(err)))
		cli_die(EXIT_USAGE, "%s", err);
	cfg->p.nr_threads = (size_t)cfg->nr_threads;
	cfg->p.coordinator_prio = cfg->p.base_prio + cfg->nr_threads;
	return &cfg->p;
}

static void header(const struct bench *b)
{
	const struct spin_cfg *cfg = b->cfg;
	char cpus[256];

	rt_cpus_format(cfg->p.cpus, cpus, sizeof(cpus));
	printf("spin %s: %d busy threads (SCHED_FIFO %d-%d) on CPUs %s\n", RT_VERSION,
	       cfg->nr_threads, cfg->p.base_prio, cfg->p.base_prio + cfg->nr_threads - 1, cpus);
}

static struct rt_work work;	/* the calibrated unit, for the threads */
static struct bench_thread threads[98];	/* one run's, kept if it leaves them running */

static int body(struct bench_thread *t)
{
	while (!bench_thread_stopping(t)) {
		bench_thread_busy(t, &work, 1);
		bench_thread_count(t);
	}
	return 0;
}

static int prepare(struct bench *b, struct bench_threads *set)
{
	const struct spin_cfg *cfg = b->cfg;
	int i;

	work = b->work;
	for (i = 0; i < cfg->nr_threads; i++)
		threads[i] = (struct bench_thread){ .prio = cfg->p.base_prio + i, .cpu = -1,
						    .body = body };
	*set = (struct bench_threads){ .threads = threads, .duration_ns = cfg->duration_ns,
				       .limit_ns = cfg->duration_ns + 5 * RT_NSEC_PER_SEC,
				       .signal_grace_ns = RT_NSEC_PER_SEC / 2,
				       .watch = BENCH_WATCH_THREAD,
				       .stall_ns = 5 * RT_NSEC_PER_SEC };
	return 0;
}

static void json_config(struct rt_json *j, const struct bench *b)
{
	const struct spin_cfg *cfg = b->cfg;

	rt_json_int(j, "threads", cfg->nr_threads);
	rt_json_int(j, "duration_ns", cfg->duration_ns);
	rt_json_int(j, "unit_ns", UNIT_NS);
}

static const struct bench_ops spin_ops = {
	.name = "spin", .stuck_exit = EXIT_SYSCALL, .parse = parse, .header = header,
	.prepare = prepare,
	.json_config = json_config, .json_head = bench_json_migrations_source,
	.json_run_head = bench_json_measured,
};

int main(int argc, char **argv)
{
	static struct spin_cfg cfg = { .duration_ns = 10 * RT_NSEC_PER_SEC,
				       .p = { .base_prio = 1, .coordinator_cpu = -1,
					      .unit_ns = UNIT_NS, .trace_buffer_kb = 4096,
					      .trace_run_kb = 4096 } };

	bench_main(&spin_ops, &cfg, argc, argv);
}
