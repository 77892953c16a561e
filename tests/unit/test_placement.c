// SPDX-License-Identifier: GPL-2.0-only
/*
 * Placement: the time a thread waited while a CPU of its affinity ran
 * something of lower priority, on synthetic event sequences with known
 * answers. Benchmark threads 101 (kernel prio 98, "low"), 102 (97, "high")
 * and 103 (96, "top"); 200 is a kernel thread at prio 0, 300 and 301 fair
 * tasks (120), 400 an RT task of another program at 97, 0 idle.
 */
#include <string.h>

/* a test of the trace layer's internals: its scheduler walk */
#include "trace/internal/walk.h"
#include "harness.h"

#define US 1000ULL
#define PREEMPTED 0x100	/* "R+" */
#define RUNNING 0	/* "R": preempted while runnable */
#define SLEEP 1		/* "S" */
#define LOW 0
#define HIGH 1
#define TOP 2
#define NCPUS 4

static struct trace_event sw(uint64_t us, int cpu, int prev, int pprio, long state, int next, int nprio)
{
	return (struct trace_event){ .ts = us * US, .cpu = cpu, .type = TRACE_EV_SWITCH, .pid = prev,
				.prio = pprio, .arg = state, .pid2 = next, .prio2 = nprio };
}

/* sched_waking of @pid, recorded on @cpu while @cur ran there (-1: not said) */
static struct trace_event waking(uint64_t us, int cpu, int pid, int prio, int cur)
{
	return (struct trace_event){ .ts = us * US, .cpu = cpu, .type = TRACE_EV_WAKING, .pid = pid,
				.prio = prio, .arg = cpu, .cur = cur, .has_cur = cur >= 0 };
}

static struct trace_event pi(uint64_t us, int cpu, int pid, int oldprio, int newprio)
{
	return (struct trace_event){ .ts = us * US, .cpu = cpu, .type = TRACE_EV_PI, .pid = pid,
				.prio = oldprio, .prio2 = newprio };
}

struct result {
	struct trace_task t[3];
	struct trace_cpu cpu[NCPUS];
};

/* The machine the walks are of, for placement by distance; NULL: not known. */
static const struct rt_topology *machine;

/* The walk over @e for low, high and top on a kernel of @regime, every task on both CPUs. */
static void walk_regime(const struct trace_event *e, size_t n, struct result *r,
			enum rt_bw_regime regime)
{
	cpu_set_t all;
	struct trace_sched_walk *w;
	size_t i;

	CPU_ZERO(&all);
	CPU_SET(0, &all);
	CPU_SET(1, &all);
	for (i = 0; i < 3; i++) {
		if (!r->t[i].tid)
			trace_task_init(&r->t[i], 101 + (pid_t)i, 0, 1000000 * US);
		if (!r->t[i].affinity_known)
			trace_task_affinity(&r->t[i], &all);
	}
	w = trace_sched_walk_new(r->t, 3, NULL, NULL);
	if (!w)
		return;
	trace_sched_walk_regime(w, regime, 0);
	trace_sched_walk_cpus(w, r->cpu, NCPUS);
	trace_sched_walk_topology(w, machine);
	for (i = 0; i < n; i++)
		trace_sched_walk_feed(w, &e[i]);
	trace_sched_walk_free(w);
}

/* The walk over @e for low, high and top, with @high_cpus as high's affinity (NULL: all). */
static void walk(const struct trace_event *e, size_t n, struct result *r, const cpu_set_t *high_cpus,
		 uint64_t win_start_us, uint64_t win_end_us)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < 3; i++)
		trace_task_init(&r->t[i], 101 + (pid_t)i, win_start_us * US, win_end_us * US);
	if (high_cpus)
		trace_task_affinity(&r->t[HIGH], high_cpus);
	walk_regime(e, n, r, RT_BW_UNKNOWN);
}

#define ALL 0, 1000000

