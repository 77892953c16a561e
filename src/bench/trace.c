// SPDX-License-Identifier: GPL-2.0-only
/*
 * --trace for the benchmarks: the recording (src/trace) tied to the
 * process's life: its files among the outputs, its instance among the
 * cleanups of an exit and of a second signal, its failures said.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "bench/output.h"
#include "bench/signals.h"
#include "lib/clock.h"
#include "trace/marker.h"
#include "trace/source.h"
#include "bench/trace.h"

#define PREFIX "rtsched-"

static struct trace_recording *open_recording;
static struct rt_outfile *trace_file;	/* the trace.dat: --trace-out's, or a temporary one */
static bool keep_file;		/* --trace-out: named at the end; else removed */
static char tmp_name[PATH_MAX];

static void close_recording(void)
{
	/* threads past a signal's grace may still write markers: into /dev/null now */
	trace_marker_detach();
	trace_recording_close(open_recording);
	open_recording = NULL;
	/*
	 * --trace's file, and --trace-out's unless it was named (a recorder
	 * that failed or was stopped before its end wrote no whole file):
	 * their private folders go, the recorder's .cpuN files with them
	 */
	if (trace_file)
		rt_outfile_abort(trace_file);
}

/* Where --trace keeps its trace.dat: $TMPDIR, or /tmp */
static const char *tmp_dir(void)
{
	const char *d = getenv("TMPDIR");

	return d && *d ? d : "/tmp";
}

/* A trace's kernel buffers take at most this share of the machine's memory. */
#define MEMORY_SHARE 4

/**
 * bench_trace_buffer_kb - the kernel buffer of each of @ncpus CPUs: @given
 * (--trace-buffer) as it is, else @planned, the program's plan for its
 * events, within a quarter of the machine's memory over the CPUs; @note
 * says it in the header's words
 */
int64_t bench_trace_buffer_kb(int64_t planned, int64_t given, int ncpus, char *note, size_t len)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	int64_t cap = pages > 0 && page > 0 && ncpus > 0 ?
		      (int64_t)pages / 1024 * page / MEMORY_SHARE / ncpus : INT64_MAX;
	int64_t kb = given ? given : planned < cap ? planned : cap;

	if (kb < 64)
		kb = 64;
	snprintf(note, len, "--trace: kernel buffers of %lld KiB on each of the run's %d CPUs, "
		 "%lld MiB in all%s", (long long)kb, ncpus, (long long)(kb * ncpus / 1024),
		 given ? " (--trace-buffer)" : kb < planned ?
		 ", capped at a quarter of the memory: the events of a run this size may not all "
		 "fit (a LOST line says how many did not)" : "");
	return kb;
}

/**
 * bench_trace_sweep - remove the trace instances that runs killed by SIGKILL
 * left behind (nobody holds them), and their temporary trace.dat folders in
 * $TMPDIR (nobody locks them); every run does it, traced or not, and says
 * nothing when it cannot (not root)
 */
void bench_trace_sweep(void)
{
	trace_recording_sweep(PREFIX);
	rt_outfile_sweep(tmp_dir(), PREFIX);
}

/**
 * bench_trace_open - the private instance, recording to the trace.dat
 * (--trace-out's, or a temporary file) from now to bench_trace_finish(); a
 * build without trace.dat (the static programs) reads the instance after
 * each run (bench_trace_run_done()). Everything is removed at exit, which a
 * first SIGINT, SIGTERM or SIGHUP leads to, and by a second one; instances
 * left by benchmarks that were killed went at the start of the run
 * (bench_trace_sweep()).
 *
 * Returns 0, or a negative errno with @err saying what failed: -ENOENT,
 * -EACCES, -EPERM or -EOPNOTSUPP what is missing here (tracefs, root,
 * trace-cmd), another what failed.
 */
