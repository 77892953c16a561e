// SPDX-License-Identifier: GPL-2.0-only
/* pthread's positive error codes come back negated, for plain and PI mutexes. */
#include <errno.h>

#include "rt_sync.h"
#include "tap.h"

/* ThreadSanitizer reports the misuse these checks make on purpose */
#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif
#ifndef UNDER_TSAN
#define UNDER_TSAN 0
#endif

static pthread_mutex_t shared;

static void *unlock_foreign(void *arg)
{
	(void)arg;
	return (void *)(long)rt_mutex_unlock(&shared);
}

int main(void)
{
	pthread_barrier_t b;
	pthread_t th;
	void *res;
	int pi;

	for (pi = 0; pi <= 1; pi++) {
		tap_is(rt_mutex_init(&shared, pi), 0, pi ? "PI mutex init" : "plain mutex init");
		tap_is(rt_mutex_lock(&shared), 0, "  lock");
		if (UNDER_TSAN)
			tap_skip("ThreadSanitizer reports destroying a locked mutex, as it should");
		else
			tap_is(rt_mutex_destroy(&shared), -EBUSY, "  destroying it locked is -EBUSY");
		if (pi && UNDER_TSAN) {
			tap_skip("ThreadSanitizer reports unlocking from another thread, as it should");
		} else if (pi) {
			/* a PI mutex knows its owner: unlocking from another thread fails */
			pthread_create(&th, NULL, unlock_foreign, NULL);
			pthread_join(th, &res);
			tap_is((long)res, -EPERM, "  unlock by a non-owner is -EPERM");
		}
		tap_is(rt_mutex_unlock(&shared), 0, "  unlock");
		tap_is(rt_mutex_destroy(&shared), 0, "  destroy");
	}
	tap_is(rt_barrier_init(&b, 0), -EINVAL, "a barrier of count 0 is -EINVAL");
	tap_is(rt_barrier_init(&b, 1), 0, "a barrier of count 1");
	tap_is(rt_barrier_wait(&b), 0, "  releases its single waiter with 0");
	tap_is(rt_barrier_destroy(&b), 0, "  destroy");
	return tap_done();
}
