// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lifecycle every benchmark shares (bench.h says its steps); the
 * programs give only their description.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/env.h"
#include "bench/signals.h"
#include "bench/result.h"
#include "lib/clock.h"
#include "lib/cpus.h"
#include "lib/sched.h"
#include "trace/marker.h"
#include "trace/source.h"


/**
 * runs_done - @runs were made, the last one cut short by a signal if
 * @cut_short (a signal after a run had its whole time leaves it whole)
 *
 * The statistics (mean ± sd, the JSON summary) cover the whole runs: a run
 * a signal cut short is left out of them when there are whole ones, and
 * kept in the result file, marked partial. The runs asked for (-r) stay
 * what the user gave (the result's config.repeat).
 */
static void runs_done(struct bench *b, int runs, bool cut_short)
{
	b->done = runs;
	b->whole = cut_short && runs > 1 ? runs - 1 : runs;
}

/**
 * print_table - print @caption (if any) and the table of @rows, whole or not at all
 */
static void print_table(const struct rt_row *rows, size_t n, const char *caption)
{
	char *table = NULL;
	size_t len = 0;
	FILE *f;

	f = open_memstream(&table, &len);
	if (!f || rt_report_table(f, rows, n) || fclose(f))
		cli_die(EXIT_SYSCALL, "formatting the table: %s", strerror(errno));
	printf("%s%s%s", caption ? caption : "", caption ? "\n" : "", table);
	free(table);
}

static void print_header(const struct bench *b)
{
	char notes[BENCH_NOTES][BENCH_NOTE_LEN];
	int i, n;

	b->ops->header(b);
	if (b->params->common.fit_why[0])
		printf("note: %s\n", b->params->common.fit_why);
	if (b->trace_note[0])
		printf("note: %s\n", b->trace_note);
	if (b->live_note[0])
		printf("note: %s\n", b->live_note);
	bench_print_kernel(&b->sys, b->params->cpus, stdout);
	n = bench_env_notes(&b->sys, b->params->cpus, &b->work, notes);
	for (i = 0; i < n; i++)
		printf("note: %s\n", notes[i]);
	printf("\n");
	fflush(stdout);
}

/**
 * bench_print_table - @caption (if any) and the table: the rows of a single
 * whole run, else the mean ± sd over the whole runs
 */
void bench_print_table(const struct bench *b, const char *caption)
{
	if (b->whole == 1) {
		print_table(b->runs[0].rows, b->params->nr_threads, caption);
		return;
	}
	if (caption)
		printf("%s\n", caption);
	if (rt_report_table_stats(stdout, &b->sum))
		cli_die(EXIT_SYSCALL, "formatting the table: %s", strerror(errno));
}

static double measured_s(const struct bench_run *r)
{
	return (double)(r->end_ns - r->start_ns) / RT_NSEC_PER_SEC;
}

/*
 * Under the table: where migrations were counted, when not by the kernel,
 * and (without -q) the time the runs measured, with the duration asked for,
 * if any, and the first run's start-up.
 */
static void print_measured(const struct bench *b)
{
	int64_t asked_ns = b->runs[0].duration_ns;
	double shortest = 1e300, longest = 0, d;
	char asked[32];
	int r;

	if (!b->runs[0].have_migrations)
		printf("\nmigrated: sched_getcpu() changes seen by each thread (a lower bound): "
		       "this kernel has no /proc/self/task/TID/sched\n");
	if (b->params->common.quiet)
		return;
	for (r = 0; r < b->done; r++) {
		d = measured_s(&b->runs[r]);
		shortest = d < shortest ? d : shortest;
		longest = d > longest ? d : longest;
	}
	if (b->done == 1)
		printf("\nmeasured %.3f s", longest);
	else
		printf("\n%d runs, each measured %.3f-%.3f s", b->done, shortest, longest);
	if (asked_ns) {
		rt_format_duration(asked, sizeof(asked), asked_ns);
		printf(" (duration %s)", asked);
	}
	printf(", start-up %.1f ms\n", (double)b->runs[0].startup_ns / RT_NSEC_PER_MSEC);
}

/* The program's tables and checks, or the table and the time measured. */
static bool report(struct bench *b)
{
	if (b->ops->report)
		return b->ops->report(b);
	bench_print_table(b, NULL);
	print_measured(b);
	return true;
}

/* A json_head: how the table's migrations were counted. */
void bench_json_migrations_source(struct rt_json *j, const struct bench *b)
{
	rt_json_str(j, "migrations_source",
		    b->runs[0].have_migrations ? "se.nr_migrations" : "sched_getcpu");
}

