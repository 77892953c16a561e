/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The --json result file both benchmarks write: one self-describing
 * document, schema "rtsched-result/1", whole or absent.
 */
#ifndef BENCH_RESULT_H
#define BENCH_RESULT_H

#include <limits.h>
#include <stdbool.h>
#include <time.h>

#include "lib/cpus.h"
#include "lib/json.h"
#include "lib/outfile.h"
#include "lib/report.h"

struct cli_common;

#define RESULT_SCHEMA "rtsched-result/1"

struct bench_result;

struct bench_result *bench_result_open(const char *path);
struct rt_json *bench_result_json(struct bench_result *r);
struct rt_work;
struct bench_sys;
struct rt_json *bench_result_begin(struct bench_result *r, const char *tool, int argc, char **argv,
				   const struct bench_sys *sys, const struct bitmask *cpus,
				   const struct rt_work *work);
void bench_result_config(struct rt_json *j, void (*fields)(struct rt_json *j, const void *ctx),
		       const void *ctx, const struct cli_common *co, int base_prio,
		       const struct bitmask *cpus);
void bench_result_commit(struct bench_result *r, int return_code);
void bench_json_rows(struct rt_json *j, const struct rt_row *rows, size_t n);
void bench_json_summary(struct rt_json *j, const struct rt_summary *s);
void bench_json_stats(struct rt_json *j, const char *key, const double *v, size_t n);

#endif
