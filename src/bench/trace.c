// SPDX-License-Identifier: GPL-2.0-only
/*
 * --trace: record, analyse, say.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "cli.h"
#include "output.h"
#include "result.h"
#include "signals.h"
#include "rt_clock.h"
#include "rt_sync.h"
#include "trace.h"

#define PF_KTHREAD 0x00200000

static struct rt_tracer *open_tracer;
static char *instance_dir;	/* for the signal handler: rmdir is async-signal-safe */
static struct rt_outfile trace_out;	/* --trace-out */

static void close_tracer(void)
{
	rt_tracer_close(open_tracer);
	open_tracer = NULL;
}

/**
 * bench_trace_sweep - remove the trace instances that runs killed by SIGKILL
 * left behind (nobody holds them); every run does it, traced or not, and
 * says nothing when it cannot (not root)
 */
void bench_trace_sweep(void)
{
	rt_tracer_sweep("rtsched-");
}

/**
 * bench_trace_open - the private instance, or exit 4 saying what is missing
 *
 * The instance is removed at exit, which a first SIGINT, SIGTERM or SIGHUP
 * leads to, and by a second one; instances left by benchmarks that were
 * killed went at the start of the run (bench_trace_sweep()).
 */
struct rt_tracer *bench_trace_open(size_t buffer_kb, const struct bitmask *cpus)
{
	struct rt_tracer *t;
	char name[64], err[512];
	unsigned int salt;
	sigset_t old;
	int ret, tries = 0;

	/* a signal now would find an instance not yet known to the cleanups */
	bench_signals_block(&old);
	/*
	 * PIDs repeat across PID namespaces: a random part makes the name
	 * unique; a sweep removing it as it was created asks for another.
	 */
	do {
		if (getrandom(&salt, sizeof(salt), GRND_NONBLOCK) != sizeof(salt))
			salt = (unsigned int)rt_now_ns(CLOCK_MONOTONIC);
		snprintf(name, sizeof(name), "rtsched-%d-%08x", (int)getpid(), salt);
		ret = rt_tracer_open(&t, name, buffer_kb, cpus, err, sizeof(err));
	} while ((ret == -EAGAIN || ret == -EEXIST) && ++tries < 3);
	if (ret == -ENOENT || ret == -EACCES || ret == -EPERM || ret == -EOPNOTSUPP)
		cli_die(EXIT_MISSING, "--trace: %s", err);
	if (ret)
		cli_die(EXIT_SYSCALL, "--trace: %s", err);
	open_tracer = t;
	instance_dir = rt_tracer_dir(t);
	bench_signals_cleanup_dir(instance_dir);
	bench_cleanup_add(close_tracer);
	bench_signals_restore(&old);
	return t;
}

/* Kernel threads have PF_KTHREAD in /proc/PID/stat's flags (the 9th field). */
static enum rt_preemptor classify(pid_t pid, void *ctx)
{
	char path[64], buf[1024], *p;
	unsigned long flags;
	FILE *f;
	int i;

	(void)ctx;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return RT_BY_OTHER;
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	/* after "pid (comm)": state ppid pgrp session tty_nr tpgid flags */
	for (i = 0; p && i < 7; i++)
		p = strchr(p + 1, ' ');
	if (!p)
		return RT_BY_OTHER;
	flags = strtoul(p + 1, NULL, 10);
	return flags & PF_KTHREAD ? RT_BY_KTHREAD : RT_BY_OTHER;
}

static void trace_out_run(struct rt_tracer *t, const struct bench_trace_run *run, int run_index);

/**
 * bench_trace_analyse - read the run's events, analyse them for @threads, and
 * append them to --trace-out when it is open
 *
 * Returns 0, or a negative errno with @err saying what failed: the events
 * could not be read or make no sense.
 */
