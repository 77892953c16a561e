// SPDX-License-Identifier: GPL-2.0-only
/*
 * analyse: what --trace says, of any trace.dat. An rtsched run's own file
 * (--trace-out) names its runs and threads in its window markers, and gets
 * the tables --trace printed; a trace recorded by trace-cmd around any
 * workload gets them for the tasks chosen by pid, name or SCHED_FIFO
 * priority, over the whole trace.
 */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/analysis.h"
#include "trace/explain.h"
#include "cli/cli.h"
#include "bench/result.h"
#include "bench/signals.h"
#include "lib/clock.h"
#include "lib/heap.h"
#include "lib/opts.h"
#include "trace/source.h"
#include "trace/window.h"

#define ANALYSIS_SCHEMA "rtsched-analysis/1"
#define MAX_PIDS 4096

enum { OPT_PID = 1000, OPT_NAME, OPT_PRIO, OPT_BUFFER, OPT_JSON, OPT_EVENTS, OPT_AFFINITY,
       OPT_REGIME, OPT_LIMIT, OPT_EXPLAIN };

static const struct option long_options[] = {
	{ "pid", required_argument, NULL, OPT_PID },
	{ "name", required_argument, NULL, OPT_NAME },
	{ "prio", required_argument, NULL, OPT_PRIO },
	{ "buffer", required_argument, NULL, OPT_BUFFER },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "events", no_argument, NULL, OPT_EVENTS },
	{ "affinity", required_argument, NULL, OPT_AFFINITY },
	{ "regime", required_argument, NULL, OPT_REGIME },
	{ "limit", required_argument, NULL, OPT_LIMIT },
	{ "explain", required_argument, NULL, OPT_EXPLAIN },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* --explain WHAT>TIME: the waits of WHAT longer than TIME, said in words. */
#define MAX_EXPLAIN 8
#define MAX_SAID 20			/* waits said per --explain; the rest counted */

struct explain {
	const char *spec;
	int what;			/* enum trace_wait_kind */
	int64_t ns;
	uint64_t count;
	struct trace_wait said[MAX_SAID];
};

struct config {
	const char *file;
	const char *buffer;		/* --buffer, or NULL */
	pid_t pids[MAX_PIDS];		/* --pid */
	size_t npids;
	const char *name;		/* --name PATTERN */
	int prio_lo, prio_hi;		/* --prio, SCHED_FIFO; 0: not given */
	const char *json;
	bool events, quiet;
	char choice[256];		/* the choice as given, for messages */
	cpu_set_t affinity;		/* --affinity: the chosen tasks' CPUs */
	bool have_affinity;
	enum rt_bw_regime regime;	/* --regime, or RT_BW_UNKNOWN */
	bool have_regime;
	int64_t limit_ns;		/* --limit, or 0 */
	struct explain explain[MAX_EXPLAIN];	/* --explain WHAT>TIME */
	size_t nexplain;
};

/* Adds "OPTION VALUE" to the choice as the user gave it (truncated if huge). */
static void note_choice(struct config *cfg, const char *opt, const char *arg)
{
	size_t len = strlen(cfg->choice);

	snprintf(cfg->choice + len, sizeof(cfg->choice) - len, "%s%s %s", len ? " " : "", opt,
		 arg);
}

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: %s [options] FILE\n"
		"The analysis of --trace (migrations by cause, preemptions, wake-up latencies)\n"
		"of a trace.dat: an rtsched run's own (--trace-out), whose threads and runs\n"
		"its markers name, or any trace-cmd recording, for the tasks chosen below\n"
		"(all three narrow the choice; the tasks' events over the whole trace).\n"
		"\n"
		"      --pid LIST         these pids (thread ids): 123,125-130\n"
		"      --name PATTERN     tasks whose name matches (shell pattern: 'migrate*')\n"
		"      --prio LO[-HI]     tasks of these SCHED_FIFO/RR priorities, 1-99 (their\n"
		"                         own, not a priority-inheritance boost)\n"
		"      --buffer NAME      the trace instance's buffer to read (default: the top\n"
		"                         one if it holds events, else the first that does)\n"
		"      --json FILE        write the result file (- for stdout); FILE must not\n"
		"                         exist\n"
		"      --events           write the chosen runs' events as text\n"
		"                         (rtsched-trace/1, for scripts/plot --timeline) instead\n"
		"                         of the tables\n"
		"      --affinity LIST    the CPUs the chosen tasks may run on (0-3,6), for\n"
		"                         placement; without it only the CPU a task waited on\n"
		"                         counts (a trace does not record affinities)\n"
		"      --regime NAME      the kernel's RT bandwidth limits: throttling,\n"
		"                         fair_server, both or neither (default: what an\n"
		"                         rtsched run's marker says, else read as both)\n"
		"      --limit TIME       the longest those limits take a CPU at a time\n"
		"                         (default: the marker's, else 50ms)\n"
		"      --explain WHAT>TIME  say in words each wait of WHAT (placement, wakeup,\n"
		"                         boost, runnable) longer than TIME (a bare number is\n"
		"                         us): who held the CPU, the kernel's limits; a saved\n"
		"                         window's threads come from its markers; repeatable\n"
		"  -q, --quiet            the tables only\n"
		"  -h, --help             show this help and exit\n"
		"  -V, --version          show the version and exit\n"
		"\n"
		"Exit status: 0 analysed, 2 bad usage or input (a file that is not a\n"
		"trace.dat, no such task), 3 a write failed.\n",
		cli_prog());
}

