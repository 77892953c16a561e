// SPDX-License-Identifier: GPL-2.0-only
/*
 * The live watch of the benchmarks (live.h). A thread created by the
 * coordinator, so of its class, priority and CPUs, wakes every POLL_NS,
 * walks what the watch's instance holds and acts on the waits that crossed
 * a threshold. What it keeps is bounded: the figures are histograms, the
 * crossings kept in words are the first MAX_KEPT, and windows are saved at
 * most one per WINDOW_GAP_NS and MAX_WINDOWS in all, each as large as the
 * flight recorder's buffers.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <numa.h>
#include <sys/wait.h>

#include "bench/bench.h"
#include "bench/live_impl.h"
#include "bench/signals.h"
#include "lib/clock.h"
#include "lib/cpus.h"
#include "lib/opts.h"
#include "lib/outfile.h"
#include "lib/procstat.h"
#include "trace/explain.h"
#include "trace/flight.h"
#include "trace/record.h"
#include "trace/watch.h"
#include "trace/window.h"

#define PREFIX "rtsched-"
#define POLL_NS (50 * RT_NSEC_PER_MSEC)
#define WATCH_KB 4096			/* the watch's buffer per CPU: a second of pi_stress */
#define FLIGHT_KB 8192			/* the flight recorder's, without --trace-buffer */
#define END_WAIT_NS (60 * RT_NSEC_PER_SEC)	/* for the last window and shell command */

static void free_marks(struct bench_live *l)
{
	size_t i;

	for (i = 0; i < l->nmarks; i++)
		free(l->marks[i]);
	free(l->marks);
	l->marks = NULL;
	l->nmarks = 0;
}

static struct bench_live *open_live;	/* removed at exit */

/* The instances removed, a window being written killed, a shell command left. */
static void close_live(void)
{
	struct bench_live *l = open_live;
	int i;

	if (!l)
		return;
	open_live = NULL;
	if (l->running) {
		atomic_store(&l->quit, true);
		pthread_join(l->thread, NULL);
	}
	trace_watch_close(l->watch);
	trace_flight_close(l->flight);
	trace_recording_close(l->rec);
	for (i = 0; i < l->nwindows; i++)
		rt_outfile_free(l->windows[i].out);
	free_marks(l);
	free(l);
}

/* Where windows go: beside --json FILE (FILE less .json), else here, named by the program. */
static void windows_base(struct bench_live *l)
{
	const char *json = l->b->params->common.json;
	size_t n;

	if (json && strcmp(json, "-")) {
		n = strlen(json);
		if (n > 5 && !strcmp(json + n - 5, ".json"))
			n -= 5;
		snprintf(l->base, sizeof(l->base), "%.*s", (int)n, json);
	} else {
		snprintf(l->base, sizeof(l->base), "%s-%d", l->b->ops->name, (int)getpid());
	}
}

/*
 * The CPUs of trace-cmd and the shell commands, of the ordinary class: the
 * process's (the housekeeping CPUs, if given) but the run's, else all of
 * them. Called before the coordinator takes its place.
 */
static void helpers(struct bench_live *l)
{
	const struct bitmask *run = l->b->params->cpus;
	struct bitmask *mine = rt_cpus_usable();
	unsigned int c;
	int pass;

	CPU_ZERO(&l->helpers);
	for (pass = 0; mine && pass < 2 && !CPU_COUNT(&l->helpers); pass++) {
		for (c = 0; c < mine->size && c < CPU_SETSIZE; c++) {
			if (numa_bitmask_isbitset(mine, c) &&
			    (pass || !numa_bitmask_isbitset(run, c)))
				CPU_SET(c, &l->helpers);
		}
	}
	if (mine)
		numa_free_cpumask(mine);
}

/**
 * bench_live_open - the watch's instance and, for a trace action, the
 * flight recorder, recording nothing until a run begins; @note says their
 * sizes for the header
 *
 * Returns 0, or a negative errno with @err saying what failed, as
 * bench_trace_open().
 */
