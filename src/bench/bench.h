/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A benchmark is a description: its options, its configuration, its run and
 * what it says of its runs, given to one driver (bench_main) through struct
 * bench_ops. The driver owns the lifecycle every benchmark shares, in this
 * order (rtla's run_tool() is the model):
 *
 *   parse           the program's options (ops->parse), then the checks:
 *                   signals, environment, left-over trace instances
 *   outputs         --json and --trace-out opened before anything runs
 *   privilege       SCHED_FIFO at the coordinator's priority, or exit 4
 *   calibration     the busy loop's unit (b->unit_ns)
 *   tracing         the private instance, sized by b->trace_buffer_kb
 *   placement       the coordinator's CPUs and SCHED_FIFO
 *   header          the program's lines (ops->header), the kernel, the notes
 *   runs            -r times: the threads ops->prepare describes, run by the
 *                   driver (runner.h), each run into one struct bench_run,
 *                   ops->collect and ops->release after it; its trace
 *                   analysed
 *   report          the summary over runs, the program's tables (ops->report),
 *                   PARTIAL, the trace's tables, --trace-out, the JSON
 *   exit            0, 1 (a check failed), 128 + the signal; 3 or 4 on the way
 *
 * A run returns a status; only the driver decides how the process exits.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include "bench/env.h"
#include "bench/live.h"
#include "bench/machine.h"
#include "lib/json.h"
#include "lib/report.h"
#include "lib/stop.h"
#include "lib/work.h"
#include "bench/runner.h"
#include "bench/thread.h"
#include "bench/trace.h"

/*
 * A program's defaults of the run's parameters every program has, as data
 * (bench_params_init).
 */
struct bench_defaults {
	int64_t duration_ns;		/* -d, --duration */
	int base_prio;			/* -b, --base-prio */
	int min_span;			/* the fewest priorities a run takes from the base */
};					/* up: -b goes to RT_PRIO_MAX - min_span */

/* The options of those parameters, long and short (beside the program's own). */
#define BENCH_SHORT_OPTIONS "d:b:"
#define BENCH_LONG_OPTIONS                                                                 \
	{ "duration", required_argument, NULL, 'd' },                                    \
	{ "base-prio", required_argument, NULL, 'b' }

/*
 * What the driver needs to know of a benchmark before it runs, filled in by
 * its parse step inside its own configuration (rtla's common_params).
 */
struct bench_params {
	struct cli_common common;	/* -q, -r, --json and the rest every program has */
	const struct bench_defaults *defaults;
	struct bitmask *cpus;		/* -c, --cpus, else the usable CPUs */
	int64_t duration_ns;		/* -d, --duration, else the default; the program sets */
					/* 0 for a run of passes, not of a time */
	bool duration_given;		/* -d was given */
	int base_prio;			/* -b: the lowest SCHED_FIFO priority of its threads */
	size_t nr_threads;		/* rows of the table */
	size_t own_size;		/* bytes of bench_run.own */
	int coordinator_prio;		/* the main thread's SCHED_FIFO, above the threads' */
	int coordinator_cpu;		/* the CPU it keeps, or -1 for any */
	int64_t unit_ns;		/* the busy loop's unit to calibrate */
	int64_t trace_buffer_kb;	/* per CPU without --trace-buffer */
	int64_t trace_run_kb;		/* the same for a whole run (the static programs) */
};

/* What one run left, kept after its threads are gone. */
struct bench_run {
	struct rt_row *rows;		/* one per benchmark thread, in table order */
	struct trace_window *windows;	/* the same, for the trace and its markers */
	struct trace_run trace;	/* what the trace says of it */
	int64_t duration_ns;		/* the measured time asked for, or 0 (passes) */
	int64_t start_ns;		/* the gate opened, CLOCK_MONOTONIC */
	int64_t end_ns;			/* the last thread stopped */
	int64_t startup_ns;		/* from main() or the previous run to the gate */
	bool have_migrations;		/* the kernel counted migrations (/proc/.../sched) */
	int mlock_err;			/* errno of mlockall(), 0 when memory is locked */
	bool denied;			/* creating a SCHED_FIFO thread was refused */
	int interrupted;		/* the signal that stopped the run, or 0 */
	bool cut_short;			/* it came before the run had its whole time */
	bool threshold_stop;		/* an --on-threshold's stop ended it */
	int unfinished;			/* threads still running after the signal's grace */
	struct bench_machine machine;	/* what the machine gave the threads */
	void *own;			/* the program's own results: bench.own_size bytes */
	void *state;			/* the program's state of the run: set by ops->prepare, */
					/* kept until ops->release (never, when threads */
					/* still run) */
	struct bench_runner *runner;	/* the driver's state of the run, the same way */
};

/* The state of one invocation, as the driver and the program's ops see it. */
struct bench {
	const struct bench_ops *ops;
	void *cfg;			/* the program's configuration */
	const struct bench_params *params;	/* in it: what ops->parse returned */
	int argc;
	char **argv;
	const struct rt_stop *stop;	/* a signal's request to stop, for the runs */
	struct bench_sys sys;		/* the kernel's and the machine's settings */
	struct rt_work work;		/* the calibrated busy loop */
	struct trace_recording *trace;	/* --trace, or NULL */
	struct bench_live *live;	/* --watch, or NULL */
	struct bench_run *runs;		/* params->common.repeat of them */
	int asked;			/* the runs asked for (-r) */
	int done;			/* the runs made: fewer when a signal ended the repeats */
	int whole;			/* of them, the whole ones: what the statistics cover */
	struct rt_row *rows;		/* their rows, run after run: one table for the summary */
	struct trace_window *windows;	/* their windows (--trace) */
	char *own;			/* their own results */
	struct rt_summary sum;		/* over the whole runs */
	bool passed;			/* the program's checks held (ops->report) */
	char trace_note[512];		/* --trace: the kernel buffers, for the header */
	char live_note[512];		/* --watch: its buffers and windows */
};

/**
 * struct bench_ops - a benchmark's description
 * @name: the program's name, in messages and the result file
 * @stuck_exit: the exit status when a run's threads did not stop (they still run)
 * @parse: parse the command line into @cfg (defaults filled in); Returns
 *         the parameters in it that the driver needs (exits on bad usage)
 * @header: the program's lines above the kernel's and the notes (not with -q)
 * @prepare: set up run @r's state (in @r->state) and describe its threads
 *           in @set (the driver runs them); Returns 0 or a negative errno
 * @collect: the program's own results of run @r, just made, into @r->own,
 *           after the driver filled its rows (may be NULL)
 * @release: free @r's state, once its threads are joined (may be NULL)
 * @report: the program's tables of b->runs; Returns whether its checks held
 *          (NULL: the table and the time measured, no checks)
 * @json_config: the program's own fields of "config"
 * @json_head: fields after "config" (may be NULL)
 * @json_run_head, @json_run_tail: a run's fields before its rows, after its
 *       trace and partial mark (may be NULL)
 * @json_tail: fields after "summary" (may be NULL)
 */
struct bench_ops {
	const char *name;
	int stuck_exit;
	const struct bench_params *(*parse)(void *cfg, int argc, char **argv);
	void (*header)(const struct bench *b);
	int (*prepare)(const struct bench *b, struct bench_run *r, struct bench_threads *set);
	void (*collect)(const struct bench *b, struct bench_run *r);
	void (*release)(const struct bench *b, struct bench_run *r);
	bool (*report)(struct bench *b);
	void (*json_config)(struct rt_json *j, const struct bench *b);
	void (*json_head)(struct rt_json *j, const struct bench *b);
	void (*json_run_head)(struct rt_json *j, const struct bench *b, const struct bench_run *r);
	void (*json_run_tail)(struct rt_json *j, const struct bench *b, const struct bench_run *r);
	void (*json_tail)(struct rt_json *j, const struct bench *b);
};

int bench_main(const struct bench_ops *ops, void *cfg, int argc, char **argv)
	__attribute__((noreturn));
void bench_params_init(struct bench_params *p, const struct bench_defaults *d,
		       void (*usage)(FILE *out));
bool bench_params_option(struct bench_params *p, int c, const char *arg);
void bench_params_threads(struct bench_params *p, size_t nr_threads, int span);
void bench_print_table(const struct bench *b, const char *caption);
void bench_json_migrations_source(struct rt_json *j, const struct bench *b);
void bench_json_measured(struct rt_json *j, const struct bench *b, const struct bench_run *r);

#endif