/* A json_run_head: the time the run measured and its start-up. */
void bench_json_measured(struct rt_json *j, const struct bench *b, const struct bench_run *r)
{
	(void)b;
	rt_json_double(j, "measured_s", measured_s(r));
	rt_json_double(j, "startup_ms", (double)r->startup_ns / RT_NSEC_PER_MSEC);
}

/* What an interrupted invocation covers, said under the program's tables. */
static void print_partial(const struct bench *b)
{
	int runs = b->done, complete = b->whole;
	const struct bench_run *last = &b->runs[runs - 1];
	double secs = (double)(last->end_ns - last->start_ns) / RT_NSEC_PER_SEC;

	if (!last->interrupted)
		return;
	if (!last->cut_short && runs == b->asked)
		printf("\nnote: %s came after the last run had its whole time: every run is "
		       "whole\n", bench_signal_name(last->interrupted));
	else if (!last->cut_short)
		printf("\nPARTIAL: %s came after run %d had its whole time: %d whole run%s of %d "
		       "asked\n",
		       bench_signal_name(last->interrupted), runs, runs, runs == 1 ? "" : "s",
		       b->asked);
	else if (complete < runs)
		printf("\nPARTIAL: %s stopped run %d after %.3f s; the figures are those of the "
		       "%d whole run%s before it (run %d is in the result file, marked partial)\n",
		       bench_signal_name(last->interrupted), runs, secs, complete,
		       complete == 1 ? "" : "s", runs);
	else
		printf("\nPARTIAL: %s stopped run %d after %.3f s; the figures cover it up to "
		       "then\n",
		       bench_signal_name(last->interrupted), runs, secs);
	if (last->unfinished)
		printf("PARTIAL: %d threads did not stop in time: the main thread read their "
		       "counters\n",
		       last->unfinished);
}

/* The program's fields of "config", then the run's parameters every program has. */
static void json_config(struct rt_json *j, const void *ctx)
{
	const struct bench *b = ctx;
	int64_t d = b->params->duration_ns;

	b->ops->json_config(j, b);
	rt_json_int_or_null(j, "duration_ns", d, d != 0);	/* null: a run of passes */
}

static void write_json(struct bench *b, struct bench_result *res, int rc)
{
	const struct bench_ops *ops = b->ops;
	const struct bench_params *p = b->params;
	struct rt_json *j = bench_result_begin(res, ops->name, b->argc, b->argv, &b->sys, p->cpus,
					       &b->work);
	int i;

	if (!j)
		return;
	bench_result_config(j, json_config, b, &p->common, p->base_prio, p->cpus);
	if (ops->json_head)
		ops->json_head(j, b);
	rt_json_array(j, "runs");
	for (i = 0; i < b->done; i++) {
		const struct bench_run *r = &b->runs[i];

		rt_json_object(j, NULL);
		if (ops->json_run_head)
			ops->json_run_head(j, b, r);
		bench_json_rows(j, r->rows, p->nr_threads);
		bench_machine_json(j, &r->machine);
		if (b->trace)
			trace_json(j, &r->trace);
		if (i >= b->whole)
			rt_json_bool(j, "partial", true);
		if (ops->json_run_tail)
			ops->json_run_tail(j, b, r);
		rt_json_end(j);
	}
	rt_json_end(j);
	bench_json_summary(j, &b->sum);
	if (b->live)
		bench_live_json(j, b->live);
	if (ops->json_tail)
		ops->json_tail(j, b);
	/* fewer whole runs than asked, or the only one cut short */
	rt_json_bool(j, "partial", rc > 128 && (b->whole < b->asked ||
						b->runs[b->done - 1].cut_short));
	bench_result_commit(res, rc);
}

/*
 * The coordinator: on its CPU, or the housekeeping CPUs, or the benchmark's;
 * SCHED_FIFO above the threads. Its helpers (the watchdog) are created
 * from it and keep its CPUs.
 */
static void place_coordinator(const struct bench *b, int prio)
{
	const struct bench_params *p = b->params;
	struct bitmask *one = NULL;
	int ret;

	if (p->coordinator_cpu >= 0) {
		one = numa_allocate_cpumask();
		numa_bitmask_setbit(one, (unsigned int)p->coordinator_cpu);
	}
	ret = rt_cpus_set_affinity(one ? one : p->common.housekeeping ? p->common.housekeeping :
				   p->cpus);
	if (one)
		numa_free_cpumask(one);
	if (ret)
		cli_die(EXIT_SYSCALL, "sched_setaffinity: %s", strerror(-ret));
	ret = rt_sched_set_fifo(pthread_self(), prio);
	if (ret == -EPERM)
		cli_no_rt_privilege(prio, ret);
	if (ret)
		cli_die(EXIT_SYSCALL, "pthread_setschedparam: %s", strerror(-ret));
}

