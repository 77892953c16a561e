/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_KFILE_H
#define RT_KFILE_H

#include <stddef.h>

int rt_kfile_read(const char *path, char *buf, size_t len);
long rt_kfile_long(const char *path, long fallback);
void rt_kfile_mount(const char *root, const char *type, const char *opt, char *out, size_t len);

#endif
