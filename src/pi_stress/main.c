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

#include "cli.h"
#include "pi_stress.h"
#include "rt_clock.h"
#include "results.h"
#include "tracing.h"
#include "rt_report.h"
#include "rt_stats.h"
#include "rt_sched.h"
#include "rt_tracemark.h"

#define PRIO_MAX 99
#define DEFAULT_DURATION_NS (10 * RT_NSEC_PER_SEC)
#define DEFAULT_REPORT_NS (5 * RT_NSEC_PER_MSEC)	/* waits reported, over --hold, without --wait-bound */
#define MAX_SHARED_GROUPS 64	/* with -u: 192 threads on one CPU */

enum { OPT_NO_PI = 256, OPT_HOLD, OPT_WAIT_BOUND };

static const struct rt_optspec spec_groups = { "--groups", RT_OPT_INT, 1, 1024, 0 };
static const struct rt_optspec spec_inversions = { "--inversions", RT_OPT_INT, 1, 1000000000000LL,
						   0 };
static const struct rt_optspec spec_duration = { "--duration", RT_OPT_DURATION,
						 10 * RT_NSEC_PER_MSEC, 24 * 3600 * RT_NSEC_PER_SEC,
						 RT_NSEC_PER_SEC };
static const struct rt_optspec spec_watchdog = { "--watchdog", RT_OPT_DURATION,
						 10 * RT_NSEC_PER_MSEC, 3600 * RT_NSEC_PER_SEC,
						 RT_NSEC_PER_SEC };
static const struct rt_optspec spec_hold = { "--hold", RT_OPT_DURATION, 0, 100 * RT_NSEC_PER_MSEC,
					     RT_NSEC_PER_USEC };
static const struct rt_optspec spec_bound = { "--wait-bound", RT_OPT_DURATION,
					      10 * RT_NSEC_PER_USEC, 3600 * RT_NSEC_PER_SEC,
					      RT_NSEC_PER_MSEC };
static const struct rt_optspec spec_base = { "--base-prio", RT_OPT_INT, 1, PRIO_MAX - 3, 0 };

static const struct option long_options[] = {
	{ "groups", required_argument, NULL, 'g' },
	{ "inversions", required_argument, NULL, 'i' },
	{ "duration", required_argument, NULL, 'd' },
	{ "uniprocessor", no_argument, NULL, 'u' },
	{ "no-pi", no_argument, NULL, OPT_NO_PI },
	{ "watchdog", required_argument, NULL, 'w' },
	{ "hold", required_argument, NULL, OPT_HOLD },
	{ "wait-bound", required_argument, NULL, OPT_WAIT_BOUND },
	{ "base-prio", required_argument, NULL, 'b' },
	{ "cpus", required_argument, NULL, 'c' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "repeat", required_argument, NULL, 'r' },
	CLI_LONG_OPTIONS,
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};
static const char short_options[] = ":g:i:d:uw:b:c:qr:hV";

static const char *const role_name[PIS_ROLES] = { "low", "medium", "high" };

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: pi_stress [OPTION]...\n"
		"Drive groups of low, medium and high priority SCHED_FIFO threads through\n"
		"priority inversion on a PTHREAD_PRIO_INHERIT mutex, and measure it.\n"
		"\n"
		"  -g, --groups N         inversion groups (default: one per CPU but the\n"
		"                         coordinator's; with -u, 1; at most 64 with -u)\n"
		"  -i, --inversions N     stop each group after N inversions\n"
		"  -d, --duration TIME    stop after TIME, 10ms-24h (default 10s unless -i;\n"
		"                         a number alone is seconds)\n"
		"  -u, --uniprocessor     every group and the coordinator on one CPU\n"
		"      --no-pi            plain mutexes: the control run, which must fail\n"
		"  -w, --watchdog TIME    fail a group without progress for TIME, 10ms-1h\n"
		"                         (default 1s; a number alone is seconds)\n"
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
		"  -h, --help             show this help and exit\n"
		"  -V, --version          show the version and exit\n"
		"\n"
		"TIME takes a unit: us, ms, s, m or h. Exit status: 0 every group passed,\n"
		"1 inheritance failed (a group stalled, or medium ran while high waited) or\n"
		"a wait passed --wait-bound, 2 bad usage, 3 a system call failed, 4 a\n"
		"requirement is missing (RT privilege). See pi_stress(8).\n");
}

