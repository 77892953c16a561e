/* SPDX-License-Identifier: GPL-2.0-only */
/* A trace.dat's CPU data read in place (tdpages.c). */
#ifndef TRACE_TDPAGES_H
#define TRACE_TDPAGES_H

#include <stddef.h>

struct td_pages;
struct tracecmd_input;
struct tep_handle;
struct tep_record;

int td_pages_open(struct td_pages **pp, struct tracecmd_input *h, struct tep_handle *tep,
		  int cpus, int fd, size_t file_len);
int td_pages_walk(struct td_pages *p, int (*fn)(struct tep_record *r, int cpu, void *ctx),
		  void *ctx);
int td_pages_cpus(const struct td_pages *p);
int td_pages_walk_cpu(struct td_pages *p, int cpu,
		      int (*fn)(struct tep_record *r, int cpu, void *ctx), void *ctx);
void td_pages_close(struct td_pages *p);

#endif
