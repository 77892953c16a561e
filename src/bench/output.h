/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The files the programs write (--json, --trace-out): refused before the
 * run when they cannot be written, removed however the program ends before
 * they are done (a second signal included), named when they are done.
 */
#ifndef BENCH_OUTPUT_H
#define BENCH_OUTPUT_H

#include <stdbool.h>

#include "lib/outfile.h"

struct rt_outfile *bench_output_open(const char *option, const char *path, bool private);
void bench_output_commit(struct rt_outfile *o, const char *option);
void bench_output_remove_pending(void);

#endif
