/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TRACE_RECORDER_H
#define TRACE_RECORDER_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * trace-cmd's recorder, run as a child process, streaming a trace
 * instance's per-CPU buffers into a trace.dat while the benchmark runs: the
 * kernel's buffers stay the size they were given, however long the run.
 */
struct trace_recorder;

int trace_recorder_start(struct trace_recorder **r, const char *instance, int dir_fd, const char *file,
			 const char *const *events, bool (*ready)(void *ctx), void *ctx, char *err,
			 size_t len);
int trace_recorder_stop(struct trace_recorder *r, int64_t timeout_ns, bool (*give_up)(void),
			char *err, size_t len);
int trace_recorder_installed(char *err, size_t len);
int trace_recorder_restore(struct trace_recorder **r, const char *dir, int dir_fd,
			   const char *file, const cpu_set_t *cpus, char *err, size_t len);
int trace_recorder_done(struct trace_recorder *r, char *err, size_t len);
pid_t trace_recorder_pid(const struct trace_recorder *r);
void trace_recorder_kill(struct trace_recorder *r);
void trace_recorder_free(struct trace_recorder *r);

#endif