int bench_live_open(struct bench_live **lp, const struct bench *b, char *note, size_t note_len,
		    char *err, size_t len)
{
	const struct bench_params *p = b->params;
	struct bench_live *l = calloc(1, sizeof(*l));
	int ncpus = rt_cpus_count(p->cpus), i, ret;
	size_t flight_kb = p->common.trace_buffer_kb ? (size_t)p->common.trace_buffer_kb : FLIGHT_KB;
	char why[512];

	*lp = NULL;
	if (!l) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	l->b = b;
	l->saving = -1;
	open_live = l;
	bench_cleanup_add(close_live);
	l->nrules = live_rules(&p->common, l->rules);
	for (i = 0; i < TRACE_WAITS; i++)
		rt_hist_init(&l->fig[i].hist);
	for (i = 0; i < l->nrules; i++)
		l->flying |= l->rules[i].act == ACT_TRACE;
	windows_base(l);
	/* what killed runs left where the windows go: their windows' temporaries */
	rt_outfile_sweep_beside(l->base, "");
	helpers(l);
	ret = trace_recording_open(&l->rec, PREFIX, WATCH_KB, p->cpus, why, sizeof(why));
	if (!ret && l->flying)
		ret = trace_flight_open(&l->flight, PREFIX, flight_kb, p->cpus, &l->helpers, why,
					sizeof(why));
	if (ret) {
		snprintf(err, len, "--watch: %s", why);
		return ret;
	}
	if (l->flying)
		snprintf(note, note_len, "--watch: the waits watched live from a trace instance of "
			 "%d KiB on each of the run's %d CPUs; a flight recorder of %zu KiB per CPU "
			 "keeps the recent past (twice that while a window is written); at most %d "
			 "windows, one per %d s, each up to %lld ms past its crossing", WATCH_KB,
			 ncpus, flight_kb, MAX_WINDOWS, (int)(WINDOW_GAP_NS / RT_NSEC_PER_SEC),
			 (long long)(WINDOW_AFTER_NS / RT_NSEC_PER_MSEC));
	else
		snprintf(note, note_len, "--watch: the waits watched live from a trace instance of "
			 "%d KiB on each of the run's %d CPUs", WATCH_KB, ncpus);
	*lp = l;
	return 0;
}

/*
 * What is known of the task that held the CPU: its name as the trace said
 * it, else as /proc does; and whether it is a kernel thread, as /proc says
 * if the task there has the trace's name, else as the name says.
 */
static void holder_of(const struct trace_wait *w, struct trace_holder *h, struct rt_task *t)
{
	h->comm = w->holder_comm[0] ? w->holder_comm : NULL;
	h->kthread = trace_comm_kthread(h->comm);
	if (w->holder <= 0 || rt_procstat_task("/proc", w->holder, t) ||
	    (h->comm && strcmp(h->comm, t->comm)))
		return;
	h->comm = t->comm;
	h->kthread = t->kthread;
}

/* @w in words, with what the trace and /proc know of its holder. */
static void explain(const struct trace_wait *w, char *buf, size_t len)
{
	struct trace_holder h;
	struct rt_task t;

	holder_of(w, &h, &t);
	trace_wait_explain(w, &h, buf, len);
}

/*
 * The calling thread (the watcher, or the coordinator) as a helper for a
 * while: of the ordinary class, on the helpers' CPUs, so that what it
 * does at length (a fresh instance's buffers allocated, a child started)
 * takes nothing from the run's threads; and back.
 */
struct helping {
	cpu_set_t cpus;
	int policy;
	struct sched_param sp;
};

static void help_begin(const struct bench_live *l, struct helping *h)
{
	struct sched_param other = { 0 };

	pthread_getaffinity_np(pthread_self(), sizeof(h->cpus), &h->cpus);
	pthread_getschedparam(pthread_self(), &h->policy, &h->sp);
	pthread_setschedparam(pthread_self(), SCHED_OTHER, &other);
	pthread_setaffinity_np(pthread_self(), sizeof(l->helpers), &l->helpers);
}

