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
};

int rt_work_calibrate(struct rt_work *w, int64_t unit_ns);
void rt_busy_loops(uint64_t loops);
void rt_busy_loop(const struct rt_work *w, uint64_t units);
int rt_work_thread_init(void);
int rt_sleep_until(int64_t deadline_ns);
int rt_sleep_until_intr(int64_t deadline_ns);
int rt_sleep_ns(int64_t ns);

#endif
