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

#include "rt_tracemark.h"

#define MARK_MAX 256

/* One descriptor for the process, opened before the threads start. */
static int marker_fd = -1;

/**
 * rt_tracemark_open - open the top instance's trace_marker
 *
 * libtracefs finds tracefs (and mounts it when it can). The file is opened
 * with tracefs_instance_file_open() rather than tracefs_print_init() because
 * tracefs_printf() allocates each line: glibc's allocator lock does not
 * inherit priority, and an RT thread must not contend on it between two lock
 * steps of the experiment.
 *
 * Returns 0, or a negative errno when there is no trace_marker here; markers
 * are then off and rt_tracemark() does nothing.
 */
int rt_tracemark_open(void)
{
	if (marker_fd >= 0)
		return 0;
	marker_fd = tracefs_instance_file_open(NULL, "trace_marker", O_WRONLY | O_CLOEXEC);
	if (marker_fd < 0)
		return errno ? -errno : -ENOENT;
	return 0;
}

/**
 * rt_tracemark_enabled - whether rt_tracemark() writes anything
 */
bool rt_tracemark_enabled(void)
{
	return marker_fd >= 0;
}

/**
 * rt_tracemark - write one line to trace_marker
 *
 * Formats on the stack and writes once: no allocation, one system call.
 * Lines longer than MARK_MAX are cut. A failed write (tracing off) is not an
 * error of the benchmark and is ignored.
 */
void rt_tracemark(const char *fmt, ...)
{
	char buf[MARK_MAX];
	va_list ap;
	int n;

	if (marker_fd < 0)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	if (write(marker_fd, buf, (size_t)n) < 0) {
		/* nothing to do: tracing may simply be off */
	}
}

/**
 * rt_tracemark_close - close trace_marker; markers are off afterwards
 */
void rt_tracemark_close(void)
{
	if (marker_fd >= 0)
		close(marker_fd);
	marker_fd = -1;
}
