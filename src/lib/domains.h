/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_DOMAINS_H
#define RT_DOMAINS_H

#include <numa.h>
#include <stdbool.h>
#include <stddef.h>

#define RT_DOMAINS_MAX 64

/*
 * A root domain: the CPUs among which the RT scheduler pushes and pulls
 * tasks (cpupri, the overload mask). The CPUs of one scheduling partition
 * share one: the machine's, each valid cgroup v2 "root" partition's. CPUs
 * without scheduling domains (isolcpus=domain, cgroup v2 "isolated"
 * partitions) all share the kernel's default root domain.
 */
struct rt_domain {
	char name[160];			/* "the machine's", "cgroup partition /rt", "isolated" */
	struct bitmask *cpus;
};

struct rt_domains {
	struct bitmask *online;		/* NULL: what the kernel said could not be read */
	struct bitmask *isolated;	/* no scheduling domain: isolcpus=domain, isolated partitions */
	struct bitmask *nohz_full;	/* nohz_full= */
	struct bitmask *cpuset;		/* the CPUs the process's cpuset gives it; NULL unknown */
	char partition[400];		/* the process's cpuset partition, in words; "" unknown */
	struct rt_domain dom[RT_DOMAINS_MAX];
	size_t n;			/* 0: the root domains are unknown (why says) */
	char why[256];
};

int rt_domains_read(struct rt_domains *d, const char *root);
void rt_domains_free(struct rt_domains *d);
int rt_domains_of(const struct rt_domains *d, const struct bitmask *cpus, size_t *which,
		  size_t max);
struct bitmask *rt_domains_housekeeping(const struct rt_domains *d, const struct bitmask *cpus);
bool rt_domains_quiet(const struct rt_domains *d, int cpu);

#endif
