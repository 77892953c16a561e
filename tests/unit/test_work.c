// SPDX-License-Identifier: GPL-2.0-only
/*
 * The calibration and the busy work. The figures of its accuracy are in
 * `make bench`; these checks catch what would make every hold wrong: a unit
 * mix-up, loops that the compiler drops, work that ends before its CPU time.
 * (The loop's speed itself is not asserted: on a virtual CPU it varies by
 * half from one moment to the next.)
 */
#include <errno.h>

#include "lib/clock.h"
#include "lib/work.h"
#include "harness.h"

/*
 * A thread CPU clock that moves only at 4 ms ticks, as in a guest whose
 * kernel marked the TSC unstable: the monotonic clock rounded down.
 */
#define TICK_NS (4 * RT_NSEC_PER_MSEC)
static int64_t coarse_clock(void)
{
	return rt_now_ns(CLOCK_MONOTONIC) / TICK_NS * TICK_NS;
}

/* The CPU time @units of @w take on this thread. */
static int64_t cpu_of(const struct rt_work *w, uint64_t units)
{
	int64_t start = rt_now_ns(CLOCK_THREAD_CPUTIME_ID);

	rt_busy_loop(w, units);
	return rt_now_ns(CLOCK_THREAD_CPUTIME_ID) - start;
}

TEST(calibration)
{
	struct rt_work one, two;

	EXPECT_EQ(rt_work_calibrate(&one, 0), -EINVAL);
	ASSERT(rt_work_calibrate(&one, RT_NSEC_PER_MSEC) == 0, "calibrate 1 ms");
	EXPECT(one.loops_per_unit > 1000, "%llu loops per ms", (unsigned long long)one.loops_per_unit);
	ASSERT(rt_work_calibrate(&two, 2 * RT_NSEC_PER_MSEC) == 0, "calibrate 2 ms");
	EXPECT_EQ(two.unit_ns, 2 * RT_NSEC_PER_MSEC);
	EXPECT(one.clock_step_ns > 0 && one.clock_step_ns <= one.clock_max_step_ns,
	       "the thread clock's steps: %lld ns to %lld ns", (long long)one.clock_step_ns,
	       (long long)one.clock_max_step_ns);
}

TEST(a_coarse_clock_calibrates)
{
	struct rt_work one, two;

	ASSERT(rt_work_calibrate(&one, RT_NSEC_PER_MSEC) == 0, "calibrate 1 ms");
	ASSERT(rt_work_calibrate_clock(&two, RT_NSEC_PER_MSEC, coarse_clock) == 0,
	       "a clock that moves by 4 ms ticks still calibrates");
	EXPECT_EQ(two.clock_step_ns, TICK_NS);
	/* the same machine, the same loop: within a factor of 4 of the fine clock's rate */
	EXPECT(two.loops_per_unit > one.loops_per_unit / 4 &&
	       two.loops_per_unit < one.loops_per_unit * 4,
	       "%llu and %llu loops per ms", (unsigned long long)two.loops_per_unit,
	       (unsigned long long)one.loops_per_unit);
}

TEST(busy_work_takes_its_cpu_time)
{
	struct rt_work one, two;
	int64_t cpu, start;

	ASSERT(rt_work_calibrate(&one, RT_NSEC_PER_MSEC) == 0, "calibrate 1 ms");
	ASSERT(rt_work_calibrate(&two, 2 * RT_NSEC_PER_MSEC) == 0, "calibrate 2 ms");
	cpu = cpu_of(&one, 50);
	EXPECT(cpu >= 50 * RT_NSEC_PER_MSEC, "50 units of 1 ms used %.3f ms of CPU", cpu / 1e6);
	/* a factor of 4: a gross error, not a timing measurement */
	EXPECT(cpu < 4 * 50 * RT_NSEC_PER_MSEC, "50 units of 1 ms used %.3f ms of CPU", cpu / 1e6);
	cpu = cpu_of(&two, 10);
	EXPECT(cpu >= 20 * RT_NSEC_PER_MSEC, "10 units of 2 ms used %.3f ms of CPU", cpu / 1e6);
	start = rt_now_ns(CLOCK_THREAD_CPUTIME_ID);
	rt_busy_loops(0);
	EXPECT(rt_now_ns(CLOCK_THREAD_CPUTIME_ID) - start < RT_NSEC_PER_MSEC, "0 loops is no work");
}

TEST(sleeps)
{
	int64_t t0;

	EXPECT_EQ(rt_work_thread_init(), 0);	/* timer slack can be set */
	t0 = rt_now_ns(CLOCK_MONOTONIC);
	EXPECT_EQ(rt_sleep_until(t0 - RT_NSEC_PER_SEC), 0);	/* a past deadline: at once */
	EXPECT_EQ(rt_sleep_ns(RT_NSEC_PER_MSEC), 0);
	EXPECT(rt_now_ns(CLOCK_MONOTONIC) - t0 >= RT_NSEC_PER_MSEC, "slept less than asked");
}
