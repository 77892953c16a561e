// SPDX-License-Identifier: GPL-2.0-only
/*
 * One-line messages that name the option, the value and what is accepted,
 * and the exit codes that go with them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli.h"
#include "output.h"
#include "rt_env.h"
#include "rt_sched.h"
#include "rt_work.h"

static const char *prog = "rtsched";

struct rt_stop cli_stop;
static const char *cleanup_dir;	/* removed by a second signal: rmdir is async-signal-safe */

/*
 * A second signal exits at once, removing the trace instance and the
 * temporary files of the outputs first; when
 * the instance is busy (its buffers being read), it asks the main thread
 * to exit instead, which it does at its next wake-up, and its exit
 * handlers remove the instance.
 */
static void on_signal(int sig)
{
	if (cli_stop.signal) {
		if (!cleanup_dir || !rmdir(cleanup_dir)) {
			cli_output_remove_pending();
			_exit(128 + cli_stop.signal);
		}
		cli_stop.now = 1;
		return;
	}
	cli_stop.signal = sig;
}

static void (*cleanups[8])(void);
static int nr_cleanups;

/**
 * cli_cleanup_add - run @fn at exit, by exit() or cli_exit_running()
 */
void cli_cleanup_add(void (*fn)(void))
{
	if (nr_cleanups < (int)(sizeof(cleanups) / sizeof(cleanups[0])))
		cleanups[nr_cleanups++] = fn;
	atexit(fn);
}

/**
 * cli_exit_running - exit while benchmark threads may still run
 *
 * Our cleanups (the trace instance, temporary files) run, newest first,
 * then _exit(): not the C library's and the sanitizers' exit handlers,
 * which can wait forever for SCHED_FIFO threads that keep the CPUs.
 */
void cli_exit_running(int code)
{
	fflush(stdout);
	fflush(stderr);
	while (nr_cleanups)
		cleanups[--nr_cleanups]();
	_exit(code);
}

/**
 * cli_exit_if_asked - exit now when a second signal asked for it
 */
void cli_exit_if_asked(void)
{
	if (cli_stop.now)
		cli_exit_running(128 + cli_stop.signal);
}

/**
 * cli_signals_install - catch SIGINT, SIGTERM and SIGHUP, without SA_RESTART so
 * that the main thread's waits return EINTR
 */
void cli_signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* a closed pipe on stdout fails the writes (see cli_exit), not the process */
	signal(SIGPIPE, SIG_IGN);
}

/**
 * cli_signals_block - block them in the calling thread (and the threads it
 * creates next), so that they reach the main thread
 */
