/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_WORK_H
#define RT_WORK_H

#include <stdint.h>

/*
 * A unit of work: @unit_ns of the thread's CPU time spent in busy loops, whose
 * rate rt_work_calibrate() measured. A hold is then a fixed amount of CPU
 * time, whether or not the thread is preempted while doing it, as in the
 * original test.
 */
struct rt_work {
	int64_t unit_ns;
	uint64_t loops_per_unit;
	/*
	 * The thread CPU-time clock as calibration saw it: its smallest step
	 * (its granularity: tens of ns where the kernel reads a stable TSC, a
	 * scheduler tick where it cannot) and its largest while the thread
	 * spun. A unit of busy work ends at the first step past its end.
	 */
	int64_t clock_step_ns;
	int64_t clock_max_step_ns;
};

/* A thread CPU clock coarser than this is said in the output (it moves a unit's end). */
#define RT_WORK_COARSE_CLOCK_NS (10 * 1000LL)

int rt_work_calibrate(struct rt_work *w, int64_t unit_ns);
int rt_work_calibrate_clock(struct rt_work *w, int64_t unit_ns, int64_t (*clock)(void));
void rt_busy_loops(uint64_t loops);
uint64_t rt_busy_loop(const struct rt_work *w, uint64_t units);
int rt_work_thread_init(void);
int rt_sleep_until(int64_t deadline_ns);
int rt_sleep_until_intr(int64_t deadline_ns);
int rt_sleep_ns(int64_t ns);

#endif
