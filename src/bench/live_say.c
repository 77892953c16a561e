// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the live watch says (live.h): under the tables, the longest wait of
 * each kind and each threshold's crossings, the first explained; in the
 * result file, "watch".
 */
#include <limits.h>
#include <stdio.h>

#include "bench/live_impl.h"
#include "lib/opts.h"

#define MAX_PRINTED 5			/* crossings under the table per threshold */

const char *const live_action_names[] = {
	[ACT_TRACE] = "trace", [ACT_SIGNAL] = "signal", [ACT_SHELL] = "shell",
	[ACT_STOP] = "stop",
};

static double ms(const struct trace_wait *w)
{
	return (double)(w->end - w->start) / RT_NSEC_PER_MSEC;
}

/* A window's fate in words: its path, or why it is not there. */
static const char *window_words(const struct live_window *w, char *buf, size_t len)
{
	if (!w->status)
		snprintf(buf, len, "window %s", w->path);
	else if (w->status == 1)
		snprintf(buf, len, "window %s not finished in time", w->path);
	else
		snprintf(buf, len, "no window %s: %s", w->path, w->why);
	return buf;
}

/**
 * bench_live_print - under the tables: the longest wait of each kind, each
 * threshold's crossings with the first of them explained, the windows
 */
void bench_live_print(const struct bench_live *l)
{
	char t[32], buf[PATH_MAX + 600];
	int i, k, printed;

	printf("\nwatch: %llu events, %llu lost; the longest waits:",
	       (unsigned long long)l->events, (unsigned long long)l->lost);
	for (k = 0; k < TRACE_WAITS; k++) {
		const struct trace_watch_figure *f = &l->fig[k];

		if (!f->count)
			printf(" %s none%s", trace_wait_names[k], k + 1 < TRACE_WAITS ? "," : "\n");
		else
			printf(" %s %.3f ms (thread %d, CPU %d)%s", trace_wait_names[k],
			       ms(&f->worst), (int)f->worst.tid, f->worst.cpu,
			       k + 1 < TRACE_WAITS ? "," : "\n");
	}
	for (k = 0; k < TRACE_WAITS; k++) {
		if (l->fig[k].count)
			printf("  the longest %s: %s\n", trace_wait_names[k], l->worst_words[k]);
	}
	for (i = 0; i < l->nrules; i++) {
		const struct live_rule *r = &l->rules[i];

		if (r->at_end)
			continue;
		rt_format_duration(t, sizeof(t), r->ns);
		printf("on-threshold %s: %llu crossing%s", r->spec, (unsigned long long)r->crossed,
		       r->crossed == 1 ? "" : "s");
		if (r->crossed)
			printf(", the longest %.3f ms", ms(&r->worst));
		if (r->skipped)
			printf("; %llu not acted on (%s)", (unsigned long long)r->skipped,
			       r->act == ACT_TRACE ? "at most one window per 10 s, 16 in all" :
			       "the last command still ran");
		printf("\n");
		for (k = 0, printed = 0; k < l->nkept && printed < MAX_PRINTED; k++) {
			const struct live_crossing *c = &l->kept[k];

			if (c->rule != i)
				continue;
			printed++;
			printf("  %s %.3f ms > %s: %s", trace_wait_names[c->wait.kind], ms(&c->wait), t,
			       c->words);
			if (c->window >= 0)
				printf("; %s", window_words(&l->windows[c->window], buf, sizeof(buf)));
			printf("\n");
		}
		if (r->crossed > (uint64_t)printed)
			printf("  and %llu more (the result file keeps the first %d crossings)\n",
			       (unsigned long long)(r->crossed - (uint64_t)printed), MAX_KEPT);
	}
	for (i = 0; i < l->nwindows; i++) {
		if (l->windows[i].at_end)
			printf("on-end: %s\n", window_words(&l->windows[i], buf, sizeof(buf)));
	}
}

/* A threshold stopped the run: which, in words; NULL none did. */
const char *bench_live_stopped_by(const struct bench_live *l)
{
	static char words[800];

	if (!bench_live_stopping(l))
		return NULL;
	snprintf(words, sizeof(words), "%s: a wait of %.3f ms", l->rules[l->stop_rule].spec,
		 ms(&l->stop_wait));
	return words;
}

