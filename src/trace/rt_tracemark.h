/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_TRACEMARK_H
#define RT_TRACEMARK_H

#include <stdbool.h>

int rt_tracemark_open(const char *instance);
bool rt_tracemark_enabled(void);
void rt_tracemark(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rt_tracemark_all(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rt_tracemark_detach(void);
void rt_tracemark_close(void);

#endif
