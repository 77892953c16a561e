// SPDX-License-Identifier: GPL-2.0-only
/*
 * The waits a watch is told of (trace_sched_walk_waits), on synthetic
 * events with known answers, and their words (trace_wait_explain).
 */
#include <string.h>

/* a test of the trace layer's internals: its scheduler walk */
#include "trace/internal/walk.h"
#include "trace/explain.h"
#include "harness.h"

#define US 1000ULL
#define PREEMPTED 0x100	/* "R+" */
#define SLEEP 1		/* "S" */

static struct trace_event sw(uint64_t ts, int cpu, int prev, int pprio, long state, int next,
			     int nprio)
{
	return (struct trace_event){ .ts = ts, .cpu = cpu, .type = TRACE_EV_SWITCH, .pid = prev,
				     .prio = pprio, .arg = state, .pid2 = next, .prio2 = nprio };
}

static struct trace_event ev(uint64_t ts, int cpu, int type, int pid, int prio, long arg)
{
	return (struct trace_event){ .ts = ts, .cpu = cpu, .type = type, .pid = pid, .prio = prio,
				     .arg = arg };
}

struct seen {
	struct trace_wait w[16];
	int n;
};

static void told(const struct trace_wait *w, void *ctx)
{
	struct seen *s = ctx;

	if (s->n < 16)
		s->w[s->n++] = *w;
}

/* The waits of thread 101 (kernel prio 98, RT 1) in @e, on one CPU. */
static void walk(const struct trace_event *e, size_t n, enum rt_bw_regime regime, struct seen *s)
{
	struct trace_task t;
	struct trace_sched_walk *w;
	size_t i;

	trace_task_init(&t, 101, 0, 1000000 * US);
	w = trace_sched_walk_new(&t, 1, NULL, NULL);
	trace_sched_walk_regime(w, regime, 0);
	trace_sched_walk_waits(w, told, s);
	for (i = 0; i < n; i++)
		trace_sched_walk_feed(w, &e[i]);
	trace_sched_walk_free(w);
}

static const struct trace_wait *find(const struct seen *s, enum trace_wait_kind k)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->w[i].kind == k)
			return &s->w[i];
	return NULL;
}

TEST(preempted_by_a_higher_task)
{
	/* 101 runs, 300 (RT 99) takes the CPU for 30 ms, 101 runs again */
	const struct trace_event e[] = {
		sw(10 * US, 1, 0, 120, 0, 101, 98),
		sw(100 * US, 1, 101, 98, PREEMPTED, 300, 0),
		sw(30100 * US, 1, 300, 0, SLEEP, 101, 98),
	};
	struct seen s = { 0 };
	const struct trace_wait *r;

	walk(e, 3, RT_BW_NEITHER, &s);
	r = find(&s, TRACE_WAIT_RUNNABLE);
	ASSERT_TRUE(r != NULL);
	EXPECT_EQ(r->end - r->start, 30000 * US);
	EXPECT_EQ(r->holder, 300);
	EXPECT_EQ(r->holder_prio, 0);
	EXPECT_EQ(r->held_ns, 30000 * US);
	EXPECT_EQ(r->limit, -1);
	EXPECT_TRUE(find(&s, TRACE_WAIT_WAKEUP) == NULL);	/* it did not wake */
}

TEST(woken_behind_the_longest_holder)
{
	/* 101 wakes while 300 runs 5 ms, then 301 20 ms, then 302 1 ms: 301 held it longest */
	const struct trace_event e[] = {
		sw(10 * US, 1, 101, 98, SLEEP, 300, 10),
		ev(1000 * US, 1, TRACE_EV_WAKING, 101, 98, 1),
		sw(6000 * US, 1, 300, 10, SLEEP, 301, 5),
		sw(26000 * US, 1, 301, 5, SLEEP, 302, 3),
		sw(27000 * US, 1, 302, 3, SLEEP, 101, 98),
	};
	struct seen s = { 0 };
	const struct trace_wait *r;

	walk(e, 5, RT_BW_NEITHER, &s);
	r = find(&s, TRACE_WAIT_WAKEUP);
	ASSERT_TRUE(r != NULL);
	EXPECT_EQ(r->end - r->start, 26000 * US);
	EXPECT_EQ(r->holder, 301);
	EXPECT_EQ(r->held_ns, 20000 * US);
	ASSERT_TRUE(find(&s, TRACE_WAIT_RUNNABLE) != NULL);
	EXPECT_EQ(find(&s, TRACE_WAIT_RUNNABLE)->end - find(&s, TRACE_WAIT_RUNNABLE)->start,
		  26000 * US);
}

TEST(a_holder_interrupted_adds_up)
{
	/* 300 holds 17 ms, a kworker (500) 0.05 ms, 300 again 13 ms: 300 held it 30 ms */
	const struct trace_event e[] = {
		sw(10 * US, 1, 0, 120, 0, 101, 98),
		sw(100 * US, 1, 101, 98, PREEMPTED, 300, 0),
		sw(17100 * US, 1, 300, 0, PREEMPTED, 500, 120),
		sw(17150 * US, 1, 500, 120, SLEEP, 300, 0),
		sw(30150 * US, 1, 300, 0, SLEEP, 101, 98),
	};
	struct seen s = { 0 };
	const struct trace_wait *r;

	walk(e, 5, RT_BW_NEITHER, &s);
	r = find(&s, TRACE_WAIT_RUNNABLE);
	ASSERT_TRUE(r != NULL);
	EXPECT_EQ(r->holder, 300);
	EXPECT_EQ(r->held_ns, 30000 * US);
}

