// SPDX-License-Identifier: GPL-2.0-only
/*
 * make bench: the speed and accuracy figures of the foundation, measured
 * here and printed with their targets. Not a test: it asserts nothing and
 * exits 0 once it has measured, whatever the figures are.
 *
 *   bench MIGRATE-BINARY PI_STRESS-BINARY ANALYSE-BINARY
 *
 * The pi_stress comparison runs rt-tests' pi_stress (RT_TESTS_PI_STRESS, by
 * default /usr/bin/pi_stress) when it is installed. The traced long run
 * lasts RTSCHED_BENCH_LONG seconds (default 20), against one of
 * RTSCHED_BENCH_SHORT (default 5). RTSCHED_BENCH_ONLY=NAME,... measures
 * only those figures (their names: bench --list).
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include "migrate/migrate.h"
#include "pi_stress/pi_stress.h"
#include "lib/clock.h"
/* a test of the trace layer's internals: its scheduler walk */
#include "trace/internal/walk.h"
#include "lib/sched.h"
#include "trace/marker.h"
#include "lib/work.h"

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The @p-th percentile of @v (sorted in place), nearest rank. */
static int64_t pct(int64_t *v, size_t n, double p)
{
	size_t i;

	qsort(v, n, sizeof(*v), cmp_i64);
	i = (size_t)(p / 100.0 * (double)(n - 1) + 0.5);
	return v[i];
}

enum target { BELOW, AT_MOST, AT_LEAST };

static void verdict(const char *what, double got, double target, const char *unit, enum target how)
{
	static const char *const op[] = { "<", "<=", ">=" };
	bool met = how == BELOW ? got < target : how == AT_MOST ? got <= target : got >= target;

	printf("  %-44s %10.3f %-3s (target %s %g %s: %s)\n", what, got, unit, op[how], target,
	       unit, met ? "met" : "MISSED");
}

static void busy_loop_accuracy(void)
{
	enum { REPS = 300, CALS = 10 };
	static int64_t err_ppm[REPS], loops[CALS];
	struct rt_work w;
	int i;

	printf("busy loop (CPU time of one 1 ms unit, thread CPU clock, %d units)\n", REPS);
	for (i = 0; i < CALS; i++) {
		rt_work_calibrate(&w, RT_NSEC_PER_MSEC);
		loops[i] = (int64_t)w.loops_per_unit;
	}
	for (i = 0; i < REPS; i++) {
		int64_t t0 = rt_now_ns(CLOCK_THREAD_CPUTIME_ID), ns;

		rt_busy_loop(&w, 1);
		ns = rt_now_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
		err_ppm[i] = llabs(ns - RT_NSEC_PER_MSEC) * 1000000 / RT_NSEC_PER_MSEC;
	}
	verdict("median |error| of one unit", (double)pct(err_ppm, REPS, 50) / 1e4, 2, "%", AT_MOST);
	printf("  %-44s %10.3f %%\n", "p90 |error|", (double)pct(err_ppm, REPS, 90) / 1e4);
	printf("  %-44s %10lld .. %lld loops/ms\n", "calibration spread over 10 calibrations",
	       (long long)pct(loops, CALS, 0), (long long)pct(loops, CALS, 100));
}

static void sleep_overshoot(void)
{
	enum { REPS = 1000 };
	static int64_t over[REPS];
	int64_t deadline;
	int i;

	printf("ms_sleep overshoot (1 ms absolute sleeps under SCHED_FIFO 90, %d sleeps)\n", REPS);
	if (rt_sched_set_fifo(pthread_self(), 90)) {
		printf("  skipped: no SCHED_FIFO here\n");
		return;
	}
	rt_work_thread_init();
	deadline = rt_now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < REPS; i++) {
		deadline += RT_NSEC_PER_MSEC;
		rt_sleep_until(deadline);
		over[i] = rt_now_ns(CLOCK_MONOTONIC) - deadline;
	}
	verdict("median overshoot", (double)pct(over, REPS, 50) / 1e3, 100, "us", BELOW);
	printf("  %-44s %10.3f us\n", "p99 overshoot", (double)pct(over, REPS, 99) / 1e3);
	printf("  %-44s %10.3f us\n", "max overshoot", (double)pct(over, REPS, 100) / 1e3);
}

static void marker_cost(void)
{
	enum { REPS = 20000 };
	static int64_t cost[REPS];
	int i;

	printf("trace_marker write (one formatted lock-step line, %d writes)\n", REPS);
	if (trace_marker_open(NULL)) {
		printf("  skipped: no trace_marker here\n");
		return;
	}
	for (i = 0; i < REPS; i++) {
		int64_t t0 = rt_now_ns(CLOCK_MONOTONIC);

		trace_mark("thread %d iter %d, taking lock %d\n", i % 8, i, i % 4);
		cost[i] = rt_now_ns(CLOCK_MONOTONIC) - t0;
	}
	verdict("median cost", (double)pct(cost, REPS, 50) / 1e3, 2, "us", BELOW);
	printf("  %-44s %10.3f us\n", "p99 cost", (double)pct(cost, REPS, 99) / 1e3);
	trace_marker_close();
}

