// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-thread context switch and migration counters from /proc.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/procstat.h"

/* Large enough for status and sched of current kernels; longer files are cut. */
#define PROC_FILE_MAX 8192

/*
 * The value of the line "@key<spaces>:<spaces><number>" in @buf. The key must
 * start a line: "voluntary_ctxt_switches" is also the tail of
 * "nonvoluntary_ctxt_switches".
 */
static int field(const char *buf, const char *key, uint64_t *out)
{
	size_t klen = strlen(key);
	const char *p = buf;
	char *end;

	while (p && *p) {
		if (!strncmp(p, key, klen)) {
			const char *v = p + klen;

			while (*v == ' ' || *v == '\t')
				v++;
			if (*v == ':') {
				v++;
				while (*v == ' ' || *v == '\t')
					v++;
				if (*v < '0' || *v > '9')
					return -EINVAL;
				errno = 0;
				*out = strtoull(v, &end, 10);
				if (errno)
					return -ERANGE;
				if (*end && *end != '\n' && *end != ' ')
					return -EINVAL;
				return 0;
			}
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -ENODATA;
}

/**
 * rt_procstat_parse_status - context switch counts from a task's status file
 *
 * Returns 0, -ENODATA when a count is missing, -EINVAL or -ERANGE when it is
 * not a number.
 */
int rt_procstat_parse_status(const char *buf, struct rt_counters *c)
{
	int ret = field(buf, "voluntary_ctxt_switches", &c->vol);

	if (!ret)
		ret = field(buf, "nonvoluntary_ctxt_switches", &c->nonvol);
	return ret;
}

/**
 * rt_procstat_parse_sched - the migration count from a task's sched file
 *
 * Returns 0 with c->have_migrations set, or a negative errno as
 * rt_procstat_parse_status() does.
 */
int rt_procstat_parse_sched(const char *buf, struct rt_counters *c)
{
	int ret = field(buf, "se.nr_migrations", &c->migrations);

	if (ret == -ENODATA)
		ret = field(buf, "nr_migrations", &c->migrations);
	c->have_migrations = !ret;
	return ret;
}

static int slurp(const char *path, char *buf, size_t len)
{
	size_t n = 0;
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (n < len - 1) {
		r = read(fd, buf + n, len - 1 - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			close(fd);
			return (int)r;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	return 0;
}

/**
 * rt_procstat_read - read thread @tid's counters
 * @proc_root: "/proc", or a fixture tree laid out the same way
 *
 * Reads @proc_root/self/task/@tid/status and .../sched. A kernel without the
 * sched file (CONFIG_SCHED_DEBUG off on older kernels) is not an error:
 * c->have_migrations is then false and the caller counts migrations another
 * way.
 *
 * Returns 0 or a negative errno.
 */
int rt_procstat_read(const char *proc_root, pid_t tid, struct rt_counters *c)
{
	char path[PATH_MAX], buf[PROC_FILE_MAX];
	int ret;

	memset(c, 0, sizeof(*c));
	snprintf(path, sizeof(path), "%s/self/task/%d/status", proc_root, (int)tid);
	ret = slurp(path, buf, sizeof(buf));
	if (!ret)
		ret = rt_procstat_parse_status(buf, c);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/self/task/%d/sched", proc_root, (int)tid);
	ret = slurp(path, buf, sizeof(buf));
	if (ret == -ENOENT)
		return 0;
	if (!ret)
		ret = rt_procstat_parse_sched(buf, c);
	return ret;
}

/* PF_KTHREAD, in the flags of /proc/PID/stat */
#define RT_PF_KTHREAD 0x00200000UL

/**
 * rt_procstat_task - task @pid as @proc_root/@pid/stat has it: its name,
 * its state, whether it is a kernel thread ("pid (comm) state ppid pgrp
 * session tty_nr tpgid flags ...": the name may hold spaces and
 * parentheses, so the last ')' ends it; a thread's id works as @pid)
 *
 * Returns 0 or a negative errno (-ENOENT: no such task now).
 */
int rt_procstat_task(const char *proc_root, pid_t pid, struct rt_task *t)
{
	char path[PATH_MAX], buf[1024], *open_p, *close_p;
	unsigned long flags;
	size_t n;
	int ret;

	snprintf(path, sizeof(path), "%s/%d/stat", proc_root, (int)pid);
	ret = slurp(path, buf, sizeof(buf));
	if (ret)
		return ret;
	open_p = strchr(buf, '(');
	close_p = strrchr(buf, ')');
	if (!open_p || !close_p || close_p < open_p ||
	    sscanf(close_p + 1, " %c %*d %*d %*d %*d %*d %lu", &t->state, &flags) != 2)
		return -EINVAL;
	n = (size_t)(close_p - open_p - 1);
	n = n < sizeof(t->comm) - 1 ? n : sizeof(t->comm) - 1;
	memcpy(t->comm, open_p + 1, n);
	t->comm[n] = '\0';
	t->kthread = flags & RT_PF_KTHREAD;
	return 0;
}

/**
 * rt_counters_delta - @delta = @end - @start, counter by counter
 *
 * Migrations are kept only when both readings have them.
 */
void rt_counters_delta(const struct rt_counters *end, const struct rt_counters *start,
		       struct rt_counters *delta)
{
	delta->vol = end->vol - start->vol;
	delta->nonvol = end->nonvol - start->nonvol;
	delta->have_migrations = end->have_migrations && start->have_migrations;
	delta->migrations = delta->have_migrations ? end->migrations - start->migrations : 0;
}