int bench_trace_open(struct trace_recording **rp, size_t buffer_kb, const struct bitmask *cpus,
		     char *err, size_t len)
{
	struct trace_recording *r;
	unsigned int salt = 0;
	char why[512];
	sigset_t old;
	int ret;

	if (trace_source_file_supported() && !trace_file) {
		if (getrandom(&salt, sizeof(salt), GRND_NONBLOCK) != sizeof(salt))
			salt = (unsigned int)rt_now_ns(CLOCK_MONOTONIC);
		snprintf(tmp_name, sizeof(tmp_name), "%s/" PREFIX "%d-%08x.dat", tmp_dir(),
			 (int)getpid(), salt);
		trace_file = bench_output_open("--trace (its temporary trace.dat)", tmp_name, true);
	}
	/* a signal now would find an instance not yet known to the cleanups */
	bench_signals_block(&old);
	ret = trace_recording_open(&r, PREFIX, buffer_kb, cpus, why, sizeof(why));
	if (!ret) {
		*rp = open_recording = r;
		bench_signals_cleanup_dir(trace_recording_dir(r));
		bench_cleanup_add(close_recording);
	}
	bench_signals_restore(&old);
	if (!ret && trace_file)
		ret = trace_recording_stream(r, rt_outfile_folder_fd(trace_file),
					     rt_outfile_name(trace_file),
					     rt_outfile_temp(trace_file), why, sizeof(why));
	if (ret == -EFBIG)
		snprintf(err, len, "--trace: %s; --trace-buffer KB asks for less", why);
	else if (ret)
		snprintf(err, len, "--trace: %s", why);
	return ret;
}

/**
 * bench_trace_run_done - a run is over: its analysis, now or at the end
 * (trace_recording_run_done()); a second signal while the instance was read
 * exits at once
 *
 * Returns 0, or a negative errno with @err saying what failed.
 */
int bench_trace_run_done(struct trace_recording *r, struct trace_span *span, size_t n,
			 char *err, size_t len)
{
	char why[512];
	int ret;

	ret = trace_recording_run_done(r, span, n, why, sizeof(why));
	bench_exit_if_asked();
	if (ret)
		snprintf(err, len, "--trace: %s", why);
	return ret;
}

/* While the recorder writes its file: a second signal stops the wait. */
static bool asked_to_go(void)
{
	bench_exit_if_asked();
	return false;
}

/**
 * bench_trace_finish - the runs are over: each one's analysis done
 * (trace_recording_finish()); a second signal while the recorder writes its
 * file exits at once
 *
 * Returns 0, or a negative errno with @err saying what failed: the recorder,
 * or the file's events.
 */
int bench_trace_finish(struct trace_recording *r, struct trace_span *spans, size_t nruns,
		       size_t n, char *err, size_t len)
{
	char why[512];
	int ret;

	ret = trace_recording_finish(r, spans, nruns, n, asked_to_go, why, sizeof(why));
	bench_exit_if_asked();
	if (ret)
		snprintf(err, len, "--trace: %s", why);
	return ret;
}

/**
 * bench_trace_out_open - check and create --trace-out FILE before the run:
 * the recorder writes the trace.dat there, under a temporary name until
 * bench_trace_out_close() (an existing FILE is refused by the outputs)
 *
 * Returns 0, or with @err saying why: -EOPNOTSUPP this build writes no
 * trace.dat, -EINVAL "-" is no file name.
 */
int bench_trace_out_open(const char *path, char *err, size_t len)
{
	if (!trace_source_file_supported()) {
		snprintf(err, len, "--trace-out: this statically linked build writes no trace.dat "
			 "(libtracecmd is a shared library only): use the dynamically linked "
			 "program");
		return -EOPNOTSUPP;
	}
	if (!strcmp(path, "-")) {
		snprintf(err, len, "invalid --trace-out '%s': expected a file name", path);
		return -EINVAL;
	}
	trace_file = bench_output_open("--trace-out", path, true);
	keep_file = true;
	return 0;
}

/**
 * bench_trace_out_close - give --trace-out its name (exit 3 when that fails)
 */
void bench_trace_out_close(void)
{
	if (keep_file && rt_outfile_stream(trace_file))
		bench_output_commit(trace_file, "--trace-out");
}
