// SPDX-License-Identifier: GPL-2.0-only
/*
 * Busy work calibrated in CPU time, and sleeps with absolute deadlines.
 */
#include <errno.h>
#include <sys/prctl.h>
#include <time.h>

#include "rt_clock.h"
#include "rt_work.h"

#define CALIBRATE_SAMPLES 7
#define CALIBRATE_SAMPLE_NS (3 * RT_NSEC_PER_MSEC)
#define CALIBRATE_GAP_NS (12 * RT_NSEC_PER_MSEC)

/**
 * rt_busy_loops - spin for @loops iterations that the compiler cannot remove
 */
__attribute__((noinline)) void rt_busy_loops(uint64_t loops)
{
	uint64_t i;

	for (i = 0; i < loops; i++)
		__asm__ __volatile__("" ::: "memory");
}

/**
 * rt_busy_loop - spin for @units units of CPU work
 */
void rt_busy_loop(const struct rt_work *w, uint64_t units)
{
	rt_busy_loops(w->loops_per_unit * units);
}

/* Thread CPU time of @loops iterations: preemption does not count. */
static int64_t cpu_ns_of(uint64_t loops)
{
	int64_t start = rt_now_ns(CLOCK_THREAD_CPUTIME_ID);

	rt_busy_loops(loops);
	return rt_now_ns(CLOCK_THREAD_CPUTIME_ID) - start;
}

/**
 * rt_work_calibrate - measure how many busy loops make @unit_ns of CPU time
 *
 * Grows a trial until it takes a measurable time, then times a few samples
 * of CALIBRATE_SAMPLE_NS each on the thread CPU-time clock, so that being
 * preempted does not count. What still counts (time stolen from a virtual
 * CPU, a busy SMT sibling, cold caches) only ever slows a sample down: the
 * fastest sample is the rate. The samples are spread over about 100 ms so
 * that one burst of such noise cannot slow them all.
 *
 * Returns 0, -EINVAL for a non-positive unit, -ERANGE when the loop is too
 * fast or too slow to measure.
 */
int rt_work_calibrate(struct rt_work *w, int64_t unit_ns)
{
	double rate, per_ns = 0;
	uint64_t loops = 1000;
	int64_t ns;
	int i;

	if (unit_ns <= 0)
		return -EINVAL;
	for (;;) {
		ns = cpu_ns_of(loops);
		if (ns >= RT_NSEC_PER_MSEC)
			break;
		if (loops > UINT64_MAX / 4)
			return -ERANGE;
		loops *= 4;
	}
	loops = (uint64_t)((double)loops * CALIBRATE_SAMPLE_NS / (double)ns);
	for (i = 0; i < CALIBRATE_SAMPLES; i++) {
		if (i)
			rt_sleep_ns(CALIBRATE_GAP_NS);
		ns = cpu_ns_of(loops);
		if (ns <= 0)
			return -ERANGE;
		rate = (double)loops / (double)ns;
		if (rate > per_ns)
			per_ns = rate;
	}
	if (per_ns * (double)unit_ns < 1.0)
		return -ERANGE;
	w->unit_ns = unit_ns;
	w->loops_per_unit = (uint64_t)(per_ns * (double)unit_ns + 0.5);
	return 0;
}

/**
 * rt_work_thread_init - prepare the calling thread for precise sleeps
 *
 * Sets the timer slack to 1 ns, the least there is: 0 would restore the
 * default of 50 us. (The kernel ignores slack for RT tasks; this also covers
 * threads that are not.)
 *
 * Returns 0 or a negative errno.
 */
int rt_work_thread_init(void)
{
	if (prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL) < 0)
		return -errno;
	return 0;
}

/**
 * rt_sleep_until - sleep until @deadline_ns on CLOCK_MONOTONIC
 *
 * An absolute deadline: a signal or a late wake-up does not stretch the
 * sleep by the time already slept.
 *
 * Returns 0 or a negative errno.
 */
int rt_sleep_until(int64_t deadline_ns)
{
	struct timespec ts = rt_ns_to_ts(deadline_ns);
	int ret;

	do {
		ret = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	} while (ret == EINTR);
	return -ret;
}

/**
 * rt_sleep_ns - sleep @ns from now; Returns 0 or a negative errno
 */
int rt_sleep_ns(int64_t ns)
{
	return rt_sleep_until(rt_now_ns(CLOCK_MONOTONIC) + ns);
}