static void help_end(const struct helping *h)
{
	pthread_setaffinity_np(pthread_self(), sizeof(h->cpus), &h->cpus);
	pthread_setschedparam(pthread_self(), h->policy, &h->sp);
}

/* A shell command, of the ordinary class, with the crossing in its environment. */
static void run_shell(struct bench_live *l, struct live_rule *r, const struct live_crossing *c)
{
	extern char **environ;
	char what[64], ns[64], tid[32], cpu[32], holder[32], words[700];
	char *argv[] = { "/bin/sh", "-c", (char *)r->command, NULL };
	char *env[512];
	struct sched_param sp = { 0 };
	posix_spawnattr_t attr;
	struct helping was;
	sigset_t none;
	size_t n = 0;

	if (l->shell) {
		r->skipped++;	/* one at a time: the last one still runs */
		return;
	}
	snprintf(what, sizeof(what), "RTSCHED_WHAT=%s", trace_wait_names[c->wait.kind]);
	snprintf(ns, sizeof(ns), "RTSCHED_WAIT_NS=%llu",
		 (unsigned long long)(c->wait.end - c->wait.start));
	snprintf(tid, sizeof(tid), "RTSCHED_TID=%d", (int)c->wait.tid);
	snprintf(cpu, sizeof(cpu), "RTSCHED_CPU=%d", c->wait.cpu);
	snprintf(holder, sizeof(holder), "RTSCHED_HOLDER=%d", (int)c->wait.holder);
	snprintf(words, sizeof(words), "RTSCHED_EXPLANATION=%s", c->words);
	env[n++] = what;
	env[n++] = ns;
	env[n++] = tid;
	env[n++] = cpu;
	env[n++] = holder;
	env[n++] = words;
	for (size_t i = 0; environ[i] && n < 511; i++)
		if (strncmp(environ[i], "RTSCHED_", 8))
			env[n++] = environ[i];
	env[n] = NULL;
	sigemptyset(&none);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSCHEDULER | POSIX_SPAWN_SETSIGMASK |
				 POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setschedpolicy(&attr, SCHED_OTHER);
	posix_spawnattr_setschedparam(&attr, &sp);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setpgroup(&attr, 0);
	/* a child has its parent thread's CPUs: the helpers', for the time of the spawn */
	help_begin(l, &was);
	if (posix_spawn(&l->shell, argv[0], NULL, &attr, argv, env))
		l->shell = 0;
	else
		r->acted++;
	help_end(&was);
	posix_spawnattr_destroy(&attr);
}

/* A window of the recent past for crossing @c, now plus a little, within the rate. */
static void want_window(struct bench_live *l, struct live_rule *r, struct live_crossing *c,
			int64_t now)
{
	int w = -1;

	if (l->window_due) {
		w = l->nwindows - 1;	/* the window due holds this one too */
	} else if (l->nwindows < MAX_WINDOWS && now >= l->next_window) {
		w = l->nwindows++;
		l->windows[w].status = 1;
		l->windows[w].run = l->run;
		l->window_due = now + WINDOW_AFTER_NS;
		l->next_window = now + WINDOW_GAP_NS;
	}
	if (w < 0) {
		r->skipped++;
		l->windows_skipped++;
	} else {
		r->acted++;
	}
	if (c)
		c->window = w;
}

/* A wait longer than rule @r's threshold. */
static void crossed(struct bench_live *l, int ri, const struct trace_wait *wait)
{
	struct live_rule *r = &l->rules[ri];
	struct live_crossing *c = NULL, spare = { 0 };

	r->crossed++;
	l->crossings++;
	if (r->crossed == 1 || wait->end - wait->start > r->worst.end - r->worst.start)
		r->worst = *wait;
	c = l->nkept < MAX_KEPT ? &l->kept[l->nkept++] : &spare;
	c->run = l->run;
	c->rule = ri;
	c->window = -1;
	c->wait = *wait;
	/* in words only what is kept, or told to a shell: /proc is read for it */
	if (c != &spare || r->act == ACT_SHELL)
		explain(wait, c->words, sizeof(c->words));
	switch (r->act) {
	case ACT_TRACE:
		want_window(l, r, c, rt_now_ns(CLOCK_MONOTONIC));
		break;
	case ACT_SIGNAL:
		r->acted += !kill(r->pid, r->sig);
		break;
	case ACT_SHELL:
		run_shell(l, r, c);
		break;
	case ACT_STOP:
		if (!atomic_load(&l->stop)) {
			l->stop_rule = ri;
			l->stop_wait = *wait;
			atomic_store(&l->stop, true);
			r->acted++;
			if (l->wake)
				sem_post(l->wake);
		}
		break;
	}
}

