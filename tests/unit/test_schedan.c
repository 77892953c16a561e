// SPDX-License-Identifier: GPL-2.0-only
/* The trace analysis on synthetic event sequences with known answers. */
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

/* a test of the trace layer's internals: its scheduler walk */
#include "trace/internal/walk.h"
#include "harness.h"

#define US 1000ULL
#define PREEMPTED 0x100	/* "R+" */
#define SLEEP 1		/* "S" */

/* benchmark threads 101 (low, kernel prio 98) and 102 (high, kernel prio 97); 200 a kthread */
static enum trace_preemptor classify(pid_t pid, void *ctx)
{
	(void)ctx;
	return pid == 200 ? TRACE_BY_KTHREAD : TRACE_BY_OTHER;
}

static struct trace_event sw(uint64_t ts, int cpu, int prev, int pprio, long state, int next, int nprio)
{
	return (struct trace_event){ .ts = ts, .cpu = cpu, .type = TRACE_EV_SWITCH, .pid = prev,
				.prio = pprio, .arg = state, .pid2 = next, .prio2 = nprio };
}

static struct trace_event ev(uint64_t ts, int cpu, int type, int pid, int prio, long arg, int arg2)
{
	return (struct trace_event){ .ts = ts, .cpu = cpu, .type = type, .pid = pid, .prio = prio,
				.arg = arg, .arg2 = arg2 };
}

static void analyse(const struct trace_event *e, size_t n, struct trace_task *t)
{
	trace_task_init(&t[0], 101, 0, 1000000 * US);
	trace_task_init(&t[1], 102, 0, 1000000 * US);
	trace_sched_analyse(e, n, t, 2, classify, NULL);
}

TEST(commit_case)
{
	struct trace_task t[2];
	/*
	 * The commit's case: high (102) last ran on CPU 0 and sleeps;
	 * low (101) runs there and wakes it; high is placed on CPU 1.
	 */
	const struct trace_event e[] = {
		sw(10 * US, 0, 0, 120, 0, 102, 97),
		sw(20 * US, 0, 102, 97, SLEEP, 101, 98),
		ev(30 * US, 0, TRACE_EV_WAKING, 102, 97, 0, 0),
		ev(31 * US, 0, TRACE_EV_MIGRATE, 102, 97, 0, 1),
		ev(32 * US, 0, TRACE_EV_WAKEUP, 102, 97, 1, 0),
		sw(40 * US, 1, 0, 120, 0, 102, 97),
	};

	analyse(e, 6, t);
	EXPECT_EQ(t[1].migrations, 1);	/* commit's case: one migration */
	EXPECT_EQ(t[1].mig_wakeup, 1);	/* at wake-up */
	EXPECT_EQ(t[1].mig_lower_rt, 1);	/* while its CPU ran a lower priority RT task */
	EXPECT_EQ(t[1].mig_equal_rt, 0);	/* not an equal one */
	EXPECT_EQ(t[1].wakeup_latency.count, 1);	/* one wake-up latency */
	EXPECT_EQ(t[1].wakeup_latency.max, 10 * US);	/* of 10 us (waking to running) */
	EXPECT_EQ(t[1].runnable_ns, 10 * US);	/* which is its runnable time */
	EXPECT_EQ(t[0].migrations, 0);	/* the waker did not migrate */
}

TEST(wakeup_migration_from_idle_cpu)
{
	struct trace_task t[2];
	/* A plain wake-up migration: its old CPU idles (CFS idle, prio 120). */
	const struct trace_event e[] = {
		sw(10 * US, 0, 0, 120, 0, 102, 97),
		sw(20 * US, 0, 102, 97, SLEEP, 0, 120),
		ev(30 * US, 1, TRACE_EV_WAKING, 102, 97, 1, 0),
		ev(31 * US, 1, TRACE_EV_MIGRATE, 102, 97, 0, 1),
		sw(35 * US, 1, 0, 120, 0, 102, 97),
	};

	analyse(e, 5, t);
	EXPECT(t[1].mig_wakeup == 1 && t[1].mig_lower_rt == 0 && t[1].mig_equal_rt == 0, "a wake-up migration from an idle CPU is not the commit's case");
}

