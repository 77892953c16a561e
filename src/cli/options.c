// SPDX-License-Identifier: GPL-2.0-only
/*
 * The options every benchmark has, and the values of options: each bad one
 * gets one line naming it, the value and what is accepted, and exit 2.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "lib/cpus.h"
#include "lib/env.h"
#include "lib/sched.h"

/**
 * cli_common_init - start parsing with the usable CPUs known, or exit 3
 */
void cli_common_init(struct cli_common *co, void (*usage)(FILE *out))
{
	opterr = 0;	/* the program says what is wrong, in one line */
	co->usage = usage;
	co->cpus = NULL;
	co->quiet = false;
	co->repeat = 1;
	co->json = NULL;
	co->trace = false;
	co->trace_out = NULL;
	co->trace_buffer_kb = 0;
	co->watch = false;
	co->n_on_threshold = 0;
	co->n_on_end = 0;
	co->housekeeping = NULL;
	co->housekeeping_given = false;
	co->cross_domain = false;
	co->usable = rt_cpus_usable();
	if (!co->usable)
		cli_die(EXIT_SYSCALL, "sched_getaffinity: %s", strerror(errno));
	cli_cpusets_init(co);
}

/**
 * cli_bad_option - exit 2 for what getopt_long() returned as ':' or '?'
 *
 * @short_options must start with ':' so that a missing value is told apart.
 */
void cli_bad_option(int c, char **argv, const char *short_options)
{
	const char *arg = argv[optind - 1];

	if (c == ':')
		cli_die(EXIT_USAGE, "option '%s' needs a value; see %s --help", arg, cli_prog());
	/* "--pi=3": getopt reports a known flag given a value */
	if (optopt && strchr(short_options, optopt) && arg[0] == '-' && arg[1] == '-')
		cli_die(EXIT_USAGE, "option '%s' takes no value; see %s --help", arg, cli_prog());
	if (optopt && optopt < 256)
		cli_die(EXIT_USAGE, "unknown option '-%c'; see %s --help", optopt, cli_prog());
	if (optopt)
		cli_die(EXIT_USAGE, "option '%s' takes no value; see %s --help", arg, cli_prog());
	cli_die(EXIT_USAGE, "unknown option '%s'; see %s --help", arg, cli_prog());
}

/* --on-threshold and --on-end, kept as given: the watch reads them (bench/live.c). */
static void cli_action(struct cli_common *co, int c, const char *arg)
{
	const char *name = c == CLI_OPT_ON_END ? "--on-end" : "--on-threshold";
	const char **list = c == CLI_OPT_ON_END ? co->on_end : co->on_threshold;
	int *n = c == CLI_OPT_ON_END ? &co->n_on_end : &co->n_on_threshold;

	if (*n == CLI_MAX_ACTIONS)
		cli_die(EXIT_USAGE, "invalid %s '%s': at most %d of them", name, arg,
			CLI_MAX_ACTIONS);
	list[(*n)++] = arg;
	co->watch = true;
}

/**
 * cli_common_option - handle -c, -q, -r, --json, --trace*, -h or -V, the
 * options every program has; any other @c is a bad option: exit 2 saying why
 *
 * -h and -V print and exit 0; a bad -c list exits 2. @argv and
 * @short_options are the program's, for the message.
 */
void cli_common_option(struct cli_common *co, int c, const char *arg, char **argv,
		       const char *short_options)
{
	static const struct rt_optspec repeat = { "--repeat", RT_OPT_INT, 1, 10000, 0 };
	static const struct rt_optspec buffer = { "--trace-buffer", RT_OPT_INT, 64,
						  4 * 1024 * 1024, 0 };

	switch (c) {
	case 'r':
		co->repeat = (int)cli_opt(&repeat, arg);
		return;
	case CLI_OPT_JSON:
		if (!*arg)
			cli_die(EXIT_USAGE, "invalid --json '': expected a file name, or - for "
				"standard output");
		co->json = arg;
		return;
	case CLI_OPT_TRACE:
		co->trace = true;
		return;
	case CLI_OPT_TRACE_OUT:
		co->trace = true;
		co->trace_out = arg;
		return;
	case CLI_OPT_TRACE_BUFFER:
		co->trace_buffer_kb = cli_opt(&buffer, arg);
		return;
	case CLI_OPT_WATCH:
		co->watch = true;
		return;
	case CLI_OPT_ON_THRESHOLD:
	case CLI_OPT_ON_END:
		cli_action(co, c, arg);
		return;
	case 'c':
		if (co->cpus)
			numa_free_cpumask(co->cpus);
		co->cpus = cli_cpus(arg, co->allowed);
		return;
	case CLI_OPT_HOUSEKEEPING:
		if (co->housekeeping)
			numa_free_cpumask(co->housekeeping);
		co->housekeeping = cli_housekeeping(arg, co->allowed);
		co->housekeeping_given = true;
		return;
	case CLI_OPT_CROSS_DOMAIN:
		co->cross_domain = true;
		return;
	case 'q':
		co->quiet = true;
		return;
	case 'h':
		co->usage(stdout);
		exit(EXIT_RAN);
	case 'V':
		printf("%s (rtsched) %s\n", cli_prog(), RT_VERSION);
		exit(EXIT_RAN);
	}
	cli_bad_option(c, argv, short_options);
}