/* Each wait the watch saw end, against the thresholds. */
static void on_wait(const struct trace_wait *wait, void *ctx)
{
	struct bench_live *l = ctx;
	int i;

	for (i = 0; i < l->nrules; i++) {
		const struct live_rule *r = &l->rules[i];

		if (!r->at_end && r->what == wait->kind &&
		    (int64_t)(wait->end - wait->start) > r->ns)
			crossed(l, i, wait);
	}
}

/* Take the window due: the flight recorder's past, written by trace-cmd. */
static void take_window(struct bench_live *l, int64_t now)
{
	struct helping was;
	struct live_window *w = &l->windows[l->nwindows - 1];
	int ret, n = l->nwindows;

	l->window_due = 0;
	w->at_ns = now;
	if ((size_t)snprintf(w->path, sizeof(w->path), "%s-%s%.0d.dat", l->base,
			     w->at_end ? "end" : "window-", w->at_end ? 0 : n) >= sizeof(w->path)) {
		snprintf(w->why, sizeof(w->why), "File name too long");
		w->status = -ENAMETOOLONG;
		return;
	}
	ret = rt_outfile_open_private(&w->out, w->path);
	if (ret) {
		snprintf(w->why, sizeof(w->why), "cannot create the file: %s",
			 ret == -EEXIST ? "it exists" : strerror(-ret));
		w->status = ret;
		return;
	}
	/*
	 * a fresh instance's buffers took 44 ms of a run's CPU at the
	 * watcher's priority (under ASan): made as a helper instead
	 */
	help_begin(l, &was);
	ret = trace_flight_save(l->flight, rt_outfile_folder_fd(w->out), rt_outfile_name(w->out),
				(const char *const *)l->marks, l->nmarks, w->why, sizeof(w->why));
	help_end(&was);
	if (ret) {
		w->status = ret;
		rt_outfile_free(w->out);
		w->out = NULL;
		return;
	}
	l->saving = n - 1;
}

/* The window being written: done? */
static void check_saving(struct bench_live *l)
{
	struct live_window *w;
	int ret;

	if (l->saving < 0)
		return;
	w = &l->windows[l->saving];
	ret = trace_flight_saved(l->flight, w->why, sizeof(w->why));
	if (ret == 1)
		return;
	if (!ret) {
		ret = rt_outfile_commit(w->out);
		if (ret)
			snprintf(w->why, sizeof(w->why), "writing the file: %s", strerror(-ret));
	}
	rt_outfile_free(w->out);
	w->out = NULL;
	w->status = ret;
	l->saving = -1;
}

/* What is due: a window, the end of the one being written, a shell command's. */
static void service(struct bench_live *l, int64_t now)
{
	check_saving(l);
	if (l->window_due && now >= l->window_due && l->saving < 0)
		take_window(l, now);
	if (l->shell && waitpid(l->shell, NULL, WNOHANG) == l->shell)
		l->shell = 0;
}

/* The run's start, once the coordinator has said it: the waits count from then. */
static void windowed(struct bench_live *l)
{
	int64_t start = atomic_load(&l->start_ns);

	if (!l->windowed && start) {
		trace_watch_window(l->watch, (uint64_t)start);
		l->windowed = true;
	}
}

/* The run's gate opened at @start_ns (the coordinator's word to the watcher). */
void bench_live_started(struct bench_live *l, int64_t start_ns)
{
	if (l)
		atomic_store(&l->start_ns, start_ns);
}