/* Two nodes, each a core of two threads: CPUs 0-1 and 2-3. */
static struct rt_cpu_place two_nodes_cpus[4] = {
	{ .core = 0, .cache = 0, .package = 0, .node = 0 },
	{ .core = 0, .cache = 0, .package = 0, .node = 0 },
	{ .core = 2, .cache = 2, .package = 1, .node = 1 },
	{ .core = 2, .cache = 2, .package = 1, .node = 1 },
};
static int two_nodes_distance[4] = { 10, 20, 20, 10 };
static struct rt_topology two_nodes = { .nr_cpus = 4, .cpu = two_nodes_cpus, .cache_level = 3,
					.nr_nodes = 2, .distance = two_nodes_distance };

TEST(woken_while_a_lower_task_runs)
{
	struct result r;
	/* low runs on CPU 0, a fair task on CPU 1; high wakes and runs on CPU 1 20 us later */
	const struct trace_event e[] = {
		sw(1, 0, 0, 120, RUNNING, 101, 98),
		sw(2, 1, 0, 120, RUNNING, 300, 120),
		waking(10, 1, 102, 97, -1),
		sw(30, 1, 300, 120, PREEMPTED, 102, 97),
	};

	walk(e, 4, &r, NULL, ALL);
	EXPECT_EQ(r.t[HIGH].place.wait_ns, 20 * US);	/* high waited 20 us with lower tasks running */
	EXPECT_EQ(r.t[HIGH].place.intervals, 1);	/* in one span */
	EXPECT_EQ(r.t[HIGH].place.wait.max, 20 * US);	/* of 20 us */
	EXPECT_EQ(r.cpu[1].lower_ns, 20 * US);	/* counted on the lowest, CPU 1's fair task */
	EXPECT_EQ(r.cpu[0].lower_ns, 0);	/* not on low's CPU */
	EXPECT_EQ(r.t[LOW].place.wait_ns, 0);	/* low never waited */
}

TEST(no_lower_cpu_no_wait)
{
	struct result r;
	/* top runs on CPU 0, a kernel thread at prio 0 on CPU 1: high waits for a CPU, rightly */
	const struct trace_event e[] = {
		sw(1, 0, 0, 120, RUNNING, 103, 96),
		sw(2, 1, 0, 120, RUNNING, 200, 0),
		waking(10, 1, 102, 97, -1),
		sw(50, 1, 200, 0, SLEEP, 102, 97),
	};

	walk(e, 4, &r, NULL, ALL);
	EXPECT_EQ(r.t[HIGH].place.wait_ns, 0);	/* only higher tasks ran: no placement wait */
	EXPECT_EQ(r.t[HIGH].place.intervals, 0);
	EXPECT_EQ(r.t[HIGH].runnable_ns, 40 * US);	/* though it was runnable 40 us */
}

TEST(lower_cpu_outside_the_affinity)
{
	struct result r;
	cpu_set_t only0;
	/* top runs on CPU 0, CPU 1 idles; high may run on CPU 0 only */
	const struct trace_event e[] = {
		sw(1, 0, 0, 120, RUNNING, 103, 96),
		sw(2, 1, 300, 120, SLEEP, 0, 120),
		waking(10, 0, 102, 97, -1),
		sw(50, 0, 103, 96, SLEEP, 102, 97),
	};

	CPU_ZERO(&only0);
	CPU_SET(0, &only0);
	walk(e, 4, &r, &only0, ALL);
	EXPECT_EQ(r.t[HIGH].place.wait_ns, 0);	/* the idle CPU 1 is outside high's affinity: no wait */
	walk(e, 4, &r, NULL, ALL);
	EXPECT_EQ(r.t[HIGH].place.wait_ns, 40 * US);	/* with any CPU allowed, the 40 us count */
	EXPECT_EQ(r.cpu[1].lower_ns, 40 * US);	/* on CPU 1, idle */
}

