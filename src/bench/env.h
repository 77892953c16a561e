/* SPDX-License-Identifier: GPL-2.0-only */
/* The system a run meets: the checks, the notes, the kernel line. */
#ifndef BENCH_ENV_H
#define BENCH_ENV_H

#include <stdio.h>

#include "rt_cpus.h"

/* The environment's notes: RT throttling, the fair server, isolated CPUs... */
#define BENCH_NOTES 8
#define BENCH_NOTE_LEN 512
struct rt_work;
int bench_env_notes(const struct bitmask *cpus, const struct rt_work *work,
		    char notes[BENCH_NOTES][BENCH_NOTE_LEN]);
void bench_env_check(void);
void bench_print_kernel(FILE *out);

#endif