/* How many groups fit on the CPUs, and the sentence that says why. */
static int group_capacity(const struct pis_cfg *cfg, char *why, size_t len)
{
	int ncpus = rt_cpus_count(cfg->cpus);
	char list[256];

	rt_cpus_format(cfg->cpus, list, sizeof(list));
	if (cfg->uniprocessor) {
		snprintf(why, len, "with -u every group shares one CPU");
		return MAX_SHARED_GROUPS;
	}
	if (ncpus == 1) {
		snprintf(why, len, "one CPU (%s) holds one group; -u puts more on it", list);
		return 1;
	}
	snprintf(why, len,
		 "each group needs a CPU of its own and CPU %d is kept for the coordinator "
		 "(CPUs %s); -u puts every group on one CPU",
		 rt_cpus_nth(cfg->cpus, 0), list);
	return ncpus - 1;
}

static void parse_options(int argc, char **argv, struct pis_cfg *cfg)
{
	bool set_duration = false;
	char why[512];
	int c, cap;

	cli_common_init(&cfg->common, usage);
	opterr = 0;
	while ((c = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
		switch (c) {
		case 'g':
			cfg->nr_groups = (int)cli_opt(&spec_groups, optarg);
			cfg->set_groups = true;
			break;
		case 'i':
			cfg->inversions = cli_opt(&spec_inversions, optarg);
			break;
		case 'd':
			cfg->duration_ns = cli_opt(&spec_duration, optarg);
			set_duration = true;
			break;
		case 'u':
			cfg->uniprocessor = true;
			break;
		case OPT_NO_PI:
			cfg->pi = false;
			break;
		case 'w':
			cfg->watchdog_ns = cli_opt(&spec_watchdog, optarg);
			break;
		case OPT_HOLD:
			cfg->hold_ns = cli_opt(&spec_hold, optarg);
			break;
		case OPT_WAIT_BOUND:
			cfg->wait_bound_ns = cli_opt(&spec_bound, optarg);
			cfg->enforce_bound = true;
			break;
		case 'b':
			cfg->base_prio = (int)cli_opt(&spec_base, optarg);
			break;
		default:
			cli_common_option(&cfg->common, c, optarg, argv, short_options);
		}
	}
	cfg->cpus = cli_common_done(&cfg->common, argc, argv);
	cap = group_capacity(cfg, why, sizeof(why));
	if (!cfg->set_groups)
		cfg->nr_groups = cfg->uniprocessor ? 1 : cap;
	else if (cfg->nr_groups > cap)
		cli_die(EXIT_USAGE, "invalid --groups '%d': %s; accepted: 1 to %d", cfg->nr_groups,
			why, cap);
	if (!set_duration && !cfg->inversions)
		cfg->duration_ns = DEFAULT_DURATION_NS;
	/* without --wait-bound, the waits reported are those 5 ms over low's hold */
	if (!cfg->enforce_bound)
		cfg->wait_bound_ns = cfg->hold_ns + DEFAULT_REPORT_NS;
	if (cfg->hold_ns >= cfg->wait_bound_ns) {
		char hold[32], bound[32];

		rt_format_duration(hold, sizeof(hold), cfg->hold_ns);
		rt_format_duration(bound, sizeof(bound), cfg->wait_bound_ns);
		cli_die(EXIT_USAGE,
			"--hold %s is not below --wait-bound %s: high waits at least for low's "
			"hold, so the bound must be longer",
			hold, bound);
	}
}

static void print_header(const struct pis_cfg *cfg, const struct rt_work *work)
{
	char wd[32], dur[32], hold[32], bound[32], notes[CLI_NOTES][CLI_NOTE_LEN];
	int g, n;

	rt_format_duration(wd, sizeof(wd), cfg->watchdog_ns);
	rt_format_duration(hold, sizeof(hold), cfg->hold_ns);
	rt_format_duration(bound, sizeof(bound), cfg->wait_bound_ns);
	printf("pi_stress %s: %d group%s, %s mutexes, ", RT_VERSION, cfg->nr_groups,
	       cfg->nr_groups == 1 ? "" : "s", cfg->pi ? "PI" : "plain (--no-pi control)");
	if (cfg->duration_ns) {
		rt_format_duration(dur, sizeof(dur), cfg->duration_ns);
		printf("duration %s", dur);
	}
	if (cfg->inversions)
		printf("%s%lld inversions per group", cfg->duration_ns ? ", " : "",
		       (long long)cfg->inversions);
	printf(", watchdog %s\n", wd);
	printf("SCHED_FIFO low %d, medium %d, high %d, coordinator %d on CPU %d%s; groups on CPU",
	       cfg->base_prio, cfg->base_prio + 1, cfg->base_prio + 2, cfg->base_prio + 3,
	       rt_cpus_nth(cfg->cpus, 0), cfg->uniprocessor ? " (-u)" : "");
	for (g = 0; g < cfg->nr_groups; g++)
		printf("%s%d", g ? "," : " ", pis_group_cpu(cfg, g));
	printf("\nlow holds %s once boosted; high waits over %s are %s\n", hold, bound,
	       cfg->enforce_bound ? "failures" : "reported");
	cli_print_kernel(stdout);
	n = cli_env_notes(cfg->cpus, work, notes);
	for (g = 0; g < n; g++)
		printf("note: %s\n", notes[g]);
	printf("\n");
	fflush(stdout);
}

/* What one run left of a group, kept after its threads are gone. */
struct group_result {
	int cpu;
	uint64_t inversions;
	double seconds;		/* the start barrier to the group's last thread's end */
	uint64_t wait_median, wait_p99, wait_max, wait_count;
	bool stalled, unresolved;
	uint64_t medium_ran, uncontended;
};

/*
 * The table rows, group results and (when tracing) the threads' windows of
 * the run just done; false without the sched file.
 */
static bool collect(const struct pis_run *run, struct rt_row *rows, struct group_result *res,
		    struct cli_trace_thread *threads)
{
	const struct pis_cfg *cfg = run->cfg;
	bool have_sched = true;
	int g, r;

	for (g = 0; g < cfg->nr_groups; g++) {
		const struct pis_group *grp = &run->groups[g];
		int64_t end = run->start_ns;

		for (r = 0; r < PIS_ROLES; r++) {
			const struct pis_thread *t = &grp->threads[r];
			struct rt_counters d;

			rt_counters_delta(&t->end, &t->start, &d);
			have_sched &= d.have_migrations;
			rows[g * PIS_ROLES + r] =
				(struct rt_row){ d.vol, d.nonvol, d.migrations, t->iterations };
			if (threads)
				threads[g * PIS_ROLES + r] = (struct cli_trace_thread){
					t->tid, t->win_start, t->win_end, d.migrations
				};
			end = t->end_ns > end ? t->end_ns : end;
		}
		res[g] = (struct group_result){
			.cpu = grp->cpu,
			.inversions = grp->threads[PIS_HIGH].iterations,
			.seconds = (double)(end - run->start_ns) / RT_NSEC_PER_SEC,
			.wait_median = rt_hist_pct(&grp->wait, 50),
			.wait_p99 = rt_hist_pct(&grp->wait, 99),
			.wait_max = grp->wait.count ? grp->wait.max : 0,
			.wait_count = grp->wait.count,
			.stalled = grp->stalled,
			.unresolved = grp->unresolved,
			.medium_ran = grp->medium_ran,
			.uncontended = grp->uncontended,
		};
	}
	return have_sched;
}

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

static double rate(const struct group_result *g)
{
	return g->seconds > 0 ? (double)g->inversions / g->seconds : 0.0;
}

/* The verdict lines of one run; false when a group failed. */
static bool verdicts(const struct pis_cfg *cfg, const struct group_result *res, const char *run)
{
	char wd[32], bound[32];
	bool pass = true;
	int g;

	rt_format_duration(wd, sizeof(wd), cfg->watchdog_ns);
	rt_format_duration(bound, sizeof(bound), cfg->wait_bound_ns);
	for (g = 0; g < cfg->nr_groups; g++) {
		const struct group_result *r = &res[g];

		if (r->stalled) {
			printf("FAIL %sgroup %d (CPU %d): no progress for %s: the high thread never "
			       "got the mutex, priority inversion was not resolved\n",
			       run, g, r->cpu, wd);
			pass = false;
		} else if (r->unresolved) {
			printf("FAIL %sgroup %d (CPU %d): an inversion was still unresolved when the "
			       "run ended\n",
			       run, g, r->cpu);
			pass = false;
		} else if (r->medium_ran) {
			printf("FAIL %sgroup %d (CPU %d): in %llu inversions the medium thread ran "
			       "while high waited: low was not raised above it\n",
			       run, g, r->cpu, (unsigned long long)r->medium_ran);
			pass = false;
		}
		if (r->wait_count && r->wait_max > (uint64_t)cfg->wait_bound_ns && !r->stalled &&
		    !r->unresolved) {
			printf("%s %sgroup %d (CPU %d): the high thread waited up to %.1f us, more "
			       "than %s%s; %s\n",
			       cfg->enforce_bound ? "FAIL" : "note:", run, g, r->cpu, us(r->wait_max),
			       cfg->enforce_bound ? "--wait-bound " : "", bound,
			       r->medium_ran ? "medium ran meanwhile" :
			       "medium never ran meanwhile, so this was no inversion: the CPU was "
			       "taken from the group (RT throttling, interrupts, a higher priority "
			       "task)");
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

/* Tables, group figures and verdicts of every run; false when any failed. */
static bool print_results(const struct pis_cfg *cfg, const struct rt_row *rows,
			  const struct rt_summary *sum, const struct group_result *res,
			  bool have_sched)
{
	size_t n = (size_t)cfg->nr_groups * PIS_ROLES, ng = (size_t)cfg->nr_groups;
	const char *caption = "Task 3g is group g's low thread, 3g+1 its medium, 3g+2 its high";
	double *v = calloc((size_t)cfg->common.repeat, sizeof(*v));
	double total = 0, secs = 0;
	bool pass = true;
	char run[32] = "";
	struct rt_stats st;
	int g, r;

	if (!v)
		cli_die(EXIT_SYSCALL, "out of memory");
	if (cfg->common.complete == 1) {
		cli_print_table(rows, n, caption);
	} else {
		printf("%s\n", caption);
		if (rt_report_table_stats(stdout, sum))
			cli_die(EXIT_SYSCALL, "formatting the table: %s", strerror(errno));
	}
	if (!have_sched)
		printf("migrated: not counted, this kernel has no /proc/self/task/TID/sched "
		       "(the threads are pinned)\n");

	printf("\nGroup  CPU   inversions    per second   high waited: median       p99       max\n");
	for (g = 0; g < cfg->nr_groups; g++) {
		const struct group_result *worst = &res[g];
		uint64_t inv = 0;

		for (r = 0; r < cfg->common.repeat; r++) {
			const struct group_result *gr = &res[(size_t)r * ng + (size_t)g];

			v[r] = rate(gr);
			inv += gr->inversions;
			total += (double)gr->inversions;
			worst = gr->wait_max > worst->wait_max ? gr : worst;
		}
		/* the rate of the whole runs: one cut short by a signal is left out */
		rt_stats_of(v, (size_t)cfg->common.complete, &st);
		/* over repeats: the mean rate, and the waits of the run with the longest */
		printf("%5d %4d %12llu %13.1f %15.1f us %8.1f us %8.1f us\n", g, res[g].cpu,
		       (unsigned long long)inv, st.mean, us(worst->wait_median), us(worst->wait_p99),
		       us(worst->wait_max));
		if (cfg->common.complete > 1)
			printf("%18s \u00b1 %11.1f per second over %d runs; waits of the run with the "
			       "longest\n", "", st.sd, cfg->common.complete);
	}
	for (r = 0; r < cfg->common.repeat; r++) {
		double longest = 0;

		for (g = 0; g < cfg->nr_groups; g++)
			if (res[(size_t)r * ng + (size_t)g].seconds > longest)
				longest = res[(size_t)r * ng + (size_t)g].seconds;
		secs += longest;
	}
	printf("\nall groups: %.0f inversions in %.3f s, %.1f per second\n", total, secs,
	       secs > 0 ? total / secs : 0.0);
	for (r = 0; r < cfg->common.repeat; r++) {
		if (cfg->common.repeat > 1)
			snprintf(run, sizeof(run), "run %d ", r + 1);
		pass &= verdicts(cfg, &res[(size_t)r * ng], run);
	}
	if (pass)
		printf("PASS: every inversion was resolved by inheritance%s\n",
		       cfg->enforce_bound ? ", within --wait-bound" : "");
	free(v);
	return pass;
}

/* pi_stress's own settings in "config" */
static void config_fields(struct rt_json *j, const void *arg)
{
	const struct pis_cfg *cfg = arg;

	rt_json_int(j, "groups", cfg->nr_groups);
	rt_json_int(j, "threads", (int64_t)cfg->nr_groups * PIS_ROLES);
	rt_json_bool(j, "pi", cfg->pi);
	rt_json_int_or_null(j, "inversions", cfg->inversions, cfg->inversions != 0);
	rt_json_int_or_null(j, "duration_ns", cfg->duration_ns, cfg->duration_ns != 0);
	rt_json_bool(j, "uniprocessor", cfg->uniprocessor);
	rt_json_int(j, "watchdog_ns", cfg->watchdog_ns);
	rt_json_int(j, "hold_ns", cfg->hold_ns);
	rt_json_int(j, "wait_bound_ns", cfg->wait_bound_ns);
	rt_json_bool(j, "wait_bound_enforced", cfg->enforce_bound);
}

static void write_json(struct cli_result *out, const struct pis_cfg *cfg,
		       const struct rt_work *work, int argc, char **argv,
		       const struct rt_row *rows, const struct rt_summary *sum,
		       const struct group_result *res, int rc, bool passed,
		       const struct cli_trace_run *traces)
{
	struct rt_json *j = cli_result_begin(out, "pi_stress", argc, argv, cfg->cpus, work);
	size_t n = (size_t)cfg->nr_groups * PIS_ROLES, ng = (size_t)cfg->nr_groups;
	double *v;
	int r, g;

	if (!j)
		return;
	v = calloc((size_t)cfg->common.repeat, sizeof(*v));
	if (!v)
		cli_die(EXIT_SYSCALL, "out of memory");
	cli_result_config(j, config_fields, cfg, &cfg->common, cfg->base_prio, cfg->cpus);
	rt_json_array(j, "runs");
	for (r = 0; r < cfg->common.repeat; r++) {
		rt_json_object(j, NULL);
		cli_json_rows(j, &rows[(size_t)r * n], n);
		if (traces)
			cli_trace_json(j, &traces[r]);
		if (r >= cfg->common.complete)
			rt_json_bool(j, "partial", true);
		rt_json_array(j, "groups");
		for (g = 0; g < cfg->nr_groups; g++) {
			const struct group_result *gr = &res[(size_t)r * ng + (size_t)g];

			rt_json_object(j, NULL);
			rt_json_int(j, "group", g);
			rt_json_int(j, "cpu", gr->cpu);
			rt_json_uint(j, "inversions", gr->inversions);
			rt_json_double(j, "seconds", gr->seconds);
			rt_json_double(j, "per_second", rate(gr));
			rt_json_object(j, "wait_ns");
			rt_json_uint(j, "count", gr->wait_count);
			rt_json_uint(j, "median", gr->wait_median);
			rt_json_uint(j, "p99", gr->wait_p99);
			rt_json_uint(j, "max", gr->wait_max);
			rt_json_end(j);
			rt_json_bool(j, "stalled", gr->stalled);
			rt_json_bool(j, "unresolved", gr->unresolved);
			rt_json_uint(j, "medium_ran", gr->medium_ran);
			rt_json_uint(j, "uncontended", gr->uncontended);
			rt_json_end(j);
		}
		rt_json_end(j);
		rt_json_end(j);
	}
	rt_json_end(j);
	cli_json_summary(j, sum);
	rt_json_array(j, "group_summary");
	for (g = 0; g < cfg->nr_groups; g++) {
		rt_json_object(j, NULL);
		rt_json_int(j, "group", g);
		for (r = 0; r < cfg->common.complete; r++)
			v[r] = rate(&res[(size_t)r * ng + (size_t)g]);
		cli_json_stats(j, "per_second", v, (size_t)cfg->common.complete);
		for (r = 0; r < cfg->common.complete; r++)
			v[r] = (double)res[(size_t)r * ng + (size_t)g].wait_max;
		cli_json_stats(j, "wait_max_ns", v, (size_t)cfg->common.complete);
		rt_json_end(j);
	}
	rt_json_end(j);
	rt_json_bool(j, "pass", passed);
	rt_json_bool(j, "partial", rc > 128);
	free(v);
	cli_result_commit(out, rc);
}

/*
 * Without --trace-buffer: each inversion is some fifteen events of about
 * 50 bytes and a group makes up to 50000 a second, so about 40 MiB a second
 * per group CPU; at most 256 MiB per CPU (trace long runs with -i).
 */
static int64_t trace_buffer_kb(const struct pis_cfg *cfg)
{
	int64_t kb, secs = cfg->duration_ns ? cfg->duration_ns / RT_NSEC_PER_SEC + 1 : 10;

	if (cfg->common.trace_buffer_kb)
		return cfg->common.trace_buffer_kb;
	if (cfg->inversions && cfg->inversions / 50000 + 1 < secs)
		secs = cfg->inversions / 50000 + 1;
	/* with -u every group shares the one CPU and its buffer */
	kb = 4096 + secs * 40 * 1024 * (cfg->uniprocessor ? cfg->nr_groups : 1);
	return kb > 256 * 1024 ? 256 * 1024 : kb;
}

int main(int argc, char **argv)
{
	struct pis_cfg cfg = {
		.pi = true,
		.watchdog_ns = RT_NSEC_PER_SEC,
		.wait_bound_ns = DEFAULT_REPORT_NS,
		.base_prio = 1,
	};
	struct cli_trace_thread *threads = NULL;
	struct cli_trace_run *traces = NULL;
	struct group_result *res;
	struct cli_result out = { 0 };
	static struct rt_tracer tracer;	/* closed at exit, after main returns */
	struct rt_row *rows;
	bool have_sched = true;
	struct pis_run run;
	struct rt_summary sum;
	struct rt_work work;
	char err[512];
	int prio, ret, g, r, i, interrupted = 0;
	bool passed;
	struct bitmask *one;

	cli_init("pi_stress");
	parse_options(argc, argv, &cfg);
	cli_signals_install();
	cli_env_check();
	/* instances of runs killed by SIGKILL go now, whether this run traces or not */
	cli_trace_sweep();
	if (cfg.common.json)
		cli_result_open(&out, cfg.common.json);
	if (cfg.common.trace_out)
		cli_trace_out_open(cfg.common.trace_out);

	prio = cfg.base_prio + PIS_ROLES;
	ret = rt_sched_probe(prio);
	if (ret)
		cli_no_rt_privilege(prio, ret);
	ret = rt_work_calibrate(&work, cfg.hold_ns ? cfg.hold_ns : RT_NSEC_PER_USEC);
	if (ret)
		cli_die(EXIT_SYSCALL, "calibrating the busy loop: %s", strerror(-ret));
	rt_tracemark_open();
	if (cfg.common.trace) {
		cli_trace_open(&tracer, (size_t)trace_buffer_kb(&cfg), cfg.cpus);
		traces = calloc((size_t)cfg.common.repeat, sizeof(*traces));
		threads = calloc((size_t)cfg.nr_groups * PIS_ROLES, sizeof(*threads));
		if (!traces || !threads)
			cli_die(EXIT_SYSCALL, "out of memory");
	}

	/* the coordinator: above the groups, on its own CPU unless -u */
	one = numa_allocate_cpumask();
	numa_bitmask_setbit(one, (unsigned int)rt_cpus_nth(cfg.cpus, 0));
	ret = rt_cpus_set_affinity(one);
	numa_free_cpumask(one);
	if (ret)
		cli_die(EXIT_SYSCALL, "sched_setaffinity: %s", strerror(-ret));
	ret = rt_sched_set_fifo(pthread_self(), prio);
	if (ret == -EPERM)
		cli_no_rt_privilege(prio, ret);
	if (ret)
		cli_die(EXIT_SYSCALL, "pthread_setschedparam: %s", strerror(-ret));

	if (!cfg.common.quiet)
		print_header(&cfg, &work);
	rows = calloc((size_t)cfg.common.repeat * (size_t)cfg.nr_groups * PIS_ROLES, sizeof(*rows));
	res = calloc((size_t)cfg.common.repeat * (size_t)cfg.nr_groups, sizeof(*res));
	if (!rows || !res)
		cli_die(EXIT_SYSCALL, "out of memory");
	for (i = 0; i < cfg.common.repeat; i++) {
		memset(&run, 0, sizeof(run));
		run.cfg = &cfg;
		run.work = work;
		run.tracer = traces ? &tracer : NULL;
		run.stop_req = &cli_stop;
		ret = pis_start(&run, err, sizeof(err));
		if (ret && run.denied)
			cli_no_rt_privilege(prio, ret);
		if (ret)
			cli_die(EXIT_SYSCALL, "%s", err);
		ret = pis_watch(&run, err, sizeof(err));
		if (ret == -EINTR)
			cli_exit_if_asked();	/* a second signal: the engine returned at once */
		if (ret) {
			/* a group that does not stop holds its CPU: leave without waiting */
			fprintf(stderr, "pi_stress: watchdog: %s\n", err);
			cli_exit_running(EXIT_CHECK);
		}
		for (g = 0; g < cfg.nr_groups; g++) {
			for (r = 0; r < PIS_ROLES; r++) {
				const struct pis_thread *t = &run.groups[g].threads[r];

				if (t->err)
					cli_die(EXIT_SYSCALL, "group %d's %s thread: %s: %s", g,
						role_name[r], t->err_what, strerror(-t->err));
			}
		}
		if (run.mlock_err && !i)
			cli_warn("memory not locked (mlockall: %s): page faults may add noise; "
				 "raise RLIMIT_MEMLOCK or grant CAP_IPC_LOCK",
				 strerror(run.mlock_err));
		have_sched &= collect(&run, &rows[(size_t)i * (size_t)cfg.nr_groups * PIS_ROLES],
				      &res[(size_t)i * (size_t)cfg.nr_groups], threads);
		if (traces)
			cli_trace_analyse(&tracer, &traces[i], threads,
					  (size_t)cfg.nr_groups * PIS_ROLES, i);
		pis_free(&run);
		if (run.interrupted) {
			interrupted = run.interrupted;
			cfg.common.repeat = i + 1;
			break;
		}
	}
	cli_runs_done(&cfg.common, cfg.common.repeat, interrupted);
	if (rt_summary_of(rows, (size_t)cfg.common.complete, (size_t)cfg.nr_groups * PIS_ROLES,
			  &sum))
		cli_die(EXIT_SYSCALL, "out of memory");
	passed = print_results(&cfg, rows, &sum, res, have_sched);
	ret = passed ? EXIT_RAN : EXIT_CHECK;
	if (interrupted) {
		if (cfg.common.complete < cfg.common.repeat)
			printf("\nPARTIAL: %s stopped run %d; the statistics are those of the %d "
			       "whole run%s before it (run %d is in the result file, marked "
			       "partial)\n",
			       cli_signal_name(interrupted), cfg.common.repeat, cfg.common.complete,
			       cfg.common.complete == 1 ? "" : "s", cfg.common.repeat);
		else
			printf("\nPARTIAL: %s stopped run %d; the figures cover it up to then\n",
			       cli_signal_name(interrupted), cfg.common.repeat);
		ret = 128 + interrupted;
	}
	if (traces)
		cli_trace_print(traces, (size_t)cfg.common.repeat);
	cli_trace_out_close();
	write_json(&out, &cfg, &work, argc, argv, rows, &sum, res, ret, passed, traces);
	rt_summary_free(&sum);
	for (i = 0; traces && i < cfg.common.repeat; i++)
		cli_trace_free(&traces[i]);
	free(traces);
	free(threads);
	free(rows);
	free(res);
	rt_tracemark_close();
	numa_free_cpumask(cfg.cpus);
	cli_exit(ret);
}
