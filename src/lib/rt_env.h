/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_ENV_H
#define RT_ENV_H

#include <numa.h>
#include <stdbool.h>
#include <stdint.h>

/* What about this machine makes a scheduler benchmark's numbers doubtful. */
struct rt_env {
	int64_t fair_runtime_ns;	/* the fair server's runtime per period, -1 unknown */
	int64_t fair_period_ns;
	char isolated[256];		/* isolated CPUs of the run's, as a list; "" none */
	char offline[256];		/* offline CPUs of the machine; "" none */
	char governor[64];		/* of the run's CPUs: a name, "mixed" or "" unknown */
};

int rt_env_read(struct rt_env *e, const struct bitmask *cpus, const char *sys_root);

#endif
