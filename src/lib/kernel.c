// SPDX-License-Identifier: GPL-2.0-only
/*
 * The running kernel's scheduler, as the kernel shows it: release and
 * configuration, the preemption model and the mode in force, the scheduler
 * features and sched_ext. Everything is read below a root ("" for this
 * machine, a fixture tree in the tests); what cannot be read stays empty
 * with the reason, never a guess.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/kernel.h"
#include "lib/kfile.h"

/**
 * rt_kernel_why - one clause saying why @path could not be read (@err, a
 * negative errno), with what to do where there is something to do
 */
void rt_kernel_why(char *buf, size_t len, const char *path, int err)
{
	const char *debugfs = strstr(path, "/sys/kernel/debug/");

	if (debugfs && (err == -EPERM))
		snprintf(buf, len, "debugfs refuses %s: %s, as under kernel lockdown", debugfs,
			 strerror(-err));
	else if (debugfs && err == -EACCES)
		snprintf(buf, len, "debugfs refuses %s to this user: %s", debugfs, strerror(-err));
	else if (debugfs && err == -ENOENT)
		snprintf(buf, len, "%s is missing: debugfs is not mounted there, or the kernel has "
			 "no such file (mount -t debugfs none /sys/kernel/debug)", debugfs);
	else
		snprintf(buf, len, "%s: %s", path, strerror(-err));
}

static void release_numbers(struct rt_kernel *k)
{
	if (sscanf(k->release, "%d.%d", &k->major, &k->minor) != 2)
		k->major = k->minor = -1;
}

/**
 * rt_kernel_since - whether the kernel is @major.@minor or later
 *
 * Returns 1, 0, or -1 when its release is not known.
 */
int rt_kernel_since(const struct rt_kernel *k, int major, int minor)
{
	if (k->major < 0)
		return -1;
	return k->major > major || (k->major == major && k->minor >= minor);
}

/**
 * rt_kernel_config - option @name of the kernel's configuration
 *
 * Returns 1 set (y or m), 0 not set, -1 unknown (no configuration found).
 */
int rt_kernel_config(const struct rt_kernel *k, const char *name)
{
	char val[64];
	int ret = rt_kconfig_get(&k->config, name, val, sizeof(val));

	if (ret < 0)
		return -1;
	return ret && (!strcmp(val, "y") || !strcmp(val, "m"));
}

/* The word in parentheses among the choices debugfs lists: "none voluntary (full) lazy" */
static int chosen(const char *list, char *out, size_t len)
{
	const char *open = strchr(list, '('), *close = open ? strchr(open, ')') : NULL;

	if (!close)
		return -EINVAL;
	snprintf(out, len, "%.*s", (int)(close - open - 1), open + 1);
	return 0;
}

/* The mode PREEMPT_DYNAMIC booted with, when debugfs cannot say: preempt=, else the default */
static void boot_mode(struct rt_kernel *k, const char *root)
{
	static const char *const defaults[][2] = {
		{ "CONFIG_PREEMPT_LAZY", "lazy" }, { "CONFIG_PREEMPT", "full" },
		{ "CONFIG_PREEMPT_VOLUNTARY", "voluntary" }, { "CONFIG_PREEMPT_NONE", "none" },
	};
	char path[PATH_MAX], cmdline[4096], *p;
	size_t i;

	snprintf(path, sizeof(path), "%s/proc/cmdline", root);
	if (rt_kfile_read(path, cmdline, sizeof(cmdline)) > 0) {
		for (p = strstr(cmdline, "preempt="); p; p = strstr(p + 1, "preempt=")) {
			if (p == cmdline || p[-1] == ' ') {
				snprintf(k->mode, sizeof(k->mode), "%.*s", (int)strcspn(p + 8, " "),
					 p + 8);
				snprintf(k->mode_source, sizeof(k->mode_source),
					 "preempt= at boot");
				return;
			}
		}
	}
	for (i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++) {
		if (rt_kernel_config(k, defaults[i][0]) == 1) {
			snprintf(k->mode, sizeof(k->mode), "%s", defaults[i][1]);
			snprintf(k->mode_source, sizeof(k->mode_source), "the boot default");
			return;
		}
	}
}