static void *watcher(void *arg)
{
	struct bench_live *l = arg;
	char err[256];
	int64_t now;

	while (!atomic_load(&l->quit)) {
		rt_sleep_ns(POLL_NS);
		now = rt_now_ns(CLOCK_MONOTONIC);
		windowed(l);
		if (trace_watch_poll(l->watch, (uint64_t)now, on_wait, l, err, sizeof(err))) {
			snprintf(l->failure, sizeof(l->failure), "%s", err);
			break;
		}
		service(l, now);
	}
	return NULL;
}

/*
 * The markers of the run's windows: the kernel's RT bandwidth limits and
 * each thread with its CPUs, so that analyse of a window alone takes its
 * threads and reads its limits as the watch did.
 */
static int make_marks(struct bench_live *l, const pid_t *tids, const cpu_set_t *const *affinity,
		      size_t n)
{
	const struct bench_sys *sys = &l->b->sys;
	char cpus[1024];
	size_t i;

	free_marks(l);
	l->marks = calloc(n + 1, sizeof(*l->marks));
	if (!l->marks)
		return -ENOMEM;
	if (asprintf(&l->marks[l->nmarks], TRACE_REGIME_MARK, rt_bw_regime_names[sys->bw.regime],
		     (unsigned long long)rt_bandwidth_limit_ns(&sys->bw)) < 0)
		return -ENOMEM;
	l->nmarks++;
	for (i = 0; i < n; i++) {
		if (!affinity || !affinity[i] ||
		    rt_cpus_format_set(affinity[i], cpus, sizeof(cpus)) < 0)
			snprintf(cpus, sizeof(cpus), "?");
		if (asprintf(&l->marks[l->nmarks], TRACE_WATCH_MARK, (int)tids[i], cpus) < 0)
			return -ENOMEM;
		l->nmarks++;
	}
	return 0;
}

/**
 * bench_live_begin - run @run starts with the threads @tids (@affinity:
 * each one's CPUs, or NULL): the instances record them, the watcher watches
 * them; a stop a threshold asks for posts @wake
 *
 * Returns 0, or a negative errno with @err saying what failed.
 */
int bench_live_begin(struct bench_live *l, int run, const pid_t *tids,
		     const cpu_set_t *const *affinity, size_t n, sem_t *wake, char *err, size_t len)
{
	const struct bench *b = l->b;
	struct trace_watch_thread *th = calloc(n ? n : 1, sizeof(*th));
	char why[512];
	size_t i;
	int ret;

	if (!th) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		th[i] = (struct trace_watch_thread){ .tid = tids[i],
						     .affinity = affinity ? affinity[i] : NULL };
	l->run = run;
	l->wake = wake;
	atomic_store(&l->start_ns, 0);
	l->windowed = false;
	ret = make_marks(l, tids, affinity, n);
	if (!ret)
		ret = trace_recording_begin(l->rec, tids, n);
	if (!ret && l->flight)
		ret = trace_flight_begin(l->flight, tids, n);
	if (ret)
		snprintf(why, sizeof(why), "starting the instances: %s", strerror(-ret));
	else
		ret = trace_watch_open(&l->watch, trace_recording_instance(l->rec), th, n,
				       b->sys.bw.regime,
				       (uint64_t)rt_bandwidth_limit_ns(&b->sys.bw), why,
				       sizeof(why));
	free(th);
	if (!ret) {
		atomic_store(&l->quit, false);
		ret = -pthread_create(&l->thread, NULL, watcher, l);
		l->running = !ret;
		if (ret)
			snprintf(why, sizeof(why), "starting the watcher: %s", strerror(-ret));
	}
	if (ret)
		snprintf(err, len, "--watch: %s", why);
	return ret;
}

/* Whether a threshold asked the run to stop. */
bool bench_live_stopping(const struct bench_live *l)
{
	return l && atomic_load(&l->stop);
}