TEST(two_waiters_for_one_cpu)
{
	struct result r;
	/*
	 * top runs on CPU 0, a fair task on CPU 1; high and low wake together.
	 * Only one can take CPU 1: high; low waits behind top and high, rightly.
	 */
	const struct trace_event e[] = {
		sw(1, 0, 0, 120, RUNNING, 103, 96),
		sw(2, 1, 0, 120, RUNNING, 300, 120),
		waking(10, 1, 101, 98, -1),
		waking(10, 1, 102, 97, -1),
		sw(20, 1, 300, 120, PREEMPTED, 102, 97),
		sw(50, 0, 103, 96, SLEEP, 101, 98),
	};

	walk(e, 6, &r, NULL, ALL);
	EXPECT_EQ(r.t[HIGH].place.wait_ns, 10 * US);	/* high: 10 us, until it ran on CPU 1 */
	EXPECT_EQ(r.t[LOW].place.wait_ns, 0);	/* low: none, CPU 1 was high's */
	EXPECT_EQ(r.cpu[1].lower_ns, 10 * US);	/* CPU 1 counted once, not twice */
}

TEST(two_waiters_two_lower_cpus)
{
	struct result r;
	/* fair tasks on both CPUs: both waiters have a CPU, each until it runs */
	const struct trace_event e[] = {
		sw(1, 0, 0, 120, RUNNING, 301, 120),
		sw(2, 1, 0, 120, RUNNING, 300, 120),
		waking(10, 1, 101, 98, -1),
		waking(10, 1, 102, 97, -1),
		sw(20, 1, 300, 120, PREEMPTED, 102, 97),
		sw(35, 0, 301, 120, PREEMPTED, 101, 98),
	};

	walk(e, 6, &r, NULL, ALL);
	EXPECT_EQ(r.t[HIGH].place.wait_ns, 10 * US);	/* high: 10 us */
	EXPECT_EQ(r.t[LOW].place.wait_ns, 25 * US);	/* low: 25 us, a CPU ran a fair task all along */
	EXPECT_EQ(r.cpu[0].lower_ns + r.cpu[1].lower_ns, 35 * US);	/* the CPUs' sum is the threads' */
}

TEST(preempted_again_before_running)
{
	struct result r;
	/*
	 * top preempts low on CPU 0 while CPU 1 runs a fair task: low waits
	 * (10 us) until a kernel thread takes CPU 1; when it leaves CPU 1
	 * idle, low waits again (5 us) and then runs there. Two spans.
	 */
	const struct trace_event e[] = {
		sw(1, 0, 0, 120, RUNNING, 101, 98),
		sw(2, 1, 0, 120, RUNNING, 300, 120),
		sw(10, 0, 101, 98, PREEMPTED, 103, 96),
		sw(20, 1, 300, 120, PREEMPTED, 200, 0),
		sw(40, 1, 200, 0, SLEEP, 0, 120),
		sw(45, 1, 0, 120, RUNNING, 101, 98),
	};

	walk(e, 6, &r, NULL, ALL);
	EXPECT_EQ(r.t[LOW].place.wait_ns, 15 * US);	/* 10 + 5 us */
	EXPECT_EQ(r.t[LOW].place.intervals, 2);	/* in two spans */
	EXPECT_EQ(r.t[LOW].place.wait.max, 10 * US);	/* the longer of 10 us */
	EXPECT_EQ(r.t[LOW].place.wait.min, 5 * US);	/* the shorter of 5 us */
	EXPECT_EQ(r.t[LOW].runnable_ns, 35 * US);	/* runnable 35 us in all */
}

TEST(idle_preferred_and_counted)
{
	struct result r;
	/* a fair task on CPU 0, CPU 1 idles: high's wait counts on the idle CPU */
	const struct trace_event e[] = {
		sw(1, 0, 0, 120, RUNNING, 300, 120),
		sw(2, 1, 301, 120, SLEEP, 0, 120),
		waking(10, 1, 102, 97, -1),
		sw(15, 1, 0, 120, RUNNING, 102, 97),
	};

	walk(e, 4, &r, NULL, ALL);
	EXPECT_EQ(r.t[HIGH].place.wait_ns, 5 * US);	/* 5 us of wake-up with CPUs idle or fair */
	EXPECT_EQ(r.cpu[1].lower_ns, 5 * US);	/* on the idle CPU 1 */
	EXPECT_EQ(r.cpu[0].lower_ns, 0);	/* not on the fair task's */
}