/* Every run's memory, in one piece per kind: the summary reads the rows as one table. */
static void alloc_runs(struct bench *b)
{
	size_t nruns = (size_t)b->params->common.repeat, n = b->params->nr_threads, i;

	b->runs = calloc(nruns, sizeof(*b->runs));
	b->rows = calloc(nruns * n, sizeof(*b->rows));
	b->windows = calloc(nruns * n, sizeof(*b->windows));
	if (b->params->own_size)
		b->own = calloc(nruns, b->params->own_size);
	if (!b->runs || !b->rows || !b->windows || (b->params->own_size && !b->own))
		cli_die(EXIT_SYSCALL, "out of memory");
	for (i = 0; i < nruns; i++) {
		b->runs[i].rows = &b->rows[i * n];
		b->runs[i].windows = b->windows ? &b->windows[i * n] : NULL;
		b->runs[i].own = b->own ? b->own + i * b->params->own_size : NULL;
	}
}

static void free_runs(struct bench *b)
{
	int i;

	for (i = 0; b->trace && i < b->params->common.repeat; i++)
		trace_run_free(&b->runs[i].trace);
	free(b->rows);
	free(b->windows);
	free(b->own);
	free(b->runs);
}

/* Run @run's span in the trace: its threads' windows, as an analysis of the file alone sees it. */
static struct trace_span span_of(const struct bench *b, struct bench_run *run)
{
	struct trace_span span = { .threads = run->windows, .out = &run->trace,
					 .start_ns = run->windows[0].start,
					 .end_ns = run->windows[0].end,
					 .regime = b->sys.bw.regime,
					 .limit_ns = (uint64_t)rt_bandwidth_limit_ns(&b->sys.bw),
					 .topo = b->sys.topo.nr_cpus ? &b->sys.topo : NULL };
	size_t i;

	for (i = 1; i < b->params->nr_threads; i++) {
		if (run->windows[i].start < span.start_ns)
			span.start_ns = run->windows[i].start;
		if (run->windows[i].end > span.end_ns)
			span.end_ns = run->windows[i].end;
	}
	return span;
}

/*
 * What the trace's steps returned, as the process's exit: a requirement
 * missing here (tracefs, root, trace-cmd, a build without libtracecmd) is
 * exit 4, a bad name exit 2, anything else exit 3; 0 goes on.
 */
static void trace_status(int ret, const char *err)
{
	if (!ret)
		return;
	if (ret == -ENOENT || ret == -EACCES || ret == -EPERM || ret == -EOPNOTSUPP)
		cli_die(EXIT_MISSING, "%s", err);
	cli_die(ret == -EINVAL ? EXIT_USAGE : EXIT_SYSCALL, "%s", err);
}

/* The trace.dat of every run, cut by run (the static programs analysed each as it ended). */
static void analyse_trace(struct bench *b, size_t nruns)
{
	struct trace_span *spans = calloc(nruns, sizeof(*spans));
	char err[512];
	size_t r;
	int ret;

	if (!spans)
		cli_die(EXIT_SYSCALL, "out of memory");
	for (r = 0; r < nruns; r++)
		spans[r] = span_of(b, &b->runs[r]);
	ret = bench_trace_finish(b->trace, spans, nruns, b->params->nr_threads, err, sizeof(err));
	free(spans);
	if (ret)
		cli_die(EXIT_SYSCALL, "%s", err);
}

/* One run: the threads the program describes, run; its own results collected. */
static int run_one(struct bench *b, struct bench_run *r, char *err, size_t len)
{
	struct bench_threads set = { 0 };
	int ret;

	ret = b->ops->prepare(b, r, &set);
	r->duration_ns = set.duration_ns;
	if (ret)
		snprintf(err, len, "setting up the run: %s", strerror(-ret));
	else
		ret = bench_threads_run(b, &set, r, err, len);
	if (ret)
		return ret;
	if (b->ops->collect)
		b->ops->collect(b, r);
	/* threads still running use the run's state until the process exits */
	if (!r->unfinished && b->ops->release)
		b->ops->release(b, r);
	return 0;
}

