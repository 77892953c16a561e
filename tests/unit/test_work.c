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

/*
 * A thread CPU clock that moves only at 4 ms ticks, as in a guest whose
 * kernel marked the TSC unstable: the monotonic clock rounded down.
 */
#define TICK_NS (4 * RT_NSEC_PER_MSEC)
static int64_t coarse_clock(void)
{
	return rt_now_ns(CLOCK_MONOTONIC) / TICK_NS * TICK_NS;
}

int main(void)
{
	struct rt_work one, two;
	int64_t start, cpu, t0;

	tap_is(rt_work_calibrate(&one, 0), -EINVAL, "a unit of 0 is refused");
	tap_is(rt_work_calibrate(&one, RT_NSEC_PER_MSEC), 0, "calibrate 1 ms");
	tap_ok(one.loops_per_unit > 1000, "  %llu loops per ms", (unsigned long long)one.loops_per_unit);
	tap_is(rt_work_calibrate(&two, 2 * RT_NSEC_PER_MSEC), 0, "calibrate 2 ms");
	tap_is(two.unit_ns, 2 * RT_NSEC_PER_MSEC, "  keeps its unit");
	tap_ok(one.clock_step_ns > 0 && one.clock_step_ns <= one.clock_max_step_ns,
	       "  the thread clock's steps are measured: %lld ns to %lld ns",
	       (long long)one.clock_step_ns, (long long)one.clock_max_step_ns);
	tap_is(rt_work_calibrate_clock(&two, RT_NSEC_PER_MSEC, coarse_clock), 0,
	       "a clock that moves by 4 ms ticks still calibrates");
	tap_is(two.clock_step_ns, TICK_NS, "  and its step is the tick");
	/* the same machine, the same loop: within a factor of 4 of the fine clock's rate */
	tap_ok(two.loops_per_unit > one.loops_per_unit / 4 && two.loops_per_unit < one.loops_per_unit * 4,
	       "  at about the fine clock's rate (%llu and %llu loops per ms)",
	       (unsigned long long)two.loops_per_unit, (unsigned long long)one.loops_per_unit);
	rt_work_calibrate(&two, 2 * RT_NSEC_PER_MSEC);

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