TEST(priority_raised_by_pi_while_waiting)
{
	struct result r;
	/*
	 * top preempts low on CPU 0; CPU 1 runs another program's RT task at
	 * 97, above low: no wait. Then PI raises low to 95 (a waiter of a
	 * lock it holds): the 97 task is now lower, and low waits 10 us.
	 */
	const struct trace_event e[] = {
		sw(1, 0, 0, 120, RUNNING, 101, 98),
		sw(2, 1, 0, 120, RUNNING, 400, 97),
		sw(10, 0, 101, 98, PREEMPTED, 103, 96),
		pi(20, 0, 101, 98, 95),
		sw(30, 0, 103, 96, SLEEP, 101, 95),
	};

	walk(e, 5, &r, NULL, ALL);
	EXPECT_EQ(r.t[LOW].place.wait_ns, 10 * US);	/* only the 10 us after the boost */
	EXPECT_EQ(r.t[LOW].pi_boosts, 1);
}

TEST(running_task_lowered_by_pi)
{
	struct result r;
	/*
	 * low, boosted to 96 by PI, runs on CPU 1 while high waits (top on
	 * CPU 0): no wait; at 30 low's boost ends (98), now lower than high.
	 */
	const struct trace_event e[] = {
		sw(1, 0, 0, 120, RUNNING, 103, 96),
		sw(2, 1, 0, 120, RUNNING, 101, 96),
		waking(10, 0, 102, 97, -1),
		pi(30, 1, 101, 96, 98),
		sw(36, 1, 101, 98, PREEMPTED, 102, 97),
	};

	walk(e, 5, &r, NULL, ALL);
	EXPECT_EQ(r.t[HIGH].place.wait_ns, 6 * US);	/* 6 us, from the end of the boost */
}

TEST(throttled_cpu_counts_apart)
{
	struct result r;
	/*
	 * low runs on CPU 0 and is left, runnable, for a fair task: the kernel
	 * throttles RT there for 40 us; top runs on CPU 1. low's wait is the
	 * throttling's, not the placement's.
	 */
	const struct trace_event e[] = {
		sw(1, 0, 0, 120, RUNNING, 101, 98),
		sw(2, 1, 0, 120, RUNNING, 103, 96),
		sw(10, 0, 101, 98, RUNNING, 300, 120),
		sw(50, 0, 300, 120, PREEMPTED, 101, 98),
	};

	memset(&r, 0, sizeof(r));
	walk_regime(e, 4, &r, RT_BW_THROTTLING);
	EXPECT_EQ(r.t[LOW].place.wait_ns, 0);	/* no placement wait */
	EXPECT_EQ(r.t[LOW].place.limited_ns[TRACE_LIMIT_THROTTLED], 40 * US);	/* 40 us throttled */
	EXPECT_EQ(r.cpu[0].limited_ns[TRACE_LIMIT_THROTTLED], 40 * US);
	EXPECT_EQ(r.cpu[0].lower_ns, 0);
	EXPECT_EQ(r.t[LOW].preempted[TRACE_BY_THROTTLED], 1);	/* the fair task took it: throttling */
	/* a kernel with both limits and no idle: which one, the events cannot tell */
	memset(&r, 0, sizeof(r));
	walk_regime(e, 4, &r, RT_BW_BOTH);
	EXPECT_EQ(r.t[LOW].place.limited_ns[TRACE_LIMIT_EITHER], 40 * US);
	EXPECT_EQ(r.t[LOW].place.limited_ns[TRACE_LIMIT_THROTTLED], 0);
	EXPECT_EQ(r.t[LOW].preempted[TRACE_BY_LIMITED], 1);
	EXPECT_EQ(r.cpu[0].limited_ns[TRACE_LIMIT_EITHER], 40 * US);
	/* the fair server alone */
	memset(&r, 0, sizeof(r));
	walk_regime(e, 4, &r, RT_BW_FAIR_SERVER);
	EXPECT_EQ(r.t[LOW].place.limited_ns[TRACE_LIMIT_FAIR_SERVER], 40 * US);
	EXPECT_EQ(r.t[LOW].preempted[TRACE_BY_FAIR_SERVER], 1);
	/* nothing limits RT threads: a fair task taking the CPU is any other, the wait placement */
	memset(&r, 0, sizeof(r));
	walk_regime(e, 4, &r, RT_BW_NEITHER);
	EXPECT_EQ(r.t[LOW].place.wait_ns, 40 * US);
	EXPECT_EQ(r.t[LOW].preempted[TRACE_BY_OTHER], 1);
}

