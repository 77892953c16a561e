// SPDX-License-Identifier: GPL-2.0-only
/*
 * pi_stress: drive groups of three SCHED_FIFO threads through priority
 * inversion over and over; with priority inheritance the high thread always
 * gets the mutex, and how long it waits is measured. A watchdog fails a group
 * that stops making progress, which is what a run without inheritance does.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "cli/cli.h"
#include "pi_stress/pi_stress.h"
#include "bench/result.h"
#include "lib/clock.h"
#include "lib/sched.h"
#include "lib/stats.h"


enum { OPT_NO_PI = 256, OPT_HOLD, OPT_WAIT_BOUND, OPT_SPREAD };

static const struct rt_optspec spec_groups = { "--groups", RT_OPT_INT, 1, 1024, 0 };
static const struct rt_optspec spec_inversions = { "--inversions", RT_OPT_INT, 1, 1000000000000LL,
						   0 };
static const struct rt_optspec spec_watchdog = { "--watchdog", RT_OPT_DURATION,
						 10 * RT_NSEC_PER_MSEC, 3600 * RT_NSEC_PER_SEC,
						 RT_NSEC_PER_SEC };
static const struct rt_optspec spec_hold = { "--hold", RT_OPT_DURATION, 0, 100 * RT_NSEC_PER_MSEC,
					     RT_NSEC_PER_USEC };
static const struct rt_optspec spec_bound = { "--wait-bound", RT_OPT_DURATION,
					      10 * RT_NSEC_PER_USEC, 3600 * RT_NSEC_PER_SEC,
					      RT_NSEC_PER_MSEC };

static const struct option long_options[] = {
	{ "groups", required_argument, NULL, 'g' },
	{ "inversions", required_argument, NULL, 'i' },
	{ "uniprocessor", no_argument, NULL, 'u' },
	{ "spread", no_argument, NULL, OPT_SPREAD },
	{ "no-pi", no_argument, NULL, OPT_NO_PI },
	{ "watchdog", required_argument, NULL, 'w' },
	{ "hold", required_argument, NULL, OPT_HOLD },
	{ "wait-bound", required_argument, NULL, OPT_WAIT_BOUND },
	BENCH_LONG_OPTIONS,
	CLI_LONG_OPTIONS,
	{ NULL, 0, NULL, 0 },
};
static const char short_options[] = ":g:i:uw:" BENCH_SHORT_OPTIONS CLI_SHORT_OPTIONS;

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: pi_stress [OPTION]...\n"
		"Drive groups of low, medium and high priority SCHED_FIFO threads through\n"
		"priority inversion on a PTHREAD_PRIO_INHERIT mutex, and measure it.\n"
		"\n"
		"  -g, --groups N         inversion groups (default: one per CPU but the\n"
		"                         coordinator's; with -u, 1; with --spread, one per\n"
		"                         CPU; at most 64 with -u or --spread)\n"
		"  -i, --inversions N     stop each group after N inversions\n"
		"  -d, --duration TIME    stop after TIME, 10ms-24h (default 10s unless -i;\n"
		"                         a number alone is seconds)\n"
		"  -u, --uniprocessor     every group and the coordinator on one CPU\n"
		"      --spread           no group pinned: every thread may run on every CPU,\n"
		"                         so a boosted lock holder and the thread it blocks\n"
		"                         may be on different CPUs (push and pull place them)\n"
		"      --no-pi            plain mutexes: the control run, which must fail\n"
		"  -w, --watchdog TIME    fail a group without progress for TIME, 10ms-1h\n"
		"                         (default 1s, or twice the --hold of the groups on\n"
		"                         one CPU; a number alone is seconds)\n"
		"      --hold TIME        work low does once boosted, before it unlocks,\n"
		"                         0-100ms (default 0; a number alone is us)\n"
		"      --wait-bound TIME  fail a run whose high thread waited longer, 10us-1h\n"
		"                         (a number alone is ms; without it, waits over\n"
		"                         --hold + 5ms are reported but do not fail the run)\n"
		"  -b, --base-prio N      SCHED_FIFO of low, 1-96 (default 1); medium +1,\n"
		"                         high +2, the coordinator +3\n"
		"  -c, --cpus LIST        use these CPUs, e.g. 0-3 (default: all usable)\n"
		"  -q, --quiet            print the tables only\n"
		CLI_USAGE_COMMON
		"\n"
		"TIME takes a unit: us, ms, s, m or h. Exit status: 0 every group passed,\n"
		"1 inheritance failed (a group stalled, or medium ran while high waited) or\n"
		"a wait passed --wait-bound, 2 bad usage, 3 a system call failed, 4 a\n"
		"requirement is missing (RT privilege), 5 no verdict: the machine starved\n"
		"the run. See pi_stress(8).\n");
}

static const struct bench_params *parse_options(void *config, int argc, char **argv)
{
	struct pis_cfg *cfg = config;
	char err[512];
	int c;

	bench_params_init(&cfg->p, &pis_defaults, usage);
	while ((c = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
		switch (c) {
		case 'g':
			cfg->nr_groups = (int)cli_opt(&spec_groups, optarg);
			cfg->set_groups = true;
			break;
		case 'i':
			cfg->inversions = cli_opt(&spec_inversions, optarg);
			break;
		case 'u':
			cfg->uniprocessor = true;
			break;
		case OPT_SPREAD:
			cfg->spread = true;
			break;
		case OPT_NO_PI:
			cfg->pi = false;
			break;
		case 'w':
			cfg->watchdog_ns = cli_opt(&spec_watchdog, optarg);
			cfg->set_watchdog = true;
			break;
		case OPT_HOLD:
			cfg->hold_ns = cli_opt(&spec_hold, optarg);
			break;
		case OPT_WAIT_BOUND:
			cfg->wait_bound_ns = cli_opt(&spec_bound, optarg);
			cfg->enforce_bound = true;
			break;
		default:
			if (!bench_params_option(&cfg->p, c, optarg))
				cli_common_option(&cfg->p.common, c, optarg, argv, short_options);
		}
	}
	cfg->p.cpus = cli_common_done(&cfg->p.common, argc, argv);
	/* the coordinator on a housekeeping CPU leaves every CPU of the run to the groups */
	cfg->apart = cfg->p.common.housekeeping != NULL;
	cfg->p.coordinator_cpu = rt_cpus_nth(cfg->apart ? cfg->p.common.housekeeping : cfg->p.cpus,
					     0);
	if (pis_configure(cfg, err, sizeof(err)))
		cli_die(EXIT_USAGE, "%s", err);
	/* low at base, medium +1, high +2, the coordinator +3 on the first CPU */
	bench_params_threads(&cfg->p, (size_t)cfg->nr_groups * PIS_ROLES, PIS_ROLES);
	cfg->p.own_size = (size_t)cfg->nr_groups * sizeof(struct pis_result);
	cfg->p.unit_ns = cfg->hold_ns ? cfg->hold_ns : RT_NSEC_PER_USEC;
	cfg->p.trace_buffer_kb = pis_trace_buffer_kb(cfg);
	cfg->p.trace_run_kb = pis_trace_run_kb(cfg);
	return &cfg->p;
}

