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

#include "rt_cpus.h"
#include "rt_opts.h"
#include "rt_report.h"

/* Exit codes, as DESIGN.md and the man pages state them. */
enum {
	EXIT_RAN = 0,		/* ran, and every requested check held */
	EXIT_CHECK = 1,		/* a requested check failed */
	EXIT_USAGE = 2,		/* bad usage or input */
	EXIT_SYSCALL = 3,	/* a system call failed at run time */
	EXIT_MISSING = 4,	/* a requirement is missing here */
};

/* The options every benchmark has: -c, -q, -r, --json, -h, -V. */
struct cli_common {
	void (*usage)(FILE *out);
	struct bitmask *usable;		/* the process's affinity mask */
	struct bitmask *cpus;		/* -c, --cpus */
	bool quiet;			/* -q, --quiet */
	int repeat;			/* -r, --repeat: runs in this invocation */
	const char *json;		/* --json FILE */
};

/* getopt_long's value for --json, which has no short form */
#define CLI_OPT_JSON 1000

void cli_init(const char *prog);
void cli_common_init(struct cli_common *co, void (*usage)(FILE *out));
bool cli_common_option(struct cli_common *co, int c, const char *arg);
struct bitmask *cli_common_cpus(struct cli_common *co);
void cli_print_table(const struct rt_row *rows, size_t n, const char *caption);
void cli_die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int64_t cli_opt(const struct rt_optspec *spec, const char *arg);
struct bitmask *cli_cpus(const char *arg, const struct bitmask *usable);
void cli_bad_option(int c, char **argv, const char *short_options) __attribute__((noreturn));
void cli_extra_args(int argc, char **argv);
void cli_no_rt_privilege(int prio, int err) __attribute__((noreturn));
void cli_print_kernel(FILE *out);

#endif