/* --pid 123,125-130, repeatable: every item a pid or a range, none empty */
static void parse_pids(struct config *cfg, const char *arg)
{
	const char *p = arg, *comma;
	int64_t lo, hi, pid;
	size_t len;

	for (;;) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (rt_parse_range(p, len, 1, 4194304, &lo, &hi))
			cli_die(EXIT_USAGE, "invalid --pid '%s': expected pids and ranges LO-HI "
				"(1-4194304, LO <= HI), comma-separated, e.g. 123,125-130", arg);
		if (hi - lo >= (int64_t)(MAX_PIDS - cfg->npids))
			cli_die(EXIT_USAGE, "invalid --pid '%s': at most %d pids in all", arg,
				MAX_PIDS);
		for (pid = lo; pid <= hi; pid++)
			cfg->pids[cfg->npids++] = (pid_t)pid;
		if (!comma)
			break;
		p = comma + 1;
	}
}

/* --prio 50 or 40-60 */
static void parse_prio(struct config *cfg, const char *arg)
{
	int64_t lo, hi;

	if (rt_parse_range(arg, strlen(arg), 1, 99, &lo, &hi))
		cli_die(EXIT_USAGE, "invalid --prio '%s': expected a priority or LO-HI, 1-99 with "
			"LO <= HI", arg);
	cfg->prio_lo = (int)lo;
	cfg->prio_hi = (int)hi;
}

/* --explain WHAT>TIME */
static void parse_explain(struct config *cfg, const char *arg)
{
	const char *gt = strchr(arg, '>');
	int what = gt ? trace_wait_kind_of(arg, (size_t)(gt - arg)) : -1;
	int64_t ns;

	if (what < 0)
		cli_die(EXIT_USAGE, "invalid --explain '%s': expected WHAT>TIME with WHAT one of "
			"placement, wakeup, boost, runnable", arg);
	if (rt_parse_duration(gt + 1, RT_NSEC_PER_USEC, 0, 3600 * RT_NSEC_PER_SEC, &ns))
		cli_die(EXIT_USAGE, "invalid --explain '%s': expected a time of 0-1h after '>' (a "
			"number with us, ms, s, m or h; a bare number is microseconds)", arg);
	if (cfg->nexplain == MAX_EXPLAIN)
		cli_die(EXIT_USAGE, "invalid --explain '%s': at most %d of them", arg, MAX_EXPLAIN);
	cfg->explain[cfg->nexplain++] = (struct explain){ .spec = arg, .what = what, .ns = ns };
}

