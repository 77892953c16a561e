/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_STOP_H
#define RT_STOP_H

#include <signal.h>
#include <stdbool.h>

/**
 * struct rt_stop - how a run is asked, from outside, to stop
 * @signal: the first request, a signal's number: the engine stops the run at
 *          its next step and reports what it measured, interrupted
 * @now: a second request, when the process could not end at once: the engine
 *       returns -EINTR without waiting for anything more
 *
 * The program's signal handler writes it; the engines read it and return,
 * and only the program's top level decides how the process ends.
 */
struct rt_stop {
	volatile sig_atomic_t signal;
	volatile sig_atomic_t now;
};

/* The signal that asked @s to stop, or 0 (also for no @s at all). */
static inline int rt_stop_signal(const struct rt_stop *s)
{
	return s ? s->signal : 0;
}

/* Whether the engine must return at once. */
static inline bool rt_stop_now(const struct rt_stop *s)
{
	return s && s->now;
}

#endif