/**
 * bench_live_end - the run is over: the watcher stopped, the rest of its
 * events walked, its figures added to the invocation's
 *
 * Returns 0, or a negative errno with @err saying what failed.
 */
int bench_live_end(struct bench_live *l, char *err, size_t len)
{
	char why[256];
	int i, ret;

	if (l->running) {
		atomic_store(&l->quit, true);
		pthread_join(l->thread, NULL);
		l->running = false;
	}
	trace_recording_pause(l->rec);
	if (l->flight)
		trace_flight_pause(l->flight);
	if (!l->watch)
		return 0;
	windowed(l);
	ret = trace_watch_drain(l->watch, on_wait, l, why, sizeof(why));
	for (i = 0; i < TRACE_WAITS; i++) {
		const struct trace_watch_figure *f = trace_watch_figure(l->watch, i);

		if (f->count && (!l->fig[i].count ||
				 f->worst.end - f->worst.start >
				 l->fig[i].worst.end - l->fig[i].worst.start)) {
			l->fig[i].worst = f->worst;
			explain(&f->worst, l->worst_words[i], sizeof(l->worst_words[i]));
		}
		l->fig[i].count += f->count;
		rt_hist_merge(&l->fig[i].hist, &f->hist);
	}
	l->events += trace_watch_events(l->watch);
	l->lost += trace_watch_lost(l->watch);
	trace_watch_close(l->watch);
	l->watch = NULL;
	/* a window still due is taken now: the run's end is its end */
	if (l->window_due)
		take_window(l, rt_now_ns(CLOCK_MONOTONIC));
	if (ret || l->failure[0]) {
		snprintf(err, len, "--watch: %s", ret ? why : l->failure);
		return ret ? ret : -EIO;
	}
	return 0;
}

/* Wait for the window being written, END_WAIT_NS at most. */
static void wait_saving(struct bench_live *l)
{
	int64_t until = rt_now_ns(CLOCK_MONOTONIC) + END_WAIT_NS;

	for (check_saving(l); l->saving >= 0 && rt_now_ns(CLOCK_MONOTONIC) < until;
	     check_saving(l))
		rt_sleep_ns(10 * RT_NSEC_PER_MSEC);
}

/**
 * bench_live_finish - the runs are over: --on-end's actions, the windows
 * written (a minute at most each), the shell command waited for as long
 */
void bench_live_finish(struct bench_live *l)
{
	struct live_crossing c = { .run = l->run, .window = -1 };
	int64_t until;
	int i;

	snprintf(c.words, sizeof(c.words), "the run ended");
	for (i = 0; i < l->nrules; i++) {
		struct live_rule *r = &l->rules[i];

		if (!r->at_end)
			continue;
		if (r->act == ACT_TRACE) {
			wait_saving(l);
			l->windows[l->nwindows].at_end = true;
			l->windows[l->nwindows].status = 1;
			l->windows[l->nwindows].run = l->run;
			l->nwindows++;
			take_window(l, rt_now_ns(CLOCK_MONOTONIC));
			r->acted++;
		} else if (r->act == ACT_SIGNAL) {
			r->acted += !kill(r->pid, r->sig);
		} else if (r->act == ACT_SHELL) {
			until = rt_now_ns(CLOCK_MONOTONIC) + END_WAIT_NS;
			while (l->shell && waitpid(l->shell, NULL, WNOHANG) != l->shell &&
			       rt_now_ns(CLOCK_MONOTONIC) < until)
				rt_sleep_ns(10 * RT_NSEC_PER_MSEC);
			l->shell = 0;
			run_shell(l, r, &c);
		}
	}
	wait_saving(l);
	until = rt_now_ns(CLOCK_MONOTONIC) + END_WAIT_NS;
	while (l->shell && waitpid(l->shell, NULL, WNOHANG) != l->shell &&
	       rt_now_ns(CLOCK_MONOTONIC) < until)
		rt_sleep_ns(10 * RT_NSEC_PER_MSEC);
	if (l->shell)
		kill(-l->shell, SIGKILL);
	l->shell = 0;
}