int bench_trace_analyse(struct rt_tracer *t, struct bench_trace_run *run,
			const struct bench_window *threads, size_t n, int run_index, char *err,
			size_t len)
{
	int64_t t0 = rt_now_ns(CLOCK_MONOTONIC);
	const struct rt_sev *ev;
	size_t i, nev;
	int ret, k;

	ret = rt_tracer_read(t);
	if (ret) {
		snprintf(err, len, "--trace: reading the events: %s", strerror(-ret));
		return ret;
	}
	run->tasks = calloc(n, sizeof(*run->tasks));
	run->proc_migrations = calloc(n, sizeof(*run->proc_migrations));
	if (!run->tasks || !run->proc_migrations) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	run->n = n;
	for (i = 0; i < n; i++) {
		rt_sched_task_init(&run->tasks[i], threads[i].tid, (uint64_t)threads[i].start,
				   (uint64_t)threads[i].end);
		run->proc_migrations[i] = threads[i].proc_migrations;
	}
	ev = rt_tracer_events(t, &nev);
	ret = rt_sched_analyse(ev, nev, run->tasks, n, classify, NULL);
	if (ret) {
		snprintf(err, len, "--trace: analysing the events: %s", strerror(-ret));
		return ret;
	}
	for (k = 0; k < RT_SEV_TYPES; k++)
		run->count[k] = rt_tracer_count(t, (enum rt_sev_type)k);
	run->events = nev;
	run->lost = rt_tracer_lost(t);
	run->analysis_ns = rt_now_ns(CLOCK_MONOTONIC) - t0;
	trace_out_run(t, run, run_index);
	return 0;
}

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

/*
 * A thread with far fewer switches to it than away from it: the kernel did
 * not record them all (an idle CPU's switch to a task is left out on some
 * virtual machines), and its latencies rest on the few it did record.
 */
#define MISSING_MIN_SWITCHES 10
#define MISSING_SHARE 0.9

static void print_missing_switches(const struct bench_trace_run **runs, size_t nruns)
{
	bool said = false;
	size_t i, r;

	for (i = 0; i < runs[0]->n; i++) {
		uint64_t ins = 0, outs = 0, samples = 0, wakeups = 0;

		for (r = 0; r < nruns; r++) {
			const struct rt_sched_task *t = &runs[r]->tasks[i];

			ins += t->switches_in, outs += t->switches_out;
			samples += t->wakeup_latency.count, wakeups += t->wakeups;
		}
		if (outs < MISSING_MIN_SWITCHES || (double)ins >= (double)outs * MISSING_SHARE)
			continue;
		if (!said)
			printf("\ntrace: WARNING the kernel did not record every switch to a thread "
			       "(an idle CPU's, on some virtual machines): wake-up latencies and "
			       "runnable times undercount\n");
		said = true;
		printf("  thread %zu: %llu switches to it recorded for %llu away from it; its "
		       "latencies rest on %llu of %llu wake-ups\n",
		       i, (unsigned long long)ins, (unsigned long long)outs,
		       (unsigned long long)samples, (unsigned long long)wakeups);
	}
}

/**
 * bench_trace_print - the trace's section under the table, over every run
 *
 * Counts add up over runs; the wake-up latencies are merged.
 */