TEST(push_while_runnable)
{
	struct trace_task t[2];
	/*
	 * A push: low (101) is preempted on CPU 0 by high (102), stays
	 * runnable and is pushed to CPU 1; then a kthread preempts it
	 * there, and the CPU idles with it runnable (throttling).
	 */
	const struct trace_event e[] = {
		sw(10 * US, 0, 0, 120, 0, 101, 98),
		sw(20 * US, 0, 101, 98, PREEMPTED, 102, 97),
		ev(25 * US, 1, TRACE_EV_MIGRATE, 101, 98, 0, 1),
		sw(30 * US, 1, 0, 120, 0, 101, 98),
		sw(50 * US, 1, 101, 98, PREEMPTED, 200, 0),
		sw(60 * US, 1, 200, 0, SLEEP, 101, 98),
		sw(70 * US, 1, 101, 98, 0, 0, 120),
		sw(90 * US, 1, 0, 120, 0, 101, 98),
	};

	analyse(e, 8, t);
	EXPECT_EQ(t[0].migrations, 1);	/* a push: one migration */
	EXPECT_EQ(t[0].mig_runnable, 1);	/* while runnable */
	EXPECT_EQ(t[0].mig_wakeup, 0);	/* not at wake-up */
	EXPECT_EQ(t[0].preempted[TRACE_BY_BENCH], 1);	/* preempted once by a benchmark thread */
	EXPECT_EQ(t[0].preempted[TRACE_BY_KTHREAD], 1);	/* once by a kernel thread */
	EXPECT_EQ(t[0].preempted[TRACE_BY_THROTTLED], 1);	/* once by nobody: throttled, as it idled */
	EXPECT_EQ(t[0].runnable_ns, (10 + 10 + 20) * US);	/* runnable 10 + 10 + 20 us */
	EXPECT_EQ(t[0].wakeup_latency.count, 0);	/* no wake-up, no wake-up latency */
}

TEST(pi_boost_owner_case)
{
	struct trace_task t[2];
	/*
	 * The article's last case and a PI boost: high blocks on the
	 * lock low holds on CPU 0; low is boosted to high's priority;
	 * low wakes high while running at that priority, and high is
	 * placed elsewhere. Low is unboosted after.
	 */
	const struct trace_event e[] = {
		sw(10 * US, 0, 0, 120, 0, 102, 97),
		sw(20 * US, 0, 102, 97, SLEEP, 101, 98),
		ev(21 * US, 0, TRACE_EV_PI, 101, 98, 0, 0),
		ev(30 * US, 0, TRACE_EV_WAKING, 102, 97, 0, 0),
		ev(31 * US, 0, TRACE_EV_MIGRATE, 102, 97, 0, 1),
		ev(32 * US, 0, TRACE_EV_PI, 101, 97, 0, 0),
		sw(40 * US, 1, 0, 120, 0, 102, 97),
	};
	struct trace_event boost[7];

	memcpy(boost, e, sizeof(e));
	boost[2].prio2 = 97;	/* 98 -> 97: a boost */
	boost[5].prio2 = 98;	/* 97 -> 98: the end of it */
	/* the switch-in of low at 20 us recorded it at 98; the boost makes it 97 */
	boost[1].prio2 = 98;
	analyse(boost, 7, t);
	EXPECT_EQ(t[0].pi_boosts, 1);	/* PI: one boost received, the unboost not counted */
	EXPECT_EQ(t[1].mig_wakeup, 1);	/* a wake-up migration away from the lock owner */
	EXPECT(t[1].mig_equal_rt == 1 && t[1].mig_lower_rt == 0, "counted as the owner's case: the boost raised the CPU's task to 97");
}

