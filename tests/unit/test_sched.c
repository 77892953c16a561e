// SPDX-License-Identifier: GPL-2.0-only
/* The privilege probe and what explains its failure, throttling, preemption. */
#include <errno.h>
#include <sched.h>

#include "rt_bandwidth.h"
#include "rt_cpus.h"
#include "rt_kernel.h"
#include "rt_sched.h"
#include "tap.h"

#define FIX "tests/fixtures/"

static void probe(void)
{
	struct sched_param sp;
	int policy, ret;

	ret = rt_sched_probe(1);
	if (ret == -EPERM) {
		tap_skip("no RT privilege here: the probe said so, as it should");
		return;
	}
	tap_is(ret, 0, "the probe gets SCHED_FIFO 1");
	pthread_getschedparam(pthread_self(), &policy, &sp);
	tap_is(policy, SCHED_OTHER, "  and gives it back");
	tap_is(rt_sched_probe(100), -EINVAL, "priority 100 does not exist");
	tap_is(rt_sched_set_fifo(pthread_self(), 2), 0, "rt_sched_set_fifo 2");
	pthread_getschedparam(pthread_self(), &policy, &sp);
	tap_ok(policy == SCHED_FIFO && sp.sched_priority == 2, "  is SCHED_FIFO 2");
	sp.sched_priority = 0;
	pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp);
}

static void privilege(void)
{
	struct rt_privilege p;

	rt_sched_privilege(&p, FIX "proc-capnice", FIX "cgroup-nort");
	tap_ok(p.cap_sys_nice, "CAP_SYS_NICE is read from CapEff");
	tap_ok(p.cgroup_no_rt, "a v1 cpu cgroup with rt_runtime_us 0 is found");
	tap_str(p.cgroup_file, FIX "cgroup-nort/cpu,cpuacct/rt0/cpu.rt_runtime_us",
		"  and named");
	rt_sched_privilege(&p, FIX "proc-nocap", FIX "cgroup-nort");
	tap_ok(!p.cap_sys_nice, "no CAP_SYS_NICE in an empty CapEff");
	tap_ok(!p.cgroup_no_rt && !p.cgroup_file[0], "a v2-only process has no RT cgroup limit");
}

static void kernel_settings(void)
{
	struct rt_bandwidth b;
	struct bitmask *cpus;
	struct rt_kernel k;
	char model[256];

	rt_kernel_read(&k, "");
	cpus = rt_cpus_usable();
	tap_ok(cpus && !rt_bandwidth_read(&b, &k, cpus, ""), "the RT bandwidth regime is read");
	tap_ok(b.regime != RT_BW_UNKNOWN || b.why[0], "a regime (%s), or why not: %s",
	       rt_bw_regime_names[b.regime], b.why);
	rt_bandwidth_free(&b);
	numa_free_cpumask(cpus);
	tap_ok(rt_kernel_describe(&k, model, sizeof(model)) > 0 && model[0],
	       "a preemption model is named: %s", model);
	rt_kernel_free(&k);
}

int main(void)
{
	probe();
	privilege();
	kernel_settings();
	return tap_done();
}
