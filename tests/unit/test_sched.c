// SPDX-License-Identifier: GPL-2.0-only
/* The privilege probe and what explains its failure, throttling, preemption. */
#include <errno.h>
#include <sched.h>
#include <unistd.h>

#include "lib/bandwidth.h"
#include "lib/cpus.h"
#include "lib/kernel.h"
#include "lib/sched.h"
#include "harness.h"

#define FIX "tests/fixtures/"

TEST(the_probe_gets_sched_fifo_and_gives_it_back)
{
	struct sched_param sp;
	int policy, ret;

	ret = rt_sched_probe(1);
	if (ret == -EPERM)
		TEST_SKIP("no RT privilege here: the probe said so, as it should");
	EXPECT_EQ(ret, 0);
	pthread_getschedparam(pthread_self(), &policy, &sp);
	EXPECT_EQ(policy, SCHED_OTHER);
	EXPECT_EQ(rt_sched_probe(100), -EINVAL);	/* priority 100 does not exist */
	EXPECT_EQ(rt_sched_set_fifo(pthread_self(), 2), 0);
	pthread_getschedparam(pthread_self(), &policy, &sp);
	EXPECT(policy == SCHED_FIFO && sp.sched_priority == 2, "policy %d prio %d, expected "
	       "SCHED_FIFO 2", policy, sp.sched_priority);
	sp.sched_priority = 0;
	pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp);
}

TEST(a_thread_stack_is_never_below_the_system_least)
{
	long least = sysconf(_SC_THREAD_STACK_MIN);
	pthread_attr_t attr;
	size_t got;

	pthread_attr_init(&attr);
	/* below the least (arm64's is 128 KiB): the least, not EINVAL */
	EXPECT_EQ(rt_sched_attr_stack(&attr, 4096), 0);
	pthread_attr_getstacksize(&attr, &got);
	EXPECT(got == (size_t)least, "stack %zu, expected the least, %ld", got, least);
	EXPECT_EQ(rt_sched_attr_stack(&attr, 1 << 20), 0);
	pthread_attr_getstacksize(&attr, &got);
	EXPECT(got == 1 << 20, "stack %zu, expected 1 MiB", got);
	pthread_attr_destroy(&attr);
}

TEST(privilege_from_proc_and_cgroups)
{
	struct rt_privilege p;

	rt_sched_privilege(&p, FIX "proc-capnice", FIX "cgroup-nort");
	EXPECT(p.cap_sys_nice, "CAP_SYS_NICE is read from CapEff");
	EXPECT(p.cgroup_no_rt, "a v1 cpu cgroup with rt_runtime_us 0 is found");
	EXPECT_STR(p.cgroup_file, FIX "cgroup-nort/cpu,cpuacct/rt0/cpu.rt_runtime_us");
	rt_sched_privilege(&p, FIX "proc-nocap", FIX "cgroup-nort");
	EXPECT(!p.cap_sys_nice, "no CAP_SYS_NICE in an empty CapEff");
	EXPECT(!p.cgroup_no_rt && !p.cgroup_file[0], "a v2-only process has no RT cgroup limit");
}

TEST(this_kernels_settings)
{
	struct rt_bandwidth b;
	struct bitmask *cpus;
	struct rt_kernel k;
	char model[256];

	rt_kernel_read(&k, "");
	cpus = rt_cpus_usable();
	ASSERT(cpus && !rt_bandwidth_read(&b, &k, cpus, ""), "the RT bandwidth regime is read");
	EXPECT(b.regime != RT_BW_UNKNOWN || b.why[0], "a regime (%s), or why not: %s",
	       rt_bw_regime_names[b.regime], b.why);
	rt_bandwidth_free(&b);
	numa_free_cpumask(cpus);
	EXPECT(rt_kernel_describe(&k, model, sizeof(model)) > 0 && model[0],
	       "a preemption model is named: %s", model);
	rt_kernel_free(&k);
}