TEST(left_out_switch_taken_back)
{
	struct result r;
	/*
	 * high wakes on the idle CPU 1 (top on CPU 0). An interrupt's event at
	 * 20 us shows CPU 1 still idle. The switch to high is left out; at 30
	 * us an event recorded on CPU 1 while high ran there shows it: when
	 * it began to run is not known, so none of its wait stands, though
	 * CPU 1 confirmed its first 10 us.
	 */
	const struct trace_event e[] = {
		sw(1, 0, 0, 120, RUNNING, 103, 96),
		sw(2, 1, 300, 120, SLEEP, 0, 120),
		waking(10, 1, 102, 97, 0),
		waking(20, 1, 301, 120, 0),
		waking(30, 1, 101, 98, 102),
		sw(40, 1, 102, 97, SLEEP, 0, 120),
	};

	walk(e, 6, &r, NULL, ALL);
	EXPECT_EQ(r.t[HIGH].place.wait_ns, 0);	/* nothing stands */
	EXPECT_EQ(r.t[HIGH].place.unseen_ns, 20 * US);	/* 20 us taken back */
	EXPECT_EQ(r.cpu[1].lower_ns, 0);
	EXPECT_EQ(r.cpu[1].unseen_ns, 20 * US);
	EXPECT_EQ(r.t[HIGH].switches_out, 1);	/* its state followed: it ran, then slept */
	/* with the machine known, what was taken back is taken from its place too */
	machine = &two_nodes;
	walk(e, 6, &r, NULL, ALL);
	machine = NULL;
	EXPECT_EQ(r.t[HIGH].place.unseen_ns, 20 * US);
	EXPECT_EQ(r.t[HIGH].place.by_distance_ns[TRACE_PLACE_HERE], 0);
}

/*
 * Placement by distance, on two nodes of a core of two threads each (CPUs
 * 0-1, 2-3): high woken on CPU 1, the only CPU running lower work, waits
 * there (here); low woken on CPU 2 while CPU 1 runs a fair task waits for
 * a CPU of the other node (remote); high woken on CPU 1 again while low
 * runs there and CPU 0 idles waits for its sibling. Without the machine,
 * the same waits by no distance.
 */
/* The walk over @e for low, high and top, each free on CPUs 0-3, with no RT limits. */
static void walk_all4(const struct trace_event *e, size_t n, struct result *r)
{
	cpu_set_t all;
	int c;

	CPU_ZERO(&all);
	for (c = 0; c < 4; c++)
		CPU_SET(c, &all);
	memset(r, 0, sizeof(*r));
	for (c = 0; c < 3; c++) {
		trace_task_init(&r->t[c], 101 + (pid_t)c, 0, 1000000 * US);
		trace_task_affinity(&r->t[c], &all);
	}
	walk_regime(e, n, r, RT_BW_NEITHER);
}

