// SPDX-License-Identifier: GPL-2.0-only
/*
 * The running kernel's configuration: /proc/config.gz where the kernel
 * carries it (CONFIG_IKCONFIG_PROC), else /boot/config-RELEASE as
 * distributions install it. zlib reads either, compressed or not.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "lib/kconfig.h"

#define KCONFIG_MAX (8u << 20)	/* a configuration is some 300 KB */

static int slurp(const char *path, struct rt_kconfig *k)
{
	size_t cap = 1u << 16, len = 0;
	char *buf = NULL, *bigger;
	gzFile f;
	int n;

	f = gzopen(path, "rb");
	if (!f)
		return errno ? -errno : -ENOMEM;
	do {
		if (len + 1 >= cap || !buf) {
			cap = buf ? cap * 2 : cap;
			bigger = cap <= KCONFIG_MAX ? realloc(buf, cap) : NULL;
			if (!bigger) {
				free(buf);
				gzclose(f);
				return cap > KCONFIG_MAX ? -EFBIG : -ENOMEM;
			}
			buf = bigger;
		}
		n = gzread(f, buf + len, (unsigned int)(cap - len - 1));
		if (n > 0)
			len += (size_t)n;
	} while (n > 0);
	gzclose(f);
	if (n < 0 || !len) {
		free(buf);
		return -EIO;
	}
	buf[len] = '\0';
	k->text = buf;
	k->len = len;
	snprintf(k->source, sizeof(k->source), "%s", path);
	return 0;
}

/**
 * rt_kconfig_read - find and read the configuration of the kernel @release
 * @root: "" for this machine, or a fixture tree holding proc/ and boot/
 *
 * Returns 0, or -ENOENT when neither file is there or readable (@k is then
 * empty: every option is unknown).
 */
int rt_kconfig_read(struct rt_kconfig *k, const char *root, const char *release)
{
	char path[PATH_MAX];

	memset(k, 0, sizeof(*k));
	snprintf(path, sizeof(path), "%s/proc/config.gz", root);
	if (!slurp(path, k))
		return 0;
	snprintf(path, sizeof(path), "%s/boot/config-%s", root, release);
	if (!slurp(path, k))
		return 0;
	return -ENOENT;
}

/**
 * rt_kconfig_get - the value of option @name ("CONFIG_RT_GROUP_SCHED")
 * @val: its value ("y", "m", a number, a quoted string), @len bytes; may be NULL
 *
 * Returns 1 when it is set, 0 when it is not (a "# ... is not set" line, or
 * no line: the option does not exist in this kernel), -ENOENT when there is
 * no configuration to tell.
 */
int rt_kconfig_get(const struct rt_kconfig *k, const char *name, char *val, size_t len)
{
	size_t n = strlen(name);
	const char *p = k->text;

	if (!p)
		return -ENOENT;
	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *end;

		if (strncmp(p, name, n) || p[n] != '=')
			continue;
		p += n + 1;
		end = strchr(p, '\n');
		end = end ? end : p + strlen(p);
		if (val && len)
			snprintf(val, len, "%.*s", (int)(end - p), p);
		return 1;
	}
	return 0;
}

void rt_kconfig_free(struct rt_kconfig *k)
{
	free(k->text);
	memset(k, 0, sizeof(*k));
}
