/* SPDX-License-Identifier: GPL-2.0-only */
/* A trace.dat's CPU data read in place (tdpages.c). */
#ifndef TRACE_PAGES_H
#define TRACE_PAGES_H

#include <stddef.h>

struct trace_pages;
struct tracecmd_input;
struct tep_handle;
struct tep_record;

int trace_pages_open(struct trace_pages **pp, struct tracecmd_input *h, struct tep_handle *tep,
		     int cpus, int fd, size_t file_len);
int trace_pages_walk(struct trace_pages *p, int (*fn)(struct tep_record *r, int cpu, void *ctx),
		     void *ctx);
int trace_pages_cpus(const struct trace_pages *p);
int trace_pages_walk_cpu(struct trace_pages *p, int cpu,
			 int (*fn)(struct tep_record *r, int cpu, void *ctx), void *ctx);
void trace_pages_close(struct trace_pages *p);

#endif