static void json_wait(struct rt_json *j, const char *key, const struct trace_wait *w)
{
	rt_json_object(j, key);
	rt_json_str(j, "what", trace_wait_names[w->kind]);
	rt_json_int(j, "tid", w->tid);
	rt_json_int(j, "cpu", w->cpu);
	rt_json_int(j, "start_ns", (int64_t)w->start);
	rt_json_int(j, "wait_ns", (int64_t)(w->end - w->start));
	rt_json_int(j, "holder", w->holder);
	if (w->holder_comm[0])
		rt_json_str(j, "holder_comm", w->holder_comm);
	rt_json_int(j, "holder_prio", w->holder_prio);
	rt_json_int(j, "held_ns", (int64_t)w->held_ns);
	if (w->limit >= 0) {
		rt_json_str(j, "limit", trace_limit_names[w->limit]);
		rt_json_int(j, "limited_ns", (int64_t)w->limited_ns);
	}
	rt_json_int(j, "moves", w->moves);
	if (w->boosted)
		rt_json_int(j, "boosted_ns", (int64_t)w->boost_ts);
	rt_json_end(j);
}

/* "watch": the figures, the thresholds, the crossings kept, the windows. */
void bench_live_json(struct rt_json *j, const struct bench_live *l)
{
	struct rt_hist_sum s;
	char buf[PATH_MAX + 600];
	int i, k;

	rt_json_object(j, "watch");
	rt_json_int(j, "events", (int64_t)l->events);
	rt_json_int(j, "lost", (int64_t)l->lost);
	rt_json_object(j, "waits");
	for (k = 0; k < TRACE_WAITS; k++) {
		rt_json_object(j, trace_wait_names[k]);
		rt_hist_summarise(&l->fig[k].hist, &s);
		rt_hist_json(j, &s);
		if (l->fig[k].count) {
			json_wait(j, "longest", &l->fig[k].worst);
			rt_json_str(j, "explanation", l->worst_words[k]);
		}
		rt_json_end(j);
	}
	rt_json_end(j);
	rt_json_array(j, "thresholds");
	for (i = 0; i < l->nrules; i++) {
		const struct live_rule *r = &l->rules[i];

		rt_json_object(j, NULL);
		rt_json_str(j, "spec", r->spec);
		rt_json_bool(j, "on_end", r->at_end);
		if (!r->at_end) {
			rt_json_str(j, "what", trace_wait_names[r->what]);
			rt_json_int(j, "threshold_ns", r->ns);
		}
		rt_json_str(j, "action", live_action_names[r->act]);
		rt_json_int(j, "crossed", (int64_t)r->crossed);
		rt_json_int(j, "acted", (int64_t)r->acted);
		rt_json_int(j, "not_acted", (int64_t)r->skipped);
		rt_json_end(j);
	}
	rt_json_end(j);
	rt_json_int(j, "crossings", (int64_t)l->crossings);
	rt_json_array(j, "crossings_kept");
	for (k = 0; k < l->nkept; k++) {
		const struct live_crossing *c = &l->kept[k];

		rt_json_object(j, NULL);
		rt_json_int(j, "run", c->run + 1);
		rt_json_str(j, "threshold", l->rules[c->rule].spec);
		json_wait(j, "wait", &c->wait);
		rt_json_str(j, "explanation", c->words);
		if (c->window >= 0 && !l->windows[c->window].status)
			rt_json_str(j, "window", l->windows[c->window].path);
		rt_json_end(j);
	}
	rt_json_end(j);
	rt_json_array(j, "windows");
	for (k = 0; k < l->nwindows; k++) {
		const struct live_window *w = &l->windows[k];

		rt_json_object(j, NULL);
		rt_json_str(j, "path", w->path);
		rt_json_bool(j, "saved", !w->status);
		rt_json_bool(j, "on_end", w->at_end);
		if (w->status)
			rt_json_str(j, "why", window_words(w, buf, sizeof(buf)));
		rt_json_end(j);
	}
	rt_json_end(j);
	rt_json_end(j);
}