/* The preemption model built in, and for PREEMPT_DYNAMIC the mode in force. */
static void preemption(struct rt_kernel *k, const char *root)
{
	char path[PATH_MAX], buf[256];
	int ret;

	snprintf(path, sizeof(path), "%s/sys/kernel/realtime", root);
	if (strstr(k->version, "PREEMPT_RT") || rt_kernel_config(k, "CONFIG_PREEMPT_RT") == 1 ||
	    (rt_kfile_read(path, buf, sizeof(buf)) > 0 && !strcmp(buf, "1"))) {
		snprintf(k->model, sizeof(k->model), "PREEMPT_RT");
		snprintf(k->mode, sizeof(k->mode), "full");
		snprintf(k->mode_source, sizeof(k->mode_source), "PREEMPT_RT");
		return;
	}
	if (!strstr(k->version, "PREEMPT_DYNAMIC") && rt_kernel_config(k, "CONFIG_PREEMPT_DYNAMIC") != 1) {
		if (strstr(k->version, "PREEMPT_LAZY") || rt_kernel_config(k, "CONFIG_PREEMPT_LAZY") == 1)
			snprintf(k->model, sizeof(k->model), "PREEMPT_LAZY");
		else if (strstr(k->version, "PREEMPT") || rt_kernel_config(k, "CONFIG_PREEMPT") == 1)
			snprintf(k->model, sizeof(k->model), "PREEMPT");
		else if (rt_kernel_config(k, "CONFIG_PREEMPT_VOLUNTARY") == 1)
			snprintf(k->model, sizeof(k->model), "voluntary");
		else if (rt_kernel_config(k, "CONFIG_PREEMPT_NONE") == 1)
			snprintf(k->model, sizeof(k->model), "none");
		else
			snprintf(k->model, sizeof(k->model), "none or voluntary");
		return;
	}
	snprintf(k->model, sizeof(k->model), "PREEMPT_DYNAMIC");
	snprintf(path, sizeof(path), "%s/sys/kernel/debug/sched/preempt", root);
	ret = rt_kfile_read(path, buf, sizeof(buf));
	if (ret > 0 && !chosen(buf, k->mode, sizeof(k->mode))) {
		snprintf(k->mode_source, sizeof(k->mode_source), "debugfs");
		return;
	}
	rt_kernel_why(k->mode_why, sizeof(k->mode_why), path, ret < 0 ? ret : -EINVAL);
	boot_mode(k, root);
}

/* The scheduler's features: debugfs's sched/features (5.13 on), else sched_features. */
static void features(struct rt_kernel *k, const char *root)
{
	static const char *const files[] = { "/sys/kernel/debug/sched/features",
					      "/sys/kernel/debug/sched_features" };
	char path[PATH_MAX];
	int ret = -ENOENT, first = 0;
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", root, files[i]);
		ret = rt_kfile_read(path, k->features, sizeof(k->features));
		if (ret > 0)
			return;
		if (!i)
			first = ret;
		if (ret != -ENOENT)
			break;
	}
	k->features[0] = '\0';
	snprintf(path, sizeof(path), "%s%s", root, files[0]);
	rt_kernel_why(k->features_why, sizeof(k->features_why), path, first ? first : -EIO);
}

/**
 * rt_kernel_feature - whether scheduler feature @name ("RT_PUSH_IPI") is on
 *
 * Returns 1 on, 0 off (listed as NO_NAME), -1 unknown (the features could
 * not be read, or the kernel has no such feature).
 */
