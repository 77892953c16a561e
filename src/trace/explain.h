/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A wait (struct trace_wait) in the words a scheduler engineer would write:
 * who held the CPU the thread waited for, of which class, and whether the
 * kernel's RT bandwidth limit held it.
 */
#ifndef TRACE_EXPLAIN_H
#define TRACE_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "trace/events.h"

/* What the caller knows of the task that held the CPU. */
struct trace_holder {
	const char *comm;		/* its name, or NULL */
	bool kthread;			/* a kernel thread */
};

bool trace_comm_kthread(const char *comm);
void trace_wait_explain(const struct trace_wait *w, const struct trace_holder *h, char *buf,
			size_t len);
const char *trace_class_words(int prio, const struct trace_holder *h, char *buf, size_t len);

#endif
