// SPDX-License-Identifier: GPL-2.0-only
/*
 * A tracefs instance of the benchmark's own for the scheduler's events of
 * its threads: created, sized, filtered, switched on and off, and removed;
 * trace-cmd's recorder (recorder.c) streams it to a trace.dat.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include <tracefs.h>

#include "lib/clock.h"
#include "lib/cpus.h"
#include "trace/internal/instance.h"

struct trace_instance {
	struct tracefs_instance *instance;
	char *name;
	int lock_fd;			/* the instance's folder, flock()ed while in use */
	pid_t *cpus;			/* the run's CPUs, ascending (NULL: all) */
	size_t ncpus;
};

/* The initial PID namespace's inode number (the kernel's PROC_PID_INIT_INO). */
#define PID_NS_INIT_INO 0xEFFFFFFCU

/*
 * tracefs filters and reports the machine's PIDs: a process in a PID
 * namespace of its own knows its threads by other numbers, and a trace of
 * them would be empty.
 */
static bool in_init_pid_ns(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) || st.st_ino == PID_NS_INIT_INO;
}

/*
 * Hold the instance's folder locked; then check that it is still there (a
 * sweep that locked it first, between its creation and now, removed it).
 */
static int lock_instance(struct trace_instance *t)
{
	char *dir = tracefs_instance_get_dir(t->instance);
	struct stat st;
	int ret = 0;

	if (!dir)
		return -ENOMEM;
	t->lock_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->lock_fd < 0 || flock(t->lock_fd, LOCK_EX | LOCK_NB) || stat(dir, &st))
		ret = -EAGAIN;
	tracefs_put_tracing_file(dir);
	return ret;
}

/* @kb on each CPU of the run, a page or so on the others (no CPU can have none) */
static int set_buffers(struct trace_instance *t, size_t kb, const struct bitmask *cpus)
{
	int i, cpu;

	if (!cpus)
		return tracefs_instance_set_buffer_size(t->instance, kb, -1) < 0 ? -1 : 0;
	if (tracefs_instance_set_buffer_size(t->instance, TRACE_INSTANCE_IDLE_KB, -1) < 0)
		return -1;
	for (i = 0; (cpu = rt_cpus_nth(cpus, i)) >= 0; i++)
		if (tracefs_instance_set_buffer_size(t->instance, kb, cpu) < 0)
			return -1;
	return 0;
}

static int setup(struct trace_instance *t, const char *name, size_t buffer_kb,
		 const struct bitmask *cpus, char *err, size_t len);

/* The run's CPUs, for the switches' filter. */
static int keep_cpus(struct trace_instance *t, const struct bitmask *cpus)
{
	int i, n = cpus ? rt_cpus_count(cpus) : 0;

	if (!n)
		return 0;
	t->cpus = calloc((size_t)n, sizeof(*t->cpus));
	if (!t->cpus)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		t->cpus[i] = rt_cpus_nth(cpus, i);
	t->ncpus = (size_t)n;
	return 0;
}

/**
 * trace_instance_open - create the instance @name and prepare it, tracing off
 * @buffer_kb: ring buffer of each CPU of @cpus
 * @cpus: the CPUs the run uses (NULL: all); the others get TRACE_INSTANCE_IDLE_KB
 *
 * The instance traces on CLOCK_MONOTONIC ("mono"), so that its times
 * compare with the benchmark's, and drops new events rather than
 * overwriting old ones when full, counting what it dropped. It is locked
 * (flock on its folder) until trace_instance_close() or the process's end:
 * trace_instance_sweep() removes only instances nobody holds, whatever PID
 * namespace their owner is in.
 *
 * Returns 0, or a negative errno with @err naming what is missing:
 * -ENOENT no tracefs (and it could not be mounted) or a missing event,
 * -EACCES not allowed (tracefs is root's), -EOPNOTSUPP in a PID namespace
 * other than the machine's, -EEXIST @name exists already,
 * -EAGAIN a sweep removed it as it was created (try another name).
 */
int trace_instance_open(struct trace_instance **tp, const char *name, size_t buffer_kb,
			const struct bitmask *cpus, char *err, size_t len)
{
	struct trace_instance *t = calloc(1, sizeof(*t));
	int ret;

	*tp = NULL;
	if (!t) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	t->lock_fd = -1;
	ret = keep_cpus(t, cpus);
	if (ret)
		snprintf(err, len, "out of memory");
	else
		ret = setup(t, name, buffer_kb, cpus, err, len);
	if (ret)
		trace_instance_close(t);
	else
		*tp = t;
	return ret;
}