TEST(waits_by_distance)
{
	struct result r;
	const struct trace_event e[] = {
		sw(1, 0, 0, 120, RUNNING, 103, 96),
		sw(2, 1, 0, 120, RUNNING, 300, 120),
		sw(3, 2, 0, 120, RUNNING, 200, 0),
		sw(4, 3, 0, 120, RUNNING, 400, 97),
		waking(10, 1, 102, 97, 300),
		sw(30, 1, 300, 120, PREEMPTED, 102, 97),
		sw(40, 1, 102, 97, SLEEP, 300, 120),
		waking(50, 2, 101, 98, 200),
		sw(80, 1, 300, 120, PREEMPTED, 101, 98),
		sw(90, 0, 103, 96, SLEEP, 0, 120),
		waking(100, 1, 102, 97, 101),
		sw(115, 0, 0, 120, RUNNING, 102, 97),
	};
	machine = &two_nodes;
	walk_all4(e, 12, &r);
	machine = NULL;
	EXPECT_EQ(r.t[HIGH].place.by_distance_ns[TRACE_PLACE_HERE], 20 * US);
	EXPECT_EQ(r.t[HIGH].place.by_distance_ns[RT_DIST_SIBLING], 15 * US);
	EXPECT_EQ(r.t[HIGH].place.wait_ns, 35 * US);
	EXPECT_EQ(r.t[LOW].place.by_distance_ns[RT_DIST_REMOTE], 30 * US);
	EXPECT_EQ(r.t[LOW].place.wait_ns, 30 * US);
	EXPECT_EQ(r.t[LOW].place.by_distance_ns[TRACE_PLACE_HERE] +
		  r.t[LOW].place.by_distance_ns[RT_DIST_SIBLING] +
		  r.t[LOW].place.by_distance_ns[RT_DIST_CACHE] +
		  r.t[LOW].place.by_distance_ns[RT_DIST_NODE], 0);
	walk_all4(e, 12, &r);
	EXPECT_EQ(r.t[HIGH].place.wait_ns, 35 * US);
	EXPECT_EQ(r.t[HIGH].place.by_distance_ns[TRACE_PLACE_HERE] +
		  r.t[HIGH].place.by_distance_ns[RT_DIST_SIBLING], 0);
}

TEST(only_the_window_counts)
{
	struct result r;
	/* high waits from 10 to 30 us on an idle CPU; the window is [20, 100] */
	const struct trace_event e[] = {
		sw(1, 0, 0, 120, RUNNING, 103, 96),
		sw(2, 1, 300, 120, SLEEP, 0, 120),
		waking(10, 1, 102, 97, -1),
		sw(30, 1, 0, 120, RUNNING, 102, 97),
	};

	walk(e, 4, &r, NULL, 20, 100);
	EXPECT_EQ(r.t[HIGH].place.wait_ns, 10 * US);	/* the 10 us inside */
	EXPECT_EQ(r.t[HIGH].place.wait.max, 10 * US);
}

TEST(throttled_cpu_left_for_one_that_is_not)
{
	struct result r;
	/*
	 * low is left, runnable, for a fair task on CPU 0 (throttled); CPU 1
	 * runs a fair task too, and is not throttled: low could run there.
	 */
	const struct trace_event e[] = {
		sw(1, 0, 0, 120, RUNNING, 101, 98),
		sw(2, 1, 0, 120, RUNNING, 301, 120),
		sw(10, 0, 101, 98, RUNNING, 300, 120),
		sw(30, 1, 301, 120, PREEMPTED, 101, 98),
	};

	/*
	 * RT throttling: CPU 1 may be throttled too without a switch saying so
	 * (one period for all CPUs): the wait is the throttling's
	 */
	memset(&r, 0, sizeof(r));
	walk_regime(e, 4, &r, RT_BW_THROTTLING);
	EXPECT_EQ(r.t[LOW].place.wait_ns, 0);
	EXPECT_EQ(r.t[LOW].place.limited_ns[TRACE_LIMIT_THROTTLED], 20 * US);
	EXPECT_EQ(r.cpu[1].lower_ns, 0);
	EXPECT_EQ(r.cpu[0].limited_ns[TRACE_LIMIT_THROTTLED], 20 * US);	/* charged to the held CPU */
	/* the fair server: the same, its own figure */
	memset(&r, 0, sizeof(r));
	walk_regime(e, 4, &r, RT_BW_FAIR_SERVER);
	EXPECT_EQ(r.t[LOW].place.wait_ns, 0);
	EXPECT_EQ(r.t[LOW].place.limited_ns[TRACE_LIMIT_FAIR_SERVER], 20 * US);
	/* nothing limits RT threads: the wait for CPU 1 is placement */
	memset(&r, 0, sizeof(r));
	walk_regime(e, 4, &r, RT_BW_NEITHER);
	EXPECT_EQ(r.t[LOW].place.wait_ns, 20 * US);
	EXPECT_EQ(r.cpu[0].lower_ns, 20 * US);	/* its own CPU's fair task, the first of two as low */
}

