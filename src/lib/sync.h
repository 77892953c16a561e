/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_SYNC_H
#define RT_SYNC_H

#include <pthread.h>
#include <stdbool.h>

/*
 * pthread calls return a positive error code and leave errno alone; these
 * return 0 or the negated code, like the rest of the library.
 */
int rt_mutex_init(pthread_mutex_t *m, bool pi);
int rt_mutex_lock(pthread_mutex_t *m);
int rt_mutex_unlock(pthread_mutex_t *m);
int rt_mutex_destroy(pthread_mutex_t *m);
int rt_barrier_init(pthread_barrier_t *b, unsigned int count);
int rt_barrier_wait(pthread_barrier_t *b);
int rt_barrier_destroy(pthread_barrier_t *b);

#endif