static int setup(struct trace_instance *t, const char *name, size_t buffer_kb,
		 const struct bitmask *cpus, char *err, size_t len)
{
	char path[PATH_MAX];
	const char *dir;
	int i;

	if (!in_init_pid_ns()) {
		snprintf(err, len, "this process is in a PID namespace of its own, and tracefs "
			 "knows threads by the machine's PIDs: run it in the machine's PID "
			 "namespace to trace");
		return -EOPNOTSUPP;
	}
	dir = tracefs_tracing_dir();
	if (!dir) {
		snprintf(err, len, "tracefs is not mounted at /sys/kernel/tracing and could not be "
			 "mounted (mount -t tracefs nodev /sys/kernel/tracing as root)");
		return -ENOENT;
	}
	/* asked first: libtracefs leaks a little on a refused creation */
	snprintf(path, sizeof(path), "%s/instances", dir);
	if (access(path, W_OK)) {
		snprintf(err, len, "cannot create a trace instance in %s: %s (tracefs needs root)",
			 path, strerror(errno));
		return -EACCES;
	}
	if (tracefs_instance_exists(name)) {
		snprintf(err, len, "the trace instance %s exists already", name);
		return -EEXIST;
	}
	t->name = strdup(name);
	if (!t->name) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	errno = 0;
	t->instance = tracefs_instance_create(name);
	if (!t->instance) {
		int e = errno ? errno : EACCES;

		snprintf(err, len, "cannot create the trace instance %s: %s%s", name, strerror(e),
			 e == EACCES || e == EPERM ? " (tracefs needs root)" : "");
		return -e;
	}
	if (lock_instance(t)) {
		snprintf(err, len, "the trace instance %s was removed as it was created", name);
		return -EAGAIN;
	}
	for (i = 0; i < TRACE_EV_TYPES; i++) {
		if (!tracefs_event_file_exists(t->instance, "sched", trace_event_names[i], "filter")) {
			snprintf(err, len, "this kernel has no sched:%s event", trace_event_names[i]);
			return -ENOENT;
		}
	}
	if (tracefs_trace_off(t->instance) ||
	    tracefs_instance_file_write(t->instance, "trace_clock", "mono") < 0 ||
	    tracefs_option_disable(t->instance, TRACEFS_OPTION_OVERWRITE)) {
		int e = errno ? errno : EIO;

		snprintf(err, len, "setting up the trace instance %s: %s", name, strerror(e));
		return -e;
	}
	errno = 0;
	if (set_buffers(t, buffer_kb, cpus)) {
		int e = errno ? errno : EIO;
		int n = cpus ? rt_cpus_count(cpus) : numa_num_configured_cpus();

		if (e != ENOMEM) {
			snprintf(err, len, "sizing the trace buffers of %s (%zu KiB per CPU): %s",
				 name, buffer_kb, strerror(e));
			return -e;
		}
		/* told apart from any other lack of memory: the caller can ask for less */
		snprintf(err, len, "the trace buffers, %zu KiB on each of %d CPU%s (%zu MiB in all), "
			 "do not fit in memory", buffer_kb, n, n == 1 ? "" : "s",
			 buffer_kb * (size_t)n / 1024);
		return -EFBIG;
	}
	return 0;
}

/**
 * trace_instance_open_private - trace_instance_open() under a name of the
 * process's own: @prefix, its pid and a random part (PIDs repeat across
 * PID namespaces); a sweep that removed it as it was created asks for
 * another
 */
int trace_instance_open_private(struct trace_instance **t, const char *prefix, size_t buffer_kb,
				const struct bitmask *cpus, char *err, size_t len)
{
	unsigned int salt;
	char name[64];
	int ret, tries = 0;

	do {
		if (getrandom(&salt, sizeof(salt), GRND_NONBLOCK) != sizeof(salt))
			salt = (unsigned int)rt_now_ns(CLOCK_MONOTONIC);
		snprintf(name, sizeof(name), "%s%d-%08x", prefix, (int)getpid(), salt);
		ret = trace_instance_open(t, name, buffer_kb, cpus, err, len);
	} while ((ret == -EAGAIN || ret == -EEXIST) && ++tries < 3);
	return ret;
}

