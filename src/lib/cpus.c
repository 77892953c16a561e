// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CPUs this process may use, CPU lists in libnuma's syntax, pinning and
 * NUMA nodes.
 */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/cpus.h"

/*
 * libnuma reports through numa_warn() and numa_error(), weak symbols that
 * print to stderr by default. The library never prints: keep the last
 * message so that a program can quote it.
 */
static __thread char numa_message[256];

__attribute__((format(printf, 2, 3))) void numa_warn(int num, char *fmt, ...)
{
	va_list ap;
	size_t n;

	(void)num;
	va_start(ap, fmt);
	vsnprintf(numa_message, sizeof(numa_message), fmt, ap);
	va_end(ap);
	n = strlen(numa_message);
	while (n && numa_message[n - 1] == '\n')
		numa_message[--n] = '\0';
}

void numa_error(char *where)
{
	snprintf(numa_message, sizeof(numa_message), "%s: %s", where, strerror(errno));
}

/**
 * rt_cpus_numa_message - the last warning or error libnuma gave this thread
 *
 * Returns "" when there was none.
 */
const char *rt_cpus_numa_message(void)
{
	return numa_message;
}

/**
 * rt_cpus_usable - the CPUs this process may run on
 *
 * The scheduler affinity mask, so that taskset and cgroup cpusets count, not
 * the number of CPUs in the machine.
 *
 * Returns a mask to free with numa_free_cpumask(), or NULL with errno set.
 */
struct bitmask *rt_cpus_usable(void)
{
	struct bitmask *mask = numa_allocate_cpumask();

	if (!mask) {
		errno = ENOMEM;
		return NULL;
	}
	if (numa_sched_getaffinity(0, mask) < 0) {
		int err = errno;

		numa_free_cpumask(mask);
		errno = err;
		return NULL;
	}
	return mask;
}

/*
 * libnuma reads each number of a CPU list with strtoul() but checks it as an
 * int: 4294967296 passes as 0, and "0-4294967296" then loops four billion
 * times and yields a mask (found by fuzz_cpus). No CPU number has more than
 * 9 digits: refuse longer ones, leading zeros aside, before libnuma sees
 * them. It also reads a range that runs backwards ("1-0") as its first CPU
 * alone, where taskset refuses it: refused too (errno ERANGE). Returns
 * false, with the message and errno set, for such a list.
 */
static bool numbers_in_range(const char *list)
{
	const char *p = list, *start;
	unsigned long n, prev = 0;
	bool range = false;

	while (*p) {
		if (*p < '0' || *p > '9') {
			/* "A-B": B is the end of a range that starts at A */
			range = *p == '-' && p > list && p[-1] >= '0' && p[-1] <= '9';
			p++;
			continue;
		}
		while (*p == '0' && p[1] >= '0' && p[1] <= '9')
			p++;
		for (start = p; *p >= '0' && *p <= '9'; p++)
			;
		if (p - start > 9) {
			snprintf(numa_message, sizeof(numa_message),
				 "cpu argument %.*s out of range", (int)(p - start), start);
			return false;
		}
		n = strtoul(start, NULL, 10);
		if (range && n < prev) {
			snprintf(numa_message, sizeof(numa_message), "the range %lu-%lu runs backwards",
				 prev, n);
			errno = ERANGE;
			return false;
		}
		range = false;
		prev = n;
	}
	return true;
}

/**
 * rt_cpus_parse - parse a CPU list ("0-3,6", "all", "!1") with libnuma
 * @usable: the CPUs the list may name
 * @bad_cpu: set to the first listed CPU outside @usable, else -1
 *
 * Returns a mask to free with numa_free_cpumask(), or NULL with errno set:
 * EINVAL for text libnuma cannot parse (rt_cpus_numa_message() may say more),
 * ERANGE for a range that runs backwards ("1-0", which libnuma reads as 1;
 * taskset refuses it), ENOENT for a list naming no CPU, EPERM for a CPU
 * outside @usable.
 */
struct bitmask *rt_cpus_parse(const char *list, const struct bitmask *usable, int *bad_cpu)
{
	struct bitmask *mask;
	unsigned int cpu;

	*bad_cpu = -1;
	numa_message[0] = '\0';
	errno = EINVAL;
	if (!numbers_in_range(list))
		return NULL;
	mask = numa_parse_cpustring_all(list);
	if (!mask) {
		errno = EINVAL;
		return NULL;
	}
	if (!rt_cpus_count(mask)) {
		numa_free_cpumask(mask);
		errno = ENOENT;
		return NULL;
	}
	for (cpu = 0; cpu < mask->size; cpu++) {
		if (numa_bitmask_isbitset(mask, cpu) &&
		    (cpu >= usable->size || !numa_bitmask_isbitset(usable, cpu))) {
			*bad_cpu = (int)cpu;
			numa_free_cpumask(mask);
			errno = EPERM;
			return NULL;
		}
	}
	return mask;
}

/**
 * rt_cpus_count - how many CPUs @cpus holds
 */
int rt_cpus_count(const struct bitmask *cpus)
{
	return (int)numa_bitmask_weight(cpus);
}

/**
 * rt_cpus_nth - the @n-th CPU of @cpus, counting from 0
 *
 * Returns the CPU number, or -ENOENT when @cpus holds @n or fewer CPUs.
 */
