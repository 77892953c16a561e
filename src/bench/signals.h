/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SIGINT, SIGTERM, SIGHUP: the first asks the run to stop (the program then
 * prints what it has, marked partial, and exits 128 + the signal); a second
 * exits at once, removing the trace instance if there is one. The runs read
 * bench_stop (they are handed it as a struct rt_stop) and return; the driver
 * exits. A program that reads, not runs, ends at the first, its temporary
 * files removed (bench_signals_end_install()).
 */
#ifndef BENCH_SIGNALS_H
#define BENCH_SIGNALS_H

#include <signal.h>

#include "lib/stop.h"

extern struct rt_stop bench_stop;
void bench_exit_if_asked(void);
void bench_exit_running(int code) __attribute__((noreturn));
void bench_cleanup_add(void (*fn)(void));
void bench_signals_install(void);
void bench_signals_end_install(void);
void bench_signals_block(sigset_t *old);
void bench_signals_restore(const sigset_t *old);
void bench_signals_cleanup_dir(const char *dir);
void bench_signals_at_exit(void (*fn)(void));
const char *bench_signal_name(int sig);

#endif
