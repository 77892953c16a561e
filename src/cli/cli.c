// SPDX-License-Identifier: GPL-2.0-only
/*
 * One-line messages that name the option, the value and what is accepted,
 * and the exit codes that go with them.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "lib/outfile.h"
#include "lib/sched.h"

static const char *prog = "rtsched";

/* The program's name, as messages give it. */
const char *cli_prog(void)
{
	return prog;
}

/*
 * Standard output: what is printed goes to descriptor 1, whatever it is at
 * the time (--json - points it at stderr), and the errno of the first
 * failure is kept (stdio loses it), for cli_exit() to name.
 */
static struct rt_outfile *std_out;

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
	/* a closed pipe fails the writes (see cli_exit()), not the process */
	signal(SIGPIPE, SIG_IGN);
	for (fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF && open("/dev/null", O_RDWR) != fd)
			_exit(EXIT_SYSCALL);	/* nowhere to say it */
	/* stdout through std_out, buffered as stdio would buffer it */
	if (!rt_outfile_fd(&std_out, STDOUT_FILENO, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF))
		stdout = rt_outfile_stream(std_out);
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
	bool failed = fflush(stdout) || ferror(stdout);
	/* read after the flush, whose writes may fail */
	int err = std_out ? rt_outfile_error(std_out) : 0;

	if (failed || err) {
		if (code == EXIT_RAN || code == EXIT_CHECK)
			code = EXIT_SYSCALL;
		fprintf(stderr, "%s: writing to standard output: %s; what it did not print is lost\n",
			prog, strerror(err ? err : EIO));
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
 * cli_no_rt_privilege - exit 4 saying what would grant SCHED_FIFO at @prio here
 * @err: the negative errno of the refusal
 */
void cli_no_rt_privilege(int prio, int err)
{
	struct rt_privilege priv;
	char exe[PATH_MAX];
	ssize_t n;

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
	/* setcap takes the program's own file: installed, not the link in bin/ */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	cli_die(EXIT_MISSING,
		"cannot run SCHED_FIFO threads at priority %d: %s; run as root, or grant "
		"CAP_SYS_NICE (setcap cap_sys_nice,cap_ipc_lock+ep %s), or raise RLIMIT_RTPRIO "
		"to %d (now %ld; ulimit -r, limits.conf rtprio)",
		prio, strerror(-err), *exe ? exe : prog, prio, priv.rlimit_rtprio);
}