static void header(const struct bench *b)
{
	const struct pis_cfg *cfg = b->cfg;
	char wd[32], dur[32], hold[32], bound[32];
	int g;

	rt_format_duration(wd, sizeof(wd), cfg->watchdog_ns);
	rt_format_duration(hold, sizeof(hold), cfg->hold_ns);
	rt_format_duration(bound, sizeof(bound), cfg->wait_bound_ns);
	printf("pi_stress %s: %d group%s, %s mutexes, ", RT_VERSION, cfg->nr_groups,
	       cfg->nr_groups == 1 ? "" : "s", cfg->pi ? "PI" : "plain (--no-pi control)");
	if (cfg->p.duration_ns) {
		rt_format_duration(dur, sizeof(dur), cfg->p.duration_ns);
		printf("duration %s", dur);
	}
	if (cfg->inversions)
		printf("%s%lld inversions per group", cfg->p.duration_ns ? ", " : "",
		       (long long)cfg->inversions);
	printf(", watchdog %s", wd);
	if (cfg->watchdog_grown)
		printf(" (twice the %d holds of %s that can queue on one CPU)", cfg->queued_holds,
		       hold);
	printf("\n");
	printf("SCHED_FIFO low %d, medium %d, high %d, coordinator %d on CPU %d%s; ",
	       cfg->p.base_prio, cfg->p.base_prio + 1, cfg->p.base_prio + 2, cfg->p.base_prio + 3,
	       b->params->coordinator_cpu, cfg->uniprocessor ? " (-u)" : "");
	if (cfg->spread) {
		char list[256];

		rt_cpus_format(cfg->p.cpus, list, sizeof(list));
		printf("groups spread over CPUs %s (--spread)", list);
	} else {
		printf("groups on CPU");
		for (g = 0; g < cfg->nr_groups; g++)
			printf("%s%d", g ? "," : " ", pis_group_cpu(cfg, g));
	}
	printf("\nlow holds %s once boosted; high waits over %s are %s\n", hold, bound,
	       cfg->enforce_bound ? "failures" : "reported");
}

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