void bench_trace_print(const struct bench_trace_run **runs, size_t nruns)
{
	uint64_t events = 0, lost = 0, count[RT_SEV_TYPES] = { 0 };
	size_t n = runs[0]->n, i, r;
	int64_t took = 0;
	int k;

	for (r = 0; r < nruns; r++) {
		took += runs[r]->analysis_ns;
		events += runs[r]->events;
		lost += runs[r]->lost;
		for (k = 0; k < RT_SEV_TYPES; k++)
			count[k] += runs[r]->count[k];
	}
	printf("\ntrace: %llu events", (unsigned long long)events);
	for (k = 0; k < RT_SEV_TYPES; k++)
		printf("%s%s %llu", k ? ", " : " (", rt_sev_names[k], (unsigned long long)count[k]);
	printf(")%s, read and analysed in %.1f ms\n", nruns > 1 ? ", all runs together" : "",
	       (double)took / 1e6);
	if (lost)
		printf("trace: LOST %llu events: the buffer was too small, the figures below "
		       "undercount (raise --trace-buffer)\n",
		       (unsigned long long)lost);

	printf("\nMigrations  traced   /proc  at-wakeup  lower-RT  equal-RT  runnable  other\n");
	for (i = 0; i < n; i++) {
		uint64_t tr = 0, proc = 0, wk = 0, lo = 0, eq = 0, rn = 0, ot = 0;

		for (r = 0; r < nruns; r++) {
			const struct rt_sched_task *t = &runs[r]->tasks[i];

			tr += t->migrations, wk += t->mig_wakeup, lo += t->mig_lower_rt;
			eq += t->mig_equal_rt, rn += t->mig_runnable, ot += t->mig_other;
			proc += runs[r]->proc_migrations[i];
		}
		printf("%10zu: %7llu %7llu %10llu %9llu %9llu %9llu %6llu\n", i,
		       (unsigned long long)tr, (unsigned long long)proc, (unsigned long long)wk,
		       (unsigned long long)lo, (unsigned long long)eq, (unsigned long long)rn,
		       (unsigned long long)ot);
	}
	printf("\nPreempted   total  by-bench kthread  throttled  other   wake-up latency: "
	       "median      p99      max  of wake-ups   runnable  PI boosts\n");
	for (i = 0; i < n; i++) {
		uint64_t by[RT_PREEMPTORS] = { 0 }, total = 0, runnable = 0, boosts = 0;
		uint64_t wakeups = 0;
		struct rt_hist lat;

		rt_hist_init(&lat);
		for (r = 0; r < nruns; r++) {
			const struct rt_sched_task *t = &runs[r]->tasks[i];

			for (k = 0; k < RT_PREEMPTORS; k++) {
				by[k] += t->preempted[k];
				total += t->preempted[k];
			}
			runnable += t->runnable_ns;
			boosts += t->pi_boosts;
			wakeups += t->wakeups;
			rt_hist_merge(&lat, &t->wakeup_latency);
		}
		printf("%10zu: %6llu %9llu %7llu %10llu %6llu %24.1f us %7.1f us %7.1f us %5llu/%-6llu "
		       "%7.1f ms %10llu\n",
		       i, (unsigned long long)total, (unsigned long long)by[RT_BY_BENCH],
		       (unsigned long long)by[RT_BY_KTHREAD], (unsigned long long)by[RT_BY_IDLE],
		       (unsigned long long)by[RT_BY_OTHER], us(rt_hist_pct(&lat, 50)),
		       us(rt_hist_pct(&lat, 99)), us(lat.count ? lat.max : 0),
		       (unsigned long long)lat.count, (unsigned long long)wakeups,
		       (double)runnable / 1e6, (unsigned long long)boosts);
	}
	print_missing_switches(runs, nruns);
}

/**
 * bench_trace_json - "trace": the run's events and the analysis per thread
 */
void bench_trace_json(struct rt_json *j, const struct bench_trace_run *run)
{
	static const char *const by_name[RT_PREEMPTORS] = { "benchmark", "kernel_thread",
							    "throttled", "other" };
	size_t i;
	int k;

	rt_json_object(j, "trace");
	rt_json_uint(j, "events", run->events);
	rt_json_uint(j, "lost", run->lost);
	rt_json_object(j, "by_event");
	for (k = 0; k < RT_SEV_TYPES; k++)
		rt_json_uint(j, rt_sev_names[k], run->count[k]);
	rt_json_end(j);
	rt_json_array(j, "threads");
	for (i = 0; i < run->n; i++) {
		const struct rt_sched_task *t = &run->tasks[i];
		struct rt_hist_sum lat;

		rt_json_object(j, NULL);
		rt_json_uint(j, "task", i);
		rt_json_object(j, "migrations");
		rt_json_uint(j, "traced", t->migrations);
		rt_json_uint(j, "proc", run->proc_migrations[i]);
		rt_json_uint(j, "at_wakeup", t->mig_wakeup);
		rt_json_uint(j, "lower_rt", t->mig_lower_rt);
		rt_json_uint(j, "equal_rt", t->mig_equal_rt);
		rt_json_uint(j, "runnable", t->mig_runnable);
		rt_json_uint(j, "other", t->mig_other);
		rt_json_end(j);
		rt_json_object(j, "preempted");
		for (k = 0; k < RT_PREEMPTORS; k++)
			rt_json_uint(j, by_name[k], t->preempted[k]);
		rt_json_end(j);
		rt_hist_summarise(&t->wakeup_latency, &lat);
		rt_json_object(j, "wakeup_latency_ns");
		bench_json_hist(j, &lat);
		rt_json_uint(j, "wakeups", t->wakeups);
		rt_json_end(j);
		rt_json_uint(j, "switches_in", t->switches_in);
		rt_json_uint(j, "switches_out", t->switches_out);
		rt_json_uint(j, "runnable_ns", t->runnable_ns);
		rt_json_uint(j, "pi_boosts", t->pi_boosts);
		rt_json_end(j);
	}
	rt_json_end(j);
	rt_json_end(j);
}

