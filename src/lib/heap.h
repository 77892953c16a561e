/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_HEAP_H
#define RT_HEAP_H

#include <stddef.h>

int rt_heap_huge(size_t bytes);

#endif
