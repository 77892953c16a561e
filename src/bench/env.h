/* SPDX-License-Identifier: GPL-2.0-only */
/* The system a run meets: read once, then the checks, the notes, the header's lines. */
#ifndef BENCH_ENV_H
#define BENCH_ENV_H

#include <stdio.h>

#include "lib/bandwidth.h"
#include "lib/cpus.h"
#include "lib/domains.h"
#include "lib/env.h"
#include "lib/topology.h"
#include "lib/kernel.h"

/* What the kernel and the machine say, read once before the run. */
struct bench_sys {
	struct rt_kernel kernel;	/* release, preemption, features, sched_ext */
	struct rt_bandwidth bw;		/* RT throttling, the fair server */
	struct rt_domains dom;		/* isolation, cpusets, root domains */
	struct rt_env env;		/* offline CPUs, the governor */
	struct rt_topology topo;	/* cores, caches, packages, nodes; nr_cpus 0: unknown */
	const struct bitmask *housekeeping;	/* the helpers' CPUs (cli_common's), or NULL */
};

/* The environment's notes: the RT bandwidth regime, isolated CPUs... */
#define BENCH_NOTES 12
#define BENCH_NOTE_LEN 640
struct rt_work;
void bench_sys_read(struct bench_sys *s, const struct bitmask *cpus);
void bench_sys_free(struct bench_sys *s);
int bench_env_notes(const struct bench_sys *s, const struct bitmask *cpus,
		    const struct rt_work *work, char notes[BENCH_NOTES][BENCH_NOTE_LEN]);
void bench_env_check(const struct bench_sys *s);
void bench_print_kernel(const struct bench_sys *s, const struct bitmask *cpus, FILE *out);
int bench_bandwidth_line(const struct rt_bandwidth *bw, char *buf, size_t len);
const char *bench_limits_words(const struct bench_sys *s);

#endif
