// SPDX-License-Identifier: GPL-2.0-only
/*
 * spin: SCHED_FIFO threads of rising priority, each busy on the CPUs of -c
 * for the whole duration, one more than the CPUs by default. The RT class
 * runs the highest runnable threads: the table shows who had the CPUs (the
 * units of work each did), how often the top threads moved and what the
 * lowest got. The driver (bench.h) does everything else.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/param.h>

#include "bench/bench.h"
#include "lib/clock.h"
#include "lib/cpus.h"
#include "lib/opts.h"
#include "lib/sched.h"

#define UNIT_NS (100 * RT_NSEC_PER_USEC)	/* a unit of busy work, the table's iteration */

struct spin_cfg {
	int nr_threads;			/* -t: thread id at SCHED_FIFO base + id (-b) */
	struct bench_params p;
};

static const struct rt_optspec spec_threads = { "--threads", RT_OPT_INT, 1, 98, 0 };
/* threads from base + 0, the coordinator above them: at least one priority */
static const struct bench_defaults defaults = {
	.duration_ns = 10 * RT_NSEC_PER_SEC, .base_prio = 1, .min_span = 1,
};
static const struct option long_options[] = {
	{ "threads", required_argument, NULL, 't' }, BENCH_LONG_OPTIONS, CLI_LONG_OPTIONS,
	{ NULL, 0, NULL, 0 },
};
static const char short_options[] = ":t:" BENCH_SHORT_OPTIONS CLI_SHORT_OPTIONS;

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

	bench_params_init(&cfg->p, &defaults, usage);
	while ((c = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
		if (c == 't')
			cfg->nr_threads = (int)cli_opt(&spec_threads, optarg);
		else if (!bench_params_option(&cfg->p, c, optarg))
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
	bench_params_threads(&cfg->p, (size_t)cfg->nr_threads, cfg->nr_threads);
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

/* A thread, and the calibrated unit it busies itself with. */
struct spin_thread {
	struct bench_thread bt;
	const struct rt_work *work;
};

static int body(struct bench_thread *bt)
{
	struct spin_thread *t = container_of(bt, struct spin_thread, bt);

	while (!bench_thread_stopping(bt)) {
		bench_thread_busy(bt, t->work, 1);
		bench_thread_count(bt);
	}
	return 0;
}

static struct bench_thread *nth(void *ctx, size_t i)
{
	return &((struct spin_thread *)ctx)[i].bt;
}

/* A run's threads (its state, kept while they run). */
static int prepare(const struct bench *b, struct bench_run *r, struct bench_threads *set)
{
	const struct spin_cfg *cfg = b->cfg;
	struct spin_thread *threads = calloc((size_t)cfg->nr_threads, sizeof(*threads));
	int i;

	if (!threads)
		return -ENOMEM;
	for (i = 0; i < cfg->nr_threads; i++)
		threads[i] = (struct spin_thread){
			.bt = { .prio = cfg->p.base_prio + i, .cpu = -1, .body = body },
			.work = &b->work,
		};
	r->state = threads;
	*set = (struct bench_threads){ .nth = nth, .ctx = threads, .duration_ns = cfg->p.duration_ns,
				       .limit_ns = cfg->p.duration_ns + BENCH_LIMIT_GRACE_NS,
				       .signal_grace_ns = BENCH_SIGNAL_GRACE_NS,
				       .watch = BENCH_WATCH_THREAD,
				       .stall_ns = BENCH_STALL_NS };
	return 0;
}

static void release(const struct bench *b, struct bench_run *r)
{
	(void)b;
	free(r->state);
	r->state = NULL;
}

static void json_config(struct rt_json *j, const struct bench *b)
{
	const struct spin_cfg *cfg = b->cfg;

	rt_json_int(j, "threads", cfg->nr_threads);
	rt_json_int(j, "unit_ns", UNIT_NS);
}

static const struct bench_ops spin_ops = {
	.name = "spin", .stuck_exit = EXIT_SYSCALL, .parse = parse, .header = header,
	.prepare = prepare, .release = release,
	.json_config = json_config, .json_head = bench_json_migrations_source,
	.json_run_head = bench_json_measured,
};

int main(int argc, char **argv)
{
	static struct spin_cfg cfg = { .p = { .coordinator_cpu = -1, .unit_ns = UNIT_NS,
					      .trace_buffer_kb = 4096, .trace_run_kb = 4096 } };

	bench_main(&spin_ops, &cfg, argc, argv);
}
