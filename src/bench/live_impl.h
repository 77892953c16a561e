/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inside the live watch (live.h): its state, shared by live.c (the watcher
 * and its actions), live_rules.c (the options read) and live_say.c (what is
 * said of it); nothing else includes it.
 */
#ifndef BENCH_LIVE_IMPL_H
#define BENCH_LIVE_IMPL_H

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "bench/live.h"
#include "lib/clock.h"
#include "lib/outfile.h"
#include "trace/events.h"
#include "trace/watch.h"

#define MAX_WINDOWS 16
#define MAX_KEPT 64			/* crossings kept in words, in all */
#define WINDOW_AFTER_NS (200 * RT_NSEC_PER_MSEC)	/* a window goes on this long past a crossing */
#define WINDOW_GAP_NS (10 * RT_NSEC_PER_SEC)	/* at most one window in this long */

enum live_action { ACT_TRACE, ACT_SIGNAL, ACT_SHELL, ACT_STOP };

extern const char *const live_action_names[];

struct live_rule {
	const char *spec;		/* as given */
	bool at_end;			/* --on-end: no threshold */
	enum trace_wait_kind what;
	int64_t ns;
	enum live_action act;
	int sig;			/* signal */
	pid_t pid;
	const char *command;		/* shell: in spec */
	uint64_t crossed, acted, skipped;
	struct trace_wait worst;
};

struct live_crossing {
	int run;
	int rule;
	int window;			/* its window's index, or -1 */
	struct trace_wait wait;
	char words[640];
};

struct live_window {
	char path[PATH_MAX];
	struct rt_outfile *out;
	int64_t at_ns;			/* taken, CLOCK_MONOTONIC */
	int status;			/* 1 being written, 0 saved, else a negative errno */
	char why[512];
	int run;
	bool at_end;
};

struct bench_live {
	const struct bench *b;
	struct live_rule rules[2 * CLI_MAX_ACTIONS];
	int nrules;
	bool flying;			/* a trace action: the flight recorder runs */
	char base[PATH_MAX];		/* the windows' path, less "-window-N.dat" */
	struct trace_recording *rec;	/* the watch's instance */
	struct trace_flight *flight;
	struct trace_watch *watch;	/* of the run going */
	char **marks;			/* what a window of the run says of it (window.h) */
	size_t nmarks;
	int run;
	/* the watcher thread */
	pthread_t thread;
	bool running;
	atomic_bool quit;
	sem_t *wake;			/* the coordinator's: a stop is due */
	atomic_bool stop;
	_Atomic int64_t start_ns;	/* the run's gate opened then (0: not yet) */
	bool windowed;			/* the watch knows it */
	int stop_rule;			/* the rule that stopped it, and its crossing */
	struct trace_wait stop_wait;
	/* over every run */
	struct trace_watch_figure fig[TRACE_WAITS];
	char worst_words[TRACE_WAITS][640];	/* the longest of each kind, explained */
	uint64_t events, lost;
	struct live_crossing kept[MAX_KEPT];
	int nkept;
	uint64_t crossings;
	struct live_window windows[MAX_WINDOWS + 1];	/* and --on-end's */
	int nwindows;
	int64_t window_due;		/* a window is due then, or 0 */
	int saving;			/* the window being written, or -1 */
	int64_t next_window;		/* none before then */
	uint64_t windows_skipped;	/* crossings no window could hold (the rate) */
	pid_t shell;			/* a shell command that runs, or 0 */
	cpu_set_t helpers;		/* where trace-cmd and the commands run: off the run's */
					/* CPUs where the machine has others */
	char failure[512];		/* the watcher's own failure, if any */
};

int live_rules(const struct cli_common *co, struct live_rule *rules);

#endif
