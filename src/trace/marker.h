/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TRACE_MARKER_H
#define TRACE_MARKER_H

#include <stdbool.h>

int trace_marker_open(const char *instance);
bool trace_marker_enabled(void);
void trace_mark(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void trace_mark_all(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void trace_marker_detach(void);
void trace_marker_close(void);

#endif
