/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The --json result file both benchmarks write: one self-describing
 * document, schema "rtsched-result/1", whole or absent.
 */
#ifndef RT_CLI_RESULTS_H
#define RT_CLI_RESULTS_H

#include <limits.h>
#include <stdbool.h>
#include <time.h>

#include "rt_cpus.h"
#include "rt_json.h"
#include "rt_outfile.h"
#include "rt_report.h"

struct cli_common;

#define RESULT_SCHEMA "rtsched-result/1"

struct cli_result {
	struct rt_outfile out;		/* --json FILE, "-" for stdout; path NULL: none */
	struct rt_json j;
	struct timespec start;		/* CLOCK_REALTIME */
};

void cli_result_open(struct cli_result *r, const char *path);
struct rt_work;
struct rt_json *cli_result_begin(struct cli_result *r, const char *tool, int argc, char **argv,
				 const struct bitmask *cpus, const struct rt_work *work);
void cli_result_config(struct rt_json *j, void (*fields)(struct rt_json *j, const void *ctx),
		       const void *ctx, const struct cli_common *co, int base_prio,
		       const struct bitmask *cpus);
void cli_result_commit(struct cli_result *r, int return_code);
void cli_json_rows(struct rt_json *j, const struct rt_row *rows, size_t n);
void cli_json_summary(struct rt_json *j, const struct rt_summary *s);
void cli_json_stats(struct rt_json *j, const char *key, const double *v, size_t n);

#endif
