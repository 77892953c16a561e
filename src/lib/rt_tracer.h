/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_TRACER_H
#define RT_TRACER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "rt_schedan.h"

/*
 * Scheduler events of a set of threads, recorded in a private tracefs
 * instance on CLOCK_MONOTONIC, then read back and decoded.
 */
#define RT_TRACER_COMM 16

struct rt_tracer_comm {
	int32_t pid;
	char comm[RT_TRACER_COMM];
};

/* A private tracefs instance and what it read: opaque (tracer.c). */
struct rt_tracer;

/* The buffer of each CPU outside the run: a page or so, for stray events. */
#define RT_TRACER_IDLE_KB 4

extern const char *const rt_sev_names[RT_SEV_TYPES];

struct bitmask;
int rt_tracer_open(struct rt_tracer **t, const char *name, size_t buffer_kb,
		   const struct bitmask *cpus, char *err, size_t len);
char *rt_tracer_dir(struct rt_tracer *t);
int rt_tracer_filter(struct rt_tracer *t, const pid_t *tids, size_t n);
int rt_tracer_start(struct rt_tracer *t);
int rt_tracer_begin(struct rt_tracer *t, const pid_t *tids, size_t n);
int rt_tracer_stop(struct rt_tracer *t);
int rt_tracer_read(struct rt_tracer *t);
const char *rt_tracer_comm(const struct rt_tracer *t, pid_t pid);
void rt_tracer_close(struct rt_tracer *t);
const struct rt_sev *rt_tracer_events(const struct rt_tracer *t, size_t *n);
uint64_t rt_tracer_count(const struct rt_tracer *t, enum rt_sev_type type);
uint64_t rt_tracer_lost(const struct rt_tracer *t);
const struct rt_tracer_comm *rt_tracer_comms(const struct rt_tracer *t, size_t *n);
int rt_tracer_sweep(const char *prefix);

#endif
