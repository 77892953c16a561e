/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_KCONFIG_H
#define RT_KCONFIG_H

#include <limits.h>
#include <stddef.h>

/* The running kernel's build configuration, as text. */
struct rt_kconfig {
	char *text;		/* NULL: no configuration found */
	size_t len;
	char source[PATH_MAX];	/* the file it came from */
};

int rt_kconfig_read(struct rt_kconfig *k, const char *root, const char *release);
int rt_kconfig_get(const struct rt_kconfig *k, const char *name, char *val, size_t len);
void rt_kconfig_free(struct rt_kconfig *k);

#endif
