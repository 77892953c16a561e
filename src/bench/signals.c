// SPDX-License-Identifier: GPL-2.0-only
/*
 * SIGINT, SIGTERM, SIGHUP: the first asks the run to stop (bench_stop, which
 * the runs read); a second exits at once, unless it is the first delivered
 * again (the same signal from the same sender within a second). And the cleanups that every way
 * out runs: the trace instance, the outputs' temporary files.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/signals.h"

struct rt_stop bench_stop;
static const char *cleanup_dir;	/* removed by a second signal: rmdir is async-signal-safe */

/* The first request: who sent it (kill(2)'s sender, else 0) and when. */
static pid_t first_sender;
static int64_t first_ns;

/* A repeat of the same signal from the same process this soon is the same request. */
#define SAME_REQUEST_NS 1000000000LL

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);	/* async-signal-safe */
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * One request delivered twice: timeout(1) signals the command and then its
 * own process group, which holds the command; systemd signals the main
 * process and then the whole cgroup. Both come from one sender within
 * moments, and must not turn "stop and report" into "exit at once".
 */
static bool same_request(int sig, const siginfo_t *si)
{
	return sig == bench_stop.signal && si && si->si_code == SI_USER && first_sender &&
	       si->si_pid == first_sender && now_ns() - first_ns < SAME_REQUEST_NS;
}

/* What a second signal's exit runs: async-signal-safe functions (bench_signals_at_exit()). */
static void (*fast_exits[4])(void);
static volatile sig_atomic_t nr_fast_exits;

/**
 * bench_signals_at_exit - an async-signal-safe @fn that a second signal's
 * exit runs (the outputs' temporary files), before _exit()
 */
void bench_signals_at_exit(void (*fn)(void))
{
	if (nr_fast_exits < (int)(sizeof(fast_exits) / sizeof(fast_exits[0]))) {
		fast_exits[nr_fast_exits] = fn;
		nr_fast_exits = nr_fast_exits + 1;
	}
}

/*
 * A second signal exits at once, removing the trace instance and the
 * temporary files of the outputs first (bench_signals_at_exit()); when the instance is busy (its
 * recorder holds its buffers, or they are being read), it asks the main
 * thread to exit instead, which it does at its next wake-up (within
 * milliseconds), and its exit handlers stop the recorder and remove the
 * instance. The interrupted code's errno is kept.
 */
static void on_signal(int sig, siginfo_t *si, void *uctx)
{
	int saved = errno, i;

	(void)uctx;
	if (bench_stop.signal && same_request(sig, si))
		goto out;
	if (bench_stop.signal) {
		if (!cleanup_dir || !rmdir(cleanup_dir)) {
			for (i = 0; i < nr_fast_exits; i++)
				fast_exits[i]();
			_exit(128 + bench_stop.signal);
		}
		bench_stop.now = 1;
		goto out;
	}
	first_sender = si && si->si_code == SI_USER ? si->si_pid : 0;
	first_ns = now_ns();
	bench_stop.signal = sig;
out:
	errno = saved;
}

static void (*cleanups[8])(void);
static int nr_cleanups;

/**
 * bench_cleanup_add - run @fn at exit, by exit() or bench_exit_running()
 */
void bench_cleanup_add(void (*fn)(void))
{
	if (nr_cleanups < (int)(sizeof(cleanups) / sizeof(cleanups[0])))
		cleanups[nr_cleanups++] = fn;
	atexit(fn);
}

/**
 * bench_exit_running - exit while benchmark threads may still run
 *
 * Our cleanups (the trace instance, temporary files) run, newest first,
 * then _exit(): not the C library's and the sanitizers' exit handlers,
 * which can wait forever for SCHED_FIFO threads that keep the CPUs.
 */
void bench_exit_running(int code)
{
	fflush(stdout);
	fflush(stderr);
	while (nr_cleanups)
		cleanups[--nr_cleanups]();
	_exit(code);
}

/**
 * bench_exit_if_asked - exit now when a second signal asked for it
 */
void bench_exit_if_asked(void)
{
	if (bench_stop.now)
		bench_exit_running(128 + bench_stop.signal);
}

/**
 * bench_signals_install - catch SIGINT, SIGTERM and SIGHUP, without SA_RESTART so
 * that the main thread's waits return EINTR
 */
void bench_signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* (SIGPIPE is ignored by cli_init(): a closed pipe fails the writes) */
}

/* A program without a run: the signal's exit, after the outputs' temporaries. */
static void on_signal_end(int sig)
{
	int i;

	for (i = 0; i < nr_fast_exits; i++)
		fast_exits[i]();
	signal(sig, SIG_DFL);
	raise(sig);	/* delivered as the handler returns: the process ends by it */
}

/**
 * bench_signals_end_install - for a program that reads, not runs (analyse):
 * SIGINT, SIGTERM and SIGHUP end it at once, as they would by default, but
 * its outputs' temporary files go first
 */
void bench_signals_end_install(void)
{
	signal(SIGINT, on_signal_end);
	signal(SIGTERM, on_signal_end);
	signal(SIGHUP, on_signal_end);
}

/**
 * bench_signals_block - block them in the calling thread (and the threads it
 * creates next), so that they reach the main thread
 */
void bench_signals_block(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void bench_signals_restore(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/**
 * bench_signals_cleanup_dir - a directory for a second signal to remove (the trace instance)
 */
void bench_signals_cleanup_dir(const char *dir)
{
	cleanup_dir = dir;
}

const char *bench_signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" :
								       "a signal";
}
