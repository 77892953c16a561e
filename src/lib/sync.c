// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mutexes (plain or priority-inheriting) and barriers with their pthread
 * return codes checked.
 */
#include <errno.h>

#include "lib/sync.h"

/**
 * rt_mutex_init - a plain mutex, or with @pi one that uses PTHREAD_PRIO_INHERIT
 *
 * Returns 0 or a negative errno (-ENOTSUP where the C library has no PI
 * mutexes).
 */
int rt_mutex_init(pthread_mutex_t *m, bool pi)
{
	pthread_mutexattr_t attr;
	int ret;

	ret = pthread_mutexattr_init(&attr);
	if (ret)
		return -ret;
	if (pi)
		ret = pthread_mutexattr_setprotocol(&attr, PTHREAD_PRIO_INHERIT);
	if (!ret)
		ret = pthread_mutex_init(m, &attr);
	pthread_mutexattr_destroy(&attr);
	return -ret;
}

/**
 * rt_mutex_lock - lock @m; Returns 0 or a negative errno
 */
int rt_mutex_lock(pthread_mutex_t *m)
{
	return -pthread_mutex_lock(m);
}

/**
 * rt_mutex_unlock - unlock @m; Returns 0 or a negative errno
 */
int rt_mutex_unlock(pthread_mutex_t *m)
{
	return -pthread_mutex_unlock(m);
}

/**
 * rt_mutex_destroy - Returns 0 or a negative errno (-EBUSY while locked)
 */
int rt_mutex_destroy(pthread_mutex_t *m)
{
	return -pthread_mutex_destroy(m);
}

/**
 * rt_barrier_init - a barrier that releases once @count threads wait on it
 *
 * Returns 0 or a negative errno.
 */
int rt_barrier_init(pthread_barrier_t *b, unsigned int count)
{
	return -pthread_barrier_init(b, NULL, count);
}

/**
 * rt_barrier_wait - wait until the barrier's count of threads arrived
 *
 * Returns 0 in every thread it releases, or a negative errno; the serial
 * thread of POSIX is not singled out.
 */
int rt_barrier_wait(pthread_barrier_t *b)
{
	int ret = pthread_barrier_wait(b);

	return ret == PTHREAD_BARRIER_SERIAL_THREAD ? 0 : -ret;
}

/**
 * rt_barrier_destroy - Returns 0 or a negative errno
 */
int rt_barrier_destroy(pthread_barrier_t *b)
{
	return -pthread_barrier_destroy(b);
}
