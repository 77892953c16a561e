// SPDX-License-Identifier: GPL-2.0-only
/* pthread's positive error codes come back negated, for plain and PI mutexes. */
#include <errno.h>

#include "lib/sync.h"
#include "harness.h"

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

static const struct mutex_kind {
	const char *name;
	int pi;
} kinds[] = { { "plain", 0 }, { "pi", 1 } };

TEST_TABLE(mutex_codes, struct mutex_kind, kinds)
{
	pthread_t th;
	void *res;

	ASSERT(rt_mutex_init(&shared, row->pi) == 0, "%s mutex init", row->name);
	EXPECT_EQ(rt_mutex_lock(&shared), 0);
	/* ThreadSanitizer reports destroying a locked mutex, as it should */
	if (!UNDER_TSAN)
		EXPECT_EQ(rt_mutex_destroy(&shared), -EBUSY);
	/* a PI mutex knows its owner: unlocking from another thread fails */
	if (row->pi && !UNDER_TSAN) {
		pthread_create(&th, NULL, unlock_foreign, NULL);
		pthread_join(th, &res);
		EXPECT_EQ((long)res, -EPERM);
	}
	EXPECT_EQ(rt_mutex_unlock(&shared), 0);
	EXPECT_EQ(rt_mutex_destroy(&shared), 0);
}

TEST(barrier_codes)
{
	pthread_barrier_t b;

	EXPECT_EQ(rt_barrier_init(&b, 0), -EINVAL);
	ASSERT(rt_barrier_init(&b, 1) == 0, "a barrier of count 1");
	/* its single waiter is released with 0, not PTHREAD_BARRIER_SERIAL_THREAD */
	EXPECT_EQ(rt_barrier_wait(&b), 0);
	EXPECT_EQ(rt_barrier_destroy(&b), 0);
}
