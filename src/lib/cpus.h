/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_CPUS_H
#define RT_CPUS_H

#include <numa.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>

struct bitmask *rt_cpus_usable(void);
struct bitmask *rt_cpus_parse(const char *list, const struct bitmask *usable, int *bad_cpu);
int rt_cpus_count(const struct bitmask *cpus);
int rt_cpus_nth(const struct bitmask *cpus, int n);
int rt_cpus_format(const struct bitmask *cpus, char *buf, size_t len);
int rt_cpus_format_set(const cpu_set_t *set, char *buf, size_t len);
int rt_cpus_parse_set(const char *list, cpu_set_t *set);
int rt_cpus_set_affinity(const struct bitmask *cpus);
int rt_cpus_attr_affinity(pthread_attr_t *attr, const struct bitmask *cpus);
int rt_cpu_attr_pin(pthread_attr_t *attr, int cpu);
int rt_cpu_pin(int cpu);
int rt_cpu_node(int cpu);
const char *rt_cpus_numa_message(void);

#endif
