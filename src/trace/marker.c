// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace_marker lines, so that a run recorded with trace-cmd shows what each
 * thread was doing between the scheduler's events.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <tracefs.h>
#include <unistd.h>

#include "trace/marker.h"

#define MARK_MAX 256

/* One descriptor for the process, opened before the threads start. */
static int marker_fd = -1;
static int top_fd = -1;	/* the top instance's, when marker_fd is another's */

/**
 * trace_marker_open - open the trace_marker of the instance @instance (NULL:
 * the top one, where a user's own trace-cmd record sees it)
 *
 * libtracefs finds tracefs (and mounts it when it can). The file is opened
 * with tracefs_instance_file_open() rather than tracefs_print_init() because
 * tracefs_printf() allocates each line: glibc's allocator lock does not
 * inherit priority, and an RT thread must not contend on it between two lock
 * steps of the experiment.
 *
 * Returns 0, or a negative errno when there is no trace_marker here; markers
 * are then off and trace_mark() does nothing.
 */
int trace_marker_open(const char *instance)
{
	struct tracefs_instance *inst = NULL;

	if (marker_fd >= 0)
		return 0;
	if (instance) {
		inst = tracefs_instance_alloc(NULL, instance);
		if (!inst)
			return -ENOMEM;
	}
	errno = 0;
	marker_fd = tracefs_instance_file_open(inst, "trace_marker", O_WRONLY | O_CLOEXEC);
	tracefs_instance_free(inst);
	if (inst && marker_fd >= 0)
		top_fd = tracefs_instance_file_open(NULL, "trace_marker", O_WRONLY | O_CLOEXEC);
	if (marker_fd < 0)
		return errno ? -errno : -ENOENT;
	return 0;
}

/**
 * trace_marker_enabled - whether trace_mark() writes anything
 */
bool trace_marker_enabled(void)
{
	return marker_fd >= 0;
}

static void __attribute__((format(printf, 2, 0))) mark(int fd, const char *fmt, va_list ap)
{
	char buf[MARK_MAX];
	int n;

	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n < 0)
		return;
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	if (write(fd, buf, (size_t)n) < 0) {
		/* nothing to do: tracing may simply be off */
	}
}

/**
 * trace_mark - write one line to trace_marker
 *
 * Formats on the stack and writes once: no allocation, one system call.
 * Lines longer than MARK_MAX are cut. A failed write (tracing off) is not an
 * error of the benchmark and is ignored.
 */
void trace_mark(const char *fmt, ...)
{
	va_list ap;

	if (marker_fd < 0)
		return;
	va_start(ap, fmt);
	mark(marker_fd, fmt, ap);
	va_end(ap);
}

/**
 * trace_mark_all - trace_mark(), and the same line to the top instance's
 * trace_marker when the markers go to another instance: for the lines a
 * user's own recording should hold too
 */
void trace_mark_all(const char *fmt, ...)
{
	va_list ap, again;

	if (marker_fd < 0)
		return;
	va_start(ap, fmt);
	va_copy(again, ap);
	mark(marker_fd, fmt, ap);
	if (top_fd >= 0)
		mark(top_fd, fmt, again);
	va_end(again);
	va_end(ap);
}

/**
 * trace_marker_detach - send the markers to /dev/null from now on, leaving
 * the descriptor's number in place: threads that still write markers write
 * nowhere, and the instance whose trace_marker it was can be removed (an
 * open file keeps a trace instance busy)
 */
void trace_marker_detach(void)
{
	int null;

	if (marker_fd < 0)
		return;
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null < 0)
		return;
	dup3(null, marker_fd, O_CLOEXEC);
	close(null);
}

/**
 * trace_marker_close - close trace_marker; markers are off afterwards
 */
void trace_marker_close(void)
{
	if (marker_fd >= 0)
		close(marker_fd);
	if (top_fd >= 0)
		close(top_fd);
	marker_fd = top_fd = -1;
}