/* Run after run, then the trace analysed; a signal ends the repeats with the run it cut short. */
static void run_all(struct bench *b, int prio, int64_t main_start)
{
	const struct bench_ops *ops = b->ops;
	int repeat = b->params->common.repeat, i, ret;
	size_t n = b->params->nr_threads;
	char err[512], run[32] = "";

	b->asked = repeat;
	for (i = 0; i < repeat; i++) {
		struct bench_run *r = &b->runs[i];

		if (repeat > 1)
			snprintf(run, sizeof(run), "run %d: ", i + 1);
		ret = run_one(b, r, err, sizeof(err));
		if (ret == -EINTR)
			bench_exit_if_asked();	/* a second signal: the run returned at once */
		if (ret && r->denied)
			cli_no_rt_privilege(prio, ret);
		if (ret == -ETIMEDOUT) {
			/* stuck threads still hold the CPUs: say so and leave without waiting */
			fprintf(stderr, "%s: %s%s\n", ops->name, run, err);
			if (bench_machine_starved(&r->machine, err, sizeof(err))) {
				fprintf(stderr, "%s: no verdict: the machine starved the run: %s\n",
					ops->name, err);
				bench_exit_running(EXIT_STARVED);
			}
			bench_exit_running(ops->stuck_exit);
		}
		if (ret)
			cli_die(EXIT_SYSCALL, "%s%s", run, err);
		r->startup_ns = r->start_ns - (i ? b->runs[i - 1].end_ns : main_start);
		trace_recording_mark(b->trace, i, r->windows, n, b->sys.bw.regime,
				     (uint64_t)rt_bandwidth_limit_ns(&b->sys.bw),
				     b->sys.topo.nr_cpus ? &b->sys.topo : NULL);
		if (b->trace) {
			struct trace_span span = span_of(b, r);

			trace_status(bench_trace_run_done(b->trace, &span, n, err,
							  sizeof(err)), err);
		}
		/* an unlocked run is still a run: say what it may have cost */
		if (r->mlock_err && !i)
			cli_warn("memory not locked (mlockall: %s): page faults may add noise; "
				 "raise RLIMIT_MEMLOCK or grant CAP_IPC_LOCK",
				 strerror(r->mlock_err));
		if (r->interrupted || r->threshold_stop) {
			repeat = i + 1;
			break;
		}
	}
	runs_done(b, repeat, b->runs[repeat - 1].cut_short);
	if (b->live)
		bench_live_finish(b->live);
	if (b->trace)
		analyse_trace(b, (size_t)repeat);
}

/* The trace's tables, over every run. */
static void print_trace(const struct bench *b)
{
	const struct trace_run **runs = calloc((size_t)b->done, sizeof(*runs));
	int i;

	if (!runs)
		cli_die(EXIT_SYSCALL, "out of memory");
	for (i = 0; i < b->done; i++)
		runs[i] = &b->runs[i].trace;
	trace_print(runs, (size_t)b->done);
	free(runs);
}

/* Whether any thread of @r completed a pass. */
static bool did_work(const struct bench *b, const struct bench_run *r)
{
	size_t i;

	for (i = 0; i < b->params->nr_threads; i++) {
		if (r->rows[i].iterations)
			return true;
	}
	return false;
}

/*
 * The exit status: the signal's, else the verdict's, unless the machine
 * starved the runs. A failed check on a starved machine is no verdict, and
 * a run in which no thread completed a pass is no result: both exit 5,
 * saying why. A starved run that passed is said under the tables.
 */
static int verdict(const struct bench *b)
{
	const struct bench_run *last = &b->runs[b->done - 1];
	int i, starved = -1, idle = -1;
	char why[512] = "", words[600];

	if (last->interrupted)
		return 128 + last->interrupted;
	if (bench_live_stopped_by(b->live)) {
		fprintf(stderr, "%s: a threshold stopped the run: %s\n", b->ops->name,
			bench_live_stopped_by(b->live));
		return EXIT_CHECK;
	}
	for (i = 0; i < b->whole; i++) {
		if (starved < 0 && bench_machine_starved(&b->runs[i].machine, why, sizeof(why)))
			starved = i;
		if (idle < 0 && !did_work(b, &b->runs[i]))
			idle = i;
	}
	if (starved >= 0 && b->whole > 1)
		snprintf(words, sizeof(words), "the machine starved run %d: %s", starved + 1, why);
	else if (starved >= 0)
		snprintf(words, sizeof(words), "the machine starved the run: %s", why);
	if (!b->passed && starved >= 0) {
		fprintf(stderr, "%s: no verdict: %s\n", b->ops->name, words);
		return EXIT_STARVED;
	}
	if (!b->passed)
		return EXIT_CHECK;
	if (idle >= 0) {
		fprintf(stderr, "%s: not a result: no thread completed a pass in run %d (measured "
			"%.3f s)%s%s\n", b->ops->name, idle + 1, measured_s(&b->runs[idle]),
			starved >= 0 ? "; " : "", starved >= 0 ? words : "");
		return EXIT_STARVED;
	}
	if (starved >= 0)
		printf("\nnote: %s; the figures are what the threads got\n", words);
	return EXIT_RAN;
}

