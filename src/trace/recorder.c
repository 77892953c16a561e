// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace-cmd record as the benchmark's recorder: a child process of the
 * ordinary scheduling class, in a process group of its own, that splices a
 * trace instance's buffers to a file while the run goes and writes the
 * trace.dat when told to stop (SIGINT).
 *
 * Its options: -d leaves the function tracer and /proc/sys/kernel/ftrace_enabled
 * alone (a write of it is refused on some virtual machines, and nothing here
 * uses the function tracer); -k leaves the instance as it is at the end (its
 * owner removes it; the reset would write set_ftrace_filter, refused there
 * too); --no-filter keeps the recorder's own pids in the events (its default
 * filter, common_pid != recorder, would hide the switches from the recorder
 * to a benchmark thread); -C mono, the benchmark's clock.
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "lib/clock.h"
#include "trace/internal/recorder.h"
#include "lib/work.h"

#define READY_TIMEOUT_NS (10LL * 1000000000)
#define POLL_NS (5 * 1000000)
#define MAX_ARGS 64

struct trace_recorder {
	pid_t pid;
	pid_t pgid;	/* its process group, kept after it is reaped */
	int err_fd;	/* its standard error, a memfd */
	const char *verb;	/* trace-cmd's command: "record", "restore" */
	cpu_set_t cpus;		/* where it runs, if */
	bool pinned;		/* given, else the caller's */
	struct restore_plan *plan;	/* restore: what its child does, or NULL */
};

/*
 * A restore's child, all of it prepared before the fork (a child of a
 * threaded process calls only async-signal-safe functions): each CPU's raw
 * pages copied from the instance, without blocking, to FILE.cpuN; trace-cmd
 * restore -c writes the header (the machine's event formats, no kallsyms)
 * to FILE.head, and trace-cmd restore -i joins them into FILE.
 */
struct restore_plan {
	int ncpus;
	char **raw;		/* each CPU's trace_pipe_raw */
	char **out;		/* FILE.cpuN */
	char *head;		/* FILE.head */
	char *argv_head[8];
	char **argv_join;
};

/* What the recorder said on standard error, on one line: "a; b" */
static void said(const struct trace_recorder *r, char *buf, size_t len)
{
	ssize_t n = pread(r->err_fd, buf, len - 1, 0);
	size_t i, o = 0;

	buf[n > 0 ? n : 0] = 0;
	for (i = 0; buf[i]; i++) {
		if (buf[i] == '\n') {
			if (o && buf[i + 1] && buf[o - 1] != ' ')
				buf[o++] = ';', buf[o++] = ' ';
			continue;
		}
		if (buf[i] == ' ' && (!o || buf[o - 1] == ' '))
			continue;
		buf[o++] = buf[i];
	}
	while (o && buf[o - 1] == ' ')
		o--;
	buf[o] = 0;
}

/* The status of a recorder that ended, in words, with what it said. */
static void ended(const struct trace_recorder *r, int status, char *err, size_t len)
{
	char text[512];

	said(r, text, sizeof(text));
	if (WIFEXITED(status))
		snprintf(err, len, "trace-cmd %s exited with status %d%s%s", r->verb,
			 WEXITSTATUS(status), *text ? ": " : "", text);
	else
		snprintf(err, len, "trace-cmd %s was killed by signal %d%s%s", r->verb,
			 WTERMSIG(status), *text ? ": " : "", text);
}

/*
 * trace-cmd record ended badly (killed, as the OOM killer would): its
 * per-CPU children, in its process group, would live on under init holding
 * the instance. Just reaped, the group's id is not yet anyone else's.
 */
static void orphans(const struct trace_recorder *r)
{
	if (r->pgid > 0)
		kill(-r->pgid, SIGKILL);
}

