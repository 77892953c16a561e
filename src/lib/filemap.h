/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_FILEMAP_H
#define RT_FILEMAP_H

#include <sys/stat.h>

int rt_filemap_release(const struct stat *st);

#endif