TEST(left_out_switch_of_another_task)
{
	struct result r;
	/*
	 * high waits (top on CPU 0) while CPU 1 seems idle; the switch to a
	 * kernel thread at prio 0 there was left out, and an event recorded
	 * on CPU 1 at 30 us shows it ran: the 20 us counted there are taken
	 * back, and high waits rightly until it runs at 50 us.
	 */
	const struct trace_event e[] = {
		sw(1, 0, 0, 120, RUNNING, 103, 96),
		sw(2, 1, 300, 120, SLEEP, 0, 120),
		waking(10, 0, 102, 97, 103),
		waking(30, 1, 301, 120, 200),
		sw(50, 1, 200, 0, SLEEP, 102, 97),
	};

	walk(e, 5, &r, NULL, ALL);
	EXPECT_EQ(r.t[HIGH].place.wait_ns, 0);	/* nothing stands */
	EXPECT_EQ(r.t[HIGH].place.unseen_ns, 20 * US);	/* 20 us taken back */
	EXPECT_EQ(r.cpu[1].unseen_ns, 20 * US);
	EXPECT_EQ(r.t[HIGH].runnable_ns, 40 * US);	/* runnable from 10 to 50 us */
}

TEST(idle_confirmed_but_the_thread_ran_elsewhere)
{
	struct result r;
	/*
	 * top sleeps, CPU 0 idles (an interrupt at 20 us confirms it); a fair
	 * task runs on CPU 1. high wakes at 10 us and claims the idle CPU 0;
	 * but it ran on CPU 1 (the switch was left out), as an event there at
	 * 30 us shows: CPU 0 was idle indeed, high was not waiting for it.
	 */
	const struct trace_event e[] = {
		sw(1, 0, 103, 96, SLEEP, 0, 120),
		sw(2, 1, 0, 120, RUNNING, 300, 120),
		waking(10, 1, 102, 97, 300),
		waking(20, 0, 301, 120, 0),
		waking(30, 1, 101, 98, 102),
	};

	walk(e, 5, &r, NULL, ALL);
	EXPECT_EQ(r.t[HIGH].place.wait_ns, 0);	/* nothing stands */
	EXPECT_EQ(r.t[HIGH].place.unseen_ns, 20 * US);	/* its 20 us are taken back */
	EXPECT_EQ(r.cpu[0].lower_ns + r.cpu[1].lower_ns, 0);
}

TEST(recorded_wait_confirmed_on_both_sides)
{
	struct result r;
	/*
	 * high waits on CPU 1 behind top while CPU 0 runs a fair task; CPU 0's
	 * events confirm it at 20 us; high's recorded switch in on CPU 1 at 40
	 * us ends its wait; CPU 0's next event (a switch) confirms the rest.
	 */
	const struct trace_event e[] = {
		sw(1, 0, 0, 120, RUNNING, 300, 120),
		sw(2, 1, 0, 120, RUNNING, 103, 96),
		waking(10, 1, 102, 97, 103),
		waking(20, 0, 301, 120, 300),
		sw(40, 1, 103, 96, SLEEP, 102, 97),
		sw(50, 0, 300, 120, SLEEP, 0, 120),
	};

	walk(e, 6, &r, NULL, ALL);
	EXPECT_EQ(r.t[HIGH].place.wait_ns, 30 * US);	/* 30 us stand */
	EXPECT_EQ(r.t[HIGH].place.unseen_ns, 0);	/* nothing taken back */
	EXPECT_EQ(r.cpu[0].lower_ns, 30 * US);	/* all on CPU 0's fair task */
}
