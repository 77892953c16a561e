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
#include "rt_report.h"
#include "rt_sched.h"
#include "rt_tracemark.h"

#define PRIO_MAX 99
#define DEFAULT_DURATION_NS (10 * RT_NSEC_PER_SEC)
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
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};
static const char short_options[] = ":g:i:d:uw:b:c:qhV";

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
		"                         (a number alone is ms; without it, waits over 5ms\n"
		"                         are reported but do not fail the run)\n"
		"  -b, --base-prio N      SCHED_FIFO of low, 1-96 (default 1); medium +1,\n"
		"                         high +2, the coordinator +3\n"
		"  -c, --cpus LIST        use these CPUs, e.g. 0-3 (default: all usable)\n"
		"  -q, --quiet            print the tables only\n"
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
	struct cli_common co;
	char why[512];
	int c, cap;

	cli_common_init(&co, usage);
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
			if (!cli_common_option(&co, c, optarg))
				cli_bad_option(c, argv, short_options);
		}
	}
	cli_extra_args(argc, argv);
	cfg->cpus = cli_common_cpus(&co);
	cfg->quiet = co.quiet;
	cap = group_capacity(cfg, why, sizeof(why));
	if (!cfg->set_groups)
		cfg->nr_groups = cfg->uniprocessor ? 1 : cap;
	else if (cfg->nr_groups > cap)
		cli_die(EXIT_USAGE, "invalid --groups '%d': %s; accepted: 1 to %d", cfg->nr_groups,
			why, cap);
	if (!set_duration && !cfg->inversions)
		cfg->duration_ns = DEFAULT_DURATION_NS;
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

static void print_header(const struct pis_cfg *cfg)
{
	char wd[32], dur[32], hold[32], bound[32];
	struct rt_throttle thr;
	int g;

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
	if (!rt_sched_throttle(&thr) && thr.runtime_us >= 0 && thr.runtime_us < thr.period_us)
		printf("note: RT throttling idles a CPU kept busy by RT threads for %ld us of "
		       "every %ld us; the waits will show it (sysctl "
		       "kernel.sched_rt_runtime_us=-1 turns it off)\n",
		       thr.period_us - thr.runtime_us, thr.period_us);
	printf("\n");
	fflush(stdout);
}

static void print_rows(const struct pis_run *run)
{
	const struct pis_cfg *cfg = run->cfg;
	size_t n = (size_t)cfg->nr_groups * PIS_ROLES, i;
	struct rt_row *rows = calloc(n, sizeof(*rows));
	bool no_sched = false;

	if (!rows)
		cli_die(EXIT_SYSCALL, "out of memory");
	for (i = 0; i < n; i++) {
		const struct pis_thread *t = &run->groups[i / PIS_ROLES].threads[i % PIS_ROLES];
		struct rt_counters d;

		rt_counters_delta(&t->end, &t->start, &d);
		no_sched |= !d.have_migrations;
		rows[i] = (struct rt_row){ d.vol, d.nonvol, d.migrations, t->iterations };
	}
	cli_print_table(rows, n, "Task 3g is group g's low thread, 3g+1 its medium, 3g+2 its high");
	if (no_sched)
		printf("migrated: not counted, this kernel has no /proc/self/task/TID/sched "
		       "(the threads are pinned)\n");
	free(rows);
}

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