TEST(pushed_and_boosted_while_waiting)
{
	/*
	 * 101 preempted on CPU 1 by 300; boosted by PI at 5 ms; pushed to
	 * CPU 0 at 8 ms, where it runs at 9 ms
	 */
	const struct trace_event e[] = {
		sw(10 * US, 1, 0, 120, 0, 101, 98),
		sw(100 * US, 1, 101, 98, PREEMPTED, 300, 10),
		(struct trace_event){ .ts = 5000 * US, .cpu = 1, .type = TRACE_EV_PI, .pid = 101,
				      .prio = 98, .prio2 = 20 },
		(struct trace_event){ .ts = 8000 * US, .cpu = 1, .type = TRACE_EV_MIGRATE,
				      .pid = 101, .prio = 20, .arg = 1, .arg2 = 0 },
		sw(9000 * US, 0, 0, 120, 0, 101, 20),
	};
	struct seen s = { 0 };
	struct trace_holder h = { .comm = "hi" };
	const struct trace_wait *r;
	char words[1024];

	walk(e, 5, RT_BW_NEITHER, &s);
	r = find(&s, TRACE_WAIT_RUNNABLE);
	ASSERT_TRUE(r != NULL);
	EXPECT_EQ(r->moves, 1);
	EXPECT_EQ(r->move_from, 1);
	EXPECT_EQ(r->move_to, 0);
	EXPECT_TRUE(r->boosted);
	trace_wait_explain(r, &h, words, sizeof(words));
	EXPECT_CONTAINS(words, "it was moved 1 time as it waited, the last from CPU 1 to CPU 0 at "
			"0.008000 s (pushed or pulled)");
	EXPECT_CONTAINS(words, "a PI boost raised it at 0.005000 s, 4.000 ms before it ran");
	ASSERT_TRUE(find(&s, TRACE_WAIT_BOOST) != NULL);
	EXPECT_EQ(find(&s, TRACE_WAIT_BOOST)->end - find(&s, TRACE_WAIT_BOOST)->start, 4000 * US);
}

TEST(throttled_to_a_fair_hog)
{
	/* 101 runnable leaves the CPU to hog (fair, 400) for 50 ms: RT throttling */
	const struct trace_event e[] = {
		sw(10 * US, 1, 0, 120, 0, 101, 98),
		sw(100 * US, 1, 101, 98, PREEMPTED, 400, 120),
		sw(50100 * US, 1, 400, 120, PREEMPTED, 101, 98),
	};
	struct seen s = { 0 };
	const struct trace_wait *r;
	struct trace_holder h = { .comm = "hog", .kthread = false };
	char words[512];

	walk(e, 3, RT_BW_THROTTLING, &s);
	r = find(&s, TRACE_WAIT_RUNNABLE);
	ASSERT_TRUE(r != NULL);
	EXPECT_EQ(r->holder, 400);
	EXPECT_EQ(r->limit, TRACE_LIMIT_THROTTLED);
	EXPECT_EQ(r->limited_ns, 50000 * US);
	trace_wait_explain(r, &h, words, sizeof(words));
	EXPECT_CONTAINS(words, "ran hog (pid 400), a fair task (nice 0) for 50.000 ms");
	EXPECT_CONTAINS(words, "RT throttling held that CPU");
}

TEST(an_rt_holder_is_no_limit)
{
	/*
	 * A fair task takes the CPU under the fair server and turns RT
	 * unseen (sched_setscheduler has no event): the time it holds as an
	 * RT task, as its switch out says, is not the limit's.
	 */
	const struct trace_event e[] = {
		sw(10 * US, 1, 0, 120, 0, 101, 98),
		sw(100 * US, 1, 101, 98, PREEMPTED, 300, 120),
		sw(30100 * US, 1, 300, 0, SLEEP, 101, 98),
	};
	struct seen s = { 0 };
	const struct trace_wait *r;

	walk(e, 3, RT_BW_FAIR_SERVER, &s);
	r = find(&s, TRACE_WAIT_RUNNABLE);
	ASSERT_TRUE(r != NULL);
	EXPECT_EQ(r->holder, 300);
	EXPECT_EQ(r->limited_ns, 0);
}

TEST(words_of_the_classes)
{
	struct trace_holder plain = { .comm = "x" }, kt = { .comm = "ksoftirqd/1", .kthread = true },
			    irq = { .comm = "irq/9-acpi", .kthread = true };
	char b[128];

	EXPECT_STR(trace_class_words(0, &plain, b, sizeof(b)), "an RT task of priority 99");
	EXPECT_STR(trace_class_words(49, &irq, b, sizeof(b)), "an IRQ thread of RT priority 50");
	EXPECT_STR(trace_class_words(120, &kt, b, sizeof(b)), "a fair kernel thread (nice 0)");
	EXPECT_STR(trace_class_words(-1, &plain, b, sizeof(b)), "a deadline task");
	EXPECT_STR(trace_class_words(-2, &plain, b, sizeof(b)),
		     "the stopper (the stop class, above every RT task)");
}