static double rate(const struct pis_result *g)
{
	return g->seconds > 0 ? (double)g->inversions / g->seconds : 0.0;
}

/*
 * The verdict lines of one run; false when a group failed. On a @starved
 * machine a failure is no verdict: said so, without blaming inheritance.
 */
static bool verdicts(const struct pis_cfg *cfg, const struct pis_result *res, const char *run,
		     const char *limits, bool starved)
{
	const char *fail = starved ? "no verdict:" : "FAIL";
	char wd[32], bound[32], at[32];
	bool pass = true;
	int g;

	rt_format_duration(wd, sizeof(wd), cfg->watchdog_ns);
	rt_format_duration(bound, sizeof(bound), cfg->wait_bound_ns);
	for (g = 0; g < cfg->nr_groups; g++) {
		const struct pis_result *r = &res[g];
		const char *place = pis_place(r->cpu, at, sizeof(at));
		/* spread, medium spins on another CPU while high waits: the stop ends it */
		bool unresolved = r->unresolved && !cfg->spread;

		if (r->stalled && r->withheld >= 0) {
			printf("%s %sgroup %d%s: no progress for %s, with no inversion pending: "
			       "its CPU did not run its %s thread\n", fail, run, g, place, wd,
			       pis_role_name[r->withheld]);
			pass = false;
		} else if (r->stalled) {
			printf("%s %sgroup %d%s: no progress for %s: the high thread never "
			       "got the mutex%s\n", fail, run, g, place, wd,
			       starved ? "" : ", priority inversion was not resolved");
			pass = false;
		} else if (unresolved) {
			printf("%s %sgroup %d%s: an inversion was still unresolved when the "
			       "run ended\n",
			       fail, run, g, place);
			pass = false;
		} else if (r->medium_ran && !cfg->spread) {
			/* spread, medium may run on another CPU meanwhile: no evidence */
			printf("%s %sgroup %d%s: in %llu inversions the medium thread ran "
			       "while high waited: low was not raised above it\n",
			       fail, run, g, place, (unsigned long long)r->medium_ran);
			pass = false;
		}
		if (r->wait.count && r->wait.max > (uint64_t)cfg->wait_bound_ns && !r->stalled &&
		    !unresolved) {
			char why[256];

			if (cfg->spread)
				snprintf(why, sizeof(why),
					 "with --spread the group's threads compete with the other "
					 "groups' for the CPUs (%sinterrupts, a higher priority task)",
					 limits);
			else if (r->medium_ran)
				snprintf(why, sizeof(why), "medium ran meanwhile");
			else
				snprintf(why, sizeof(why),
					 "medium never ran meanwhile, so this was no inversion: the "
					 "CPU was taken from the group (%sinterrupts, a higher "
					 "priority task)",
					 limits);
			printf("%s %sgroup %d%s: the high thread waited up to %.1f us, more "
			       "than %s%s; %s\n",
			       cfg->enforce_bound ? fail : "note:", run, g, place, us(r->wait.max),
			       cfg->enforce_bound ? "--wait-bound " : "", bound, why);
			if (cfg->enforce_bound)
				pass = false;
		}
		if (r->uncontended)
			printf("note: %sgroup %d: %llu passes in which high found the mutex free "
			       "(not inversions)\n",
			       run, g, (unsigned long long)r->uncontended);
	}
	return pass;
}

