// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RT bandwidth regime of the running kernel: RT throttling, the fair
 * server, both, or neither, from its release, its configuration, the
 * sysctls, cgroup v1's cpu controller and debugfs, read below a root (""
 * for this machine, a fixture tree in the tests).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bandwidth.h"
#include "lib/cpus.h"
#include "lib/kfile.h"

/* The fair server's defaults (deadline.c, 6.12 on): what the analysis bounds a stretch by */
#define FAIR_DEFAULT_RUNTIME_NS 50000000LL

/* CONFIG_RT_GROUP_SCHED: from the configuration, else from cgroup v1's cpu.rt_runtime_us. */
static void group_sched(struct rt_bandwidth *b, const struct rt_kernel *k, const char *root)
{
	char dir[512], path[PATH_MAX + 32];

	b->group_sched = rt_kernel_config(k, "CONFIG_RT_GROUP_SCHED");
	if (b->group_sched >= 0) {
		snprintf(b->group_source, sizeof(b->group_source), "%.150s", k->config.source);
		return;
	}
	rt_kfile_mount(root, "cgroup", "cpu", dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s%s/cpu.rt_runtime_us", root, dir);
	if (dir[0] && rt_kfile_long(path, LONG_MIN) != LONG_MIN) {
		b->group_sched = 1;
		snprintf(b->group_source, sizeof(b->group_source),
			 "cpu.rt_runtime_us in cgroup v1's cpu controller");
	}
}

/* The fair server's runtime and period on each of @cpus, or why they cannot be read. */
static void fair_values(struct rt_bandwidth *b, const struct bitmask *cpus, const char *root)
{
	int i, n = rt_cpus_count(cpus), ret = 0;
	char path[PATH_MAX], buf[64];

	b->fair = calloc(n > 0 ? (size_t)n : 1, sizeof(*b->fair));
	if (!b->fair) {
		snprintf(b->fair_why, sizeof(b->fair_why), "out of memory");
		return;
	}
	for (i = 0; i < n && !ret; i++) {
		struct rt_bw_fair *f = &b->fair[i];

		f->cpu = rt_cpus_nth(cpus, i);
		snprintf(path, sizeof(path), "%s/sys/kernel/debug/sched/fair_server/cpu%d/runtime",
			 root, f->cpu);
		ret = rt_kfile_read(path, buf, sizeof(buf));
		if (ret > 0) {
			f->runtime_ns = strtoll(buf, NULL, 10);
			snprintf(path, sizeof(path),
				 "%s/sys/kernel/debug/sched/fair_server/cpu%d/period", root, f->cpu);
			ret = rt_kfile_read(path, buf, sizeof(buf));
			f->period_ns = ret > 0 ? strtoll(buf, NULL, 10) : 0;
		}
		ret = ret > 0 ? 0 : ret ? ret : -EIO;
	}
	if (!ret && n > 0) {
		b->nfair = (size_t)n;
		return;
	}
	free(b->fair);
	b->fair = NULL;
	rt_kernel_why(b->fair_why, sizeof(b->fair_why), path, ret ? ret : -EINVAL);
}

static bool fair_acts(const struct rt_bandwidth *b)
{
	size_t i;

	for (i = 0; i < b->nfair; i++) {
		if (b->fair[i].runtime_ns > 0)
			return true;
	}
	return !b->fair;	/* values unknown: the kernel's default is on */
}

/* RT throttling: before 6.12 always there; from 6.12 with RT group scheduling only. */
static void throttling(struct rt_bandwidth *b, const struct rt_kernel *k, const char *root)
{
	bool limited = b->rt_runtime_us >= 0 && b->rt_runtime_us < b->rt_period_us;
	char cmdline[4096] = "", path[PATH_MAX];
	int since = rt_kernel_since(k, 6, 12);

	if (b->rt_runtime_us == LONG_MIN || b->rt_period_us == LONG_MIN) {
		b->throttling = since == 1 ? 0 : -1;
		if (b->throttling < 0)
			snprintf(b->why, sizeof(b->why), "the kernel has no sched_rt_runtime_us");
		return;
	}
	if (since == 0) {
		/* told for the record: before 6.12 the root group throttles either way */
		group_sched(b, k, root);
		b->throttling = limited;
		return;
	}
	if (since < 0) {
		b->throttling = -1;
		snprintf(b->why, sizeof(b->why), "the kernel's release '%s' is not a version",
			 k->release);
		return;
	}
	group_sched(b, k, root);
	snprintf(path, sizeof(path), "%s/proc/cmdline", root);
	if (rt_kfile_read(path, cmdline, sizeof(cmdline)) < 0)
		cmdline[0] = '\0';
	/* 6.16 on: RT group scheduling can be built in and switched off at boot */
	if (b->group_sched == 1 &&
	    (strstr(cmdline, "rt_group_sched=0") ||
	     (rt_kernel_config(k, "CONFIG_RT_GROUP_SCHED_DEFAULT_DISABLED") == 1 &&
	      !strstr(cmdline, "rt_group_sched=1")))) {
		b->throttling = -1;
		snprintf(b->why, sizeof(b->why),
			 "RT group scheduling is built but off at boot (rt_group_sched=0 or its "
			 "default), which rtsched does not tell apart from RT throttling");
		return;
	}
	if (b->group_sched < 0) {
		b->throttling = -1;
		snprintf(b->why, sizeof(b->why),
			 "from 6.12 RT throttling exists only with CONFIG_RT_GROUP_SCHED, and the "
			 "kernel's configuration cannot be read (no /proc/config.gz, no "
			 "/boot/config-%s, no cgroup v1 cpu controller)",
			 k->release);
		return;
	}
	b->throttling = b->group_sched && limited;
}

/**
 * rt_bandwidth_read - the RT bandwidth regime of the kernel @k, with the fair
 * server's values on @cpus
 * @root: "" for this machine, or a fixture tree with proc/, sys/, boot/
 *
 * Returns 0 (what cannot be told is unknown, with why set), or -ENOMEM.
 * rt_bandwidth_free() frees it.
 */
int rt_bandwidth_read(struct rt_bandwidth *b, const struct rt_kernel *k,
		      const struct bitmask *cpus, const char *root)
{
	char path[PATH_MAX];
	int since = rt_kernel_since(k, 6, 12);
	int fair;

	memset(b, 0, sizeof(*b));
	b->group_sched = -1;
	snprintf(path, sizeof(path), "%s/proc/sys/kernel/sched_rt_runtime_us", root);
	b->rt_runtime_us = rt_kfile_long(path, LONG_MIN);
	snprintf(path, sizeof(path), "%s/proc/sys/kernel/sched_rt_period_us", root);
	b->rt_period_us = rt_kfile_long(path, LONG_MIN);
	throttling(b, k, root);
	b->fair_server = since;
	if (since == 1)
		fair_values(b, cpus, root);
	if (!b->fair && !b->fair_why[0] && since == 1)
		return -ENOMEM;
	fair = b->fair_server == 1 ? fair_acts(b) : b->fair_server;
	if (b->throttling < 0 || fair < 0)
		b->regime = RT_BW_UNKNOWN;
	else if (b->throttling && fair)
		b->regime = RT_BW_BOTH;
	else if (b->throttling)
		b->regime = RT_BW_THROTTLING;
	else if (fair)
		b->regime = RT_BW_FAIR_SERVER;
	else
		b->regime = RT_BW_NEITHER;
	if (b->regime == RT_BW_UNKNOWN && !b->why[0])
		snprintf(b->why, sizeof(b->why), "the kernel's release '%s' is not a version",
			 k->release);
	return 0;
}

void rt_bandwidth_free(struct rt_bandwidth *b)
{
	free(b->fair);
	b->fair = NULL;
	b->nfair = 0;
}

/**
 * rt_bandwidth_fair_same - whether every CPU's fair server has the values
 * of the first (1), or not (0); -1 when they are unknown
 */
int rt_bandwidth_fair_same(const struct rt_bandwidth *b)
{
	size_t i;

	if (!b->fair)
		return -1;
	for (i = 1; i < b->nfair; i++) {
		if (b->fair[i].runtime_ns != b->fair[0].runtime_ns ||
		    b->fair[i].period_ns != b->fair[0].period_ns)
			return 0;
	}
	return 1;
}

/**
 * rt_bandwidth_limit_ns - the longest the regime takes a CPU from its RT
 * tasks at a time, as configured: the rest of the RT period when
 * throttling, the fair server's runtime; the kernels' default (50 ms) for
 * what is not known
 */
int64_t rt_bandwidth_limit_ns(const struct rt_bandwidth *b)
{
	int64_t limit = 0;
	size_t i;

	if (b->throttling == 1)
		limit = ((int64_t)b->rt_period_us - b->rt_runtime_us) * 1000;
	for (i = 0; i < b->nfair; i++) {
		if (b->fair[i].runtime_ns > limit)
			limit = b->fair[i].runtime_ns;
	}
	if (b->fair_server == 1 && !b->fair && limit < FAIR_DEFAULT_RUNTIME_NS)
		limit = FAIR_DEFAULT_RUNTIME_NS;
	return limit > 0 ? limit : FAIR_DEFAULT_RUNTIME_NS;
}