struct child {
	char out[8192];
	int64_t wall_ns;
	struct rusage ru;
	long vmlck_kb;
	int status;
};

static long status_kb(pid_t pid, const char *key)
{
	char path[64], line[256];
	long kb = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, strlen(key)))
			kb = strtol(line + strlen(key), NULL, 10);
	}
	fclose(f);
	return kb;
}

/* Start @argv with its stdout into a pipe whose reading end *@out gets; its pid or -errno. */
static pid_t spawn(char *const argv[], int *out)
{
	int pfd[2];
	pid_t pid;

	if (pipe(pfd))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	*out = pfd[0];
	return pid;
}

/* Run @argv with stdout captured; with @probe_ns, read its VmLck that long after the start. */
static int run_child(char *const argv[], struct child *c, int64_t probe_ns)
{
	static char drop[4096];
	int64_t t0 = rt_now_ns(CLOCK_MONOTONIC);
	size_t n = 0;
	int fd;
	ssize_t r;
	pid_t pid;

	memset(c, 0, sizeof(*c));
	c->vmlck_kb = -1;
	pid = spawn(argv, &fd);
	if (pid < 0)
		return pid;
	if (probe_ns) {
		rt_sleep_ns(probe_ns);
		c->vmlck_kb = status_kb(pid, "VmLck:");
	}
	while (n < sizeof(c->out) - 1 && (r = read(fd, c->out + n, sizeof(c->out) - 1 - n)) > 0)
		n += (size_t)r;
	c->out[n] = '\0';
	/* the rest is read and dropped: a child blocked on a full pipe never ends */
	while (read(fd, drop, sizeof(drop)) > 0)
		;
	close(fd);
	if (wait4(pid, &c->status, 0, &c->ru) < 0)
		return -errno;
	c->wall_ns = rt_now_ns(CLOCK_MONOTONIC) - t0;
	return WIFEXITED(c->status) && WEXITSTATUS(c->status) == 0 ? 0 : -ECHILD;
}

/* The number after @key in @text, or -1. */
static double after(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtod(p + strlen(key), NULL) : -1;
}

static void startup(char *migrate)
{
	enum { REPS = 10 };
	char *argv[] = { migrate, "-d", "0.1", "-t", "2", "-l", "1", NULL };
	int64_t ms_x1000[REPS];
	struct child c;
	int i;

	printf("start-up (main() to the start barrier, as migrate reports it, %d runs of %s)\n",
	       REPS, "-d 0.1 -t 2 -l 1");
	for (i = 0; i < REPS; i++) {
		if (run_child(argv, &c, 0)) {
			printf("  failed: exit status %d\n", c.status);
			return;
		}
		ms_x1000[i] = (int64_t)(after(c.out, "start-up ") * 1000);
	}
	verdict("median start-up", (double)pct(ms_x1000, REPS, 50) / 1000, 300, "ms", BELOW);
	printf("  %-44s %10.3f ms\n", "max start-up", (double)pct(ms_x1000, REPS, 100) / 1000);
}

static void duration(char *migrate)
{
	enum { REPS = 3 };
	char *argv[] = { migrate, "-d", "2", NULL };
	int64_t err_ppm[REPS], wall_ppm[REPS];
	struct child c;
	int i;

	printf("--duration accuracy (%d runs of the default contention test, -d 2)\n", REPS);
	for (i = 0; i < REPS; i++) {
		if (run_child(argv, &c, 0)) {
			printf("  failed: exit status %d\n", c.status);
			return;
		}
		err_ppm[i] = llabs((int64_t)(after(c.out, "measured ") * 1e6) - 2000000) / 2;
		wall_ppm[i] = llabs(c.wall_ns / 1000 - 2000000) / 2;
	}
	verdict("median |measured run - asked| / asked", (double)pct(err_ppm, REPS, 50) / 1e4, 2,
		"%", AT_MOST);
	printf("  %-44s %10.3f %%\n", "worst of the runs", (double)pct(err_ppm, REPS, 100) / 1e4);
	printf("  %-44s %10.3f %%\n", "median |process wall time - asked| / asked",
	       (double)pct(wall_ppm, REPS, 50) / 1e4);
}

static void peak_rss(char *migrate)
{
	char *argv[] = { migrate, "-t", "98", "-d", "2", NULL };
	struct child c;

	printf("at the most threads, -t 98 (contention, -d 2, memory locked)\n");
	if (run_child(argv, &c, RT_NSEC_PER_SEC)) {
		printf("  failed: exit status %d\n", c.status);
		return;
	}
	verdict("peak RSS", (double)c.ru.ru_maxrss / 1024, 32, "MiB", BELOW);
	printf("  %-44s %10.3f MiB\n", "VmLck half-way through the run",
	       (double)c.vmlck_kb / 1024);
	printf("  %-44s %10.1f ms\n", "start-up (main() to the start barrier)",
	       after(c.out, "start-up "));
}

