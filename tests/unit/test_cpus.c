// SPDX-License-Identifier: GPL-2.0-only
/* CPU lists: libnuma's parser behind our checks, formatting, and silence. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/cpus.h"
#include "harness.h"

static struct bitmask *mask_of(const int *cpus, int n)
{
	struct bitmask *m = numa_allocate_cpumask();
	int i;

	for (i = 0; i < n; i++)
		numa_bitmask_setbit(m, (unsigned int)cpus[i]);
	return m;
}

TEST(format)
{
	static const int a[] = { 0, 1, 2, 3, 6 }, b[] = { 1 }, c[] = { 0, 2, 4, 5 };
	struct bitmask *m;
	char buf[64];

	m = mask_of(a, 5);
	rt_cpus_format(m, buf, sizeof(buf));
	EXPECT_STR(buf, "0-3,6");
	EXPECT_EQ(rt_cpus_count(m), 5);
	EXPECT_EQ(rt_cpus_nth(m, 4), 6);
	EXPECT_EQ(rt_cpus_nth(m, 5), -ENOENT);
	/* a short buffer reports the full length, and holds a cut, terminated string */
	EXPECT_EQ(rt_cpus_format(m, buf, 4), 5);
	EXPECT_STR(buf, "0-3");
	numa_free_cpumask(m);
	m = mask_of(b, 1);
	rt_cpus_format(m, buf, sizeof(buf));
	EXPECT_STR(buf, "1");
	numa_free_cpumask(m);
	m = mask_of(c, 4);
	rt_cpus_format(m, buf, sizeof(buf));
	EXPECT_STR(buf, "0,2,4-5");
	numa_free_cpumask(m);
}

/* The library must not write to stderr, even when libnuma wants to warn. */
TEST(parse_silently)
{
	struct bitmask *usable = rt_cpus_usable(), *m;
	char path[] = "/tmp/rtsched-stderr-XXXXXX";
	int fd, saved, bad, first;
	char list[32];
	off_t size;

	ASSERT(usable && rt_cpus_count(usable) >= 1, "the usable CPUs are known");
	first = rt_cpus_nth(usable, 0);
	fd = mkstemp(path);
	saved = dup(2);
	dup2(fd, 2);

	snprintf(list, sizeof(list), "%d", first);
	m = rt_cpus_parse(list, usable, &bad);
	EXPECT(m && rt_cpus_count(m) == 1 && rt_cpus_nth(m, 0) == first, "'%s' parses", list);
	numa_free_cpumask(m);

	errno = 0;
	EXPECT(!rt_cpus_parse("abc", usable, &bad) && errno == EINVAL, "'abc' is EINVAL");
	EXPECT(*rt_cpus_numa_message() != '\0', "libnuma's reason kept: %s",
	       rt_cpus_numa_message());
	EXPECT(!rt_cpus_parse("100000", usable, &bad) && errno == EINVAL,
	       "a CPU past the machine's is EINVAL");
	EXPECT(!rt_cpus_parse("", usable, &bad) && errno == ENOENT, "an empty list is ENOENT");
	EXPECT(!rt_cpus_parse("0-", usable, &bad), "'0-' is refused");
	EXPECT(!rt_cpus_parse("1-0", usable, &bad) && errno == ERANGE,
	       "a range that runs backwards, '1-0', is ERANGE (libnuma reads it as 1)");
	EXPECT_STR(rt_cpus_numa_message(), "the range 1-0 runs backwards");
	EXPECT(!rt_cpus_parse("0,3-2", usable, &bad) && errno == ERANGE,
	       "a backward range after another CPU, '0,3-2', is ERANGE");
	m = rt_cpus_parse("0-0", usable, &bad);
	EXPECT(m && rt_cpus_count(m) == 1, "'0-0' is CPU 0");
	if (m)
		numa_free_cpumask(m);

	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	size = lseek(fd, 0, SEEK_END);
	close(fd);
	unlink(path);
	EXPECT_EQ(size, 0);	/* nothing was printed to stderr */
	numa_free_cpumask(usable);
}

/* A CPU that exists but that the affinity mask excludes is EPERM. */
TEST(outside_affinity)
{
	struct bitmask *all = rt_cpus_usable(), *one, *m;
	int bad, second;
	char list[32];

	if (rt_cpus_count(all) < 2)
		TEST_SKIP("needs two usable CPUs, this process has one");
	second = rt_cpus_nth(all, 1);
	one = numa_allocate_cpumask();
	numa_bitmask_setbit(one, (unsigned int)rt_cpus_nth(all, 0));
	ASSERT(rt_cpus_set_affinity(one) == 0, "pin to the first usable CPU");
	numa_free_cpumask(one);
	one = rt_cpus_usable();
	EXPECT_EQ(rt_cpus_count(one), 1);	/* now one CPU is usable */
	snprintf(list, sizeof(list), "%d", second);
	m = rt_cpus_parse(list, one, &bad);
	EXPECT(!m && errno == EPERM && bad == second, "CPU %d outside the mask is EPERM", second);
	EXPECT_EQ(rt_cpus_set_affinity(all), 0);	/* restore the affinity */
	EXPECT(rt_cpu_pin(second) == 0, "rt_cpu_pin to CPU %d", second);
	EXPECT_EQ(sched_getcpu(), second);	/* runs there */
	EXPECT(rt_cpu_node(second) >= 0, "CPU %d is on a NUMA node", second);
	rt_cpus_set_affinity(all);
	numa_free_cpumask(one);
	numa_free_cpumask(all);
}

/*
 * Another machine's CPUs (a trace's affinity, analyse --affinity): a list
 * past this machine's CPUs is read (libnuma refuses it: "0-3" failed on 2
 * CPUs), bounded by CPU_SETSIZE; what is no list is refused.
 */
TEST(parse_another_machines_cpus)
{
	static const char *const bad[] = { "", ",", "1,,2", "3-1", "a", "1-", "-1", "1 2", "0x1",
					   "99999999999999999999" };
	char list[32];
	cpu_set_t set;
	size_t i;

	EXPECT_EQ(rt_cpus_parse_set("0-3,6", &set), 0);
	EXPECT(CPU_COUNT(&set) == 5 && CPU_ISSET(3, &set) && CPU_ISSET(6, &set) &&
	       !CPU_ISSET(4, &set), "0-3,6 is five CPUs");
	snprintf(list, sizeof(list), "%d", CPU_SETSIZE - 1);
	EXPECT_EQ(rt_cpus_parse_set(list, &set), 0);
	EXPECT(CPU_COUNT(&set) == 1 && CPU_ISSET(CPU_SETSIZE - 1, &set), "the last CPU a set holds");
	EXPECT_EQ(rt_cpus_parse_set("0-255", &set), 0);
	EXPECT_EQ(CPU_COUNT(&set), 256);
	snprintf(list, sizeof(list), "0-%d", CPU_SETSIZE);
	EXPECT_EQ(rt_cpus_parse_set(list, &set), -EOVERFLOW);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT(rt_cpus_parse_set(bad[i], &set) < 0, "'%s' is refused", bad[i]);
}