/* Group @g's result in run @r. */
static const struct pis_result *result(const struct bench *b, int r, int g)
{
	return &((const struct pis_result *)b->runs[r].own)[g];
}

/* Tables, group figures and verdicts of every run; false when any failed. */
static bool report(struct bench *b)
{
	const struct pis_cfg *cfg = b->cfg;
	double *v = calloc((size_t)b->done, sizeof(*v));
	double total = 0, secs = 0;
	bool pass = true, have_sched = true;
	char run[32] = "";
	struct rt_stats st;
	int g, r;

	if (!v)
		cli_die(EXIT_SYSCALL, "out of memory");
	bench_print_table(b, "Task 3g is group g's low thread, 3g+1 its medium, 3g+2 its high");
	for (r = 0; r < b->done; r++)
		have_sched &= b->runs[r].have_migrations;
	if (!have_sched)
		printf("migrated: not counted, this kernel has no /proc/self/task/TID/sched%s\n",
		       cfg->spread ? "" : " (the threads are pinned)");

	printf("\nGroup  CPU   inversions    per second   high waited: median       p99       max\n");
	for (g = 0; g < cfg->nr_groups; g++) {
		const struct pis_result *worst = result(b, 0, g);
		uint64_t inv = 0;
		char cpu[16] = "any";

		for (r = 0; r < b->done; r++) {
			const struct pis_result *gr = result(b, r, g);

			v[r] = rate(gr);
			inv += gr->inversions;
			total += (double)gr->inversions;
			worst = gr->wait.max > worst->wait.max ? gr : worst;
		}
		/* the rate of the whole runs: one cut short by a signal is left out */
		rt_stats_of(v, (size_t)b->whole, &st);
		/* over repeats: the mean rate, and the waits of the run with the longest */
		if (result(b, 0, g)->cpu >= 0)
			snprintf(cpu, sizeof(cpu), "%d", result(b, 0, g)->cpu);
		printf("%5d %4s %12llu %13.1f %15.1f us %8.1f us %8.1f us\n", g, cpu,
		       (unsigned long long)inv, st.mean, us(worst->wait.median), us(worst->wait.p99),
		       us(worst->wait.max));
		if (b->whole > 1)
			printf("%18s \u00b1 %11.1f per second over %d runs; waits of the run with the "
			       "longest\n", "", st.sd, b->whole);
	}
	for (r = 0; r < b->done; r++) {
		double longest = 0;

		for (g = 0; g < cfg->nr_groups; g++)
			if (result(b, r, g)->seconds > longest)
				longest = result(b, r, g)->seconds;
		secs += longest;
	}
	printf("\nall groups: %.0f inversions in %.3f s, %.1f per second\n", total, secs,
	       secs > 0 ? total / secs : 0.0);
	for (r = 0; r < b->done; r++) {
		char why[512];

		if (b->done > 1)
			snprintf(run, sizeof(run), "run %d ", r + 1);
		pass &= verdicts(cfg, result(b, r, 0), run, bench_limits_words(&b->sys),
				 bench_machine_starved(&b->runs[r].machine, why, sizeof(why)));
	}
	if (pass)
		printf("PASS: every inversion was resolved by inheritance%s\n",
		       cfg->enforce_bound ? ", within --wait-bound" : "");
	free(v);
	return pass;
}

