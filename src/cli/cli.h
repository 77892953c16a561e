/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the benchmarks say and how they exit: shared by the programs, not part
 * of the library (which never prints and never exits).
 */
#ifndef RT_CLI_H
#define RT_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/cpus.h"
#include "lib/domains.h"
#include "lib/opts.h"

/* Exit codes, as DESIGN.md and the man pages state them. */
enum {
	EXIT_RAN = 0,		/* ran, and every requested check held */
	EXIT_CHECK = 1,		/* a requested check failed */
	EXIT_USAGE = 2,		/* bad usage or input */
	EXIT_SYSCALL = 3,	/* a system call failed at run time */
	EXIT_MISSING = 4,	/* a requirement is missing here */
	EXIT_STARVED = 5,	/* no result: the machine did not give the threads time */
};

/* The most --on-threshold (and --on-end) options a run takes. */
#define CLI_MAX_ACTIONS 16

/* The options every benchmark has: -c, -q, -r, --json, -h, -V. */
struct cli_common {
	void (*usage)(FILE *out);
	struct bitmask *usable;		/* the process's affinity mask */
	struct bitmask *allowed;	/* what -c may name: usable, and the quiet CPUs of the cpuset */
	struct bitmask *quiet_cpus;	/* isolated and nohz_full CPUs */
	struct rt_domains *domains;	/* the RT scheduler's root domains */
	struct bitmask *cpus;		/* -c, --cpus */
	struct bitmask *housekeeping;	/* --housekeeping, or chosen: the coordinator's, the
					   watchdog's, the recorder's; NULL: the run's own */
	bool housekeeping_given;	/* --housekeeping */
	bool cross_domain;		/* --cross-domain */
	bool quiet;			/* -q, --quiet */
	int repeat;			/* -r, --repeat: runs in this invocation */
	const char *json;		/* --json FILE */
	bool trace;			/* --trace */
	const char *trace_out;		/* --trace-out FILE (implies --trace) */
	int64_t trace_buffer_kb;	/* --trace-buffer: per CPU; 0 sizes it by the run */
	bool watch;			/* --watch, or implied by --on-threshold, --on-end */
	const char *on_threshold[CLI_MAX_ACTIONS];	/* --on-threshold SPEC, as given */
	int n_on_threshold;
	const char *on_end[CLI_MAX_ACTIONS];	/* --on-end ACTION, as given */
	int n_on_end;
	/* without -c, when the program's default shape fits fewer CPUs than usable */
	char fit_usable[256];		/* the usable CPUs, or "": the run has them all */
	char fit_why[1024];		/* what the run's CPUs are and why */
};

/* getopt_long's values for the long options without a short form */
enum { CLI_OPT_JSON = 1000, CLI_OPT_TRACE, CLI_OPT_TRACE_OUT, CLI_OPT_TRACE_BUFFER,
       CLI_OPT_HOUSEKEEPING, CLI_OPT_CROSS_DOMAIN, CLI_OPT_WATCH, CLI_OPT_ON_THRESHOLD,
       CLI_OPT_ON_END };

/* The options every benchmark has, long and short (after the program's own). */
#define CLI_SHORT_OPTIONS "c:qr:hV"
#define CLI_LONG_OPTIONS                                                                   \
	{ "cpus", required_argument, NULL, 'c' },                                        \
	{ "quiet", no_argument, NULL, 'q' },                                             \
	{ "repeat", required_argument, NULL, 'r' },                                      \
	{ "help", no_argument, NULL, 'h' },                                              \
	{ "version", no_argument, NULL, 'V' },                                           \
	{ "json", required_argument, NULL, CLI_OPT_JSON },                               \
	{ "trace", no_argument, NULL, CLI_OPT_TRACE },                                   \
	{ "trace-out", required_argument, NULL, CLI_OPT_TRACE_OUT },                     \
	{ "trace-buffer", required_argument, NULL, CLI_OPT_TRACE_BUFFER },               \
	{ "housekeeping", required_argument, NULL, CLI_OPT_HOUSEKEEPING },               \
	{ "cross-domain", no_argument, NULL, CLI_OPT_CROSS_DOMAIN },                     \
	{ "watch", no_argument, NULL, CLI_OPT_WATCH },                                   \
	{ "on-threshold", required_argument, NULL, CLI_OPT_ON_THRESHOLD },               \
	{ "on-end", required_argument, NULL, CLI_OPT_ON_END }

/* Their lines of --help, after the program's -c and -q. */
#define CLI_USAGE_COMMON                                                                   \
	"  -r, --repeat N         N runs, 1-10000; the table shows mean \u00b1 sd\n"            \
	"      --json FILE        write the result file (- for stdout); FILE must not\n"     \
	"                         exist\n"                                                   \
	"      --trace            record the scheduler's events of the run and say why\n"    \
	"                         each thread migrated, who preempted it, how long it\n"     \
	"                         waited (root)\n"                                           \
	"      --trace-out FILE   also write the events to FILE (implies --trace)\n"         \
	"      --trace-buffer KB  trace buffer per CPU, 64-4194304 KiB (default: sized\n"    \
	"                         by the run)\n"                                           \
	"      --housekeeping LIST  the CPUs of the coordinator, the watchdog and the\n"   \
	"                         trace recorder (default: the run's, or, when the run's\n" \
	"                         are isolated or nohz_full, the affinity mask's others)\n" \
	"      --cross-domain     run on CPUs of more than one root domain (the RT\n"      \
	"                         scheduler never moves a thread between them)\n"         \
	"      --watch            watch the threads' waits live: placement, wake-up,\n"   \
	"                         PI-boost and runnable waits, their histograms and\n"    \
	"                         longest (root)\n"                                        \
	"      --on-threshold WHAT>TIME[:ACTION]  watch, and act when a wait of WHAT\n"    \
	"                         (placement, wakeup, boost, runnable) lasts longer\n"    \
	"                         than TIME (a bare number is us):\n"                     \
	"                         trace (the default: save the trace around it),\n"       \
	"                         signal,num=N[,pid=PID|parent], shell,command=CMD,\n"     \
	"                         stop; repeatable\n"                                      \
	"      --on-end ACTION    watch, and act at the end (trace, signal, shell)\n"      \
	"  -h, --help             show this help and exit\n"                              \
	"  -V, --version          show the version and exit\n"

void cli_init(const char *prog);
const char *cli_prog(void);
void cli_exit(int code) __attribute__((noreturn));
void cli_bad_option(int c, char **argv, const char *short_options) __attribute__((noreturn));
void cli_common_init(struct cli_common *co, void (*usage)(FILE *out));
void cli_common_option(struct cli_common *co, int c, const char *arg, char **argv,
		       const char *short_options);
struct bitmask *cli_common_done(struct cli_common *co, int argc, char **argv);
struct bitmask *cli_fit_cpus(struct cli_common *co, struct bitmask *cpus, int max,
			     const char *shape);
int cli_fit_one_more(int base, char *why, size_t len);
void cli_die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int64_t cli_opt(const struct rt_optspec *spec, const char *arg);
struct bitmask *cli_cpus(const char *arg, const struct bitmask *usable);
struct bitmask *cli_housekeeping(const char *arg, const struct bitmask *usable);
void cli_cpusets_init(struct cli_common *co);
void cli_cpusets_done(struct cli_common *co, const struct bitmask *run);
void cli_no_rt_privilege(int prio, int err) __attribute__((noreturn));
int cli_thread_prios(int nr, int base, char *err, size_t len);

#endif