TEST(boost_latency)
{
	struct trace_task t[2];
	/*
	 * Low (101) holds a lock and is preempted on CPU 0 by a kthread; high
	 * (102) blocks on the lock on CPU 1 and low is boosted while it waits
	 * for a CPU: 50 us later it runs. Then a boost while it runs, and one
	 * while it sleeps: neither is a wait for a CPU.
	 */
	struct trace_event e[] = {
		sw(10 * US, 0, 0, 120, 0, 101, 98),
		sw(20 * US, 0, 101, 98, PREEMPTED, 200, 50),
		sw(25 * US, 1, 0, 120, 0, 102, 97),
		sw(30 * US, 1, 102, 97, SLEEP, 0, 120),
		ev(31 * US, 1, TRACE_EV_PI, 101, 98, 0, 0),
		sw(81 * US, 1, 0, 120, 0, 101, 97),
		ev(90 * US, 1, TRACE_EV_PI, 101, 97, 0, 0),
		ev(91 * US, 1, TRACE_EV_PI, 101, 98, 0, 0),
		sw(95 * US, 1, 101, 98, SLEEP, 0, 120),
		ev(96 * US, 1, TRACE_EV_PI, 101, 98, 0, 0),
	};

	e[4].prio2 = 97;	/* 98 -> 97 while preempted: the boost measured */
	e[6].prio2 = 98;	/* 97 -> 98: its end */
	e[7].prio2 = 97;	/* raised while running: no wait */
	e[9].prio2 = 97;	/* raised while asleep: its wake-up latency says the rest */
	analyse(e, 10, t);
	EXPECT_EQ(t[0].pi_boosts, 3);
	EXPECT_EQ(t[0].boost_latency.count, 1);	/* only the boost that found it waiting */
	EXPECT_EQ(t[0].boost_latency.max, 50 * US);	/* 31 us to 81 us */
	EXPECT_EQ(t[1].boost_latency.count, 0);
}

TEST(owner_at_high_priority)
{
	struct trace_task t[2];
	/* The owner ran at high's priority when it woke high (as the switch says). */
	const struct trace_event e[] = {
		sw(10 * US, 0, 0, 120, 0, 102, 97),
		sw(20 * US, 0, 102, 97, SLEEP, 101, 97),
		ev(30 * US, 0, TRACE_EV_WAKING, 102, 97, 0, 0),
		ev(31 * US, 0, TRACE_EV_MIGRATE, 102, 97, 0, 1),
		sw(40 * US, 1, 0, 120, 0, 102, 97),
	};

	analyse(e, 5, t);
	EXPECT(t[1].mig_equal_rt == 1 && t[1].mig_lower_rt == 0, "woken where an RT task of its own priority ran: the PI-boosted owner case");
}

TEST(window_counts_inside_only)
{
	struct trace_task t[2];
	/* Windows: a migration before the window is followed but not counted. */
	const struct trace_event e[] = {
		ev(5 * US, 1, TRACE_EV_MIGRATE, 101, 98, 0, 1),
		ev(50 * US, 0, TRACE_EV_MIGRATE, 101, 98, 1, 0),
	};

	trace_task_init(&t[0], 101, 10 * US, 100 * US);
	trace_sched_analyse(e, 2, t, 1, NULL, NULL);
	EXPECT_EQ(t[0].migrations, 1);	/* only the migration inside the window counts */
	EXPECT_EQ(t[0].cpu, 0);	/* and the CPU is followed throughout */
}

TEST(out_of_order_refused)
{
	struct trace_task t[2];
	const struct trace_event e[] = {
		ev(50 * US, 0, TRACE_EV_MIGRATE, 101, 98, 1, 0),
		ev(40 * US, 0, TRACE_EV_MIGRATE, 101, 98, 0, 1),
	};

	trace_task_init(&t[0], 101, 0, 100 * US);
	EXPECT_EQ(trace_sched_analyse(e, 2, t, 1, NULL, NULL), -EINVAL);	/* events out of time order are refused */
}

TEST(switches_left_out)
{
	struct trace_task t[2];
	/*
	 * A kernel that leaves out the idle CPU's switch to the task: high
	 * wakes three times and sleeps three times, but only its first
	 * switch in was recorded. One latency sample of three wake-ups;
	 * one switch in for three out.
	 */
	const struct trace_event e[] = {
		ev(10 * US, 1, TRACE_EV_WAKING, 102, 97, 1, 0),
		sw(12 * US, 1, 0, 120, 0, 102, 97),
		sw(20 * US, 1, 102, 97, SLEEP, 0, 120),
		ev(30 * US, 1, TRACE_EV_WAKING, 102, 97, 1, 0),
		sw(40 * US, 1, 102, 97, SLEEP, 0, 120),
		ev(50 * US, 1, TRACE_EV_WAKING, 102, 97, 1, 0),
		sw(60 * US, 1, 102, 97, SLEEP, 0, 120),
	};

	analyse(e, 7, t);
	EXPECT_EQ(t[1].wakeups, 3);	/* switches left out: three wake-ups counted */
	EXPECT_EQ(t[1].wakeup_latency.count, 1);	/* one latency sample, the one switch in */
	EXPECT_EQ(t[1].switches_in, 1);	/* one switch in */
	EXPECT_EQ(t[1].switches_out, 3);	/* three switches out */
}