void cli_signals_block(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void cli_signals_restore(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/**
 * cli_signals_cleanup_dir - a directory for a second signal to remove (the trace instance)
 */
void cli_signals_cleanup_dir(const char *dir)
{
	cleanup_dir = dir;
}

const char *cli_signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" :
								       "a signal";
}

/*
 * Standard output: what is printed goes to descriptor 1, whatever it is at
 * the time (--json - points it at stderr), and the errno of the first
 * failure is kept (stdio loses it), for cli_exit() to name.
 */
static struct rt_outfile std_out;

/**
 * cli_init - name the program in every message; open /dev/null on the
 * standard descriptors that are closed
 *
 * A program started with stdout or stderr closed (>&-) would otherwise
 * give descriptor 1 or 2 to the first file it opens (a result file,
 * trace_marker) and print its table into it.
 */
void cli_init(const char *name)
{
	int fd;

	prog = name;
	for (fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF && open("/dev/null", O_RDWR) != fd)
			_exit(EXIT_SYSCALL);	/* nowhere to say it */
	/* stdout through std_out, buffered as stdio would buffer it */
	if (rt_outfile_fd(&std_out, STDOUT_FILENO))
		return;
	if (setvbuf(std_out.f, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ)) {
		std_out.fd = -1;	/* the stream goes, descriptor 1 stays */
		fclose(std_out.f);
	}
	else
		stdout = std_out.f;
}

/**
 * cli_exit - exit with @code once standard output has all it was given
 *
 * A closed pipe or a full disk on stdout (SIGPIPE is ignored) makes the
 * writes fail; the files the program was asked for are written by then.
 * It is said on stderr, and the exit status is 3, unless @code says more.
 */
void cli_exit(int code)
{
	if (fflush(stdout) || ferror(stdout) || std_out.err) {
		if (code == EXIT_RAN || code == EXIT_CHECK)
			code = EXIT_SYSCALL;
		fprintf(stderr, "%s: writing to standard output: %s; what it did not print is lost\n",
			prog, strerror(std_out.err ? std_out.err : EIO));
	}
	exit(code);
}

/*
 * One line on stderr, whatever the message quotes: a value given with a
 * newline or another control character in it is shown escaped (\n, \x01).
 */
static void __attribute__((format(printf, 2, 0))) vsay(const char *prefix, const char *fmt,
							va_list ap)
{
	char line[2048];
	const unsigned char *c;

	vsnprintf(line, sizeof(line), fmt, ap);
	fflush(stdout);
	fprintf(stderr, "%s: %s", prog, prefix);
	for (c = (const unsigned char *)line; *c; c++) {
		if (*c == '\n')
			fputs("\\n", stderr);
		else if (*c < 0x20 || *c == 0x7f)
			fprintf(stderr, "\\x%02x", *c);
		else
			fputc(*c, stderr);
	}
	fputc('\n', stderr);
}

/**
 * cli_common_init - start parsing with the usable CPUs known, or exit 3
 */
void cli_common_init(struct cli_common *co, void (*usage)(FILE *out))
{
	co->usage = usage;
	co->cpus = NULL;
	co->quiet = false;
	co->repeat = 1;
	co->complete = 1;
	co->json = NULL;
	co->trace = false;
	co->trace_out = NULL;
	co->trace_buffer_kb = 0;
	co->usable = rt_cpus_usable();
	if (!co->usable)
		cli_die(EXIT_SYSCALL, "sched_getaffinity: %s", strerror(errno));
}

/**
 * cli_bad_option - exit 2 for what getopt_long() returned as ':' or '?'
 *
 * @short_options must start with ':' so that a missing value is told apart.
 */
static void __attribute__((noreturn)) cli_bad_option(int c, char **argv,
						   const char *short_options)
{
	const char *arg = argv[optind - 1];

	if (c == ':')
		cli_die(EXIT_USAGE, "option '%s' needs a value; see %s --help", arg, prog);
	/* "--pi=3": getopt reports a known flag given a value */
	if (optopt && strchr(short_options, optopt) && arg[0] == '-' && arg[1] == '-')
		cli_die(EXIT_USAGE, "option '%s' takes no value; see %s --help", arg, prog);
	if (optopt && optopt < 256)
		cli_die(EXIT_USAGE, "unknown option '-%c'; see %s --help", optopt, prog);
	if (optopt)
		cli_die(EXIT_USAGE, "option '%s' takes no value; see %s --help", arg, prog);
	cli_die(EXIT_USAGE, "unknown option '%s'; see %s --help", arg, prog);
}

/**
 * cli_common_option - handle -c, -q, -r, --json, --trace*, -h or -V, the
 * options every program has; any other @c is a bad option: exit 2 saying why
 *
 * -h and -V print and exit 0; a bad -c list exits 2. @argv and
 * @short_options are the program's, for the message.
 */
void cli_common_option(struct cli_common *co, int c, const char *arg, char **argv,
		       const char *short_options)
{
	static const struct rt_optspec repeat = { "--repeat", RT_OPT_INT, 1, 10000, 0 };
	static const struct rt_optspec buffer = { "--trace-buffer", RT_OPT_INT, 64,
						  4 * 1024 * 1024, 0 };

	switch (c) {
	case 'r':
		co->repeat = (int)cli_opt(&repeat, arg);
		return;
	case CLI_OPT_JSON:
		if (!*arg)
			cli_die(EXIT_USAGE, "invalid --json '': expected a file name, or - for "
				"standard output");
		co->json = arg;
		return;
	case CLI_OPT_TRACE:
		co->trace = true;
		return;
	case CLI_OPT_TRACE_OUT:
		co->trace = true;
		co->trace_out = arg;
		return;
	case CLI_OPT_TRACE_BUFFER:
		co->trace_buffer_kb = cli_opt(&buffer, arg);
		return;
	case 'c':
		if (co->cpus)
			numa_free_cpumask(co->cpus);
		co->cpus = cli_cpus(arg, co->usable);
		return;
	case 'q':
		co->quiet = true;
		return;
	case 'h':
		co->usage(stdout);
		exit(EXIT_RAN);
	case 'V':
		printf("%s (rtsched) %s\n", prog, RT_VERSION);
		exit(EXIT_RAN);
	}
	cli_bad_option(c, argv, short_options);
}

/**
 * cli_common_done - parsing is over: exit 2 if arguments follow the options;
 * the CPUs to run on: -c, or the usable ones
 */
struct bitmask *cli_common_done(struct cli_common *co, int argc, char **argv)
{
	if (optind < argc)
		cli_die(EXIT_USAGE, "unexpected argument '%s': %s takes options only; see %s --help",
			argv[optind], prog, prog);
	if (!co->cpus)
		return co->usable;
	numa_free_cpumask(co->usable);
	co->usable = NULL;
	return co->cpus;
}

/**
 * cli_runs_done - @runs were made, the last one cut short by signal
 * @interrupted (0: none)
 *
 * The statistics (mean ± sd, the JSON summary) cover the whole runs: a run
 * a signal cut short is left out of them when there are whole ones, and
 * kept in the result file, marked partial.
 */
void cli_runs_done(struct cli_common *co, int runs, int interrupted)
{
	co->repeat = runs;
	co->complete = interrupted && runs > 1 ? runs - 1 : runs;
}

/**
 * cli_print_table - print @caption (if any) and the table of @rows, whole or not at all
 */
void cli_print_table(const struct rt_row *rows, size_t n, const char *caption)
{
	char *table = NULL;
	size_t len = 0;
	FILE *f;

	f = open_memstream(&table, &len);
	if (!f || rt_report_table(f, rows, n) || fclose(f))
		cli_die(EXIT_SYSCALL, "formatting the table: %s", strerror(errno));
	printf("%s%s%s", caption ? caption : "", caption ? "\n" : "", table);
	free(table);
}

/**
 * cli_die - print "PROG: message" and exit with @code
 */
void cli_die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay("", fmt, ap);
	va_end(ap);
	exit(code);
}