static void parse(struct config *cfg, int argc, char **argv)
{
	static const struct rt_optspec spec_limit = { "--limit", RT_OPT_DURATION, RT_NSEC_PER_MSEC,
						      3600 * RT_NSEC_PER_SEC, RT_NSEC_PER_MSEC };
	static const char short_options[] = ":qhV";
	int c;

	while ((c = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
		switch (c) {
		case OPT_PID:
			parse_pids(cfg, optarg);
			note_choice(cfg, "--pid", optarg);
			break;
		case OPT_NAME:
			if (!*optarg)
				cli_die(EXIT_USAGE, "invalid --name '': expected a task name or pattern");
			cfg->name = optarg;
			note_choice(cfg, "--name", optarg);
			break;
		case OPT_PRIO:
			parse_prio(cfg, optarg);
			note_choice(cfg, "--prio", optarg);
			break;
		case OPT_BUFFER:
			cfg->buffer = optarg;
			break;
		case OPT_JSON:
			cfg->json = optarg;
			break;
		case OPT_EVENTS:
			cfg->events = true;
			break;
		case OPT_AFFINITY:
			if (rt_cpus_parse_set(optarg, &cfg->affinity) || !CPU_COUNT(&cfg->affinity))
				cli_die(EXIT_USAGE, "invalid --affinity '%s': expected a CPU list such "
					"as 0-3,6, CPUs 0 to %d", optarg, CPU_SETSIZE - 1);
			cfg->have_affinity = true;
			break;
		case OPT_REGIME:
			cfg->regime = rt_bw_regime_of(optarg);
			if (cfg->regime == RT_BW_UNKNOWN)
				cli_die(EXIT_USAGE, "invalid --regime '%s': expected throttling, "
					"fair_server, both or neither", optarg);
			cfg->have_regime = true;
			break;
		case OPT_LIMIT:
			cfg->limit_ns = cli_opt(&spec_limit, optarg);
			break;
		case OPT_EXPLAIN:
			parse_explain(cfg, optarg);
			break;
		case 'q':
			cfg->quiet = true;
			break;
		case 'h':
			usage(stdout);
			exit(EXIT_RAN);
		case 'V':
			printf("%s (rtsched) %s\n", cli_prog(), RT_VERSION);
			exit(EXIT_RAN);
		default:
			cli_bad_option(c, argv, short_options);
		}
	}
	if (optind == argc)
		cli_die(EXIT_USAGE, "no trace.dat given; see %s --help", cli_prog());
	if (optind + 1 < argc)
		cli_die(EXIT_USAGE, "unexpected argument '%s': one trace.dat at a time",
			argv[optind + 1]);
	cfg->file = argv[optind];
	if (cfg->events && cfg->json && !strcmp(cfg->json, "-"))
		cli_die(EXIT_USAGE, "invalid --json '-': --events writes to standard output");
	if (cfg->have_affinity && !cfg->npids && !cfg->name && !cfg->prio_lo)
		cli_die(EXIT_USAGE, "--affinity is for tasks chosen with --pid, --name or --prio: "
			"an rtsched run's markers carry its threads' own");
}

/* What the first pass learns: the window markers, the tasks and their priorities. */
struct task {
	pid_t pid;
	int prio;			/* the kernel's: its lowest RT one (PI boosts pass), else any */
};

/* A window marker, with the process that wrote it (a run's coordinator). */
struct mark {
	struct trace_window_mark m;
	pid_t writer;
	uint64_t ts;
};

/* The processes whose markers a file holds, in the order they ran (at most MAX_WRITERS). */
#define MAX_WRITERS 64

struct survey {
	struct mark *win;
	size_t nwin, capwin;
	enum rt_bw_regime regime;	/* what an rtsched run's marker says */
	unsigned long long limit_ns;
	bool have_regime;
	uint64_t regime_ts;		/* its marker's time */
	struct rt_topology topo;	/* what an rtsched run's markers say; nr_cpus 0: nothing */
	struct trace_window *watched;	/* the threads a saved window's markers name */
	size_t nwatched, capwatched;
	struct task *tasks;		/* open addressing by pid; pid 0: empty */
	size_t ntasks, cap;
	uint64_t first, last, events;
};

static int note_task(struct survey *s, pid_t pid, int prio)
{
	size_t i;

	if (pid <= 0)
		return 0;
	if (2 * (s->ntasks + 1) > s->cap) {
		struct survey old = *s;
		size_t cap = s->cap ? 2 * s->cap : 1024, k;

		s->tasks = calloc(cap, sizeof(*s->tasks));
		if (!s->tasks) {
			s->tasks = old.tasks;	/* kept whole, freed by the caller */
			return -ENOMEM;
		}
		s->cap = cap;
		s->ntasks = 0;
		for (k = 0; k < old.cap; k++)
			if (old.tasks[k].pid)
				note_task(s, old.tasks[k].pid, old.tasks[k].prio);
		free(old.tasks);
	}
	for (i = (size_t)pid * 2654435761U % s->cap; s->tasks[i].pid; i = (i + 1) % s->cap) {
		if (s->tasks[i].pid == pid) {
			int *cur = &s->tasks[i].prio;

			if (prio < TRACE_PRIO_RT_MAX && (*cur >= TRACE_PRIO_RT_MAX || prio > *cur))
				*cur = prio;
			return 0;
		}
	}
	s->tasks[i] = (struct task){ pid, prio };
	s->ntasks++;
	return 0;
}

/* Scheduler events, @n from @first to @last: the header's count and span. */
static int survey_counted(uint64_t n, uint64_t first, uint64_t last, void *ctx)
{
	struct survey *s = ctx;

	if (!n)
		return 0;
	if (!s->events || first < s->first)
		s->first = first;
	if (!s->events || last > s->last)
		s->last = last;
	s->events += n;
	return 0;
}

/* A scheduler event, its tasks noted for --pid, --name and --prio. */
static int survey_event(const struct trace_event *e, void *ctx)
{
	struct survey *s = ctx;
	int ret;

	survey_counted(1, e->ts, e->ts, ctx);
	ret = note_task(s, e->pid, e->type == TRACE_EV_PI ? 140 : e->prio);
	if (!ret && e->type == TRACE_EV_SWITCH)
		ret = note_task(s, e->pid2, e->prio2);
	return ret;
}

/* A thread a saved window's marker names, once. */
static int note_watched(struct survey *s, const struct trace_window *w)
{
	size_t i;

	for (i = 0; i < s->nwatched; i++)
		if (s->watched[i].tid == w->tid)
			return 0;
	if (s->nwatched == s->capwatched) {
		size_t cap = s->capwatched ? 2 * s->capwatched : 16;
		struct trace_window *n = cap <= 65536 ? realloc(s->watched, cap * sizeof(*n)) : NULL;

		if (!n)
			return -ENOMEM;
		s->watched = n;
		s->capwatched = cap;
	}
	s->watched[s->nwatched++] = *w;
	return 0;
}

static int survey_marker(uint64_t ts, int cpu, pid_t pid, const char *text, void *ctx)
{
	struct survey *s = ctx;
	struct trace_window_mark w;
	unsigned long long limit_ns;
	enum rt_bw_regime regime;
	int ret;

	(void)cpu;
	/* the latest, whatever order the CPUs' markers come in */
	if (!trace_regime_read(text, &regime, &limit_ns)) {
		if (!s->have_regime || ts >= s->regime_ts) {
			s->regime = regime;
			s->limit_ns = limit_ns;
			s->regime_ts = ts;
		}
		s->have_regime = true;
		return 0;
	}
	ret = trace_topology_read(text, &s->topo);
	if (ret != -EINVAL)
		return ret;
	if (!trace_watch_mark_read(text, &w.w.tid, &w.w.affinity, &w.w.affinity_known))
		return note_watched(s, &w.w);
	if (trace_window_read(text, &w) || w.run < 0 || w.row > 65536)
		return 0;
	if (s->nwin == s->capwin) {
		size_t cap = s->capwin ? 2 * s->capwin : 64;
		struct mark *n = realloc(s->win, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		s->win = n;
		s->capwin = cap;
	}
	s->win[s->nwin++] = (struct mark){ .m = w, .writer = pid, .ts = ts };
	return 0;
}

/* The tables' rows: per run, its threads' windows. */
struct rows {
	struct trace_span *spans;
	struct trace_window *windows;	/* nruns x n */
	struct trace_run *runs;
	size_t nruns, n;
	bool have_proc;
	const char *how;		/* how the rows were chosen, for the header */
};

static void alloc_rows(struct rows *rw)
{
	rw->spans = calloc(rw->nruns, sizeof(*rw->spans));
	rw->windows = calloc(rw->nruns * rw->n, sizeof(*rw->windows));
	rw->runs = calloc(rw->nruns, sizeof(*rw->runs));
	if (!rw->spans || !rw->windows || !rw->runs)
		cli_die(EXIT_SYSCALL, "out of memory");
}

/* A process that wrote markers: its first marker's time, its runs and rows. */
struct writer {
	pid_t pid;
	uint64_t first;
	size_t runs, rows, offset;
};

static int by_first(const void *a, const void *b)
{
	const struct writer *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

/*
 * The processes that wrote @s's markers into @w, in the order they ran
 * (returns how many, MAX_WRITERS + 1 for more). Each process numbers its
 * runs from 0: a recording around several (the top instance's, around two
 * runs) holds them one after the other.
 */
static size_t writers(const struct survey *s, struct writer *w)
{
	size_t n = 0, i, k;

	for (i = 0; i < s->nwin; i++) {
		const struct mark *m = &s->win[i];

		for (k = 0; k < n && w[k].pid != m->writer; k++)
			;
		if (k == n) {
			if (n == MAX_WRITERS)
				return n + 1;
			w[n++] = (struct writer){ .pid = m->writer, .first = m->ts };
		}
		if (m->ts < w[k].first)
			w[k].first = m->ts;
		if ((size_t)m->m.run + 1 > w[k].runs)
			w[k].runs = (size_t)m->m.run + 1;
		if (m->m.row + 1 > w[k].rows)
			w[k].rows = m->m.row + 1;
	}
	qsort(w, n, sizeof(*w), by_first);
	return n;
}

/* An rtsched file: its runs and rows from the window markers. */
static void rows_of_markers(const struct config *cfg, const struct survey *s, struct rows *rw)
{
	static char how[128 + 12 * MAX_WRITERS];
	struct writer by[MAX_WRITERS];
	size_t nw = writers(s, by), i, k, r;
	int len;

	if (nw > MAX_WRITERS)
		cli_die(EXIT_USAGE, "%s: holds the window markers of more than %d processes: "
			"choose the tasks with --pid, --name or --prio", cfg->file, MAX_WRITERS);
	for (k = 0; k < nw; k++) {
		if (by[k].rows != by[0].rows)
			cli_die(EXIT_USAGE, "%s: holds the runs of %zu processes with different "
				"numbers of threads (%zu and %zu; pids %d, %d): choose the tasks "
				"with --pid, --name or --prio", cfg->file, nw, by[0].rows, by[k].rows,
				(int)by[0].pid, (int)by[k].pid);
		by[k].offset = rw->nruns;
		rw->nruns += by[k].runs;
	}
	rw->n = nw ? by[0].rows : 0;
	if (rw->nruns * rw->n != s->nwin)
		cli_die(EXIT_USAGE, "%s: its rtsched window markers are incomplete (%zu for %zu "
			"runs of %zu threads): choose the tasks with --pid, --name or --prio",
			cfg->file, s->nwin, rw->nruns, rw->n);
	alloc_rows(rw);
	for (i = 0; i < s->nwin; i++) {
		const struct mark *m = &s->win[i];

		for (k = 0; by[k].pid != m->writer; k++)
			;
		rw->windows[(by[k].offset + (size_t)m->m.run) * rw->n + m->m.row] = m->m.w;
	}
	rw->how = "the run's window markers";
	if (nw > 1) {
		len = snprintf(how, sizeof(how), "the window markers of %zu processes (pids", nw);
		for (k = 0; k < nw; k++)
			len += snprintf(how + len, sizeof(how) - (size_t)len, "%s %d", k ? "," : "",
					(int)by[k].pid);
		snprintf(how + len, sizeof(how) - (size_t)len, "), one after the other");
		rw->how = how;
	}
	for (r = 0; r < rw->nruns; r++) {
		struct trace_window *w = &rw->windows[r * rw->n];

		rw->spans[r] = (struct trace_span){ .threads = w, .start_ns = w[0].start,
							  .end_ns = w[0].end, .out = &rw->runs[r] };
		for (i = 0; i < rw->n; i++) {
			if (!w[i].tid)
				cli_die(EXIT_USAGE, "%s: run %zu has no window marker for row %zu",
					cfg->file, r, i);
			if (w[i].start < rw->spans[r].start_ns)
				rw->spans[r].start_ns = w[i].start;
			if (w[i].end > rw->spans[r].end_ns)
				rw->spans[r].end_ns = w[i].end;
		}
	}
	rw->have_proc = true;
}

static bool chosen(const struct config *cfg, struct trace_source *d, const struct task *t)
{
	const char *comm;
	size_t i;
	bool hit = !cfg->npids;

	for (i = 0; i < cfg->npids && !hit; i++)
		hit = cfg->pids[i] == t->pid;
	if (!hit)
		return false;
	if (cfg->prio_lo && (t->prio >= TRACE_PRIO_RT_MAX || 99 - t->prio < cfg->prio_lo ||
			     99 - t->prio > cfg->prio_hi))
		return false;
	comm = trace_source_comm(d, t->pid);
	return !cfg->name || (comm && !fnmatch(cfg->name, comm, 0));
}

/* Lowest SCHED_FIFO priority first, as the benchmarks' tables go; then by pid. */
static int by_prio(const void *a, const void *b)
{
	const struct task *x = a, *y = b;

	if (x->prio != y->prio)
		return y->prio - x->prio;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Any trace: the chosen tasks, over the whole of it. */
static void rows_of_choice(const struct config *cfg, struct trace_source *d,
			   const struct survey *s, struct rows *rw, struct task **picked)
{
	struct task *p = calloc(s->ntasks + 1, sizeof(*p));
	size_t i, n = 0;

	if (!p)
		cli_die(EXIT_SYSCALL, "out of memory");
	for (i = 0; i < s->cap; i++)
		if (s->tasks[i].pid && chosen(cfg, d, &s->tasks[i]))
			p[n++] = s->tasks[i];
	if (!n) {
		free(p);
		cli_die(EXIT_USAGE, "%s: no task of the trace matches the choice (%s)", cfg->file,
			cfg->choice);
	}
	qsort(p, n, sizeof(*p), by_prio);
	rw->nruns = 1;
	rw->n = n;
	alloc_rows(rw);
	for (i = 0; i < n; i++)
		rw->windows[i] = (struct trace_window){ .tid = p[i].pid,
							.start = (int64_t)s->first,
							.end = (int64_t)s->last,
							.affinity = cfg->affinity,
							.affinity_known = cfg->have_affinity };
	rw->spans[0] = (struct trace_span){ .threads = rw->windows,
						  .start_ns = (int64_t)s->first,
						  .end_ns = (int64_t)s->last, .out = &rw->runs[0] };
	rw->have_proc = false;
	rw->how = "the choice";
	*picked = p;
}

/* A window a watch saved: the threads its markers name, over the whole of it. */
static void rows_of_watch(const struct survey *s, struct rows *rw)
{
	size_t i;

	rw->nruns = 1;
	rw->n = s->nwatched;
	alloc_rows(rw);
	for (i = 0; i < rw->n; i++) {
		rw->windows[i] = s->watched[i];
		rw->windows[i].start = (int64_t)s->first;
		rw->windows[i].end = (int64_t)s->last;
	}
	rw->spans[0] = (struct trace_span){ .threads = rw->windows,
						  .start_ns = (int64_t)s->first,
						  .end_ns = (int64_t)s->last, .out = &rw->runs[0] };
	rw->have_proc = false;
	rw->how = "the watch's markers (a saved window), over the whole of it";
}

/* Each wait the analysis tells: into the --explain it crosses. */
static void explain_wait(const struct trace_wait *w, void *ctx)
{
	struct config *cfg = ctx;
	size_t i;

	for (i = 0; i < cfg->nexplain; i++) {
		struct explain *x = &cfg->explain[i];

		if (x->what == (int)w->kind && (int64_t)(w->end - w->start) > x->ns &&
		    x->count++ < MAX_SAID)
			x->said[x->count - 1] = *w;
	}
}

/* What the trace knows of a holder: its name, and whether that is a kernel thread's. */
static struct trace_holder holder_in(struct trace_source *d, const struct trace_wait *w)
{
	struct trace_holder h = { .comm = w->holder > 0 ? trace_source_comm(d, w->holder) : NULL };

	h.kthread = trace_comm_kthread(h.comm);
	return h;
}

/* Under the tables: each --explain's waits in words. */
static void print_explained(const struct config *cfg, struct trace_source *d)
{
	char words[1024], t[32];
	struct trace_holder h;
	size_t i, k;

	for (i = 0; i < cfg->nexplain; i++) {
		const struct explain *x = &cfg->explain[i];

		rt_format_duration(t, sizeof(t), x->ns);
		printf("\nexplain %s: %llu wait%s\n", x->spec, (unsigned long long)x->count,
		       x->count == 1 ? "" : "s");
		for (k = 0; k < x->count && k < MAX_SAID; k++) {
			h = holder_in(d, &x->said[k]);
			trace_wait_explain(&x->said[k], &h, words, sizeof(words));
			printf("  %s %.3f ms > %s: %s\n", trace_wait_names[x->what],
			       (double)(x->said[k].end - x->said[k].start) / 1e6, t, words);
		}
		if (x->count > MAX_SAID)
			printf("  and %llu more\n", (unsigned long long)(x->count - MAX_SAID));
	}
}

/* The file's buffer as a source, or exit 2 (a file that is not a trace.dat) or 3. */
static struct trace_source *open_file(const struct config *cfg, const char *buffer)
{
	struct trace_source *d;
	char err[512];
	int ret;

	ret = trace_source_file(&d, cfg->file, buffer, err, sizeof(err));
	if (ret)
		cli_die(ret == -ENOMEM ? EXIT_SYSCALL : EXIT_USAGE, "%s", err);
	return d;
}

/*
 * The first pass, over the source returned (kept for the tasks' names):
 * the markers, and the tasks only where the user chooses them (decoding
 * every event twice was a third of the time).
 */
static struct trace_source *survey_file(const struct config *cfg, struct survey *s)
{
	static const struct trace_walk_ops tasks = { .event = survey_event,
						     .marker = survey_marker };
	static const struct trace_walk_ops markers = { .counted = survey_counted,
						       .marker = survey_marker };
	struct trace_source *d = open_file(cfg, cfg->buffer);
	bool choose = cfg->npids || cfg->name || cfg->prio_lo;
	char err[512];
	int ret;

	ret = trace_source_walk(d, choose ? &tasks : &markers, s, err, sizeof(err));
	if (ret)
		cli_die(ret == -ENOMEM ? EXIT_SYSCALL : EXIT_USAGE, "%s", err);
	return d;
}

static void print_header(const struct config *cfg, const char *buffer, const struct survey *s,
			 const struct rows *rw, const struct task *picked, struct trace_source *d)
{
	size_t i;

	printf("%s: %s%s%s%s, %llu scheduler events over %.3f s\n", cli_prog(), cfg->file,
	       *buffer ? " (buffer " : "", buffer, *buffer ? ")" : "",
	       (unsigned long long)s->events, (double)(s->last - s->first) / 1e9);
	if (!picked) {
		printf("%zu run%s of %zu threads, from %s\n", rw->nruns, rw->nruns > 1 ? "s" : "",
		       rw->n, rw->how);
		return;
	}
	printf("%zu task%s from %s, over the whole trace:\n", rw->n, rw->n > 1 ? "s" : "",
	       rw->how);
	for (i = 0; i < rw->n; i++) {
		const char *comm = trace_source_comm(d, picked[i].pid);

		printf("%10zu: pid %d %s", i, (int)picked[i].pid, comm ? comm : "<unknown>");
		if (picked[i].prio < TRACE_PRIO_RT_MAX)
			printf(", SCHED_FIFO/RR %d\n", 99 - picked[i].prio);
		else
			printf(", not RT\n");
	}
}

/* "explained": each --explain, its count and the waits said. */
static void json_explained(struct rt_json *j, const struct config *cfg, struct trace_source *d)
{
	char words[1024];
	struct trace_holder h;
	size_t i, k;

	rt_json_array(j, "explained");
	for (i = 0; i < cfg->nexplain; i++) {
		const struct explain *x = &cfg->explain[i];

		rt_json_object(j, NULL);
		rt_json_str(j, "spec", x->spec);
		rt_json_uint(j, "count", x->count);
		rt_json_array(j, "waits");
		for (k = 0; k < x->count && k < MAX_SAID; k++) {
			const struct trace_wait *w = &x->said[k];

			h = holder_in(d, w);
			trace_wait_explain(w, &h, words, sizeof(words));
			rt_json_object(j, NULL);
			rt_json_int(j, "tid", w->tid);
			rt_json_int(j, "cpu", w->cpu);
			rt_json_int(j, "start_ns", (int64_t)w->start);
			rt_json_int(j, "wait_ns", (int64_t)(w->end - w->start));
			rt_json_int(j, "holder", w->holder);
			rt_json_str(j, "explanation", words);
			rt_json_end(j);
		}
		rt_json_end(j);
		rt_json_end(j);
	}
	rt_json_end(j);
}

static void write_json(const struct config *cfg, struct bench_result *res, const char *buffer,
		       const struct rows *rw, const struct task *picked, struct trace_source *d,
		       int argc, char **argv)
{
	struct rt_json *j = bench_result_json(res);
	size_t i;
	int a;

	if (!j)
		return;
	rt_json_object(j, NULL);
	rt_json_str(j, "schema", ANALYSIS_SCHEMA);
	rt_json_str(j, "tool", cli_prog());
	rt_json_str(j, "version", RT_VERSION);
	rt_json_array(j, "command_line");
	for (a = 0; a < argc; a++)
		rt_json_str(j, NULL, argv[a]);
	rt_json_end(j);
	rt_json_str(j, "file", cfg->file);
	rt_json_str(j, "buffer", buffer);
	rt_json_str(j, "rows_from", picked ? "choice" : "markers");
	rt_json_array(j, "tasks");
	for (i = 0; picked && i < rw->n; i++) {
		const char *comm = trace_source_comm(d, picked[i].pid);

		rt_json_object(j, NULL);
		rt_json_uint(j, "task", i);
		rt_json_int(j, "pid", picked[i].pid);
		if (comm)
			rt_json_str(j, "comm", comm);
		else
			rt_json_null(j, "comm");
		rt_json_int_or_null(j, "rt_priority", 99 - picked[i].prio,
				    picked[i].prio < TRACE_PRIO_RT_MAX);
		rt_json_end(j);
	}
	rt_json_end(j);
	rt_json_array(j, "runs");
	for (i = 0; i < rw->nruns; i++) {
		rt_json_object(j, NULL);
		trace_json(j, &rw->runs[i]);
		rt_json_end(j);
	}
	rt_json_end(j);
	json_explained(j, cfg, d);
	bench_result_commit(res, EXIT_RAN);
}

int main(int argc, char **argv)
{
	struct config cfg = { 0 };
	struct survey s = { 0 };
	struct rows rw = { 0 };
	struct bench_result *res = NULL;
	const struct trace_run **runs;
	struct task *picked = NULL;
	struct trace_source *d;
	const char *buffer;
	char err[512];
	int64_t t0;
	size_t r;
	int ret;

	cli_init("analyse");
	bench_signals_end_install();
	parse(&cfg, argc, argv);
	/*
	 * libtraceevent parses the file's kallsyms as it opens: on a heap of
	 * huge pages, the open took a third of the time (on this project's
	 * 2-CPU virtual machine); nothing is lost where the kernel gives none
	 */
	rt_heap_huge(64 << 20);
	if (cfg.json)
		res = bench_result_open(cfg.json);
	t0 = rt_now_ns(CLOCK_MONOTONIC);
	/* kept open for the names of the choice, the header and the JSON */
	d = survey_file(&cfg, &s);
	buffer = trace_source_buffer(d);
	if (!cfg.npids && !cfg.name && !cfg.prio_lo) {
		if (!s.nwin && !s.nwatched)
			cli_die(EXIT_USAGE, "%s has no rtsched window markers (it is not a run's "
				"--trace-out nor a saved window): choose the tasks with --pid, "
				"--name or --prio", cfg.file);
		if (s.nwin)
			rows_of_markers(&cfg, &s, &rw);
		else
			rows_of_watch(&s, &rw);
	} else {
		rows_of_choice(&cfg, d, &s, &rw, &picked);
	}
	for (r = 0; r < rw.nruns; r++) {
		/* the limits: as given, else as the run's marker says, else unknown */
		rw.spans[r].regime = cfg.have_regime ? cfg.regime : s.have_regime ? s.regime :
				     RT_BW_UNKNOWN;
		rw.spans[r].limit_ns = cfg.limit_ns ? (uint64_t)cfg.limit_ns :
				       s.have_regime ? s.limit_ns : 0;
		/* migrations by distance only where the run said its machine */
		rw.spans[r].topo = s.topo.nr_cpus ? &s.topo : NULL;
		if (cfg.nexplain) {
			rw.spans[r].wait_fn = explain_wait;
			rw.spans[r].wait_ctx = &cfg;
		}
	}
	if (cfg.events)
		trace_text_header(stdout);
	/* the second pass, over the same buffer from its start: the file is opened once */
	ret = trace_analyse(d, rw.spans, rw.nruns, rw.n, rw.have_proc,
			    cfg.events ? stdout : NULL, err, sizeof(err));
	if (ret)
		cli_die(ret == -ENOMEM ? EXIT_SYSCALL : EXIT_USAGE, "%s", err);
	rw.runs[0].analysis_ns = rt_now_ns(CLOCK_MONOTONIC) - t0;
	if (!cfg.events) {
		if (!cfg.quiet)
			print_header(&cfg, buffer, &s, &rw, picked, d);
		runs = calloc(rw.nruns, sizeof(*runs));
		if (!runs)
			cli_die(EXIT_SYSCALL, "out of memory");
		for (r = 0; r < rw.nruns; r++)
			runs[r] = &rw.runs[r];
		trace_print(runs, rw.nruns);
		free(runs);
		print_explained(&cfg, d);
	}
	write_json(&cfg, res, buffer, &rw, picked, d, argc, argv);
	for (r = 0; r < rw.nruns; r++)
		trace_run_free(&rw.runs[r]);
	trace_source_close(d);
	free(rw.spans);
	free(rw.windows);
	free(rw.runs);
	free(picked);
	free(s.tasks);
	free(s.win);
	free(s.watched);
	rt_topology_free(&s.topo);
	cli_exit(EXIT_RAN);
}
