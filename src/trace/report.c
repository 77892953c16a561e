// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the trace of the runs says, as text tables and as the result file's
 * "trace" objects.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "trace/analysis.h"
#include "lib/hist.h"

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

static void print_missing_switches(const struct trace_run **runs, size_t nruns)
{
	bool said = false;
	size_t i, r;

	for (i = 0; i < runs[0]->n; i++) {
		uint64_t ins = 0, outs = 0, samples = 0, wakeups = 0;

		for (r = 0; r < nruns; r++) {
			const struct trace_task *t = &runs[r]->tasks[i];

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

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

/* A CPU any run's threads could use, or that counted something. */
static bool cpu_of_run(const struct trace_run *run, size_t c)
{
	const struct trace_cpu *o = &run->cpus[c];
	size_t i;
	int k;

	if (o->lower_ns || o->unseen_ns)
		return true;
	for (k = 0; k < TRACE_LIMITS; k++) {
		if (o->limited_ns[k])
			return true;
	}
	for (i = 0; i < run->n; i++) {
		const struct trace_task *t = &run->tasks[i];

		if (t->affinity_known && c < CPU_SETSIZE && CPU_ISSET(c, &t->affinity))
			return true;
	}
	return false;
}

/*
 * Placement: per thread, the time it waited while a CPU of its affinity ran
 * something of lower priority, its spans and their lengths, and apart the
 * time the kernel's RT bandwidth limits held those CPUs; per CPU, the time
 * it ran something less important than a thread waiting for it.
 */
static void print_placement(const struct trace_run **runs, size_t nruns)
{
	size_t n = runs[0]->n, i, r, c, ncpus = 0;
	bool unknown = false;
	int k;

	printf("\nPlacement   waited  spans   span: median       p99       max   throttled  fair-srv"
	       "  thr|fair     unseen   (runnable while a CPU it may use ran a lower priority)\n");
	for (i = 0; i < n; i++) {
		uint64_t wait = 0, spans = 0, lim[TRACE_LIMITS] = { 0 }, unseen = 0;
		struct rt_hist h;

		rt_hist_init(&h);
		for (r = 0; r < nruns; r++) {
			const struct trace_placement *p = &runs[r]->tasks[i].place;

			wait += p->wait_ns, spans += p->intervals, unseen += p->unseen_ns;
			for (k = 0; k < TRACE_LIMITS; k++)
				lim[k] += p->limited_ns[k];
			rt_hist_merge(&h, &p->wait);
			unknown |= !runs[r]->tasks[i].affinity_known;
		}
		printf("%10zu: %6.1f ms %6llu %13.1f us %7.1f us %7.1f us %8.1f ms %6.1f ms %6.1f ms "
		       "%7.1f ms\n",
		       i, ms(wait), (unsigned long long)spans, us(rt_hist_pct(&h, 50)),
		       us(rt_hist_pct(&h, 99)), us(h.count ? h.max : 0), ms(lim[TRACE_LIMIT_THROTTLED]),
		       ms(lim[TRACE_LIMIT_FAIR_SERVER]), ms(lim[TRACE_LIMIT_EITHER]), ms(unseen));
	}
	if (unknown)
		printf("(a thread's affinity is not in the trace: only the CPU it waited on counts "
		       "for it)\n");
	for (r = 0; r < nruns; r++)
		ncpus = runs[r]->ncpus > ncpus ? runs[r]->ncpus : ncpus;
	printf("\nCPU     ran lower   throttled  fair-srv  thr|fair     unseen   (while a thread that "
	       "may use it waited)\n");
	for (c = 0; c < ncpus; c++) {
		uint64_t lower = 0, lim[TRACE_LIMITS] = { 0 }, unseen = 0;
		bool used = false;

		for (r = 0; r < nruns; r++) {
			if (c >= runs[r]->ncpus)
				continue;
			used |= cpu_of_run(runs[r], c);
			lower += runs[r]->cpus[c].lower_ns;
			unseen += runs[r]->cpus[c].unseen_ns;
			for (k = 0; k < TRACE_LIMITS; k++)
				lim[k] += runs[r]->cpus[c].limited_ns[k];
		}
		if (used)
			printf("%3zu: %9.1f ms %8.1f ms %6.1f ms %6.1f ms %7.1f ms\n", c, ms(lower),
			       ms(lim[TRACE_LIMIT_THROTTLED]), ms(lim[TRACE_LIMIT_FAIR_SERVER]),
			       ms(lim[TRACE_LIMIT_EITHER]), ms(unseen));
	}
}

/* How the time the kernel's RT bandwidth limits took was told apart, as the regime says. */
static void print_limits_rule(enum rt_bw_regime regime)
{
	static const char *const rule[] = {
		[RT_BW_THROTTLING] = "RT throttling: a CPU that leaves a runnable RT thread for a "
				     "lower task, or idle, is throttled until an RT task runs "
				     "there again",
		[RT_BW_FAIR_SERVER] = "the fair server: a CPU that leaves a runnable RT thread for "
				      "a fair task runs the fair server's tasks until an RT task "
				      "runs there again or it idles (the server then has stopped)",
		[RT_BW_BOTH] = "RT throttling and the fair server: a stretch in which the CPU "
			       "idled is RT throttling (the fair server never idles a CPU); one "
			       "in which fair tasks ran throughout is either (thr|fair)",
		[RT_BW_UNKNOWN] = "not known, so read as both: a stretch in which the CPU idled "
				  "is RT throttling (the fair server never idles a CPU); one in "
				  "which fair tasks ran throughout is either (thr|fair)",
		[RT_BW_NEITHER] = "none: a lower task that takes a CPU from a runnable RT thread "
				  "is counted as any other preemptor, and the wait as placement",
	};

	printf("\ntrace: RT bandwidth limits: %s\n", rule[regime]);
}

/* Preemptions by whom, the wake-up latencies, the time runnable, the PI boosts. */
static void print_preempted(const struct trace_run **runs, size_t nruns)
{
	size_t n = runs[0]->n, i, r;
	int k;

	printf("\nPreempted   total  by-bench kthread  throttled fair-srv thr|fair  other   "
	       "wake-up latency: median      p99      max  of wake-ups   runnable  PI boosts\n");
	for (i = 0; i < n; i++) {
		uint64_t by[TRACE_PREEMPTORS] = { 0 }, total = 0, runnable = 0, boosts = 0;
		uint64_t wakeups = 0;
		struct rt_hist lat;

		rt_hist_init(&lat);
		for (r = 0; r < nruns; r++) {
			const struct trace_task *t = &runs[r]->tasks[i];

			for (k = 0; k < TRACE_PREEMPTORS; k++) {
				by[k] += t->preempted[k];
				total += t->preempted[k];
			}
			runnable += t->runnable_ns;
			boosts += t->pi_boosts;
			wakeups += t->wakeups;
			rt_hist_merge(&lat, &t->wakeup_latency);
		}
		printf("%10zu: %6llu %9llu %7llu %10llu %8llu %8llu %6llu %24.1f us %7.1f us %7.1f us "
		       "%5llu/%-6llu %7.1f ms %10llu\n",
		       i, (unsigned long long)total, (unsigned long long)by[TRACE_BY_BENCH],
		       (unsigned long long)by[TRACE_BY_KTHREAD], (unsigned long long)by[TRACE_BY_THROTTLED],
		       (unsigned long long)by[TRACE_BY_FAIR_SERVER], (unsigned long long)by[TRACE_BY_LIMITED],
		       (unsigned long long)by[TRACE_BY_OTHER], us(rt_hist_pct(&lat, 50)),
		       us(rt_hist_pct(&lat, 99)), us(lat.count ? lat.max : 0),
		       (unsigned long long)lat.count, (unsigned long long)wakeups,
		       (double)runnable / 1e6, (unsigned long long)boosts);
	}
}

/*
 * The PI boosts that found a thread waiting for a CPU, and how long it
 * waited after them: what inheritance promised it and when it got it.
 * Only when some thread had one.
 */
static void print_boosted(const struct trace_run **runs, size_t nruns)
{
	size_t n = runs[0]->n, i, r;
	uint64_t any = 0;
	struct rt_hist lat;

	for (i = 0; i < n; i++)
		for (r = 0; r < nruns; r++)
			any += runs[r]->tasks[i].boost_latency.count;
	if (!any)
		return;
	printf("\nPI boosted  while waiting for a CPU   then waited: median      p99      max\n");
	for (i = 0; i < n; i++) {
		rt_hist_init(&lat);
		for (r = 0; r < nruns; r++)
			rt_hist_merge(&lat, &runs[r]->tasks[i].boost_latency);
		printf("%10zu: %29llu %20.1f us %7.1f us %7.1f us\n", i,
		       (unsigned long long)lat.count, us(rt_hist_pct(&lat, 50)),
		       us(rt_hist_pct(&lat, 99)), us(lat.count ? lat.max : 0));
	}
}

/*
 * A table of one per-distance array of each thread (@field, the offset of a
 * uint64_t array in struct trace_task), summed over the runs, one column
 * per place of @order: only where every run knows the topology.
 */
struct by_distance {
	const char *title;
	size_t field;
	const int *order;
	int places;
	bool ms;		/* nanoseconds shown as ms, else counts */
	const char *note;	/* after the column names */
};

static uint64_t task_place(const struct trace_task *t, size_t field, int k)
{
	return ((const uint64_t *)((const char *)t + field))[k];
}

static void print_by_distance(const struct trace_run **runs, size_t nruns,
			      const struct by_distance *t)
{
	int title = (int)strlen(t->title), width = t->ms ? 10 : 9, k;
	size_t n = runs[0]->n, i, r;
	uint64_t d;

	for (r = 0; r < nruns; r++) {
		if (!runs[r]->have_topology)
			return;
	}
	printf("\n%s", t->title);
	for (k = 0; k < t->places; k++)
		printf("%*s", width, trace_place_name(t->order[k]));
	printf("%s\n", t->note);
	for (i = 0; i < n; i++) {
		printf("%10zu:%*s", i, title - 11, "");
		for (k = 0; k < t->places; k++) {
			d = 0;
			for (r = 0; r < nruns; r++)
				d += task_place(&runs[r]->tasks[i], t->field, t->order[k]);
			if (t->ms)
				printf("%7.1f ms", ms(d));
			else
				printf("%*llu", width, (unsigned long long)d);
		}
		printf("\n");
	}
}

/*
 * The migrations by the distance they crossed: to a sibling of the same
 * core, within the last-level cache, within the NUMA node, to another node.
 */
static void print_distances(const struct trace_run **runs, size_t nruns)
{
	static const int order[] = { RT_DIST_SIBLING, RT_DIST_CACHE, RT_DIST_NODE,
				     RT_DIST_REMOTE };
	static const struct by_distance table = {
		.title = "Migrations by distance", .order = order, .places = RT_DISTANCES,
		.field = offsetof(struct trace_task, mig_distance), .note = "",
	};

	print_by_distance(runs, nruns, &table);
}

/*
 * The placement waits by where the CPU that ran lower work was, from the
 * CPU the thread waited on: that CPU itself, or a sibling, the same cache,
 * node, another node (the kernel's RT push and pull look for the nearest
 * lowest-priority CPU).
 */
static void print_place_distances(const struct trace_run **runs, size_t nruns)
{
	static const int order[] = { TRACE_PLACE_HERE, RT_DIST_SIBLING, RT_DIST_CACHE,
				     RT_DIST_NODE, RT_DIST_REMOTE };
	static const struct by_distance table = {
		.title = "Placement by distance", .order = order, .places = TRACE_PLACES,
		.field = offsetof(struct trace_task, place.by_distance_ns), .ms = true,
		.note = "   (the waits above, by where the lower CPU was from the one waited on)",
	};

	print_by_distance(runs, nruns, &table);
}

/**
 * trace_print - the trace's section under the table, over every run
 *
 * Counts add up over runs; the wake-up latencies are merged.
 */
void trace_print(const struct trace_run **runs, size_t nruns)
{
	uint64_t events = 0, lost = 0, count[TRACE_EV_TYPES] = { 0 };
	size_t n = runs[0]->n, i, r;
	int64_t took = 0;
	int k;

	for (r = 0; r < nruns; r++) {
		took += runs[r]->analysis_ns;
		events += runs[r]->events;
		lost += runs[r]->lost;
		for (k = 0; k < TRACE_EV_TYPES; k++)
			count[k] += runs[r]->count[k];
	}
	printf("\ntrace: %llu events", (unsigned long long)events);
	for (k = 0; k < TRACE_EV_TYPES; k++)
		printf("%s%s %llu", k ? ", " : " (", trace_event_names[k], (unsigned long long)count[k]);
	printf(")%s, read and analysed in %.1f ms\n", nruns > 1 ? ", all runs together" : "",
	       (double)took / 1e6);
	if (lost)
		printf("trace: LOST %llu events: the buffer was too small, the figures below "
		       "undercount (raise --trace-buffer)\n",
		       (unsigned long long)lost);

	printf("\nMigrations  traced   /proc  at-wakeup  lower-RT  equal-RT  runnable  other\n");
	for (i = 0; i < n; i++) {
		uint64_t tr = 0, proc = 0, wk = 0, lo = 0, eq = 0, rn = 0, ot = 0;
		char pcol[24];

		for (r = 0; r < nruns; r++) {
			const struct trace_task *t = &runs[r]->tasks[i];

			tr += t->migrations, wk += t->mig_wakeup, lo += t->mig_lower_rt;
			eq += t->mig_equal_rt, rn += t->mig_runnable, ot += t->mig_other;
			proc += runs[r]->proc_migrations[i];
		}
		if (runs[0]->have_proc)
			snprintf(pcol, sizeof(pcol), "%llu", (unsigned long long)proc);
		printf("%10zu: %7llu %7s %10llu %9llu %9llu %9llu %6llu\n", i,
		       (unsigned long long)tr, runs[0]->have_proc ? pcol : "-", (unsigned long long)wk,
		       (unsigned long long)lo, (unsigned long long)eq, (unsigned long long)rn,
		       (unsigned long long)ot);
	}
	print_distances(runs, nruns);
	print_preempted(runs, nruns);
	print_boosted(runs, nruns);
	print_placement(runs, nruns);
	print_place_distances(runs, nruns);
	print_limits_rule(runs[0]->regime);
	print_missing_switches(runs, nruns);
}

/* The kernel's RT bandwidth limits' figures: throttled_ns, fair_server_ns, ... */
static void json_limits(struct rt_json *j, const uint64_t *limited)
{
	char key[64];
	int k;

	for (k = 0; k < TRACE_LIMITS; k++) {
		snprintf(key, sizeof(key), "%s_ns", trace_limit_names[k]);
		rt_json_uint(j, key, limited[k]);
	}
}

/* One thread's object of "threads". */
static void json_thread(struct rt_json *j, const struct trace_run *run, size_t i)
{
	static const char *const by_name[TRACE_PREEMPTORS] = {
		[TRACE_BY_BENCH] = "benchmark", [TRACE_BY_KTHREAD] = "kernel_thread",
		[TRACE_BY_THROTTLED] = "throttled", [TRACE_BY_FAIR_SERVER] = "fair_server",
		[TRACE_BY_LIMITED] = "throttled_or_fair_server", [TRACE_BY_OTHER] = "other",
	};
	const struct trace_task *t = &run->tasks[i];
	struct rt_hist_sum lat;
	int k;

	rt_json_object(j, NULL);
	rt_json_uint(j, "task", i);
	rt_json_object(j, "migrations");
	rt_json_uint(j, "traced", t->migrations);
	if (run->have_proc)
		rt_json_uint(j, "proc", run->proc_migrations[i]);
	else
		rt_json_null(j, "proc");
	rt_json_uint(j, "at_wakeup", t->mig_wakeup);
	rt_json_uint(j, "lower_rt", t->mig_lower_rt);
	rt_json_uint(j, "equal_rt", t->mig_equal_rt);
	rt_json_uint(j, "runnable", t->mig_runnable);
	rt_json_uint(j, "other", t->mig_other);
	if (run->have_topology) {
		rt_json_object(j, "by_distance");
		for (k = 0; k < RT_DISTANCES; k++)
			rt_json_uint(j, rt_distance_names[k], t->mig_distance[k]);
		rt_json_end(j);
	} else {
		rt_json_null(j, "by_distance");
	}
	rt_json_end(j);
	rt_json_object(j, "preempted");
	for (k = 0; k < TRACE_PREEMPTORS; k++)
		rt_json_uint(j, by_name[k], t->preempted[k]);
	rt_json_end(j);
	rt_hist_summarise(&t->wakeup_latency, &lat);
	rt_json_object(j, "wakeup_latency_ns");
	rt_hist_json(j, &lat);
	rt_json_uint(j, "wakeups", t->wakeups);
	rt_json_end(j);
	rt_json_uint(j, "switches_in", t->switches_in);
	rt_json_uint(j, "switches_out", t->switches_out);
	rt_json_uint(j, "runnable_ns", t->runnable_ns);
	rt_json_uint(j, "pi_boosts", t->pi_boosts);
	rt_hist_summarise(&t->boost_latency, &lat);
	rt_json_object(j, "pi_boost_latency_ns");
	rt_hist_json(j, &lat);
	rt_json_end(j);
	rt_hist_summarise(&t->place.wait, &lat);
	rt_json_object(j, "placement");
	rt_json_uint(j, "wait_ns", t->place.wait_ns);
	if (run->have_topology) {
		rt_json_object(j, "by_distance_ns");
		for (k = 0; k < TRACE_PLACES; k++)
			rt_json_uint(j, trace_place_name(k), t->place.by_distance_ns[k]);
		rt_json_end(j);
	} else {
		rt_json_null(j, "by_distance_ns");
	}
	rt_json_object(j, "spans_ns");
	rt_hist_json(j, &lat);
	rt_json_end(j);
	json_limits(j, t->place.limited_ns);
	rt_json_uint(j, "unseen_ns", t->place.unseen_ns);
	rt_json_bool(j, "affinity_known", t->affinity_known);
	rt_json_end(j);
	rt_json_end(j);
}

/**
 * trace_json - "trace": the run's events and the analysis per thread
 * and CPU, with the regime the kernel's limits were read by
 */
void trace_json(struct rt_json *j, const struct trace_run *run)
{
	size_t i, c;
	int k;

	rt_json_object(j, "trace");
	rt_json_str(j, "rt_bandwidth", rt_bw_regime_names[run->regime]);
	rt_json_uint(j, "events", run->events);
	rt_json_uint(j, "lost", run->lost);
	rt_json_object(j, "by_event");
	for (k = 0; k < TRACE_EV_TYPES; k++)
		rt_json_uint(j, trace_event_names[k], run->count[k]);
	rt_json_end(j);
	rt_json_array(j, "threads");
	for (i = 0; i < run->n; i++)
		json_thread(j, run, i);
	rt_json_end(j);
	rt_json_array(j, "cpus");
	for (c = 0; c < run->ncpus; c++) {
		if (!cpu_of_run(run, c))
			continue;
		rt_json_object(j, NULL);
		rt_json_uint(j, "cpu", c);
		rt_json_uint(j, "lower_ns", run->cpus[c].lower_ns);
		json_limits(j, run->cpus[c].limited_ns);
		rt_json_uint(j, "unseen_ns", run->cpus[c].unseen_ns);
		rt_json_end(j);
	}
	rt_json_end(j);
	rt_json_end(j);
}
