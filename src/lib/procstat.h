/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_PROCSTAT_H
#define RT_PROCSTAT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* A thread's scheduler counters at one moment. */
struct rt_counters {
	uint64_t vol;		/* voluntary_ctxt_switches: the thread blocked or slept */
	uint64_t nonvol;	/* nonvoluntary_ctxt_switches: it was preempted */
	uint64_t migrations;	/* se.nr_migrations, when have_migrations */
	bool have_migrations;	/* false: the kernel has no /proc/.../sched file */
};

int rt_procstat_parse_status(const char *buf, struct rt_counters *c);
int rt_procstat_parse_sched(const char *buf, struct rt_counters *c);
int rt_procstat_read(const char *proc_root, pid_t tid, struct rt_counters *c);
/* A task as /proc/PID/stat has it. */
struct rt_task {
	char comm[64];		/* its name (a worker's may pass the 15 bytes of the others') */
	char state;		/* R running or runnable (or being woken), S, D, T, Z, I... */
	bool kthread;		/* PF_KTHREAD: a kernel thread */
};

int rt_procstat_task(const char *proc_root, pid_t pid, struct rt_task *t);
void rt_counters_delta(const struct rt_counters *end, const struct rt_counters *start,
		       struct rt_counters *delta);

#endif
