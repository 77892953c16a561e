/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_CLOCK_H
#define RT_CLOCK_H

#include <stdint.h>
#include <time.h>

#define RT_NSEC_PER_SEC 1000000000LL
#define RT_NSEC_PER_MSEC 1000000LL
#define RT_NSEC_PER_USEC 1000LL

static inline int64_t rt_ts_to_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * RT_NSEC_PER_SEC + ts->tv_nsec;
}

static inline struct timespec rt_ns_to_ts(int64_t ns)
{
	struct timespec ts = { .tv_sec = ns / RT_NSEC_PER_SEC, .tv_nsec = ns % RT_NSEC_PER_SEC };

	return ts;
}

/* Nanoseconds on @clock; CLOCK_MONOTONIC and the CPU-time clocks cannot fail. */
static inline int64_t rt_now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return rt_ts_to_ns(&ts);
}

#endif