/**
 * cli_warn - print "PROG: warning: message" and go on
 */
void cli_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay("warning: ", fmt, ap);
	va_end(ap);
}

/**
 * cli_opt - the value of @arg as @spec says, or exit 2 saying why not
 */
int64_t cli_opt(const struct rt_optspec *spec, const char *arg)
{
	char err[RT_OPT_ERRLEN];
	int64_t v;

	if (rt_opt_parse(spec, arg, &v, err, sizeof(err)))
		cli_die(EXIT_USAGE, "%s", err);
	return v;
}

/**
 * cli_cpus - the CPU list of --cpus, or exit 2 naming what is wrong with it
 */
struct bitmask *cli_cpus(const char *arg, const struct bitmask *usable)
{
	const char *why = rt_cpus_numa_message();
	char have[256];
	struct bitmask *cpus;
	int bad;

	rt_cpus_format(usable, have, sizeof(have));
	cpus = rt_cpus_parse(arg, usable, &bad);
	if (cpus)
		return cpus;
	if (errno == EPERM)
		cli_die(EXIT_USAGE,
			"invalid --cpus '%s': CPU %d is not usable by this process (affinity or "
			"cpuset); usable CPUs: %s",
			arg, bad, have);
	if (errno == ENOENT)
		cli_die(EXIT_USAGE, "invalid --cpus '%s': the list names no CPU; usable CPUs: %s",
			arg, have);
	if (errno == ERANGE)
		cli_die(EXIT_USAGE, "invalid --cpus '%s': %s; expected LOW-HIGH; usable CPUs: %s",
			arg, why, have);
	cli_die(EXIT_USAGE,
		"invalid --cpus '%s': expected a CPU list such as 0-3,6%s%s%s; usable CPUs: %s", arg,
		*why ? " (libnuma: " : "", why, *why ? ")" : "", have);
}


/**
 * cli_no_rt_privilege - exit 4 saying what would grant SCHED_FIFO at @prio here
 * @err: the negative errno of the refusal
 */
