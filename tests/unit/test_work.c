// SPDX-License-Identifier: GPL-2.0-only
/*
 * The calibration and the busy work. The figures of its accuracy are in
 * `make bench`; these checks catch what would make every hold wrong: a unit
 * mix-up, loops that the compiler drops, work that ends before its CPU time.
 * (The loop's speed itself is not asserted: on a virtual CPU it varies by
 * half from one moment to the next.)
 */
#include <errno.h>

#include "rt_clock.h"
#include "rt_work.h"
#include "tap.h"

int main(void)
{
	struct rt_work one, two;
	int64_t start, cpu, t0;

	tap_is(rt_work_calibrate(&one, 0), -EINVAL, "a unit of 0 is refused");
	tap_is(rt_work_calibrate(&one, RT_NSEC_PER_MSEC), 0, "calibrate 1 ms");
	tap_ok(one.loops_per_unit > 1000, "  %llu loops per ms", (unsigned long long)one.loops_per_unit);
	tap_is(rt_work_calibrate(&two, 2 * RT_NSEC_PER_MSEC), 0, "calibrate 2 ms");
	tap_is(two.unit_ns, 2 * RT_NSEC_PER_MSEC, "  keeps its unit");

	start = rt_now_ns(CLOCK_THREAD_CPUTIME_ID);
	rt_busy_loop(&one, 50);
	cpu = rt_now_ns(CLOCK_THREAD_CPUTIME_ID) - start;
	tap_ok(cpu >= 50 * RT_NSEC_PER_MSEC, "50 units of 1 ms use at least 50 ms of CPU (%.3f ms)",
	       cpu / 1e6);
	/* a factor of 4: a gross error, not a timing measurement */
	tap_ok(cpu < 4 * 50 * RT_NSEC_PER_MSEC, "  and not several times more");
	start = rt_now_ns(CLOCK_THREAD_CPUTIME_ID);
	rt_busy_loop(&two, 10);
	cpu = rt_now_ns(CLOCK_THREAD_CPUTIME_ID) - start;
	tap_ok(cpu >= 20 * RT_NSEC_PER_MSEC, "10 units of 2 ms use at least 20 ms of CPU (%.3f ms)",
	       cpu / 1e6);

	start = rt_now_ns(CLOCK_THREAD_CPUTIME_ID);
	rt_busy_loops(0);
	tap_ok(rt_now_ns(CLOCK_THREAD_CPUTIME_ID) - start < RT_NSEC_PER_MSEC, "0 loops is no work");

	tap_is(rt_work_thread_init(), 0, "timer slack can be set");
	t0 = rt_now_ns(CLOCK_MONOTONIC);
	tap_is(rt_sleep_until(t0 - RT_NSEC_PER_SEC), 0, "a deadline in the past returns at once");
	tap_is(rt_sleep_ns(RT_NSEC_PER_MSEC), 0, "sleep 1 ms");
	tap_ok(rt_now_ns(CLOCK_MONOTONIC) - t0 >= RT_NSEC_PER_MSEC, "  not less than asked");
	return tap_done();
}