/* pi_stress's own settings in "config" */
static void json_config(struct rt_json *j, const struct bench *b)
{
	const struct pis_cfg *cfg = b->cfg;

	rt_json_int(j, "groups", cfg->nr_groups);
	rt_json_int(j, "threads", (int64_t)cfg->nr_groups * PIS_ROLES);
	rt_json_bool(j, "pi", cfg->pi);
	rt_json_int_or_null(j, "inversions", cfg->inversions, cfg->inversions != 0);
	rt_json_bool(j, "uniprocessor", cfg->uniprocessor);
	rt_json_bool(j, "spread", cfg->spread);
	rt_json_int(j, "watchdog_ns", cfg->watchdog_ns);
	rt_json_int(j, "hold_ns", cfg->hold_ns);
	rt_json_int(j, "wait_bound_ns", cfg->wait_bound_ns);
	rt_json_bool(j, "wait_bound_enforced", cfg->enforce_bound);
}

/* A run's groups, after its rows and trace. */
static void json_run_tail(struct rt_json *j, const struct bench *b, const struct bench_run *r)
{
	const struct pis_result *res = r->own;
	int g;

	rt_json_array(j, "groups");
	for (g = 0; g < ((const struct pis_cfg *)b->cfg)->nr_groups; g++) {
		const struct pis_result *gr = &res[g];

		rt_json_object(j, NULL);
		rt_json_int(j, "group", g);
		rt_json_int_or_null(j, "cpu", gr->cpu, gr->cpu >= 0);
		rt_json_uint(j, "inversions", gr->inversions);
		rt_json_double(j, "seconds", gr->seconds);
		rt_json_double(j, "per_second", rate(gr));
		rt_json_object(j, "wait_ns");
		rt_hist_json(j, &gr->wait);
		rt_json_end(j);
		rt_json_bool(j, "stalled", gr->stalled);
		rt_json_str(j, "withheld", gr->withheld >= 0 ? pis_role_name[gr->withheld] : NULL);
		rt_json_bool(j, "unresolved", gr->unresolved);
		rt_json_uint(j, "medium_ran", gr->medium_ran);
		rt_json_uint(j, "uncontended", gr->uncontended);
		rt_json_end(j);
	}
	rt_json_end(j);
}

/* Over the whole runs, per group: the rate and the longest wait; then the verdict. */
static void json_tail(struct rt_json *j, const struct bench *b)
{
	const struct pis_cfg *cfg = b->cfg;
	size_t n = (size_t)b->whole;
	double *v = calloc(n, sizeof(*v));
	size_t r;
	int g;

	if (!v)
		cli_die(EXIT_SYSCALL, "out of memory");
	rt_json_array(j, "group_summary");
	for (g = 0; g < cfg->nr_groups; g++) {
		rt_json_object(j, NULL);
		rt_json_int(j, "group", g);
		for (r = 0; r < n; r++)
			v[r] = rate(result(b, (int)r, g));
		bench_json_stats(j, "per_second", v, n);
		for (r = 0; r < n; r++)
			v[r] = (double)result(b, (int)r, g)->wait.max;
		bench_json_stats(j, "wait_max_ns", v, n);
		rt_json_end(j);
	}
	rt_json_end(j);
	rt_json_bool(j, "pass", b->passed);
	free(v);
}

static const struct bench_ops pi_stress_ops = {
	.name = "pi_stress",
	.stuck_exit = EXIT_CHECK,
	.parse = parse_options,
	.header = header,
	.prepare = pis_prepare,
	.collect = pis_collect,
	.release = pis_release,
	.report = report,
	.json_config = json_config,
	.json_run_tail = json_run_tail,
	.json_tail = json_tail,
};

int main(int argc, char **argv)
{
	static struct pis_cfg cfg = {
		.pi = true,
		.watchdog_ns = RT_NSEC_PER_SEC,
		.wait_bound_ns = PIS_DEFAULT_REPORT_NS,
	};

	bench_main(&pi_stress_ops, &cfg, argc, argv);
}