void cli_no_rt_privilege(int prio, int err)
{
	struct rt_privilege priv;

	rt_sched_privilege(&priv, "/proc", "/sys/fs/cgroup");
	if (priv.cgroup_no_rt)
		cli_die(EXIT_MISSING,
			"cannot run SCHED_FIFO threads: %s; this process's cgroup gives RT tasks no "
			"runtime (%s is 0): give it RT runtime or run from a cgroup that has some",
			strerror(-err), priv.cgroup_file);
	if (priv.root || priv.cap_sys_nice)
		cli_die(EXIT_MISSING,
			"cannot run SCHED_FIFO threads at priority %d: %s, although the process "
			"has %s; check RT group scheduling (cpu.rt_runtime_us of its cgroup) and "
			"security modules",
			prio, strerror(-err), priv.root ? "root" : "CAP_SYS_NICE");
	cli_die(EXIT_MISSING,
		"cannot run SCHED_FIFO threads at priority %d: %s; run as root, or grant "
		"CAP_SYS_NICE (setcap cap_sys_nice,cap_ipc_lock+ep %s), or raise RLIMIT_RTPRIO "
		"to %d (now %ld; ulimit -r, limits.conf rtprio)",
		prio, strerror(-err), prog, prio, priv.rlimit_rtprio);
}

/**
 * cli_env_check - exit 4 when RT threads could never run: sched_rt_runtime_us 0
 */
void cli_env_check(void)
{
	struct rt_throttle thr;

	if (!rt_sched_throttle(&thr) && thr.runtime_us == 0)
		cli_die(EXIT_MISSING,
			"kernel.sched_rt_runtime_us is 0: RT threads would never run here; "
			"sysctl -w kernel.sched_rt_runtime_us=950000 (or -1) to give them time");
}

/**
 * cli_env_notes - what makes the numbers doubtful on @cpus, one sentence each
 * @work: the calibration, whose clock may be coarse (NULL: not said)
 *
 * Returns how many notes were written.
 */
int cli_env_notes(const struct bitmask *cpus, const struct rt_work *work,
		  char notes[CLI_NOTES][CLI_NOTE_LEN])
{
	struct rt_throttle thr;
	struct rt_env env;
	int n = 0;

	rt_env_read(&env, cpus, "/sys");
	if (!rt_sched_throttle(&thr) && thr.runtime_us > 0 && thr.runtime_us < thr.period_us)
		snprintf(notes[n++], CLI_NOTE_LEN,
			 "RT throttling idles a CPU kept busy by RT threads for %ld us of every %ld "
			 "us (sysctl kernel.sched_rt_runtime_us=-1 turns it off)",
			 thr.period_us - thr.runtime_us, thr.period_us);
	if (env.fair_runtime_ns > 0 && env.fair_period_ns > 0)
		snprintf(notes[n++], CLI_NOTE_LEN,
			 "the fair server runs other tasks above RT ones for up to %.1f ms of every "
			 "%.1f ms when they starve",
			 (double)env.fair_runtime_ns / 1e6, (double)env.fair_period_ns / 1e6);
	if (env.isolated[0])
		snprintf(notes[n++], CLI_NOTE_LEN,
			 "CPUs %s are isolated: the scheduler does not balance them, threads move "
			 "between them only when woken",
			 env.isolated);
	if (env.offline[0])
		snprintf(notes[n++], CLI_NOTE_LEN, "CPUs %s are offline", env.offline);
	if (work && work->clock_step_ns > RT_WORK_COARSE_CLOCK_NS)
		snprintf(notes[n++], CLI_NOTE_LEN,
			 "the thread CPU-time clock advances in steps of %.3f ms here (the kernel "
			 "does not time tasks finely, e.g. an unstable TSC): a unit of busy work "
			 "can last up to that much longer than asked",
			 (double)work->clock_step_ns / 1e6);
	if (env.governor[0] && strcmp(env.governor, "performance"))
		snprintf(notes[n++], CLI_NOTE_LEN,
			 "the cpufreq governor is %s, not performance: the CPUs' speed varies (holds "
			 "are CPU time and stay right; iterations vary)",
			 env.governor);
	return n;
}

/**
 * cli_print_kernel - one line: kernel release, preemption model, RT throttling
 */
void cli_print_kernel(FILE *out)
{
	struct rt_throttle thr;
	char model[128];
	struct utsname u;

	rt_sched_preempt_model(model, sizeof(model));
	if (uname(&u))
		strcpy(u.release, "unknown");
	if (rt_sched_throttle(&thr))
		fprintf(out, "kernel %s, %s, RT throttling unknown\n", u.release, model);
	else if (thr.runtime_us < 0)
		fprintf(out, "kernel %s, %s, RT throttling off\n", u.release, model);
	else
		fprintf(out, "kernel %s, %s, RT throttling %ld/%ld us\n", u.release, model,
			thr.runtime_us, thr.period_us);
}
