// SPDX-License-Identifier: GPL-2.0-only
/*
 * A wait said in words (explain.h). Kernel priorities are turned back into
 * the user's: an RT task of SCHED_FIFO priority p runs at kernel priority
 * 99 - p.
 */
#include <stdio.h>
#include <string.h>

#include "trace/explain.h"
#include "trace/internal/walk_state.h"

/* Kernel threads' names, for a task /proc no longer knows (a trace read later). */
bool trace_comm_kthread(const char *comm)
{
	static const char *const prefixes[] = { "kworker/", "ksoftirqd/", "migration/", "rcu",
						"watchdog/", "irq/", "cpuhp/", "kthreadd",
						"idle_inject/", "khugepaged", "kswapd", "kcompactd" };
	size_t i;

	for (i = 0; comm && i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(comm, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/**
 * trace_class_words - the scheduling class of a task at kernel priority
 * @prio, in words ("an RT task of priority 98", "a fair kernel thread"...),
 * written to @buf
 */
const char *trace_class_words(int prio, const struct trace_holder *h, char *buf, size_t len)
{
	bool irq = h->comm && !strncmp(h->comm, "irq/", 4);

	if (prio == TRACE_PRIO_STOP)
		snprintf(buf, len, "the stopper (the stop class, above every RT task)");
	else if (prio == -1)
		snprintf(buf, len, "a deadline task");
	else if (TRACE_PRIO_IS_RT(prio))
		snprintf(buf, len, "%s %d",
			 irq ? "an IRQ thread of RT priority" :
			 h->kthread ? "a kernel thread of RT priority" : "an RT task of priority",
			 99 - prio);
	else if (prio >= TRACE_PRIO_RT_MAX && prio < TRACE_PRIO_IDLE)
		snprintf(buf, len, "a fair %s (nice %d)", h->kthread ? "kernel thread" : "task",
			 prio - 120);
	else
		snprintf(buf, len, "a task of unknown class");
	return buf;
}

static const char *const limit_words[TRACE_LIMITS] = {
	[TRACE_LIMIT_THROTTLED] = "RT throttling held that CPU (its RT tasks had used their "
				  "runtime of the period)",
	[TRACE_LIMIT_FAIR_SERVER] = "the fair server held that CPU for its fair tasks",
	[TRACE_LIMIT_EITHER] = "the kernel's RT bandwidth limit (RT throttling or the fair "
			       "server, which the trace cannot tell) held that CPU",
};

/* What ran on the CPU: "stall (pid 999), an RT task of priority 99" */
static void holder_words(const struct trace_wait *w, const struct trace_holder *h, char *buf,
			 size_t len)
{
	char cls[96];

	if (w->holder == 0)
		snprintf(buf, len, "nothing (it was idle)");
	else if (w->holder < 0)
		snprintf(buf, len, "a task the trace did not show");
	else
		snprintf(buf, len, "%s (pid %d), %s", h->comm ? h->comm : "?", (int)w->holder,
			 trace_class_words(w->holder_prio, h, cls, sizeof(cls)));
}

/**
 * trace_wait_explain - @w in one sentence, @h what is known of the task
 * that held the CPU it waited for
 */
void trace_wait_explain(const struct trace_wait *w, const struct trace_holder *h, char *buf,
			size_t len)
{
	double ms = (double)(w->end - w->start) / 1e6, at = (double)w->start / 1e9;
	char who[256], held[64] = "", limit[560] = "", moved[200] = "", boost[120] = "";
	int rt = TRACE_PRIO_IS_RT(w->prio) ? 99 - w->prio : -1;

	holder_words(w, h, who, sizeof(who));
	if (w->held_ns)
		snprintf(held, sizeof(held), " for %.3f ms of it", (double)w->held_ns / 1e6);
	if (w->limit >= 0 && w->limit < TRACE_LIMITS && w->limited_ns)
		snprintf(limit, sizeof(limit), "; %s for %.3f ms", limit_words[w->limit],
			 (double)w->limited_ns / 1e6);
	else if (w->limit >= 0 && w->limit < TRACE_LIMITS)
		snprintf(limit, sizeof(limit), "; %s", limit_words[w->limit]);
	if (w->moves)
		snprintf(moved, sizeof(moved), "; it was moved %d time%s as it waited, the last from "
			 "CPU %d to CPU %d at %.6f s (%s)", w->moves, w->moves == 1 ? "" : "s",
			 w->move_from, w->move_to, (double)w->move_ts / 1e9,
			 w->woken ? "placed as it woke, or pushed or pulled" : "pushed or pulled");
	if (w->boosted)
		snprintf(boost, sizeof(boost), "; a PI boost raised it at %.6f s, %.3f ms before it ran",
			 (double)w->boost_ts / 1e9, (double)(w->end - w->boost_ts) / 1e6);
	strncat(limit, moved, sizeof(limit) - strlen(limit) - 1);
	strncat(limit, boost, sizeof(limit) - strlen(limit) - 1);
	switch (w->kind) {
	case TRACE_WAIT_PLACEMENT:
		snprintf(buf, len, "thread %d (RT priority %d) waited %.3f ms from %.6f s while CPU "
			 "%d, which it may use, ran %s%s", (int)w->tid, rt, ms, at, w->cpu, who,
			 limit);
		break;
	case TRACE_WAIT_WAKEUP:
		snprintf(buf, len, "thread %d (RT priority %d) woke at %.6f s and ran %.3f ms later "
			 "on CPU %d, which %s ran %s%s%s", (int)w->tid, rt, at, ms, w->cpu,
			 w->held_ns ? "in that time" : "until then", who, held, limit);
		break;
	case TRACE_WAIT_RUNNABLE:
		snprintf(buf, len, "thread %d (RT priority %d) was runnable from %.6f s and ran "
			 "%.3f ms later on CPU %d, which %s ran %s%s%s", (int)w->tid, rt, at, ms,
			 w->cpu, w->held_ns ? "in that time" : "until then", who, held, limit);
		break;
	default:
		snprintf(buf, len, "thread %d was PI-boosted to RT priority %d at %.6f s while it "
			 "waited for a CPU, and ran %.3f ms later on CPU %d; in its wait, from "
			 "%.6f s, that CPU ran %s%s%s", (int)w->tid, rt, at, ms, w->cpu,
			 (double)w->runnable_since / 1e9, who, held, limit);
		break;
	}
}