int rt_kernel_feature(const struct rt_kernel *k, const char *name)
{
	const char *p = k->features;
	size_t n = strlen(name);

	while (*p) {
		size_t w = strcspn(p, " ");
		bool no = w > 3 && !strncmp(p, "NO_", 3);

		if (w - (no ? 3 : 0) == n && !strncmp(p + (no ? 3 : 0), name, n))
			return !no;
		p += w;
		p += strspn(p, " ");
	}
	return -1;
}

/* sched_ext: the state sysfs gives (6.12 on), with the loaded scheduler's name. */
static void sched_ext(struct rt_kernel *k, const char *root)
{
	char path[PATH_MAX], state[24], ops[64];
	int ret;

	snprintf(path, sizeof(path), "%s/sys/kernel/sched_ext/state", root);
	ret = rt_kfile_read(path, state, sizeof(state));
	if (ret > 0) {
		snprintf(path, sizeof(path), "%s/sys/kernel/sched_ext/root/ops", root);
		if (strcmp(state, "disabled") && rt_kfile_read(path, ops, sizeof(ops)) > 0)
			snprintf(k->sched_ext, sizeof(k->sched_ext), "%s: %s", state, ops);
		else
			snprintf(k->sched_ext, sizeof(k->sched_ext), "%s", state);
		return;
	}
	if (ret == -ENOENT &&
	    (rt_kernel_config(k, "CONFIG_SCHED_CLASS_EXT") == 0 || rt_kernel_since(k, 6, 12) == 0)) {
		snprintf(k->sched_ext, sizeof(k->sched_ext), "not built");
		return;
	}
	rt_kernel_why(k->sched_ext_why, sizeof(k->sched_ext_why), path, ret < 0 ? ret : -EIO);
}

/**
 * rt_kernel_read - what the kernel below @root ("" for this one) says of
 * its scheduler
 *
 * Returns 0; what could not be read is empty, with its reason.
 * rt_kernel_free() frees the configuration.
 */
int rt_kernel_read(struct rt_kernel *k, const char *root)
{
	char path[PATH_MAX];

	memset(k, 0, sizeof(*k));
	snprintf(path, sizeof(path), "%s/proc/sys/kernel/osrelease", root);
	if (rt_kfile_read(path, k->release, sizeof(k->release)) <= 0)
		snprintf(k->release, sizeof(k->release), "unknown");
	snprintf(path, sizeof(path), "%s/proc/sys/kernel/version", root);
	if (rt_kfile_read(path, k->version, sizeof(k->version)) <= 0)
		k->version[0] = '\0';
	release_numbers(k);
	/* what tells one boot from another: results of one boot are one sitting */
	snprintf(path, sizeof(path), "%s/proc/sys/kernel/random/boot_id", root);
	if (rt_kfile_read(path, k->boot_id, sizeof(k->boot_id)) != 36 ||
	    strspn(k->boot_id, "0123456789abcdef-") != 36)
		k->boot_id[0] = '\0';
	rt_kconfig_read(&k->config, root, k->release);
	preemption(k, root);
	features(k, root);
	sched_ext(k, root);
	return 0;
}

void rt_kernel_free(struct rt_kernel *k)
{
	rt_kconfig_free(&k->config);
}

/**
 * rt_kernel_describe - the preemption model in a few words:
 * "PREEMPT_DYNAMIC (full)", "PREEMPT_DYNAMIC (none, the boot default: a
 * later change is not seen)", "PREEMPT_RT"
 *
 * Returns what snprintf returns.
 */
int rt_kernel_describe(const struct rt_kernel *k, char *buf, size_t len)
{
	if (strcmp(k->model, "PREEMPT_DYNAMIC"))
		return snprintf(buf, len, "%s", k->model);
	if (!k->mode[0])
		return snprintf(buf, len, "PREEMPT_DYNAMIC (mode unknown)");
	if (!strcmp(k->mode_source, "debugfs"))
		return snprintf(buf, len, "PREEMPT_DYNAMIC (%s)", k->mode);
	return snprintf(buf, len, "PREEMPT_DYNAMIC (%s, %s: a later change is not seen)", k->mode,
			k->mode_source);
}