/* The per-group figures, and whether every group passed. */
static bool print_groups(const struct pis_run *run)
{
	const struct pis_cfg *cfg = run->cfg;
	uint64_t total = 0;
	int64_t end = run->start_ns;
	bool pass = true;
	int g, r;

	printf("\nGroup  CPU   inversions    per second   high waited: median       p99       max\n");
	for (g = 0; g < cfg->nr_groups; g++) {
		const struct pis_group *grp = &run->groups[g];
		int64_t gend = run->start_ns;
		double secs;

		for (r = 0; r < PIS_ROLES; r++)
			if (grp->threads[r].end_ns > gend)
				gend = grp->threads[r].end_ns;
		if (gend > end)
			end = gend;
		secs = (double)(gend - run->start_ns) / RT_NSEC_PER_SEC;
		total += grp->threads[PIS_HIGH].iterations;
		printf("%5d %4d %12llu %13.1f %15.1f us %8.1f us %8.1f us\n", g, grp->cpu,
		       (unsigned long long)grp->threads[PIS_HIGH].iterations,
		       secs > 0 ? (double)grp->threads[PIS_HIGH].iterations / secs : 0.0,
		       us(rt_hist_pct(&grp->wait, 50)), us(rt_hist_pct(&grp->wait, 99)),
		       us(rt_hist_pct(&grp->wait, 100)));
	}
	printf("\nall groups: %llu inversions in %.3f s, %.1f per second\n", (unsigned long long)total,
	       (double)(end - run->start_ns) / RT_NSEC_PER_SEC,
	       end > run->start_ns ? (double)total * RT_NSEC_PER_SEC / (double)(end - run->start_ns) : 0.0);

	for (g = 0; g < cfg->nr_groups; g++) {
		const struct pis_group *grp = &run->groups[g];
		char wd[32], bound[32];

		rt_format_duration(wd, sizeof(wd), cfg->watchdog_ns);
		rt_format_duration(bound, sizeof(bound), cfg->wait_bound_ns);
		if (grp->stalled) {
			printf("FAIL group %d (CPU %d): no progress for %s: the high thread never got "
			       "the mutex, priority inversion was not resolved\n",
			       g, grp->cpu, wd);
			pass = false;
		} else if (grp->unresolved) {
			printf("FAIL group %d (CPU %d): an inversion was still unresolved when the run "
			       "ended\n",
			       g, grp->cpu);
			pass = false;
		} else if (grp->medium_ran) {
			printf("FAIL group %d (CPU %d): in %llu inversions the medium thread ran while "
			       "high waited: low was not raised above it\n",
			       g, grp->cpu, (unsigned long long)grp->medium_ran);
			pass = false;
		}
		if (grp->wait.count && grp->wait.max > (uint64_t)cfg->wait_bound_ns &&
		    !grp->stalled && !grp->unresolved) {
			printf("%s group %d (CPU %d): the high thread waited up to %.1f us, more than "
			       "%s%s; %s\n",
			       cfg->enforce_bound ? "FAIL" : "note:", g, grp->cpu, us(grp->wait.max),
			       cfg->enforce_bound ? "--wait-bound " : "", bound,
			       grp->medium_ran ? "medium ran meanwhile" :
			       "medium never ran meanwhile, so this was no inversion: the CPU was "
			       "taken from the group (RT throttling, interrupts, a higher priority "
			       "task)");
			if (cfg->enforce_bound)
				pass = false;
		}
		if (grp->uncontended)
			printf("note: group %d: %llu passes in which high found the mutex free (not "
			       "inversions)\n",
			       g, (unsigned long long)grp->uncontended);
	}
	if (pass)
		printf("PASS: every inversion was resolved by inheritance%s\n",
		       cfg->enforce_bound ? ", within --wait-bound" : "");
	return pass;
}

int main(int argc, char **argv)
{
	struct pis_cfg cfg = {
		.pi = true,
		.watchdog_ns = RT_NSEC_PER_SEC,
		.wait_bound_ns = 5 * RT_NSEC_PER_MSEC,
		.base_prio = 1,
	};
	struct pis_run run = { .cfg = &cfg };
	char err[512];
	int prio, ret, g, r;
	struct bitmask *one;

	cli_init("pi_stress");
	parse_options(argc, argv, &cfg);

	prio = cfg.base_prio + PIS_ROLES;
	ret = rt_sched_probe(prio);
	if (ret)
		cli_no_rt_privilege(prio, ret);
	ret = rt_work_calibrate(&run.work, cfg.hold_ns ? cfg.hold_ns : RT_NSEC_PER_USEC);
	if (ret)
		cli_die(EXIT_SYSCALL, "calibrating the busy loop: %s", strerror(-ret));
	rt_tracemark_open();

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

	if (!cfg.quiet)
		print_header(&cfg);
	ret = pis_start(&run, err, sizeof(err));
	if (ret && run.denied)
		cli_no_rt_privilege(prio, ret);
	if (ret)
		cli_die(EXIT_SYSCALL, "%s", err);
	ret = pis_watch(&run, err, sizeof(err));
	if (ret)
		cli_die(EXIT_CHECK, "watchdog: %s", err);
	for (g = 0; g < cfg.nr_groups; g++) {
		for (r = 0; r < PIS_ROLES; r++) {
			const struct pis_thread *t = &run.groups[g].threads[r];

			if (t->err)
				cli_die(EXIT_SYSCALL, "group %d's %s thread: %s: %s", g, role_name[r],
					t->err_what, strerror(-t->err));
		}
	}
	if (run.mlock_err)
		cli_warn("memory not locked (mlockall: %s): page faults may add noise; raise "
			 "RLIMIT_MEMLOCK or grant CAP_IPC_LOCK",
			 strerror(run.mlock_err));
	print_rows(&run);
	ret = print_groups(&run) ? EXIT_RAN : EXIT_CHECK;
	if (fflush(stdout))
		cli_die(EXIT_SYSCALL, "writing the results: %s", strerror(errno));
	rt_tracemark_close();
	pis_free(&run);
	numa_free_cpumask(cfg.cpus);
	return ret;
}
