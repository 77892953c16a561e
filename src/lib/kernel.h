/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_KERNEL_H
#define RT_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/kconfig.h"

#define RT_KERNEL_WHY 192

/*
 * The running kernel's scheduler as the kernel itself shows it: its release,
 * configuration, preemption model and mode, scheduler features and
 * sched_ext. What cannot be read is empty, with a sentence saying why.
 */
struct rt_kernel {
	char release[128];
	char version[256];		/* "#1 SMP PREEMPT_DYNAMIC ..." */
	char boot_id[40];		/* this boot's random id (random/boot_id); "" unknown */
	int major, minor;		/* of the release; -1 unknown */
	struct rt_kconfig config;	/* .text NULL: not found */
	char model[32];			/* "PREEMPT_RT", "PREEMPT_DYNAMIC", "PREEMPT", "PREEMPT_LAZY",
					   "voluntary", "none", "unknown" */
	char mode[16];			/* the mode in force: "none", "voluntary", "full", "lazy"; "" unknown */
	char mode_source[64];		/* where it was read: "debugfs", "preempt= at boot", ... */
	char mode_why[RT_KERNEL_WHY];	/* when debugfs did not say: why */
	char features[2048];		/* sched features, space-separated; "" unknown */
	char features_why[RT_KERNEL_WHY];
	char sched_ext[96];		/* "disabled", "enabled: OPS", "not built", ...; "" unknown */
	char sched_ext_why[RT_KERNEL_WHY];
};

int rt_kernel_read(struct rt_kernel *k, const char *root);
void rt_kernel_free(struct rt_kernel *k);
int rt_kernel_since(const struct rt_kernel *k, int major, int minor);
int rt_kernel_config(const struct rt_kernel *k, const char *name);
int rt_kernel_feature(const struct rt_kernel *k, const char *name);
int rt_kernel_describe(const struct rt_kernel *k, char *buf, size_t len);
void rt_kernel_why(char *buf, size_t len, const char *path, int err);

#endif