/**
 * trace_instance_overwrite - when its buffers are full, the oldest events
 * make room (@on: a flight recorder's recent past), or new ones are
 * dropped (the default)
 *
 * Returns 0, or a negative errno.
 */
int trace_instance_overwrite(struct trace_instance *t, bool on)
{
	int ret = on ? tracefs_option_enable(t->instance, TRACEFS_OPTION_OVERWRITE) :
		  tracefs_option_disable(t->instance, TRACEFS_OPTION_OVERWRITE);

	return ret ? -(errno ? errno : EIO) : 0;
}

/**
 * trace_instance_mark - write @line into the instance's own trace_marker
 * (recorded while the instance is on)
 *
 * Returns 0, or a negative errno.
 */
int trace_instance_mark(struct trace_instance *t, const char *line)
{
	int fd = tracefs_instance_file_open(t->instance, "trace_marker", O_WRONLY | O_CLOEXEC);
	size_t n = strlen(line);
	ssize_t w;

	if (fd < 0)
		return errno ? -errno : -ENOENT;
	w = write(fd, line, n);
	close(fd);
	return w == (ssize_t)n ? 0 : w < 0 ? -errno : -EIO;
}

/**
 * trace_instance_dir - the instance's directory (to free), e.g. for a signal handler to remove
 */
char *trace_instance_dir(struct trace_instance *t)
{
	return t->instance ? tracefs_instance_get_dir(t->instance) : NULL;
}

/* "(KEY>=a&&KEY<=b)||KEY==c..." for the sorted @tids. */
static int filter_of(char *buf, size_t len, const char *key, const pid_t *tids, size_t n)
{
	size_t i, j, off = 0;

	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && tids[j] == tids[j - 1] + 1; j++)
			;
		if (j - i == 1)
			off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s==%d",
						i ? "||" : "", key, tids[i]);
		else
			off += (size_t)snprintf(buf + off, off < len ? len - off : 0,
						"%s(%s>=%d&&%s<=%d)", i ? "||" : "", key, tids[i],
						key, tids[j - 1]);
	}
	return off < len ? 0 : -E2BIG;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/**
 * trace_instance_filter - record only events of @tids, and enable the events
 *
 * sched_switch is kept when either side is one of them, so that a
 * preemption shows who took the CPU, and every one on the run's CPUs, so
 * that what each CPU runs is known throughout (placement); the others
 * when their task is. No tids (@n 0): no scheduler event at all. What the
 * buffers hold already stays there for the recorder.
 *
 * Returns 0 or a negative errno.
 */
int trace_instance_filter(struct trace_instance *t, const pid_t *tids, size_t n)
{
	size_t len = 64 + (n + t->ncpus) * 48;
	char *prev = malloc(len), *next = malloc(len), *sw = malloc(3 * len + 8);
	pid_t *sorted = malloc((n ? n : 1) * sizeof(*sorted));
	int i, ret = -ENOMEM;

	if (!prev || !next || !sw || !sorted)
		goto out;
	if (n && tids) {
		memcpy(sorted, tids, n * sizeof(*sorted));
		qsort(sorted, n, sizeof(*sorted), cmp_pid);
		ret = filter_of(prev, len, "prev_pid", sorted, n);
		if (!ret)
			ret = filter_of(next, len, "next_pid", sorted, n);
		if (ret)
			goto out;
		snprintf(sw, 3 * len + 8, "%s||%s", prev, next);
		if (!t->ncpus)
			snprintf(sw, 3 * len + 8, "0");	/* no filter: every CPU */
		else if (!filter_of(next, len, "CPU", t->cpus, t->ncpus))
			snprintf(sw + strlen(sw), 3 * len + 8 - strlen(sw), "||%s", next);
		filter_of(prev, len, "pid", sorted, n);
	} else {
		snprintf(sw, len, "common_pid<0");
		snprintf(prev, len, "common_pid<0");
	}
	for (i = 0; i < TRACE_EV_TYPES; i++) {
		if (tracefs_event_file_write(t->instance, "sched", trace_event_names[i], "filter",
					     i == TRACE_EV_SWITCH ? sw : prev) < 0 ||
		    tracefs_event_enable(t->instance, "sched", trace_event_names[i])) {
			ret = errno ? -errno : -EIO;
			goto out;
		}
	}
	ret = 0;
out:
	free(prev);
	free(next);
	free(sw);
	free(sorted);
	return ret;
}