/* Both measured the same way: inversions over the process's wall time. */
static void pi_stress_vs_rt_tests(char *ours)
{
	enum { ROUNDS = 3 };
	const char *env = getenv("RT_TESTS_PI_STRESS");
	char *theirs = (char *)(env ? env : "/usr/bin/pi_stress");
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	char groups[24], secs[] = "3", *line, *end;
	double ours_rate[ROUNDS], theirs_rate[ROUNDS], theirs_steady[ROUNDS], o, t, ts;
	struct child c;
	int i;

	snprintf(groups, sizeof(groups), "%ld", ncpus > 1 ? ncpus - 1 : 1);
	printf("pi_stress against rt-tests' pi_stress (-g %s, %d rounds of %s s each, "
	       "alternating)\n", groups, ROUNDS, secs);
	if (access(theirs, X_OK)) {
		printf("  rt-tests' pi_stress is not installed (%s): apt install rt-tests to "
		       "compare; ours alone:\n", theirs);
		theirs = NULL;
	}
	for (i = 0; i < ROUNDS; i++) {
		char *our_argv[] = { ours, "-q", "-g", groups, "-d", secs, NULL };
		char *their_argv[] = { theirs, "-q", "-g", groups, "-D", secs, NULL };

		if (theirs) {
			if (run_child(their_argv, &c, 0)) {
				printf("  rt-tests' pi_stress failed: status %d\n", c.status);
				return;
			}
			theirs_rate[i] = after(c.out, "Total inversion performed: ") * 1e9 /
					 (double)c.wall_ns;
			/* as if it had counted only during its duration: its best case */
			theirs_steady[i] = after(c.out, "Total inversion performed: ") / atof(secs);
		}
		if (run_child(our_argv, &c, 0)) {
			printf("  pi_stress failed: status %d\n", c.status);
			return;
		}
		ours_rate[i] = after(c.out, "all groups: ") * 1e9 / (double)c.wall_ns;
		/* the wait figures, which rt-tests does not have */
		line = strstr(c.out, "\n    0 ");
		end = line ? strchr(line + 1, '\n') : NULL;
		if (i == ROUNDS - 1 && end)
			printf("  group 0, last round: %.*s\n", (int)(end - line - 1), line + 1);
	}
	o = ours_rate[0];
	t = theirs ? theirs_rate[0] : 0;
	ts = theirs ? theirs_steady[0] : 0;
	for (i = 1; i < ROUNDS; i++) {
		o = ours_rate[i] > o ? ours_rate[i] : o;
		t = theirs && theirs_rate[i] > t ? theirs_rate[i] : t;
		ts = theirs && theirs_steady[i] > ts ? theirs_steady[i] : ts;
	}
	printf("  %-44s %10.0f /s (best round, over process wall time)\n",
	       "rtsched pi_stress inversions", o);
	if (!theirs)
		return;
	printf("  %-44s %10.0f /s\n", "rt-tests pi_stress inversions", t);
	verdict("ratio rtsched / rt-tests", o / t, 1, "x", AT_LEAST);
	printf("  %-44s %10.0f /s\n", "rt-tests counted over -D alone (its best case)", ts);
	verdict("ratio rtsched / rt-tests' best case", o / ts, 1, "x", AT_LEAST);
}

