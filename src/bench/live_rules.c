// SPDX-License-Identifier: GPL-2.0-only
/*
 * --on-threshold WHAT>TIME[:ACTION] and --on-end ACTION read into the
 * watch's rules (live_impl.h), each refused in one line naming the option,
 * the value and what is accepted.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/live_impl.h"
#include "lib/opts.h"

#define MAX_THRESHOLD_NS (3600 * RT_NSEC_PER_SEC)

/* A threshold's time: a bare number is microseconds, rtla's unit. */
static int parse_time(const char *s, int64_t *ns, char *err, size_t len)
{
	if (rt_parse_duration(s, RT_NSEC_PER_USEC, 0, MAX_THRESHOLD_NS, ns)) {
		snprintf(err, len, "expected a time of 0-1h after '>' (a number with us, ms, s, m "
			 "or h; a bare number is microseconds), not '%s'", s);
		return -EINVAL;
	}
	return 0;
}

/* signal,num=N[,pid=PID|parent] */
static int parse_signal(const char *args, struct live_rule *r, char *err, size_t len)
{
	char copy[128], *save = NULL, *kv;
	int64_t v;

	r->sig = 0;
	r->pid = getppid();
	if (strlen(args) >= sizeof(copy))
		goto bad;
	snprintf(copy, sizeof(copy), "%s", args);
	for (kv = strtok_r(copy, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		if (!strncmp(kv, "num=", 4) && !rt_parse_int(kv + 4, 1, SIGRTMAX, &v))
			r->sig = (int)v;
		else if (!strcmp(kv, "pid=parent"))
			r->pid = getppid();
		else if (!strncmp(kv, "pid=", 4) && !rt_parse_int(kv + 4, 1, INT32_MAX, &v))
			r->pid = (pid_t)v;
		else
			goto bad;
	}
	if (r->sig)
		return 0;
bad:
	snprintf(err, len, "expected signal,num=N[,pid=PID|parent] with N a signal of 1-%d, not "
		 "'signal%s%s'", SIGRTMAX, *args ? "," : "", args);
	return -EINVAL;
}

/* ACTION: trace, signal,..., shell,command=CMD, stop (not at the end) */
static int parse_action(const char *a, struct live_rule *r, char *err, size_t len)
{
	if (!strcmp(a, "trace")) {
		r->act = ACT_TRACE;
	} else if (!strcmp(a, "stop") && !r->at_end) {
		r->act = ACT_STOP;
	} else if (!strcmp(a, "signal") || !strncmp(a, "signal,", 7)) {
		r->act = ACT_SIGNAL;
		return parse_signal(a[6] ? a + 7 : "", r, err, len);
	} else if (!strncmp(a, "shell,command=", 14) && a[14]) {
		r->act = ACT_SHELL;
		r->command = a + 14;
	} else {
		snprintf(err, len, "expected an action of trace, signal,num=N[,pid=PID|parent], "
			 "shell,command=CMD%s, not '%s'", r->at_end ? "" : " or stop", a);
		return -EINVAL;
	}
	return 0;
}

/* WHAT>TIME[:ACTION] (--on-threshold), or ACTION (--on-end) */
static int parse_rule(const char *spec, bool at_end, struct live_rule *r, char *err, size_t len)
{
	const char *gt = strchr(spec, '>'), *colon;
	char time[64];
	int k;

	memset(r, 0, sizeof(*r));
	r->spec = spec;
	r->at_end = at_end;
	if (at_end)
		return parse_action(spec, r, err, len);
	k = gt ? trace_wait_kind_of(spec, (size_t)(gt - spec)) : -1;
	if (k < 0) {
		snprintf(err, len, "expected WHAT>TIME[:ACTION] with WHAT one of placement, wakeup, "
			 "boost, runnable");
		return -EINVAL;
	}
	r->what = (enum trace_wait_kind)k;
	colon = strchr(gt + 1, ':');
	if ((size_t)(colon ? colon - gt - 1 : (long)strlen(gt + 1)) >= sizeof(time)) {
		snprintf(err, len, "the time after '>' is too long");
		return -EINVAL;
	}
	snprintf(time, sizeof(time), "%.*s", (int)(colon ? colon - gt - 1 : (long)strlen(gt + 1)),
		 gt + 1);
	if (parse_time(time, &r->ns, err, len))
		return -EINVAL;
	r->act = ACT_TRACE;
	return colon ? parse_action(colon + 1, r, err, len) : 0;
}

/* Every --on-threshold, then every --on-end, into @rules; exit 2 at a bad one. Returns how many. */
int live_rules(const struct cli_common *co, struct live_rule *rules)
{
	char err[384];
	int i, n = 0;

	for (i = 0; i < co->n_on_threshold + co->n_on_end; i++) {
		bool end = i >= co->n_on_threshold;
		const char *spec = end ? co->on_end[i - co->n_on_threshold] : co->on_threshold[i];

		if (parse_rule(spec, end, &rules[n++], err, sizeof(err)))
			cli_die(EXIT_USAGE, "invalid %s '%s': %s", end ? "--on-end" : "--on-threshold",
				spec, err);
	}
	return n;
}

/**
 * bench_live_parse - check --on-threshold and --on-end as the options are
 * read (exit 2 naming the bad one)
 */
void bench_live_parse(const struct cli_common *co)
{
	struct live_rule rules[2 * CLI_MAX_ACTIONS];

	live_rules(co, rules);
}