/**
 * bench_main - run the benchmark @ops describes, with @cfg its configuration
 * (defaults filled in), and exit
 */
int bench_main(const struct bench_ops *ops, void *cfg, int argc, char **argv)
{
	int64_t main_start = rt_now_ns(CLOCK_MONOTONIC);
	struct bench b = { .ops = ops, .cfg = cfg, .argc = argc, .argv = argv,
			   .stop = &bench_stop };
	struct bench_result *res = NULL;
	const struct bench_run *last;
	int prio, ret, rc;
	char err[512];
	int64_t kb;

	cli_init(ops->name);
	b.params = ops->parse(cfg, argc, argv);
	bench_live_parse(&b.params->common);
	bench_signals_install();
	bench_sys_read(&b.sys, b.params->cpus);
	b.sys.housekeeping = b.params->common.housekeeping;
	bench_env_check(&b.sys);
	/* from now on off the run's CPUs: the recorder, started later, inherits them */
	if (b.params->common.housekeeping && rt_cpus_set_affinity(b.params->common.housekeeping))
		cli_die(EXIT_SYSCALL, "sched_setaffinity (--housekeeping): %s", strerror(errno));
	/* instances of runs killed by SIGKILL go now, whether this run traces or not */
	bench_trace_sweep();
	if (b.params->common.json)
		res = bench_result_open(b.params->common.json);
	if (b.params->common.trace_out)
		trace_status(bench_trace_out_open(b.params->common.trace_out, err, sizeof(err)),
			     err);

	prio = b.params->coordinator_prio;
	ret = rt_sched_probe(prio);
	if (ret)
		cli_no_rt_privilege(prio, ret);
	ret = rt_work_calibrate(&b.work, b.params->unit_ns);
	if (ret)
		cli_die(EXIT_SYSCALL, "calibrating the busy loop: %s", strerror(-ret));
	if (b.params->common.trace) {
		/* the static programs' buffer holds a whole run: they read it after the run */
		kb = bench_trace_buffer_kb(!trace_source_file_supported() ? b.params->trace_run_kb :
					   b.params->trace_buffer_kb,
					   b.params->common.trace_buffer_kb,
					   rt_cpus_count(b.params->cpus), b.trace_note,
					   sizeof(b.trace_note));
		/* closed at exit, after the driver's last step */
		ret = bench_trace_open(&b.trace, (size_t)kb, b.params->cpus, err, sizeof(err));
		trace_status(ret, err);
	}
	if (b.params->common.watch) {
		/* removed at exit, as the trace's */
		ret = bench_live_open(&b.live, &b, b.live_note, sizeof(b.live_note), err,
				      sizeof(err));
		trace_status(ret, err);
	}
	/*
	 * Markers are for trace-cmd: a user's own record sees the top
	 * instance's, --trace's trace.dat its instance's. Without tracefs
	 * there is nothing to mark.
	 */
	trace_marker_open(b.trace ? trace_recording_instance(b.trace) : NULL);
	alloc_runs(&b);
	place_coordinator(&b, prio);
	if (!b.params->common.quiet)
		print_header(&b);

	run_all(&b, prio, main_start);
	last = &b.runs[b.done - 1];
	if (rt_summary_of(b.rows, (size_t)b.whole, b.params->nr_threads, &b.sum))
		cli_die(EXIT_SYSCALL, "out of memory");
	b.passed = report(&b);
	print_partial(&b);
	if (b.live)
		bench_live_print(b.live);
	/* a failed write to stdout is said at the exit, once the files are written (cli_exit) */
	fflush(stdout);
	if (b.trace)
		print_trace(&b);
	bench_trace_out_close();
	rc = verdict(&b);
	write_json(&b, res, rc);
	/* threads still run: nothing freed or closed under them (their trace_marker) */
	if (last->unfinished)
		bench_exit_running(rc);
	rt_summary_free(&b.sum);
	free_runs(&b);
	trace_marker_close();
	bench_sys_free(&b.sys);
	numa_free_cpumask(b.params->cpus);
	cli_exit(rc);
}