/**
 * trace_instance_start - tracing on; Returns 0 or -EIO
 */
int trace_instance_start(struct trace_instance *t)
{
	return tracefs_trace_on(t->instance) ? -EIO : 0;
}

/**
 * trace_instance_begin - trace_instance_filter() for @tids, then trace_instance_start()
 *
 * Returns 0 or a negative errno.
 */
int trace_instance_begin(struct trace_instance *t, const pid_t *tids, size_t n)
{
	int ret = trace_instance_filter(t, tids, n);

	return ret ? ret : trace_instance_start(t);
}

/**
 * trace_instance_stop - tracing off; Returns 0 or -EIO
 */
int trace_instance_stop(struct trace_instance *t)
{
	return tracefs_trace_off(t->instance) ? -EIO : 0;
}

/**
 * trace_instance_is_on - is the instance recording (tracing_on)?
 */
bool trace_instance_is_on(const struct trace_instance *t)
{
	return tracefs_trace_is_on(t->instance) == 1;
}

/* The instance's name, as trace-cmd's -B takes it. */
const char *trace_instance_name(const struct trace_instance *t)
{
	return t->name;
}

/**
 * trace_instance_lost - the events the instance's buffers dropped since it was
 * created, from every CPU's stats
 */
uint64_t trace_instance_lost(const struct trace_instance *t)
{
	static const char *const keys[] = { "overrun:", "dropped events:" };
	char file[64], *stats, *p;
	uint64_t lost = 0;
	size_t k;
	int cpu;

	for (cpu = 0;; cpu++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		stats = tracefs_instance_file_read(t->instance, file, NULL);
		if (!stats)
			break;
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			p = strstr(stats, keys[k]);
			if (p)
				lost += strtoull(p + strlen(keys[k]), NULL, 10);
		}
		free(stats);
	}
	return lost;
}

/**
 * trace_instance_close - remove the instance and free everything, @t too (NULL: nothing)
 *
 * Nobody may hold a file of the instance open: its trace_marker, a
 * recorder's per-CPU buffers. A recorder killed a moment ago is waited for,
 * a second at most.
 */
void trace_instance_close(struct trace_instance *t)
{
	if (!t)
		return;
	if (t->instance) {
		int tries;

		tracefs_trace_off(t->instance);
		/* a recorder just killed may hold its files a moment longer: 1 s at most */
		for (tries = 0; tracefs_instance_destroy(t->instance) && errno == EBUSY &&
				tries < 100; tries++)
			usleep(10000);
		tracefs_instance_free(t->instance);
		if (t->lock_fd >= 0)
			close(t->lock_fd);
		t->lock_fd = -1;
	}
	free(t->name);
	free(t->cpus);
	free(t);
}

struct sweep {
	const char *prefix;
	int removed;
};

static int sweep_one(const char *name, void *ctx)
{
	struct sweep *sw = ctx;
	struct tracefs_instance *inst;
	char *dir;
	int fd = -1;

	if (strncmp(name, sw->prefix, strlen(sw->prefix)))
		return 0;
	inst = tracefs_instance_alloc(NULL, name);
	dir = inst ? tracefs_instance_get_dir(inst) : NULL;
	if (dir)
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* held by its owner, alive in whatever PID namespace: left alone */
	if (fd >= 0 && !flock(fd, LOCK_EX | LOCK_NB) && !tracefs_instance_destroy(inst))
		sw->removed++;
	if (fd >= 0)
		close(fd);
	tracefs_put_tracing_file(dir);
	tracefs_instance_free(inst);
	return 0;
}

/**
 * trace_instance_sweep - remove the instances "@prefix..." that nobody holds
 *
 * A benchmark killed with SIGKILL cannot remove its instance; the next run
 * does. An instance is in use while its owner holds the lock on its folder
 * (trace_instance_open()): a PID would not tell, since the owner may be in
 * another PID namespace. (tracefs_instances_walk() rather than
 * tracefs_instances(), whose compiled regular expression libtracefs 1.6
 * never frees.)
 *
 * Returns how many were removed.
 */
int trace_instance_sweep(const char *prefix)
{
	struct sweep sw = { prefix, 0 };

	tracefs_instances_walk(sweep_one, &sw);
	return sw.removed;
}
