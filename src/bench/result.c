// SPDX-License-Identifier: GPL-2.0-only
/*
 * The result file: tool, command line, times, system, and what the program
 * adds (configuration, runs, summary), written once the run is over.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli/cli.h"
#include "bench/env.h"
#include "bench/output.h"
#include "bench/result.h"
#include "lib/hist.h"
#include "lib/sched.h"
#include "lib/stats.h"
#include "lib/work.h"

struct bench_result {
	struct rt_outfile *out;		/* --json FILE, "-" for stdout */
	struct rt_json *j;		/* the document, once begun */
	struct timespec start;		/* CLOCK_REALTIME */
};

/**
 * bench_result_open - check and open --json FILE before anything runs
 *
 * Exits 2 when FILE exists (a result is never overwritten) or cannot be
 * created; the temporary file is removed if the program exits before
 * bench_result_commit(). With "-" the document goes to standard output and
 * everything the program prints for people to stderr. Returns the result,
 * which lives until the process exits; the functions below take NULL for
 * no --json.
 */
struct bench_result *bench_result_open(const char *path)
{
	struct bench_result *r = calloc(1, sizeof(*r));

	if (!r)
		cli_die(EXIT_SYSCALL, "out of memory");
	r->out = bench_output_open("--json", path, false);
	/* --json -: the document has standard output, the text goes to stderr */
	if (!strcmp(path, "-") && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		cli_die(EXIT_SYSCALL, "--json -: %s", strerror(errno));
	clock_gettime(CLOCK_REALTIME, &r->start);
	return r;
}

/**
 * bench_result_json - the writer of @r's document, for a program that
 * writes one of its own (analyse); NULL without --json
 *
 * The document is closed by bench_result_commit().
 */
struct rt_json *bench_result_json(struct bench_result *r)
{
	if (!r)
		return NULL;
	if (!r->j)
		r->j = rt_json_new(rt_outfile_stream(r->out));
	if (!r->j)
		cli_die(EXIT_SYSCALL, "out of memory");
	return r->j;
}

static void iso_time(char *buf, size_t len, time_t t)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void json_environment(struct rt_json *j, const struct bench_sys *sys,
			     const struct bitmask *cpus, const struct rt_work *work)
{
	char notes[BENCH_NOTES][BENCH_NOTE_LEN], list[256];
	const struct rt_bandwidth *bw = &sys->bw;
	bool fair = bw->fair && bw->nfair;
	int i, n;

	rt_json_object(j, "environment");
	/* the first CPU's fair server: what results before the "rt_bandwidth" object had */
	rt_json_int_or_null(j, "fair_server_runtime_ns", fair ? bw->fair[0].runtime_ns : 0, fair);
	rt_json_int_or_null(j, "fair_server_period_ns", fair ? bw->fair[0].period_ns : 0, fair);
	rt_cpus_format(sys->dom.isolated, list, sizeof(list));
	rt_json_str(j, "isolated", rt_cpus_count(sys->dom.isolated) ? list : "");
	rt_json_str(j, "offline", sys->env.offline);
	rt_json_str(j, "governor", sys->env.governor[0] ? sys->env.governor : NULL);
	rt_json_array(j, "notes");
	n = bench_env_notes(sys, cpus, work, notes);
	for (i = 0; i < n; i++)
		rt_json_str(j, NULL, notes[i]);
	rt_json_end(j);
	rt_json_end(j);
}

static void json_tristate(struct rt_json *j, const char *key, int v)
{
	if (v < 0)
		rt_json_null(j, key);
	else
		rt_json_bool(j, key, v);
}

/* "rt_bandwidth": the regime and what it rests on; null where unknown, with why */
static void json_bandwidth(struct rt_json *j, const struct rt_bandwidth *bw)
{
	size_t i;

	rt_json_object(j, "rt_bandwidth");
	rt_json_str(j, "regime", rt_bw_regime_names[bw->regime]);
	json_tristate(j, "throttling", bw->throttling);
	json_tristate(j, "rt_group_sched", bw->group_sched);
	json_tristate(j, "fair_server", bw->fair_server);
	if (!bw->fair) {
		rt_json_null(j, "fair_server_cpus");
	} else {
		rt_json_array(j, "fair_server_cpus");
		for (i = 0; i < bw->nfair; i++) {
			rt_json_object(j, NULL);
			rt_json_int(j, "cpu", bw->fair[i].cpu);
			rt_json_int(j, "runtime_ns", bw->fair[i].runtime_ns);
			rt_json_int(j, "period_ns", bw->fair[i].period_ns);
			rt_json_end(j);
		}
		rt_json_end(j);
	}
	rt_json_int(j, "limit_ns", rt_bandwidth_limit_ns(bw));
	rt_json_str(j, "unknown_why", bw->why[0] ? bw->why : bw->fair_why[0] ? bw->fair_why : NULL);
	rt_json_end(j);
}

/* "scheduler": the preemption mode, the features, sched_ext; null where unknown */
static void json_scheduler(struct rt_json *j, const struct rt_kernel *k)
{
	const char *p = k->features;

	rt_json_object(j, "scheduler");
	rt_json_str(j, "config", k->config.text ? k->config.source : NULL);
	rt_json_str(j, "preempt_mode", k->mode[0] ? k->mode : NULL);
	rt_json_str(j, "preempt_mode_source", k->mode[0] ? k->mode_source : NULL);
	rt_json_str(j, "preempt_mode_why", k->mode_why[0] ? k->mode_why : NULL);
	if (!*p) {
		rt_json_null(j, "features");
	} else {
		rt_json_array(j, "features");
		while (*p) {
			char word[64];
			size_t w = strcspn(p, " ");

			snprintf(word, sizeof(word), "%.*s", (int)w, p);
			rt_json_str(j, NULL, word);
			p += w;
			p += strspn(p, " ");
		}
		rt_json_end(j);
	}
	rt_json_str(j, "features_why", k->features_why[0] ? k->features_why : NULL);
	rt_json_str(j, "sched_ext", k->sched_ext[0] ? k->sched_ext : NULL);
	rt_json_str(j, "sched_ext_why", k->sched_ext_why[0] ? k->sched_ext_why : NULL);
	rt_json_end(j);
}

static void json_mask(struct rt_json *j, const char *key, const struct bitmask *m)
{
	char list[1024];

	if (!m)
		rt_json_null(j, key);
	else if (!rt_cpus_count(m))
		rt_json_str(j, key, "");
	else if (rt_cpus_format(m, list, sizeof(list)) > 0)
		rt_json_str(j, key, list);
	else
		rt_json_null(j, key);
}

/* "isolation": isolated and nohz_full CPUs, the cpuset, the root domains */
static void json_isolation(struct rt_json *j, const struct rt_domains *d,
			   const struct bitmask *cpus)
{
	size_t i, which[RT_DOMAINS_MAX];
	int k;

	rt_json_object(j, "isolation");
	json_mask(j, "isolated", d->isolated);
	json_mask(j, "nohz_full", d->nohz_full);
	json_mask(j, "cpuset_cpus", d->cpuset);
	rt_json_str(j, "cpuset_partition", d->partition[0] ? d->partition : NULL);
	if (!d->n) {
		rt_json_null(j, "root_domains");
	} else {
		rt_json_array(j, "root_domains");
		for (i = 0; i < d->n; i++) {
			rt_json_object(j, NULL);
			rt_json_str(j, "name", d->dom[i].name);
			json_mask(j, "cpus", d->dom[i].cpus);
			rt_json_end(j);
		}
		rt_json_end(j);
	}
	rt_json_str(j, "root_domains_why", d->why[0] ? d->why : NULL);
	k = rt_domains_of(d, cpus, which, RT_DOMAINS_MAX);
	rt_json_int_or_null(j, "run_root_domains", k, k >= 0);
	rt_json_end(j);
}

/* "topology": each run CPU's core, last-level cache, package and node; the nodes' distances */
static void json_topology(struct rt_json *j, const struct rt_topology *t,
			  const struct bitmask *cpus)
{
	int i, n = rt_cpus_count(cpus), c, a, b;

	if (!t->nr_cpus) {
		rt_json_null(j, "topology");
		return;
	}
	rt_json_object(j, "topology");
	rt_json_int_or_null(j, "cache_level", t->cache_level, t->cache_level > 0);
	rt_json_array(j, "cpus");
	for (i = 0; i < n; i++) {
		const struct rt_cpu_place *p;

		c = rt_cpus_nth(cpus, i);
		if (c < 0 || c >= t->nr_cpus)
			continue;
		p = &t->cpu[c];
		rt_json_object(j, NULL);
		rt_json_int(j, "cpu", c);
		rt_json_int_or_null(j, "core", p->core, p->core >= 0);
		rt_json_int_or_null(j, "cache", p->cache, p->cache >= 0);
		rt_json_int_or_null(j, "package", p->package, p->package >= 0);
		rt_json_int_or_null(j, "node", p->node, p->node >= 0);
		rt_json_end(j);
	}
	rt_json_end(j);
	rt_json_array(j, "node_distances");
	for (a = 0; a < t->nr_nodes; a++) {
		rt_json_array(j, NULL);
		for (b = 0; b < t->nr_nodes; b++)
			rt_json_int(j, NULL, t->distance[a * t->nr_nodes + b]);
		rt_json_end(j);
	}
	rt_json_end(j);
	rt_json_end(j);
}

static void json_system(struct rt_json *j, const struct bench_sys *sys, const struct bitmask *cpus,
			const struct rt_work *work)
{
	const struct rt_bandwidth *bw = &sys->bw;
	char buf[256];
	struct utsname u;
	int i, n, node, prev = -1;

	rt_json_object(j, "system");
	if (!uname(&u)) {
		rt_json_str(j, "sysname", u.sysname);
		rt_json_str(j, "nodename", u.nodename);
		rt_json_str(j, "release", u.release);
		rt_json_str(j, "version", u.version);
		rt_json_str(j, "machine", u.machine);
	}
	rt_cpus_format(cpus, buf, sizeof(buf));
	rt_json_str(j, "cpus", buf);
	n = rt_cpus_count(cpus);
	rt_json_int(j, "nr_cpus", n);
	rt_json_array(j, "numa_nodes");
	/* nodes in CPU order, each once: CPUs of a node are usually contiguous */
	for (i = 0; i < n; i++) {
		node = rt_cpu_node(rt_cpus_nth(cpus, i));
		if (node >= 0 && node != prev)
			rt_json_int(j, NULL, node);
		prev = node;
	}
	rt_json_end(j);
	json_topology(j, &sys->topo, cpus);
	/* the sysctls as they are, whatever they mean on this kernel (rt_bandwidth says) */
	rt_json_int_or_null(j, "rt_runtime_us", bw->rt_runtime_us, bw->rt_runtime_us != LONG_MIN);
	rt_json_int_or_null(j, "rt_period_us", bw->rt_period_us, bw->rt_period_us != LONG_MIN);
	rt_kernel_describe(&sys->kernel, buf, sizeof(buf));
	rt_json_str(j, "preempt_model", buf);
	json_bandwidth(j, bw);
	json_scheduler(j, &sys->kernel);
	json_isolation(j, &sys->dom, cpus);
	json_environment(j, sys, cpus, work);
	/* the clock that ends every unit of busy work, as calibration saw it */
	rt_json_object(j, "thread_clock");
	rt_json_int(j, "step_ns", work->clock_step_ns);
	rt_json_int(j, "max_step_ns", work->clock_max_step_ns);
	rt_json_bool(j, "coarse", work->clock_step_ns > RT_WORK_COARSE_CLOCK_NS);
	rt_json_end(j);
	if (rt_sched_realtime() < 0)
		rt_json_null(j, "realtime");
	else
		rt_json_int(j, "realtime", rt_sched_realtime());
	rt_json_end(j);
}

/*
 * The sitting: the boot and the process the runs of this file shared. Runs
 * of one sitting share its state (memory layout, interrupts, the guest's
 * clock calibration), so they are not independent samples of the kernel;
 * the scripts take a sitting's mean as one sample.
 */
static void json_sitting(struct rt_json *j, const struct bench_sys *sys)
{
	unsigned char id[16];
	char hex[2 * sizeof(id) + 1];
	size_t i;

	rt_json_object(j, "sitting");
	rt_json_str(j, "boot_id", sys->kernel.boot_id[0] ? sys->kernel.boot_id : NULL);
	if (getrandom(id, sizeof(id), GRND_NONBLOCK) == (ssize_t)sizeof(id)) {
		for (i = 0; i < sizeof(id); i++)
			snprintf(hex + 2 * i, 3, "%02x", id[i]);
		rt_json_str(j, "process", hex);
	} else {
		rt_json_null(j, "process");
	}
	rt_json_int(j, "pid", getpid());
	rt_json_end(j);
}

/**
 * bench_result_config - the "config" object: the program's own settings
 * (@fields writes them, given @ctx), then those every program has
 */
void bench_result_config(struct rt_json *j, void (*fields)(struct rt_json *j, const void *ctx),
		       const void *ctx, const struct cli_common *co, int base_prio,
		       const struct bitmask *cpus)
{
	char buf[256];

	rt_json_object(j, "config");
	fields(j, ctx);
	rt_cpus_format(cpus, buf, sizeof(buf));
	rt_json_int(j, "base_prio", base_prio);
	rt_json_str(j, "cpus", buf);
	/* the default CPUs when the program's shape fits fewer than the usable */
	rt_json_str(j, "usable_cpus", co->fit_usable[0] ? co->fit_usable : NULL);
	rt_json_str(j, "cpus_why", co->fit_why[0] ? co->fit_why : NULL);
	rt_json_int(j, "repeat", co->repeat);
	rt_json_bool(j, "trace", co->trace);
	if (co->housekeeping && rt_cpus_format(co->housekeeping, buf, sizeof(buf)) > 0)
		rt_json_str(j, "housekeeping", buf);
	else
		rt_json_null(j, "housekeeping");
	rt_json_bool(j, "cross_domain", co->cross_domain);
	rt_json_end(j);
}

/**
 * bench_result_begin - start the document: who wrote it, how, and where
 *
 * Returns the writer for the program's own fields, or NULL without --json.
 * The document is closed by bench_result_commit().
 */
struct rt_json *bench_result_begin(struct bench_result *r, const char *tool, int argc, char **argv,
				   const struct bench_sys *sys, const struct bitmask *cpus,
				   const struct rt_work *work)
{
	struct rt_json *j = bench_result_json(r);
	char when[32];
	int i;

	if (!j)
		return NULL;
	rt_json_object(j, NULL);
	rt_json_str(j, "schema", RESULT_SCHEMA);
	rt_json_str(j, "tool", tool);
	rt_json_str(j, "version", RT_VERSION);
	rt_json_array(j, "command_line");
	for (i = 0; i < argc; i++)
		rt_json_str(j, NULL, argv[i]);
	rt_json_end(j);
	iso_time(when, sizeof(when), r->start.tv_sec);
	rt_json_str(j, "start_time", when);
	json_system(j, sys, cpus, work);
	json_sitting(j, sys);
	return j;
}

/**
 * bench_result_commit - end the document with the end time and @return_code,
 * and give the file its name; exits 3 when that fails
 */
void bench_result_commit(struct bench_result *r, int return_code)
{
	char when[32];
	int ret;

	if (!r || !r->j)
		return;
	iso_time(when, sizeof(when), time(NULL));
	rt_json_str(r->j, "end_time", when);
	rt_json_int(r->j, "return_code", return_code);
	rt_json_end(r->j);
	ret = rt_json_finish(r->j);
	r->j = NULL;
	/* a writer misused is a bug, not the disk: it is said as such */
	if (ret == -EINVAL) {
		rt_outfile_abort(r->out);
		cli_die(EXIT_SYSCALL, "writing --json '%s': the document is malformed (a bug)",
			rt_outfile_path(r->out));
	}
	bench_output_commit(r->out, "--json");
}

static void json_row(struct rt_json *j, const char *key, long task, const struct rt_row *row)
{
	int c;

	rt_json_object(j, key);
	if (task >= 0)
		rt_json_int(j, "task", task);
	for (c = 0; c < RT_ROW_COLUMNS; c++)
		rt_json_uint(j, rt_row_names[c], (uint64_t)rt_row_get(row, c));
	rt_json_end(j);
}

/**
 * bench_json_rows - "rows": one object per thread, and "total": their sums
 */
void bench_json_rows(struct rt_json *j, const struct rt_row *rows, size_t n)
{
	struct rt_row total;
	size_t i;

	rt_json_array(j, "rows");
	for (i = 0; i < n; i++)
		json_row(j, NULL, (long)i, &rows[i]);
	rt_json_end(j);
	rt_report_sum(rows, n, &total);
	json_row(j, "total", -1, &total);
}

/* @key: {n, mean, sd, min, max} */
static void json_stats(struct rt_json *j, const char *key, const struct rt_stats *s)
{
	rt_json_object(j, key);
	rt_json_uint(j, "n", s->n);
	rt_json_double(j, "mean", s->mean);
	rt_json_double(j, "sd", s->sd);
	rt_json_double(j, "min", s->min);
	rt_json_double(j, "max", s->max);
	rt_json_end(j);
}

/**
 * bench_json_stats - @key: {n, mean, sd, min, max} of @v
 */
void bench_json_stats(struct rt_json *j, const char *key, const double *v, size_t n)
{
	struct rt_stats s;

	rt_stats_of(v, n, &s);
	json_stats(j, key, &s);
}

/* Statistics of every column of row @row (@s->rows: the total). */
static void json_row_stats(struct rt_json *j, const char *key, const struct rt_summary *s,
			   size_t row)
{
	int c;

	rt_json_object(j, key);
	if (row < s->rows)
		rt_json_uint(j, "task", row);
	for (c = 0; c < RT_ROW_COLUMNS; c++)
		json_stats(j, rt_row_names[c], rt_summary_cell(s, row, c));
	rt_json_end(j);
}

/**
 * bench_json_summary - "summary": statistics of every cell over the runs, as
 * the table of repeated runs shows them
 */
void bench_json_summary(struct rt_json *j, const struct rt_summary *s)
{
	size_t i;

	rt_json_object(j, "summary");
	rt_json_uint(j, "runs", s->runs);
	rt_json_array(j, "rows");
	for (i = 0; i < s->rows; i++)
		json_row_stats(j, NULL, s, i);
	rt_json_end(j);
	json_row_stats(j, "total", s, s->rows);
	rt_json_end(j);
}