TEST(walk_fed_one_by_one_equals_the_whole)
{
	const struct trace_event e[] = {
		sw(10 * US, 0, 0, 120, 0, 102, 97),
		sw(20 * US, 0, 102, 97, SLEEP, 101, 98),
		ev(30 * US, 0, TRACE_EV_WAKING, 102, 97, 0, 0),
		ev(31 * US, 0, TRACE_EV_MIGRATE, 102, 97, 0, 1),
		sw(40 * US, 1, 0, 120, 0, 102, 97),
		sw(50 * US, 0, 101, 98, PREEMPTED, 200, 0),
		ev(55 * US, 1, TRACE_EV_MIGRATE, 101, 98, 0, 1),
	};
	struct trace_task whole[2], fed[2];
	struct trace_sched_walk *w;
	size_t i;

	analyse(e, 7, whole);
	trace_task_init(&fed[0], 101, 0, 1000000 * US);
	trace_task_init(&fed[1], 102, 0, 1000000 * US);
	w = trace_sched_walk_new(fed, 2, classify, NULL);
	ASSERT_TRUE(w != NULL);
	for (i = 0; i < 7; i++)
		EXPECT_EQ(trace_sched_walk_feed(w, &e[i]), 0);
	trace_sched_walk_free(w);
	EXPECT(!memcmp(whole, fed, sizeof(whole)), "the same figures, field for field");
	EXPECT_EQ(fed[1].mig_lower_rt, 1);
	EXPECT_EQ(fed[0].preempted[TRACE_BY_KTHREAD], 1);
}

TEST(walk_refuses_an_earlier_event)
{
	const struct trace_event later = ev(50 * US, 0, TRACE_EV_MIGRATE, 101, 98, 1, 0);
	const struct trace_event earlier = ev(40 * US, 0, TRACE_EV_MIGRATE, 101, 98, 0, 1);
	struct trace_task t;
	struct trace_sched_walk *w;

	trace_task_init(&t, 101, 0, 100 * US);
	w = trace_sched_walk_new(&t, 1, NULL, NULL);
	ASSERT_TRUE(w != NULL);
	EXPECT_EQ(trace_sched_walk_feed(w, &later), 0);
	EXPECT_EQ(trace_sched_walk_feed(w, &earlier), -EINVAL);
	EXPECT_EQ(t.migrations, 1);	/* the refused one is not counted */
	trace_sched_walk_free(w);
}

/* Two million events through a walk: the memory in use does not grow with them. */
TEST_TIMEOUT(walk_memory_does_not_grow_with_events, 30)
{
	struct trace_task t[2];
	struct trace_sched_walk *w;
	size_t before, after;
	uint64_t i;

	trace_task_init(&t[0], 101, 0, UINT64_MAX);
	trace_task_init(&t[1], 102, 0, UINT64_MAX);
	w = trace_sched_walk_new(t, 2, classify, NULL);
	ASSERT_TRUE(w != NULL);
	before = mallinfo2().uordblks;
	for (i = 0; i < 500000; i++) {
		/* high sleeps on CPU 0 where low runs, low wakes it, it goes to CPU 1 */
		const uint64_t ts = i * 40;
		const struct trace_event e[] = {
			sw(ts + 10, 0, 102, 97, SLEEP, 101, 98),
			ev(ts + 20, 0, TRACE_EV_WAKING, 102, 97, 0, 0),
			ev(ts + 30, 0, TRACE_EV_MIGRATE, 102, 97, 0, 1),
			sw(ts + 40, 1, 0, 120, 0, 102, 97),
		};
		size_t k;

		for (k = 0; k < 4; k++)
			trace_sched_walk_feed(w, &e[k]);
	}
	after = mallinfo2().uordblks;
	trace_sched_walk_free(w);
	EXPECT_EQ(t[1].migrations, 500000);
	EXPECT_EQ(t[1].mig_lower_rt, 500000);
	EXPECT_EQ(t[1].wakeup_latency.count, 500000);
	EXPECT(after <= before + 4096, "%zu bytes more in use after 2 million events", after - before);
}