/**
 * cli_common_done - parsing is over: exit 2 if arguments follow the options;
 * the CPUs to run on: -c, or the usable ones
 */
struct bitmask *cli_common_done(struct cli_common *co, int argc, char **argv)
{
	struct bitmask *run;

	if (optind < argc)
		cli_die(EXIT_USAGE, "unexpected argument '%s': %s takes options only; see %s --help",
			argv[optind], cli_prog(), cli_prog());
	run = co->cpus ? co->cpus : co->usable;
	cli_cpusets_done(co, run);
	if (!co->cpus)
		return co->usable;
	numa_free_cpumask(co->usable);
	co->usable = NULL;
	return co->cpus;
}

/**
 * cli_opt - the value of @arg as @spec says, or exit 2 saying why not
 */
int64_t cli_opt(const struct rt_optspec *spec, const char *arg)
{
	char err[RT_OPT_ERRLEN];
	int64_t v;

	if (rt_opt_parse(spec, arg, &v, err, sizeof(err)))
		cli_die(EXIT_USAGE, "%s", err);
	return v;
}

static struct bitmask *cpu_list(const char *opt, const char *arg, const struct bitmask *usable);

/**
 * cli_cpus - the CPU list of --cpus, or exit 2 naming what is wrong with it
 */
struct bitmask *cli_cpus(const char *arg, const struct bitmask *usable)
{
	return cpu_list("--cpus", arg, usable);
}

/**
 * cli_housekeeping - the CPU list of --housekeeping, or exit 2 naming what is wrong with it
 */
struct bitmask *cli_housekeeping(const char *arg, const struct bitmask *usable)
{
	return cpu_list("--housekeeping", arg, usable);
}

/* Whether @cpu is offline (the kernel's list of them), else not or unknown. */
static bool cpu_offline(int cpu, const struct bitmask *usable)
{
	struct rt_env e;
	cpu_set_t off;

	return !rt_env_read(&e, usable, "/sys") && e.offline[0] &&
	       !rt_cpus_parse_set(e.offline, &off) && cpu >= 0 && cpu < CPU_SETSIZE &&
	       CPU_ISSET(cpu, &off);
}

static struct bitmask *cpu_list(const char *opt, const char *arg, const struct bitmask *usable)
{
	const char *why = rt_cpus_numa_message();
	char have[256];
	struct bitmask *cpus;
	int bad, err;

	rt_cpus_format(usable, have, sizeof(have));
	cpus = rt_cpus_parse(arg, usable, &bad);
	if (cpus)
		return cpus;
	err = errno;
	if (err == EPERM && cpu_offline(bad, usable))
		cli_die(EXIT_USAGE, "invalid %s '%s': CPU %d is offline; usable CPUs: %s", opt, arg,
			bad, have);
	if (err == EPERM)
		cli_die(EXIT_USAGE,
			"invalid %s '%s': CPU %d is not usable by this process (affinity or "
			"cpuset); usable CPUs: %s",
			opt, arg, bad, have);
	if (err == ENOENT)
		cli_die(EXIT_USAGE, "invalid %s '%s': the list names no CPU; usable CPUs: %s", opt,
			arg, have);
	if (err == ERANGE)
		cli_die(EXIT_USAGE, "invalid %s '%s': %s; expected LOW-HIGH; usable CPUs: %s", opt,
			arg, why, have);
	cli_die(EXIT_USAGE,
		"invalid %s '%s': expected a CPU list such as 0-3,6%s%s%s; usable CPUs: %s", opt,
		arg, *why ? " (libnuma: " : "", why, *why ? ")" : "", have);
}

/**
 * cli_thread_prios - check that @nr threads at --base-prio @base (thread id
 * at base + id) and the coordinator above them fit under SCHED_FIFO 99
 *
 * Returns 0, or -EINVAL with @err the line that says what is accepted.
 */
int cli_thread_prios(int nr, int base, char *err, size_t len)
{
	int n;

	if (base + nr <= RT_PRIO_MAX)
		return 0;
	n = snprintf(err, len,
		     "%d threads at --base-prio %d need SCHED_FIFO priorities %d-%d, past %d: "
		     "accepted: --threads up to %d at this base",
		     nr, base, base, base + nr, RT_PRIO_MAX, RT_PRIO_MAX - base);
	/* a lower base only where one fits: thread 0 at 1 at the lowest */
	if (RT_PRIO_MAX - nr >= 1 && n > 0 && (size_t)n < len)
		snprintf(err + n, len - (size_t)n, ", or --base-prio up to %d", RT_PRIO_MAX - nr);
	return -EINVAL;
}