/* The table's total iterations of a run, from its "total:" line. */
static double total_iterations(const char *out)
{
	const char *p = strstr(out, "\ntotal:");
	double v[4] = { -1, -1, -1, -1 };

	if (p)
		sscanf(p + 7, "%lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3]);
	return v[3];
}

static void trace_overhead(char *migrate)
{
	enum { ROUNDS = 3 };
	char *plain[] = { migrate, "-q", "-d", "3", NULL };
	char *traced[] = { migrate, "-q", "-d", "3", "--trace", NULL };
	double with = 0, without = 0, events = 0, ms = 0;
	struct child c;
	int i;

	printf("--trace overhead (contention -d 3, %d rounds each, alternating)\n", ROUNDS);
	for (i = 0; i < ROUNDS; i++) {
		if (run_child(plain, &c, 0)) {
			printf("  failed: exit status %d\n", c.status);
			return;
		}
		without += total_iterations(c.out);
		if (run_child(traced, &c, 0)) {
			printf("  --trace failed: exit status %d (not root?)\n", c.status);
			return;
		}
		with += total_iterations(c.out);
		events += after(c.out, "\ntrace: ");
		ms += after(c.out, "read and analysed in ");
	}
	printf("  %-44s %10.0f\n", "iterations without --trace", without);
	printf("  %-44s %10.0f\n", "iterations with --trace", with);
	verdict("with / without", 100 * with / without, 95, "%", AT_LEAST);
	printf("  %-44s %10.0f events, %.1f ms a run\n",
	       "the trace.dat written, read and analysed", events / ROUNDS, ms / ROUNDS);
}

/* Synthetic but realistic: 8 threads on 4 CPUs waking, switching, migrating. */
static void analysis_speed(void)
{
	enum { N = 1000000, THREADS = 8 };
	struct trace_task tasks[THREADS];
	struct trace_event *ev = calloc(N, sizeof(*ev));
	int64_t best = INT64_MAX, t0;
	size_t i;
	int r;

	printf("trace analysis alone (%d synthetic events, %d threads, best of 3)\n", N, THREADS);
	if (!ev)
		return;
	for (i = 0; i < N; i++) {
		int32_t pid = 1000 + (int32_t)(i / 4 % THREADS), cpu = (int32_t)(i / 32 % 4);

		ev[i] = (struct trace_event){ .ts = i * 1000, .cpu = cpu, .pid = pid, .prio = 90 };
		switch (i % 4) {
		case 0:
			ev[i].type = TRACE_EV_WAKING;
			break;
		case 1:
			ev[i].type = TRACE_EV_MIGRATE;
			ev[i].arg = (cpu + 1) % 4;
			ev[i].arg2 = cpu;
			break;
		case 2:
			ev[i].type = TRACE_EV_SWITCH;
			ev[i].pid = 0;
			ev[i].pid2 = pid;
			ev[i].prio2 = 90;
			break;
		default:
			ev[i].type = TRACE_EV_SWITCH;
			ev[i].pid2 = 0;
			ev[i].arg = 1;
			break;
		}
	}
	for (r = 0; r < 3; r++) {
		for (i = 0; i < THREADS; i++)
			trace_task_init(&tasks[i], 1000 + (pid_t)i, 0, UINT64_MAX);
		t0 = rt_now_ns(CLOCK_MONOTONIC);
		trace_sched_analyse(ev, N, tasks, THREADS, NULL, NULL);
		t0 = rt_now_ns(CLOCK_MONOTONIC) - t0;
		best = t0 < best ? t0 : best;
	}
	verdict("time for one million events", (double)best / 1e9, 2, "s", BELOW);
	free(ev);
}

/* The peaks of a traced run, sampled: the benchmark's memory and its recorder's. */
struct trace_peaks {
	long anon_kb, file_kb;		/* the benchmark: RssAnon, RssFile */
	long recorder_kb;		/* trace-cmd's processes together: VmRSS */
	double events, lost, analysis_ms, size_mb;
	int64_t wall_ns;
};

/* VmRSS of the processes whose parent is @ppid, and of their children. */
static long children_rss_kb(pid_t ppid, int depth)
{
	char path[64], buf[512], *p;
	struct dirent *de;
	long kb = 0;
	DIR *d = opendir("/proc");
	FILE *f;

	while (d && (de = readdir(d))) {
		pid_t pid = (pid_t)atoi(de->d_name);
		int parent = 0;

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		f = fopen(path, "r");
		p = f && fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		if (f)
			fclose(f);
		if (!p || sscanf(p + 2, "%*c %d", &parent) != 1 || parent != ppid)
			continue;
		kb += status_kb(pid, "VmRSS:");
		if (depth)
			kb += children_rss_kb(pid, depth - 1);
	}
	if (d)
		closedir(d);
	return kb;
}

/*
 * Run @argv, sampling every 20 ms (at SCHED_FIFO 99, above the benchmark's
 * threads) the benchmark's RssAnon and RssFile and its children's VmRSS.
 */
static int sample_run(char *const argv[], struct trace_peaks *pk, char *out, size_t len)
{
	struct sched_param hi = { .sched_priority = 99 }, lo = { 0 };
	int64_t t0 = rt_now_ns(CLOCK_MONOTONIC);
	int fd, status = -1;
	size_t n = 0;
	ssize_t r;
	pid_t pid;
	long kb;

	memset(pk, 0, sizeof(*pk));
	pid = spawn(argv, &fd);
	if (pid < 0)
		return pid;
	fcntl(fd, F_SETFL, O_NONBLOCK);
	pthread_setschedparam(pthread_self(), SCHED_FIFO, &hi);
	while (waitpid(pid, &status, WNOHANG) == 0) {
		kb = status_kb(pid, "RssAnon:");
		pk->anon_kb = kb > pk->anon_kb ? kb : pk->anon_kb;
		kb = status_kb(pid, "RssFile:");
		pk->file_kb = kb > pk->file_kb ? kb : pk->file_kb;
		kb = children_rss_kb(pid, 2);
		pk->recorder_kb = kb > pk->recorder_kb ? kb : pk->recorder_kb;
		while (n < len - 1 && (r = read(fd, out + n, len - 1 - n)) > 0)
			n += (size_t)r;
		rt_sleep_ns(20 * RT_NSEC_PER_MSEC);
	}
	pthread_setschedparam(pthread_self(), SCHED_OTHER, &lo);
	while (n < len - 1 && (r = read(fd, out + n, len - 1 - n)) > 0)
		n += (size_t)r;
	out[n] = '\0';
	close(fd);
	pk->wall_ns = rt_now_ns(CLOCK_MONOTONIC) - t0;
	pk->events = after(out, "\ntrace: ");
	pk->analysis_ms = after(out, "read and analysed in ");
	pk->lost = strstr(out, "LOST ") ? after(out, "LOST ") : 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -ECHILD;
}

static void trace_scale(char *migrate)
{
	const char *env = getenv("RTSCHED_BENCH_LONG"), *senv = getenv("RTSCHED_BENCH_SHORT");
	char shortd[24], longd[24], file[64], out[8192];
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct trace_peaks pk[2];
	struct stat st;
	int i;

	snprintf(shortd, sizeof(shortd), "%s", senv && atoi(senv) > 0 ? senv : "5");
	snprintf(longd, sizeof(longd), "%s", env && atoi(env) > atoi(shortd) ? env : "20");
	printf("a traced run's memory against its length (-t 4 --trace --trace-buffer 256: "
	       "%ld x 256 KiB of kernel buffers; -d %s, then -d %s)\n", ncpus, shortd, longd);
	for (i = 0; i < 2; i++) {
		char *argv[] = { migrate, "-q", "-t", "4", "--trace", "--trace-buffer", "256",
				 "-d", i ? longd : shortd, "--trace-out", file, NULL };

		snprintf(file, sizeof(file), "/tmp/rtsched-bench-%d-%d.dat", (int)getpid(), i);
		if (sample_run(argv, &pk[i], out, sizeof(out))) {
			printf("  -d %s --trace failed (not root? no trace-cmd?)\n", argv[8]);
			unlink(file);
			return;
		}
		pk[i].size_mb = stat(file, &st) ? 0 : (double)st.st_size / 1048576;
		unlink(file);
		printf("  -d %-4s %9.0f events (%.0f/s), %.0f lost, trace.dat %.1f MiB, analysed in "
		       "%.0f ms\n", argv[8], pk[i].events, pk[i].events / atof(argv[8]), pk[i].lost,
		       pk[i].size_mb, pk[i].analysis_ms);
		printf("  %-8s peak RssAnon %.1f MiB, RssFile %.1f MiB (mapped files: the "
		       "libraries, libtracecmd's pages); recorder %.1f MiB\n", "", (double)pk[i].anon_kb / 1024,
		       (double)pk[i].file_kb / 1024, (double)pk[i].recorder_kb / 1024);
	}
	printf("  %-44s %10.1f x\n", "events, long run / short run", pk[1].events / pk[0].events);
	printf("  %-44s %10.1f x\n", "events of the long run / kernel buffers",
	       pk[1].size_mb * 1024 / (256.0 * (double)ncpus));
	verdict("lost events, both runs", pk[0].lost + pk[1].lost, 0, "", AT_MOST);
	verdict("peak anonymous memory, long / short", (double)pk[1].anon_kb / (double)pk[0].anon_kb,
		1.1, "x", AT_MOST);
	verdict("peak recorder memory, long / short",
		(double)pk[1].recorder_kb / (double)pk[0].recorder_kb, 1.1, "x", AT_MOST);
}

/* A long run's memory at its first minute (or a tenth of it) and at its end, and its output. */
struct long_run {
	long rss_early_kb, rss_end_kb, rss_peak_kb;	/* the benchmark's VmRSS */
	long children_peak_kb;		/* the window writer and trace-cmd restore */
	double iterations;
	int status;
};

static int long_run(char *const argv[], int64_t early_ns, struct long_run *lr, char *out,
		    size_t len)
{
	int64_t t0 = rt_now_ns(CLOCK_MONOTONIC);
	struct sched_param hi = { .sched_priority = 99 }, lo = { 0 };
	size_t n = 0;
	ssize_t r;
	pid_t pid;
	long kb;
	int fd;

	memset(lr, 0, sizeof(*lr));
	lr->status = -1;
	pid = spawn(argv, &fd);
	if (pid < 0)
		return pid;
	fcntl(fd, F_SETFL, O_NONBLOCK);
	/* sampled from above the benchmark's threads, once a second */
	pthread_setschedparam(pthread_self(), SCHED_FIFO, &hi);
	while (waitpid(pid, &lr->status, WNOHANG) == 0) {
		kb = status_kb(pid, "VmRSS:");
		if (kb > 0) {
			if (!lr->rss_early_kb && rt_now_ns(CLOCK_MONOTONIC) - t0 >= early_ns)
				lr->rss_early_kb = kb;
			lr->rss_end_kb = kb;
			lr->rss_peak_kb = kb > lr->rss_peak_kb ? kb : lr->rss_peak_kb;
		}
		kb = children_rss_kb(pid, 2);
		lr->children_peak_kb = kb > lr->children_peak_kb ? kb : lr->children_peak_kb;
		while (n < len - 1 && (r = read(fd, out + n, len - 1 - n)) > 0)
			n += (size_t)r;
		rt_sleep_ns(RT_NSEC_PER_SEC);
	}
	pthread_setschedparam(pthread_self(), SCHED_OTHER, &lo);
	while (n < len - 1 && (r = read(fd, out + n, len - 1 - n)) > 0)
		n += (size_t)r;
	out[n] = '\0';
	close(fd);
	lr->iterations = total_iterations(out);
	return WIFEXITED(lr->status) && WEXITSTATUS(lr->status) == 0 ? 0 : -ECHILD;
}

/* The windows a watched run saved in @dir: how many, and their bytes; removed. */
static int windows_in(const char *dir, double *mb)
{
	char path[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);
	int n = 0;

	*mb = 0;
	while (d && (de = readdir(d))) {
		if (!strstr(de->d_name, "-window-") && !strstr(de->d_name, ".json"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (strstr(de->d_name, "-window-") && !stat(path, &st)) {
			n++;
			*mb += (double)st.st_size / 1048576;
		}
		unlink(path);
	}
	if (d)
		closedir(d);
	return n;
}

/*
 * The watch over a long run (RTSCHED_BENCH_WATCH seconds, an hour by
 * default): migrate -d LEN unwatched, then watched with a threshold that
 * RT throttling crosses every second here (windows at their bounded rate):
 * the iterations of both, the watched run's memory at its first minute and
 * at its end, the windows' total size.
 */
static void watch_cost(char *migrate)
{
	const char *env = getenv("RTSCHED_BENCH_WATCH");
	long secs = env && atol(env) >= 20 ? atol(env) : 3600;
	int64_t early = (secs >= 600 ? 60 : secs / 10) * RT_NSEC_PER_SEC;
	char d[24], json[PATH_MAX], dir[] = "/tmp/rtsched-bench-watch-XXXXXX", out[16384];
	char *plain[] = { migrate, "-q", "-d", d, NULL };
	char *watched[] = { migrate, "-q", "-d", d, "--on-threshold", "runnable>20ms", "--json",
			    json, NULL };
	struct long_run a, b;
	double mb, json_kb;
	struct stat st;
	int n;

	snprintf(d, sizeof(d), "%ld", secs);
	if (!mkdtemp(dir)) {
		printf("  mkdtemp: %s\n", strerror(errno));
		return;
	}
	snprintf(json, sizeof(json), "%s/watched.json", dir);
	printf("the watch over a long run (migrate -d %ld, unwatched then --on-threshold "
	       "'runnable>20ms'; RTSCHED_BENCH_WATCH sets the seconds)\n", secs);
	if (long_run(plain, early, &a, out, sizeof(out))) {
		printf("  the unwatched run failed: exit status %d\n", a.status);
		rmdir(dir);
		return;
	}
	if (long_run(watched, early, &b, out, sizeof(out))) {
		printf("  the watched run failed: exit status %d (not root? no trace-cmd?)\n",
		       b.status);
		windows_in(dir, &mb);
		rmdir(dir);
		return;
	}
	json_kb = stat(json, &st) ? 0 : (double)st.st_size / 1024;
	n = windows_in(dir, &mb);
	rmdir(dir);
	printf("  %-44s %10.0f\n", "iterations unwatched", a.iterations);
	printf("  %-44s %10.0f\n", "iterations watched", b.iterations);
	verdict("watched / unwatched", 100 * b.iterations / a.iterations, 98, "%", AT_LEAST);
	printf("  %-44s %10.1f MiB at %llds, %.1f MiB at the end, peak %.1f MiB\n",
	       "the watched benchmark's VmRSS", (double)b.rss_early_kb / 1024,
	       (long long)(early / RT_NSEC_PER_SEC), (double)b.rss_end_kb / 1024,
	       (double)b.rss_peak_kb / 1024);
	verdict("VmRSS, end / first minute", (double)b.rss_end_kb / (double)b.rss_early_kb, 1.02,
		"x", AT_MOST);
	printf("  %-44s %10.1f MiB\n", "the window writer's peak VmRSS", (double)b.children_peak_kb / 1024);
	printf("  %-44s %10d\n", "windows saved (at most 16)", n);
	printf("  %-44s %10.1f MiB\n", "their total size", mb);
	printf("  %-44s %10.1f KiB\n", "the result file", json_kb);
}

/*
 * The watch's cost where events come fast: pi_stress -d 10 unwatched and
 * --watch, alternated, three pairs; its inversions per second.
 */
static void watch_cost_pi_stress(char *pi_stress)
{
	enum { PAIRS = 3 };
	char *plain[] = { pi_stress, "-q", "-d", "10", NULL };
	char *watched[] = { pi_stress, "-q", "-d", "10", "--watch", NULL };
	double with = 0, without = 0, events = 0;
	struct child c;
	int i;

	printf("the watch's cost at pi_stress's event rate (-d 10, %d pairs, alternated)\n", PAIRS);
	for (i = 0; i < PAIRS; i++) {
		if (run_child(plain, &c, 0)) {
			printf("  failed: exit status %d\n", c.status);
			return;
		}
		without += after(c.out, " inversions in ") > 0 ?
			   after(strstr(c.out, "all groups:"), "s, ") : 0;
		if (run_child(watched, &c, 0)) {
			printf("  --watch failed: exit status %d (not root?)\n", c.status);
			return;
		}
		with += after(strstr(c.out, "all groups:"), "s, ");
		events += after(c.out, "\nwatch: ");
	}
	printf("  %-44s %10.1f\n", "inversions per second unwatched", without / PAIRS);
	printf("  %-44s %10.1f\n", "inversions per second watched", with / PAIRS);
	printf("  %-44s %10.0f\n", "events walked per second", events / PAIRS / 10);
	verdict("watched / unwatched", 100 * with / without, 98, "%", AT_LEAST);
}

/* Wall time of @argv, output to /dev/null; -1 when it failed. */
static double time_of(char *const argv[])
{
	int64_t t0 = rt_now_ns(CLOCK_MONOTONIC);
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return (double)(rt_now_ns(CLOCK_MONOTONIC) - t0) / 1e9;
}

/* The best of three of analyse and of trace-cmd report on @file: 0, or -1 when one failed. */
static int read_both(char *analyse, char *file, double *ours, double *theirs)
{
	char *a[] = { analyse, "-q", file, NULL };
	char *b[] = { "trace-cmd", "report", "-i", file, NULL };
	double t;
	int i;

	*ours = *theirs = 1e9;
	for (i = 0; i < 3; i++) {
		t = time_of(a);
		*ours = t >= 0 && t < *ours ? t : *ours;
		t = time_of(b);
		*theirs = t >= 0 && t < *theirs ? t : *theirs;
	}
	return *ours < 1e9 && *theirs < 1e9 ? 0 : -1;
}

/*
 * analyse against trace-cmd report > /dev/null on the same trace.dat: a
 * large one (pi_stress, over a million events) and a small one (a short
 * migrate run); the cost per event beside the bytes per event the file holds.
 */
static void tracedat_speed(char *migrate, char *pi_stress, char *analyse)
{
	char file[64], out[8192], *big[] = { pi_stress, "-q", "-d", "2", "--trace", "--trace-out",
					     file, NULL };
	char *small[] = { migrate, "-q", "-d", "0.2", "--trace", "--trace-out", file, NULL };
	char **mk[] = { big, small };
	const char *what[] = { "pi_stress -d 2", "migrate -d 0.2" };
	double a, b, events;
	struct child c;
	struct stat st;
	int k;

	snprintf(file, sizeof(file), "/tmp/rtsched-bench-%d-trace.dat", (int)getpid());
	for (k = 0; k < 2; k++) {
		if (run_child(mk[k], &c, 0) || stat(file, &st)) {
			printf("reading a trace.dat: %s --trace-out failed (status %d)\n", what[k],
			       c.status);
			unlink(file);
			continue;
		}
		snprintf(out, sizeof(out), "%s", c.out);
		events = after(out, "\ntrace: ");
		printf("reading a trace.dat of %.0f events, %.1f MiB, %.0f bytes per event (%s "
		       "--trace-out; best of 3)\n", events, (double)st.st_size / (1 << 20),
		       (double)st.st_size / events, what[k]);
		if (read_both(analyse, file, &a, &b)) {
			printf("  failed: analyse or trace-cmd report did not run\n");
			unlink(file);
			continue;
		}
		unlink(file);
		printf("  %-44s %10.3f s (%.0f ns per event)\n", "analyse (the whole analysis)", a,
		       a / events * 1e9);
		printf("  %-44s %10.3f s (%.0f ns per event)\n", "trace-cmd report > /dev/null", b,
		       b / events * 1e9);
		if (k == 0)
			verdict("trace-cmd report / analyse", b / a, 10, "x", AT_LEAST);
		else
			verdict("trace-cmd report / analyse (no slower)", b / a, 1, "x", AT_LEAST);
	}
}

/* A mask of CPUs 0 to @n - 1, of any machine's size. */
static struct bitmask *first_cpus(int n)
{
	struct bitmask *m = numa_bitmask_alloc((unsigned int)n + 64);
	int c;

	for (c = 0; m && c < n; c++)
		numa_bitmask_setbit(m, (unsigned int)c);
	return m;
}

/*
 * The kernel trace buffers --trace asks for, by CPU count: migrate's default
 * (the CPUs its shape fits) and -t 98 on every CPU, pi_stress's default
 * groups; per CPU, in all, and as this machine's memory caps them.
 */
static void trace_buffers(void)
{
	static const int sizes[] = { 2, 8, 64, 256 };
	char note[512], err[1024];
	size_t i;
	int k;

	printf("trace buffers --trace asks for (per CPU planned; in all; on this machine's "
	       "memory, capped at a quarter)\n");
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (k = 0; k < 3; k++) {
			struct mig_cfg m = { .mode = &mig_contention, .unit_ns = RT_NSEC_PER_MSEC,
					     .p.base_prio = 1 };
			struct pis_cfg p = { .pi = true, .watchdog_ns = RT_NSEC_PER_SEC,
					     .wait_bound_ns = PIS_DEFAULT_REPORT_NS,
					     .p.base_prio = 1 };
			const char *what[] = { "migrate", "migrate -t 98 -d 30", "pi_stress" };
			int n = sizes[i], fit;
			int64_t kb, got;

			if (k == 0) {
				fit = m.mode->fit_cpus(&m, err, sizeof(err));
				n = n < fit ? n : fit;
			} else if (k == 1) {
				m.nr_threads = 98;
				m.set_threads = true;
				m.p.duration_ns = 30 * RT_NSEC_PER_SEC;
				m.p.duration_given = true;
			}
			m.p.cpus = p.p.cpus = first_cpus(n);
			if (k < 2 ? mig_configure(&m, n, err, sizeof(err)) :
				    pis_configure(&p, err, sizeof(err))) {
				printf("  %3d CPUs %-19s refused: %s\n", sizes[i], what[k], err);
				numa_free_cpumask(m.p.cpus);
				continue;
			}
			kb = k < 2 ? mig_trace_buffer_kb(&m) : pis_trace_buffer_kb(&p);
			got = bench_trace_buffer_kb(kb, 0, n, note, sizeof(note));
			printf("  %3d CPUs %-19s on %3d: %8lld KiB a CPU, %8.1f MiB in all; here "
			       "%8.1f MiB\n", sizes[i], what[k], n, (long long)kb,
			       (double)kb * n / 1024, (double)got * n / 1024);
			numa_free_cpumask(m.p.cpus);
		}
	}
}

/*
 * What the gate of scripts/compare says of identical kernels (an A/A):
 * twelve sittings of the command, here (processes of this boot)
 * or in twelve boots of Debian's 6.1 under QEMU (TCG), judged by
 * scripts/calibrate with its default gate; its report, and the false-alarm
 * rate of six sittings a side against the gate's level, 5%.
 */
static void aa_calibration(bool guest)
{
	char dir[] = "/tmp/rtsched-bench-aa-XXXXXX", json[64], *line, *save;
	char *here[] = { "scripts/calibrate", "--run", "migrate -p -t 8 -d 2 -r 5", "--results", dir,
			 "--json", json, NULL };
	char *tcg[] = { "scripts/calibrate", "--kernel", "linux-image-amd64", "--accel", "tcg",
			"--append", "lpj=4000000", "--run", "migrate -p -t 8 -d 2 -r 5",
			"--results", dir, "--json", json, NULL };
	char *rm[] = { "/bin/rm", "-rf", dir, NULL };
	struct child c, r;
	double rate;
	FILE *f;

	if (!mkdtemp(dir)) {
		printf("A/A calibration: mkdtemp: %s\n", strerror(errno));
		return;
	}
	snprintf(json, sizeof(json), "%s/aa.json", dir);
	printf("A/A calibration, %s: 12 sittings of 'migrate -p -t 8 -d 2 -r 5', the default gate "
	       "(scripts/calibrate)\n", guest ? "12 boots of Debian's 6.1 under QEMU (TCG, 4 vCPUs)"
					    : "12 processes here");
	run_child(guest ? tcg : here, &c, 0);
	for (line = strtok_r(c.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		printf("  %s\n", line);
	f = fopen(json, "r");
	rate = -1;
	if (f) {
		char buf[1 << 16];
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);
		char *p;

		buf[n] = '\0';
		/* the design of six a side: its false_alarm_rate follows "per_side": 6 */
		p = strstr(buf, "\"per_side\": 6,");
		p = p ? strstr(p, "\"false_alarm_rate\": ") : NULL;
		if (p)
			rate = strtod(p + strlen("\"false_alarm_rate\": "), NULL);
		fclose(f);
	}
	if (rate < 0)
		printf("  failed: no figures (status %d)\n", c.status);
	else
		verdict("false alarms, 6 sittings a side (%)", 100 * rate, 5, "%", AT_MOST);
	printf("  (%.0f s)\n", (double)c.wall_ns / 1e9);
	run_child(rm, &r, 0);
}

/* The figures, by name, in the order they are measured. */
static const char *const figures[] = { "busy-loop", "sleep", "marker", "startup", "duration",
				       "memory", "pi_stress", "trace-overhead", "analysis",
				       "tracedat", "trace-scale", "trace-buffers", "aa-host",
				       "aa-tcg", "watch", "watch-pi_stress", NULL };

/* RTSCHED_BENCH_ONLY: whether @name is among those asked for (all without it). */
static bool wanted(const char *name)
{
	const char *only = getenv("RTSCHED_BENCH_ONLY"), *p;
	size_t len = strlen(name);

	if (!only || !*only)
		return true;
	for (p = only; (p = strstr(p, name)); p += len)
		if ((p == only || p[-1] == ',') && (p[len] == ',' || !p[len]))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	struct sched_param sp = { 0 };

	int i;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; figures[i]; i++)
			puts(figures[i]);
		return 0;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: bench MIGRATE-BINARY PI_STRESS-BINARY ANALYSE-BINARY\n");
		return 2;
	}
	printf("rtsched bench: figures measured on this machine, now\n\n");
	if (wanted("busy-loop"))
		busy_loop_accuracy();
	if (wanted("sleep"))
		sleep_overshoot();
	/* the children set their own policy; they must not inherit ours */
	pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp);
	if (wanted("marker"))
		marker_cost();
	if (wanted("startup"))
		startup(argv[1]);
	if (wanted("duration"))
		duration(argv[1]);
	if (wanted("memory"))
		peak_rss(argv[1]);
	if (wanted("pi_stress"))
		pi_stress_vs_rt_tests(argv[2]);
	if (wanted("trace-overhead"))
		trace_overhead(argv[1]);
	if (wanted("analysis"))
		analysis_speed();
	if (wanted("trace-buffers"))
		trace_buffers();
	if (wanted("tracedat"))
		tracedat_speed(argv[1], argv[2], argv[3]);
	if (wanted("trace-scale"))
		trace_scale(argv[1]);
	if (wanted("aa-host"))
		aa_calibration(false);
	if (wanted("aa-tcg"))
		aa_calibration(true);
	if (wanted("watch"))
		watch_cost(argv[1]);
	if (wanted("watch-pi_stress"))
		watch_cost_pi_stress(argv[2]);
	return 0;
}