/*
 * A walk finds each event's task by thread id, whatever order the caller
 * gives the tasks in (a run's threads are not created in id order): 200
 * tasks of scrambled ids, task k migrated k % 5 times; a second task of an
 * id already given counts nothing (the first of that id does).
 */
TEST(tasks_found_by_id_in_any_order)
{
	enum { N = 200 };
	static struct trace_task t[N + 1];
	struct trace_sched_walk *w;
	uint64_t ts = 0;
	size_t k, m, wrong = 0;

	for (k = 0; k < N; k++)
		trace_task_init(&t[k], 1000 + (pid_t)((k * 7919) % N), 0, UINT64_MAX);
	trace_task_init(&t[N], t[3].tid, 0, UINT64_MAX);
	w = trace_sched_walk_new(t, N + 1, NULL, NULL);
	ASSERT_TRUE(w != NULL);
	for (k = 0; k < N; k++) {
		for (m = 0; m < k % 5; m++) {
			const struct trace_event e = ev(++ts, 0, TRACE_EV_MIGRATE, t[k].tid, 98, 0, 1);

			EXPECT_EQ(trace_sched_walk_feed(w, &e), 0);
		}
	}
	trace_sched_walk_free(w);
	for (k = 0; k < N; k++)
		wrong += t[k].migrations != k % 5;
	EXPECT_EQ(wrong, 0);
	EXPECT_EQ(t[N].migrations, 0);
}

/*
 * Migrations by distance on a machine of two nodes, each a core of two
 * threads (CPUs 0-1 and 2-3) sharing an L3 with a second core (CPUs 4-5 and
 * 6-7): a move to the sibling, within the cache, across nodes; without the
 * topology, none are counted by distance.
 */
TEST(migrations_by_distance)
{
	struct rt_cpu_place cpu[8];
	int distance[4] = { 10, 20, 20, 10 };
	struct rt_topology topo = { .nr_cpus = 8, .cpu = cpu, .cache_level = 3, .nr_nodes = 2,
				    .distance = distance };
	const struct trace_event e[] = {
		ev(10 * US, 0, TRACE_EV_MIGRATE, 101, 98, 0, 1),	/* sibling */
		ev(20 * US, 1, TRACE_EV_MIGRATE, 101, 98, 1, 4),	/* the same L3 */
		ev(30 * US, 4, TRACE_EV_MIGRATE, 101, 98, 4, 2),	/* to the other node */
		ev(40 * US, 2, TRACE_EV_MIGRATE, 101, 98, 2, 6),	/* its L3 */
	};
	struct trace_task t, bare;
	struct trace_sched_walk *w;
	size_t i;
	int c;

	for (c = 0; c < 8; c++)
		cpu[c] = (struct rt_cpu_place){ .core = c & ~1, .cache = c < 2 || (c >= 4 && c < 6) ? 0 : 2,
						.package = (c / 2) % 2, .node = (c / 2) % 2 };
	trace_task_init(&t, 101, 0, 100 * US);
	trace_task_init(&bare, 101, 0, 100 * US);
	w = trace_sched_walk_new(&t, 1, NULL, NULL);
	ASSERT_TRUE(w != NULL);
	trace_sched_walk_topology(w, &topo);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(trace_sched_walk_feed(w, &e[i]), 0);
	trace_sched_walk_free(w);
	EXPECT_EQ(t.migrations, 4);
	EXPECT_EQ(t.mig_distance[RT_DIST_SIBLING], 1);
	EXPECT_EQ(t.mig_distance[RT_DIST_CACHE], 2);
	EXPECT_EQ(t.mig_distance[RT_DIST_NODE], 0);
	EXPECT_EQ(t.mig_distance[RT_DIST_REMOTE], 1);
	w = trace_sched_walk_new(&bare, 1, NULL, NULL);
	ASSERT_TRUE(w != NULL);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(trace_sched_walk_feed(w, &e[i]), 0);
	trace_sched_walk_free(w);
	EXPECT_EQ(bare.migrations, 4);
	EXPECT_EQ(bare.mig_distance[RT_DIST_CACHE] + bare.mig_distance[RT_DIST_REMOTE], 0);
}