int rt_cpus_nth(const struct bitmask *cpus, int n)
{
	unsigned int cpu;

	for (cpu = 0; cpu < cpus->size; cpu++) {
		if (numa_bitmask_isbitset(cpus, cpu) && n-- == 0)
			return (int)cpu;
	}
	return -ENOENT;
}

/**
 * rt_cpus_format - write @cpus as a list of ranges, "0-3,6"
 *
 * Returns the length of the whole list; it was cut if that is @len or more.
 */
int rt_cpus_format(const struct bitmask *cpus, char *buf, size_t len)
{
	unsigned int cpu, first;
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	for (cpu = 0; cpu < cpus->size; cpu++) {
		if (!numa_bitmask_isbitset(cpus, cpu))
			continue;
		first = cpu;
		while (cpu + 1 < cpus->size && numa_bitmask_isbitset(cpus, cpu + 1))
			cpu++;
		n += (size_t)snprintf(buf + (n < len ? n : len), n < len ? len - n : 0,
				      first == cpu ? "%s%u" : "%s%u-%u", n ? "," : "", first, cpu);
	}
	return (int)n;
}

/**
 * rt_cpus_set_affinity - let the calling thread (and threads it creates) run on @cpus
 *
 * Returns 0 or a negative errno.
 */
int rt_cpus_set_affinity(const struct bitmask *cpus)
{
	/* libnuma's prototype takes a non-const mask it does not modify */
	if (numa_sched_setaffinity(0, (struct bitmask *)cpus) < 0)
		return -errno;
	return 0;
}

static int to_cpu_set(const struct bitmask *cpus, cpu_set_t *set)
{
	unsigned int cpu;

	CPU_ZERO(set);
	for (cpu = 0; cpu < cpus->size; cpu++) {
		if (!numa_bitmask_isbitset(cpus, cpu))
			continue;
		if (cpu >= CPU_SETSIZE)
			return -EOVERFLOW;
		CPU_SET(cpu, set);
	}
	return 0;
}

/**
 * rt_cpus_format_set - rt_cpus_format() of a cpu_set_t
 *
 * Returns the length of the whole list, or -ENOMEM.
 */
int rt_cpus_format_set(const cpu_set_t *set, char *buf, size_t len)
{
	struct bitmask *b = numa_allocate_cpumask();
	unsigned int cpu;
	int n;

	if (!b)
		return -ENOMEM;
	for (cpu = 0; cpu < b->size && cpu < CPU_SETSIZE; cpu++) {
		if (CPU_ISSET(cpu, set))
			numa_bitmask_setbit(b, cpu);
	}
	n = rt_cpus_format(b, buf, len);
	numa_free_cpumask(b);
	return n;
}

/* A CPU number of a list at *@p, moving past it: 0 or -EINVAL, -EOVERFLOW. */
static int list_number(const char **p, unsigned long *n)
{
	const char *start = *p;

	*n = 0;
	for (; **p >= '0' && **p <= '9'; (*p)++) {
		*n = *n * 10 + (unsigned long)(**p - '0');
		if (*n >= CPU_SETSIZE)
			return -EOVERFLOW;
	}
	return *p > start ? 0 : -EINVAL;
}

/**
 * rt_cpus_parse_set - a list of CPUs ("0-3,6"), of this machine or another
 * one's (a trace's, analyse --affinity), into @set. Not libnuma's parser:
 * it takes only the CPUs this machine has, and a trace's machine may have
 * more.
 *
 * Returns 0, -EINVAL for text that is no list (or a range that runs
 * backwards), -EOVERFLOW for a CPU past CPU_SETSIZE.
 */
int rt_cpus_parse_set(const char *list, cpu_set_t *set)
{
	const char *p = list;
	unsigned long lo, hi, cpu;
	int ret;

	CPU_ZERO(set);
	do {
		ret = list_number(&p, &lo);
		hi = lo;
		if (!ret && *p == '-') {
			p++;
			ret = list_number(&p, &hi);
		}
		if (!ret && hi < lo)
			ret = -EINVAL;
		if (ret)
			return ret;
		for (cpu = lo; cpu <= hi; cpu++)
			CPU_SET(cpu, set);
	} while (*p++ == ',');
	return p[-1] ? -EINVAL : 0;
}

/**
 * rt_cpus_attr_affinity - have threads created with @attr start on @cpus
 *
 * Returns 0 or a negative errno.
 */
int rt_cpus_attr_affinity(pthread_attr_t *attr, const struct bitmask *cpus)
{
	cpu_set_t set;
	int ret;

	ret = to_cpu_set(cpus, &set);
	if (ret)
		return ret;
	return -pthread_attr_setaffinity_np(attr, sizeof(set), &set);
}

/**
 * rt_cpu_attr_pin - have threads created with @attr start on @cpu alone
 *
 * Returns 0 or a negative errno.
 */
int rt_cpu_attr_pin(pthread_attr_t *attr, int cpu)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return -EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return -pthread_attr_setaffinity_np(attr, sizeof(set), &set);
}

/**
 * rt_cpu_pin - bind the calling thread to @cpu alone
 *
 * Returns 0 or a negative errno.
 */
int rt_cpu_pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return -EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		return -errno;
	return 0;
}

/**
 * rt_cpu_node - the NUMA node of @cpu
 *
 * Returns the node, 0 where the kernel has no NUMA support, or a negative
 * errno.
 */
int rt_cpu_node(int cpu)
{
	int node;

	if (numa_available() < 0)
		return 0;
	node = numa_node_of_cpu(cpu);
	return node < 0 ? -errno : node;
}