/* In a restore's child: run @argv and wait; its exit status, 128 + a signal, or 127. */
static int run_waited(char *const *argv)
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 127;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The restore's child: copy, join, tidy, leave with the status of the first failure. */
static void __attribute__((noreturn)) restore(const struct restore_plan *p)
{
	static char page[1 << 16];
	int c, in, out, status = 0;
	ssize_t n;

	for (c = 0; c < p->ncpus && !status; c++) {
		out = open(p->out[c], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		in = open(p->raw[c], O_RDONLY | O_NONBLOCK | O_CLOEXEC);	/* none: no CPU */
		if (out < 0)
			status = 126;
		while (!status && in >= 0 && (n = read(in, page, sizeof(page))) > 0)
			if (write(out, page, (size_t)n) != n)
				status = 125;	/* a full disk: the window is not made */
		if (in >= 0)
			close(in);
		if (out >= 0)
			close(out);
	}
	if (!status)
		status = run_waited(p->argv_head);
	if (!status)
		status = run_waited(p->argv_join);
	for (c = 0; c < p->ncpus; c++)
		unlink(p->out[c]);
	unlink(p->head);
	_exit(status);
}

/* In the child: become the recorder, or write errno to @fd and leave. */
static void child(const struct trace_recorder *r, pid_t parent, int dir_fd, char *const *argv,
		  int fd)
{
	struct sched_param sp = { 0 };
	sigset_t none;
	int e, null = open("/dev/null", O_RDWR);

	/* its own group: the terminal's ^C is the benchmark's to handle */
	setpgid(0, 0);
	/*
	 * the benchmark gone, however: the recorder finishes the file and
	 * ends (the signal comes when the thread that started it ends: a
	 * restore, started by a thread that ends first, finishes on its own)
	 */
	if (!strcmp(r->verb, "record")) {
		prctl(PR_SET_PDEATHSIG, SIGINT);
		if (getppid() != parent)
			_exit(0);
	}
	sched_setscheduler(0, SCHED_OTHER, &sp);
	if (r->pinned)
		sched_setaffinity(0, sizeof(r->cpus), &r->cpus);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
	}
	dup2(r->err_fd, STDERR_FILENO);
	if (r->plan && (dir_fd == AT_FDCWD || !fchdir(dir_fd))) {
		close(fd);	/* started: the parent waits no longer */
		restore(r->plan);
	}
	if (dir_fd == AT_FDCWD || !fchdir(dir_fd))
		execvp(argv[0], argv);
	e = errno;
	if (write(fd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/*
 * Start it, and learn whether exec found it: the pipe closes on exec, or
 * brings exec's errno.
 */
static int spawn(struct trace_recorder *r, int dir_fd, char *const *argv, char *err, size_t len)
{
	pid_t parent = getpid();
	int fds[2], e = 0;
	ssize_t n;

	if (pipe2(fds, O_CLOEXEC)) {
		snprintf(err, len, "pipe: %s", strerror(errno));
		return -errno;
	}
	r->pid = fork();
	if (r->pid < 0) {
		e = errno;
		close(fds[0]);
		close(fds[1]);
		snprintf(err, len, "fork: %s", strerror(e));
		return -e;
	}
	if (!r->pid)
		child(r, parent, dir_fd, argv, fds[1]);
	setpgid(r->pid, r->pid);	/* either side first: kill(-pid) reaches it */
	r->pgid = r->pid;
	close(fds[1]);
	do
		n = read(fds[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	if (n == sizeof(e)) {
		waitpid(r->pid, NULL, 0);
		r->pid = 0;
		if (e == ENOENT)
			snprintf(err, len, "%s is not installed (it writes the trace.dat; Debian and "
				 "Fedora: the trace-cmd package)", argv[0]);
		else
			snprintf(err, len, "cannot run %s: %s", argv[0], strerror(e));
		return -e;
	}
	return 0;
}

/* A recorder to run trace-cmd @verb: argv's first two words. */
static int alloc(struct trace_recorder **rp, const char *verb, const char **argv, char *err,
		 size_t len)
{
	const char *prog = getenv("RTSCHED_TRACE_CMD");
	struct trace_recorder *r = calloc(1, sizeof(*r));
	int ret;

	*rp = NULL;
	if (!r) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	r->err_fd = memfd_create("trace-cmd-stderr", MFD_CLOEXEC);
	if (r->err_fd < 0) {
		ret = -errno;
		snprintf(err, len, "memfd_create: %s", strerror(errno));
		free(r);
		return ret;
	}
	r->verb = verb;
	argv[0] = prog && *prog ? prog : "trace-cmd";
	argv[1] = verb;
	*rp = r;
	return 0;
}

/**
 * trace_recorder_start - start trace-cmd record on the existing instance @instance
 * @dir_fd: the folder the recorder runs in (fchdir), or AT_FDCWD: a private
 *	    folder's descriptor keeps its files there whatever is renamed around it
 * @file: the trace.dat to write, relative to @dir_fd (trace-cmd writes
 *	  FILE.INSTANCE.cpuN beside it while it records, and joins them into
 *	  FILE at the end)
 * @events: "system:event" names, NULL-terminated
 * @ready: true once the recorder has set the instance up (e.g. tracing on);
 *	   polled until it is, for 10 s at most
 *
 * The program run is $RTSCHED_TRACE_CMD, or trace-cmd from PATH.
 *
 * Returns 0, or a negative errno with @err saying what failed: -ENOENT
 * trace-cmd is not installed; -ETIMEDOUT it never got ready; -EIO it ended.
 */
int trace_recorder_start(struct trace_recorder **rp, const char *instance, int dir_fd, const char *file,
			 const char *const *events, bool (*ready)(void *ctx), void *ctx, char *err,
			 size_t len)
{
	const char *argv[MAX_ARGS];
	struct trace_recorder *r;
	int64_t deadline = rt_now_ns(CLOCK_MONOTONIC) + READY_TIMEOUT_NS;
	int n = 0, status, ret;
	size_t i;

	ret = alloc(rp, "record", argv, err, len);
	if (ret)
		return ret;
	r = *rp;
	*rp = NULL;
	n = 2;
	argv[n++] = "-q";
	argv[n++] = "-d";
	argv[n++] = "-k";
	argv[n++] = "--no-filter";
	argv[n++] = "--compression";
	argv[n++] = "none";
	argv[n++] = "-C";
	argv[n++] = "mono";
	argv[n++] = "-B";
	argv[n++] = instance;
	for (i = 0; events[i] && n < MAX_ARGS - 4; i++) {
		argv[n++] = "-e";
		argv[n++] = events[i];
	}
	argv[n++] = "-o";
	argv[n++] = file;
	argv[n] = NULL;
	ret = spawn(r, dir_fd, (char *const *)argv, err, len);
	while (!ret && !ready(ctx)) {
		if (waitpid(r->pid, &status, WNOHANG) == r->pid) {
			ended(r, status, err, len);
			r->pid = 0;
			orphans(r);
			ret = -EIO;
		} else if (rt_now_ns(CLOCK_MONOTONIC) > deadline) {
			snprintf(err, len, "trace-cmd record did not start recording within 10 s");
			ret = -ETIMEDOUT;
		} else {
			rt_sleep_ns(POLL_NS);
		}
	}
	if (ret) {
		trace_recorder_free(r);
		return ret;
	}
	*rp = r;
	return 0;
}

/**
 * trace_recorder_stop - tell the recorder to finish (SIGINT) and wait for its file
 * @timeout_ns: how long writing the file may take before it is killed
 * @give_up: polled while waiting; true kills it at once (NULL: never)
 *
 * Returns 0 when it wrote its file and exited 0, or a negative errno with
 * @err saying what went wrong: -ETIMEDOUT, -EINTR (gave up), -EIO.
 */
int trace_recorder_stop(struct trace_recorder *r, int64_t timeout_ns, bool (*give_up)(void),
			char *err, size_t len)
{
	int64_t deadline = rt_now_ns(CLOCK_MONOTONIC) + timeout_ns;
	int status;
	pid_t w;

	if (!r->pid) {
		snprintf(err, len, "trace-cmd record is not running");
		return -EIO;
	}
	kill(r->pid, SIGINT);
	while ((w = waitpid(r->pid, &status, WNOHANG)) == 0) {
		if (give_up && give_up()) {
			trace_recorder_kill(r);
			snprintf(err, len, "stopped before trace-cmd record wrote its file");
			return -EINTR;
		}
		if (rt_now_ns(CLOCK_MONOTONIC) > deadline) {
			trace_recorder_kill(r);
			snprintf(err, len, "trace-cmd record did not finish its file in %lld s",
				 (long long)(timeout_ns / 1000000000));
			return -ETIMEDOUT;
		}
		rt_sleep_ns(POLL_NS);
	}
	r->pid = 0;
	if (w < 0) {
		snprintf(err, len, "waitpid: %s", strerror(errno));
		return -EIO;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		ended(r, status, err, len);
		orphans(r);
		return -EIO;
	}
	return 0;
}

static void plan_free(struct restore_plan *p)
{
	int c;

	if (!p)
		return;
	for (c = 0; c < p->ncpus; c++) {
		free(p->raw ? p->raw[c] : NULL);
		free(p->out ? p->out[c] : NULL);
	}
	free(p->raw);
	free(p->out);
	free(p->head);
	free(p->argv_join);
	free(p);
}

/* The plan of a restore of the instance in @dir to @file; NULL out of memory. */
static struct restore_plan *plan_of(const char *prog, const char *dir, const char *file)
{
	struct restore_plan *p = calloc(1, sizeof(*p));
	long n = sysconf(_SC_NPROCESSORS_CONF);
	int c, a = 0, bad = 0;

	if (!p)
		return NULL;
	p->ncpus = n > 0 && n < 65536 ? (int)n : 1;
	p->raw = calloc((size_t)p->ncpus, sizeof(*p->raw));
	p->out = calloc((size_t)p->ncpus, sizeof(*p->out));
	p->argv_join = calloc((size_t)p->ncpus + 8, sizeof(*p->argv_join));
	bad = !p->raw || !p->out || !p->argv_join || asprintf(&p->head, "%s.head", file) < 0;
	if (bad) {
		p->head = NULL;
		plan_free(p);
		return NULL;
	}
	p->argv_head[0] = (char *)prog;
	p->argv_head[1] = "restore";
	p->argv_head[2] = "-c";
	p->argv_head[3] = "-k";		/* no kallsyms: 5 MB a window, no use to sched events */
	p->argv_head[4] = "/dev/null";
	p->argv_head[5] = "-o";
	p->argv_head[6] = p->head;
	p->argv_join[a++] = (char *)prog;
	p->argv_join[a++] = "restore";
	p->argv_join[a++] = "-i";
	p->argv_join[a++] = p->head;
	p->argv_join[a++] = "-o";
	p->argv_join[a++] = (char *)file;
	for (c = 0; c < p->ncpus; c++) {
		if (asprintf(&p->raw[c], "%s/per_cpu/cpu%d/trace_pipe_raw", dir, c) < 0)
			p->raw[c] = NULL, bad = 1;
		if (asprintf(&p->out[c], "%s.cpu%d", file, c) < 0)
			p->out[c] = NULL, bad = 1;
		p->argv_join[a++] = p->out[c];
	}
	if (bad) {
		plan_free(p);
		return NULL;
	}
	return p;
}

/* Whether @prog is a program PATH finds (or a path that is one). */
static bool found(const char *prog)
{
	const char *path = getenv("PATH"), *p, *colon;
	char full[PATH_MAX];

	if (strchr(prog, '/'))
		return !access(prog, X_OK);
	for (p = path ? path : "/usr/bin:/bin"; *p; p = colon + 1) {
		colon = strchrnul(p, ':');
		if ((size_t)snprintf(full, sizeof(full), "%.*s/%s", (int)(colon - p), p, prog) <
		    sizeof(full) && !access(full, X_OK))
			return true;
		if (!*colon)
			break;
	}
	return false;
}

/**
 * trace_recorder_installed - whether trace-cmd ($RTSCHED_TRACE_CMD, or
 * trace-cmd from PATH) is there to run
 *
 * Returns 0, or -ENOENT with @err saying so.
 */
int trace_recorder_installed(char *err, size_t len)
{
	const char *prog = getenv("RTSCHED_TRACE_CMD");

	if (!prog || !*prog)
		prog = "trace-cmd";
	if (found(prog))
		return 0;
	snprintf(err, len, "%s is not installed (it writes the trace.dat; Debian and Fedora: the "
		 "trace-cmd package)", prog);
	return -ENOENT;
}

/**
 * trace_recorder_restore - write what the trace instance in the folder
 * @dir (tracing off) holds to the trace.dat @file in the folder @dir_fd,
 * on the CPUs @cpus (NULL: the caller's): a child copies each CPU's raw
 * pages and has trace-cmd restore make them a trace.dat. Nothing else is
 * read: trace-cmd extract would take the top instance's events too, and
 * empty it (measured with trace-cmd 3.1.6). trace_recorder_done() says
 * when it is done; the instance must stay until then.
 *
 * Returns 0, or a negative errno with @err saying what failed: -ENOENT
 * trace-cmd is not installed.
 */
int trace_recorder_restore(struct trace_recorder **rp, const char *dir, int dir_fd,
			   const char *file, const cpu_set_t *cpus, char *err, size_t len)
{
	const char *argv[4] = { NULL };
	struct trace_recorder *r;
	int ret = alloc(rp, "restore", argv, err, len);

	if (ret)
		return ret;
	r = *rp;
	*rp = NULL;
	ret = trace_recorder_installed(err, len);
	if (ret || !argv[0]) {
		trace_recorder_free(r);
		return ret ? ret : -ENOENT;
	}
	r->plan = plan_of(argv[0], dir, file);
	if (!r->plan) {
		snprintf(err, len, "out of memory");
		trace_recorder_free(r);
		return -ENOMEM;
	}
	if (cpus) {
		r->cpus = *cpus;
		r->pinned = true;
	}
	argv[2] = NULL;
	ret = spawn(r, dir_fd, (char *const *)argv, err, len);
	if (ret) {
		trace_recorder_free(r);
		return ret;
	}
	*rp = r;
	return 0;
}

/**
 * trace_recorder_done - whether trace-cmd ended, without waiting
 *
 * Returns 1 while it runs, 0 once it ended with status 0, or -EIO with
 * @err saying how it ended.
 */
int trace_recorder_done(struct trace_recorder *r, char *err, size_t len)
{
	int status;
	pid_t w;

	if (!r->pid)
		return 0;
	w = waitpid(r->pid, &status, WNOHANG);
	if (!w)
		return 1;
	r->pid = 0;
	if (w < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		if (w < 0)
			snprintf(err, len, "waitpid: %s", strerror(errno));
		else
			ended(r, status, err, len);
		orphans(r);
		return -EIO;
	}
	return 0;
}

/* Its pid, 0 when it is not running. */
pid_t trace_recorder_pid(const struct trace_recorder *r)
{
	return r ? r->pid : 0;
}

/**
 * trace_recorder_kill - end it at once, without its file (SIGKILL to its group),
 * and reap it; async-signal-safe but for the reaping
 */
void trace_recorder_kill(struct trace_recorder *r)
{
	if (!r || r->pid <= 0)
		return;
	kill(-r->pid, SIGKILL);
	kill(r->pid, SIGKILL);
	waitpid(r->pid, NULL, 0);
	r->pid = 0;
}

/* Kill it if it still runs, and free it (NULL: nothing). */
void trace_recorder_free(struct trace_recorder *r)
{
	if (!r)
		return;
	trace_recorder_kill(r);
	close(r->err_fd);
	plan_free(r->plan);
	free(r);
}
