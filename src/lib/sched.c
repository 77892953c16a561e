// SPDX-License-Identifier: GPL-2.0-only
/*
 * SCHED_FIFO for threads, their stacks, a privilege probe that really
 * tries it, and whether the kernel says it is PREEMPT_RT.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "lib/kfile.h"
#include "lib/sched.h"

#define CAP_SYS_NICE_BIT 23

/**
 * rt_sched_set_fifo - make @thread SCHED_FIFO at @prio
 *
 * Returns 0 or a negative errno (pthread's positive codes are negated).
 */
int rt_sched_set_fifo(pthread_t thread, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return -pthread_setschedparam(thread, SCHED_FIFO, &sp);
}

static int attr_policy(pthread_attr_t *attr, int policy, int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	int ret;

	ret = pthread_attr_setinheritsched(attr, PTHREAD_EXPLICIT_SCHED);
	if (!ret)
		ret = pthread_attr_setschedpolicy(attr, policy);
	if (!ret)
		ret = pthread_attr_setschedparam(attr, &sp);
	return -ret;
}

/**
 * rt_sched_leave - the calling thread's RT part is over: make it SCHED_OTHER
 *
 * For a benchmark thread whose measured part is over and which only has
 * its exit left. Under ThreadSanitizer the exit takes the runtime's spin
 * locks, which spin with sched_yield(): a thread ending at a high RT
 * priority would spin for ever above a lower-priority thread holding one on
 * the same CPU. Nothing measured changes; a failure is ignored.
 */
void rt_sched_leave(void)
{
	struct sched_param sp = { .sched_priority = 0 };

	pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp);
}

/**
 * rt_sched_attr_fifo - have threads created with @attr start as SCHED_FIFO @prio
 *
 * The thread then never runs a single instruction under another policy.
 *
 * Returns 0 or a negative errno.
 */
int rt_sched_attr_fifo(pthread_attr_t *attr, int prio)
{
	return attr_policy(attr, SCHED_FIFO, prio);
}

/**
 * rt_sched_attr_other - have threads created with @attr start as SCHED_OTHER
 *
 * For a helper created by a SCHED_FIFO thread that must never preempt the
 * RT threads: it runs only where a CPU has no RT work.
 *
 * Returns 0 or a negative errno.
 */
int rt_sched_attr_other(pthread_attr_t *attr)
{
	return attr_policy(attr, SCHED_OTHER, 0);
}

/**
 * rt_sched_attr_stack - give threads created with @attr a stack of @size
 * bytes, or the system's least where that is more
 *
 * The least differs by architecture: 16 KiB on x86_64, 128 KiB on arm64
 * (glibc's, for 64 KiB pages and SVE's signal frames), where a smaller
 * size is refused (EINVAL).
 *
 * Returns 0 or a negative errno.
 */
int rt_sched_attr_stack(pthread_attr_t *attr, size_t size)
{
	long least = sysconf(_SC_THREAD_STACK_MIN);

	if (least > 0 && (size_t)least > size)
		size = (size_t)least;
	return -pthread_attr_setstacksize(attr, size);
}

/**
 * rt_sched_probe - can the calling thread run SCHED_FIFO at @prio?
 *
 * Really switches the calling thread to SCHED_FIFO @prio and back: uid 0 is
 * neither necessary (CAP_SYS_NICE, RLIMIT_RTPRIO) nor sufficient (an RT cgroup
 * without runtime refuses root too).
 *
 * Returns 0 when it can, a negative errno (-EPERM, -EINVAL) when it cannot.
 */
int rt_sched_probe(int prio)
{
	struct sched_param old, sp = { .sched_priority = prio };
	int policy, ret;

	ret = pthread_getschedparam(pthread_self(), &policy, &old);
	if (ret)
		return -ret;
	ret = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	if (ret)
		return -ret;
	return -pthread_setschedparam(pthread_self(), policy, &old);
}

/* The path of the v1 "cpu" controller's cgroup in /proc/self/cgroup, or NULL. */
static const char *cpu_cgroup_v1(char *buf, size_t len, const char *proc_root)
{
	char path[PATH_MAX], *line, *save;

	snprintf(path, sizeof(path), "%s/self/cgroup", proc_root);
	if (rt_kfile_read(path, buf, len) <= 0)
		return NULL;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *ctrl = strchr(line, ':'), *where, *c, *csave;

		if (!ctrl)
			continue;
		where = strchr(++ctrl, ':');
		if (!where)
			continue;
		*where++ = '\0';
		for (c = strtok_r(ctrl, ",", &csave); c; c = strtok_r(NULL, ",", &csave)) {
			if (!strcmp(c, "cpu"))
				return where;
		}
	}
	return NULL;
}

/**
 * rt_sched_privilege - describe what grants or denies SCHED_FIFO here
 * @proc_root: "/proc" (tests pass a fixture tree)
 * @cgroup_root: "/sys/fs/cgroup"
 *
 * Fills @priv from the effective uid, CapEff in /proc/self/status,
 * RLIMIT_RTPRIO and, for cgroup v1 with RT group scheduling, the cpu
 * controller's cpu.rt_runtime_us. Used to explain a failed rt_sched_probe().
 */
void rt_sched_privilege(struct rt_privilege *priv, const char *proc_root, const char *cgroup_root)
{
	char buf[4096], path[PATH_MAX + 64];
	const char *cg;
	struct rlimit rl;
	char *cap;

	memset(priv, 0, sizeof(*priv));
	priv->root = geteuid() == 0;
	snprintf(path, sizeof(path), "%s/self/status", proc_root);
	if (rt_kfile_read(path, buf, sizeof(buf)) > 0 && (cap = strstr(buf, "\nCapEff:"))) {
		unsigned long long caps = strtoull(cap + 8, NULL, 16);

		priv->cap_sys_nice = caps & (1ULL << CAP_SYS_NICE_BIT);
	}
	priv->rlimit_rtprio = 0;
	if (!getrlimit(RLIMIT_RTPRIO, &rl))
		priv->rlimit_rtprio = rl.rlim_cur == RLIM_INFINITY ? -1 : (long)rl.rlim_cur;

	cg = cpu_cgroup_v1(buf, sizeof(buf), proc_root);
	if (cg) {
		static const char *const mounts[] = { "cpu,cpuacct", "cpu" };
		size_t i;

		for (i = 0; i < sizeof(mounts) / sizeof(mounts[0]); i++) {
			snprintf(priv->cgroup_file, sizeof(priv->cgroup_file),
				 "%s/%s%s/cpu.rt_runtime_us", cgroup_root, mounts[i], cg);
			if (rt_kfile_long(priv->cgroup_file, -2) == 0) {
				priv->cgroup_no_rt = true;
				break;
			}
		}
		if (!priv->cgroup_no_rt)
			priv->cgroup_file[0] = '\0';
	}
}

/**
 * rt_sched_realtime - the value of /sys/kernel/realtime (1 on PREEMPT_RT)
 *
 * Returns 1 or 0, or -ENOENT when the file does not exist (not PREEMPT_RT).
 */
int rt_sched_realtime(void)
{
	long v = rt_kfile_long("/sys/kernel/realtime", -1);

	return v < 0 ? -ENOENT : (int)v;
}
