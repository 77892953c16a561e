/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_SCHED_H
#define RT_SCHED_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

/* The highest SCHED_FIFO priority (sched_get_priority_max() on Linux) */
#define RT_PRIO_MAX 99

/* What stands between this process and SCHED_FIFO, as far as it can be seen. */
struct rt_privilege {
	bool root;		/* effective uid 0 */
	bool cap_sys_nice;	/* CAP_SYS_NICE in the effective set */
	long rlimit_rtprio;	/* RLIMIT_RTPRIO soft limit, -1 for unlimited */
	bool cgroup_no_rt;	/* the cpu cgroup (v1, RT_GROUP_SCHED) grants no RT runtime */
	char cgroup_file[PATH_MAX];	/* the cpu.rt_runtime_us file that says so */
};

int rt_sched_set_fifo(pthread_t thread, int prio);
int rt_sched_attr_fifo(pthread_attr_t *attr, int prio);
int rt_sched_attr_other(pthread_attr_t *attr);
int rt_sched_attr_stack(pthread_attr_t *attr, size_t size);
void rt_sched_leave(void);
int rt_sched_probe(int prio);
void rt_sched_privilege(struct rt_privilege *priv, const char *proc_root, const char *cgroup_root);
int rt_sched_realtime(void);

#endif
