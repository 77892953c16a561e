/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_ENV_H
#define RT_ENV_H

#include <numa.h>
#include <stdbool.h>
#include <stdint.h>

/* What about this machine makes a scheduler benchmark's numbers doubtful. */
struct rt_env {
	char offline[256];		/* offline CPUs of the machine; "" none */
	char governor[64];		/* of the run's CPUs: a name, "mixed" or "" unknown */
};

int rt_env_read(struct rt_env *e, const struct bitmask *cpus, const char *sys_root);

#endif
