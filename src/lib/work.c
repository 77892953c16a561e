// SPDX-License-Identifier: GPL-2.0-only
/*
 * Busy work measured in CPU time, and sleeps with absolute deadlines.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>

#include "lib/clock.h"
#include "lib/work.h"

#define CALIBRATE_SAMPLES 5
#define CALIBRATE_SAMPLE_NS (2 * RT_NSEC_PER_MSEC)
/* How much busy work between two reads of the CPU clock: the overshoot bound. */
#define SPIN_CHECK_NS (10 * RT_NSEC_PER_USEC)

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
 * rt_busy_loop - spin until the thread has used @units units of CPU time
 *
 * Calibrated loops in chunks of about SPIN_CHECK_NS, ended by the thread's
 * CPU clock. Time spent preempted does not count, so a lock holder that is
 * preempted still holds for its full amount of work, as with a plain loop
 * count; but the amount no longer depends on how fast the CPU happens to run
 * (frequency scaling, a busy SMT sibling, a virtual CPU sharing its core),
 * which can change a loop's speed by half between calibration and run.
 *
 * Returns the loops it took: against w->loops_per_unit, how fast the CPU ran
 * while the kernel counted it as the thread's (a virtual CPU its host did
 * not run still counts).
 */
uint64_t rt_busy_loop(const struct rt_work *w, uint64_t units)
{
	int64_t want = (int64_t)units * w->unit_ns;
	int64_t start = rt_now_ns(CLOCK_THREAD_CPUTIME_ID), left;
	double per_ns = (double)w->loops_per_unit / (double)w->unit_ns;
	uint64_t chunk = (uint64_t)(per_ns * SPIN_CHECK_NS) + 1, n, done = 0;

	while ((left = want - (rt_now_ns(CLOCK_THREAD_CPUTIME_ID) - start)) > 0) {
		n = (uint64_t)(per_ns * (double)left) + 1;
		n = n < chunk ? n : chunk;
		rt_busy_loops(n);
		done += n;
	}
	return done;
}

static int64_t thread_cpu_ns(void)
{
	return rt_now_ns(CLOCK_THREAD_CPUTIME_ID);
}

/* @clock's time of @loops iterations: with the thread's, preemption does not count. */
static int64_t clock_ns_of(int64_t (*clock)(void), uint64_t loops)
{
	int64_t start = clock();

	rt_busy_loops(loops);
	return clock() - start;
}

/*
 * Read @clock in a loop for CLOCK_PROBE_NS of CLOCK_MONOTONIC (up to
 * CLOCK_PROBE_MAX_NS when it has not moved twice by then): its smallest and
 * largest step. Returns -ERANGE for a clock that did not move at all.
 */
#define CLOCK_PROBE_NS (5 * RT_NSEC_PER_MSEC)
#define CLOCK_PROBE_MAX_NS (200 * RT_NSEC_PER_MSEC)

static int probe_clock(int64_t (*clock)(void), int64_t *min_step, int64_t *max_step)
{
	int64_t start = rt_now_ns(CLOCK_MONOTONIC), now, last = clock(), c, d;
	int steps = 0;

	*min_step = INT64_MAX;
	*max_step = 0;
	do {
		c = clock();
		d = c - last;
		if (d > 0) {
			*min_step = d < *min_step ? d : *min_step;
			*max_step = d > *max_step ? d : *max_step;
			steps++;
			last = c;
		}
		now = rt_now_ns(CLOCK_MONOTONIC);
	} while (now - start < CLOCK_PROBE_NS || (steps < 2 && now - start < CLOCK_PROBE_MAX_NS));
	return steps ? 0 : -ERANGE;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/**
 * rt_work_calibrate - measure how many busy loops make @unit_ns of CPU time
 *
 * The rate sizes rt_busy_loop()'s chunks between clock reads; the clock,
 * not the rate, decides when the work is done, so a rough rate will do.
 * Probes the thread CPU-time clock first (its steps, w->clock_step_ns and
 * w->clock_max_step_ns), then takes the median of a few samples, each long
 * enough for the clock's steps not to matter: at least CALIBRATE_SAMPLE_NS
 * and 50 steps. A sample the clock did not see advance is taken again,
 * longer. Some 20 ms in all with a fine clock; a clock that steps by
 * scheduler ticks (a guest whose TSC the kernel marked unstable) takes
 * longer but still calibrates.
 *
 * Returns 0, -EINVAL for a non-positive unit, -ERANGE when the loop is too
 * fast or too slow to measure, or the clock does not move.
 */
int rt_work_calibrate(struct rt_work *w, int64_t unit_ns)
{
	return rt_work_calibrate_clock(w, unit_ns, thread_cpu_ns);
}

/**
 * rt_work_calibrate_clock - rt_work_calibrate() on @clock, for the tests
 * (a coarse clock, as some virtual machines have)
 */
int rt_work_calibrate_clock(struct rt_work *w, int64_t unit_ns, int64_t (*clock)(void))
{
	double rate[CALIBRATE_SAMPLES], per_ns;
	int64_t ns, min_step, max_step, sample_ns;
	uint64_t loops = 1000;
	int i, ret, tries;

	if (unit_ns <= 0)
		return -EINVAL;
	ret = probe_clock(clock, &min_step, &max_step);
	if (ret)
		return ret;
	sample_ns = CALIBRATE_SAMPLE_NS > 50 * min_step ? CALIBRATE_SAMPLE_NS : 50 * min_step;
	for (;;) {
		ns = clock_ns_of(clock, loops);
		if (ns >= sample_ns / 8)
			break;
		if (loops > UINT64_MAX / 4)
			return -ERANGE;
		loops *= 4;
	}
	loops = (uint64_t)((double)loops * (double)sample_ns / (double)ns);
	for (i = 0; i < CALIBRATE_SAMPLES; i++) {
		/* a sample the clock did not see move (it stalled): again, longer */
		for (tries = 0; (ns = clock_ns_of(clock, loops)) <= 0; tries++) {
			if (tries == 4 || loops > UINT64_MAX / 2)
				return -ERANGE;
			loops *= 2;
		}
		rate[i] = (double)loops / (double)ns;
	}
	qsort(rate, CALIBRATE_SAMPLES, sizeof(rate[0]), cmp_double);
	per_ns = rate[CALIBRATE_SAMPLES / 2];
	if (per_ns * (double)unit_ns < 1.0)
		return -ERANGE;
	w->unit_ns = unit_ns;
	w->loops_per_unit = (uint64_t)(per_ns * (double)unit_ns + 0.5);
	w->clock_step_ns = min_step;
	w->clock_max_step_ns = max_step;
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
 * rt_sleep_until_intr - rt_sleep_until(), but a signal handler ends the sleep
 *
 * Returns 0 at the deadline, -EINTR when a handled signal came first, or
 * another negative errno.
 */
int rt_sleep_until_intr(int64_t deadline_ns)
{
	struct timespec ts = rt_ns_to_ts(deadline_ns);

	return -clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

/**
 * rt_sleep_ns - sleep @ns from now; Returns 0 or a negative errno
 */
int rt_sleep_ns(int64_t ns)
{
	return rt_sleep_until(rt_now_ns(CLOCK_MONOTONIC) + ns);
}