/**
 * bench_trace_out_open - check and open --trace-out FILE before the run (exit 2 if it exists)
 */
void bench_trace_out_open(const char *path)
{
	FILE *f;

	if (!strcmp(path, "-"))
		cli_die(EXIT_USAGE, "invalid --trace-out '%s': expected a file name", path);
	bench_output_open(&trace_out, "--trace-out", path);
	f = trace_out.f;
	fprintf(f, "# rtsched-trace/1: scheduler events of a benchmark run, one per line.\n"
		   "# Times in ns of CLOCK_MONOTONIC; priorities are the kernel's (0-99 RT, 0 the\n"
		   "# highest). R run; T tid task; C pid comm; then per event, after time and CPU:\n"
		   "# S prev_pid prev_prio prev_state next_pid next_prio   (sched_switch)\n"
		   "# W pid prio target_cpu (sched_waking)   U pid prio target_cpu (sched_wakeup)\n"
		   "# M pid prio orig_cpu dest_cpu (sched_migrate_task)\n"
		   "# P pid oldprio newprio (sched_pi_setprio)\n");
}

/* Append run @run_index's events to --trace-out, if open. */
static void trace_out_run(struct rt_tracer *t, const struct bench_trace_run *run, int run_index)
{
	static const char letter[RT_SEV_TYPES] = { 'S', 'W', 'U', 'M', 'P' };
	FILE *f = trace_out.f;
	const struct rt_tracer_comm *comms;
	const struct rt_sev *ev;
	size_t i, n;

	if (!f)
		return;
	fprintf(f, "R %d\n", run_index);
	for (i = 0; i < run->n; i++)
		fprintf(f, "T %d %zu\n", (int)run->tasks[i].tid, i);
	comms = rt_tracer_comms(t, &n);
	for (i = 0; i < n; i++)
		fprintf(f, "C %d %s\n", (int)comms[i].pid, comms[i].comm);
	ev = rt_tracer_events(t, &n);
	for (i = 0; i < n; i++) {
		const struct rt_sev *e = &ev[i];

		fprintf(f, "%c %llu %d %d %d", letter[e->type], (unsigned long long)e->ts, e->cpu,
			e->pid, e->prio);
		if (e->type == RT_SEV_SWITCH)
			fprintf(f, " %lld %d %d\n", (long long)e->arg, e->pid2, e->prio2);
		else if (e->type == RT_SEV_MIGRATE)
			fprintf(f, " %lld %d\n", (long long)e->arg, e->arg2);
		else if (e->type == RT_SEV_PI)
			fprintf(f, " %d\n", e->prio2);
		else
			fprintf(f, " %lld\n", (long long)e->arg);
	}
}

/**
 * bench_trace_out_close - give --trace-out its name (exit 3 when that fails)
 */
void bench_trace_out_close(void)
{
	if (trace_out.f)
		bench_output_commit(&trace_out, "--trace-out");
}

void bench_trace_free(struct bench_trace_run *run)
{
	free(run->tasks);
	free(run->proc_migrations);
	run->tasks = NULL;
	run->proc_migrations = NULL;
}
