// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's RT bandwidth limits in the trace analysis: a stretch from
 * the switch that leaves a runnable RT task for a lower one to the next RT
 * task there, its time apart from placement and told by mechanism. First
 * on two real traces of this project's build machine (Linux 6.18, RT group
 * scheduling and the fair server), event for event (tests/fixtures/traces/),
 * then on synthetic sequences for what they do not show: the stopper and a
 * deadline task on a held CPU, idle under the fair server, the bound.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
/* a test of the trace layer's internals: its scheduler walk */
#include "trace/internal/walk.h"

#define US 1000ULL
#define MS (1000 * US)
#define FIX "tests/fixtures/traces/"
#define MAX_EVENTS 1024

/* An rtsched-trace/1 text's scheduler events (S W U M P lines). */
static size_t load(const char *path, struct trace_event *ev)
{
	char line[256], type;
	unsigned long long ts;
	size_t n = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	while (n < MAX_EVENTS && fgets(line, sizeof(line), f)) {
		struct trace_event e = { 0 };
		int cpu, pid, prio, a = 0, b = 0, c = 0;
		long long arg = 0;
		int k = sscanf(line, "%c %llu %d %d %d %lld %d %d", &type, &ts, &cpu, &pid, &prio, &arg,
			       &a, &b);

		if (k < 6 || !strchr("SWUMP", type))
			continue;
		e.ts = ts, e.cpu = cpu, e.pid = pid, e.prio = prio;
		switch (type) {
		case 'S':
			e.type = TRACE_EV_SWITCH, e.arg = arg, e.pid2 = a, e.prio2 = b;
			break;
		case 'W':
		case 'U':
			e.type = type == 'W' ? TRACE_EV_WAKING : TRACE_EV_WAKEUP, e.arg = arg;
			break;
		case 'M':
			e.type = TRACE_EV_MIGRATE, e.arg = arg, e.arg2 = a;
			break;
		default:
			e.type = TRACE_EV_PI, e.prio2 = (int)arg;
		}
		(void)c;
		ev[n++] = e;
	}
	fclose(f);
	return n;
}

struct trace_run {
	struct trace_task t[8];
	struct trace_cpu cpu[2];
	size_t n;
};

/* Walk @path's events for the tasks @tids (@n), on CPUs @cpus (NULL: not known), as @regime. */
static void walk_file(const char *path, const pid_t *tids, size_t n, const cpu_set_t *cpus,
		      enum rt_bw_regime regime, struct trace_run *r)
{
	static struct trace_event ev[MAX_EVENTS];
	size_t k, i, nev = load(path, ev);
	struct trace_sched_walk *w;

	memset(r, 0, sizeof(*r));
	r->n = n;
	for (i = 0; i < n; i++) {
		trace_task_init(&r->t[i], tids[i], 0, UINT64_MAX);
		trace_task_affinity(&r->t[i], cpus);
	}
	w = trace_sched_walk_new(r->t, n, NULL, NULL);
	if (!w || !nev)
		return;
	trace_sched_walk_regime(w, regime, 50 * MS);
	trace_sched_walk_cpus(w, r->cpu, 2);
	for (k = 0; k < nev; k++)
		trace_sched_walk_feed(w, &ev[k]);
	trace_sched_walk_free(w);
}

static cpu_set_t both_cpus(void)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(0, &s);
	CPU_SET(1, &s);
	return s;
}

static const pid_t migrate_threads[8] = { 29251, 29252, 29253, 29254,
					  29255, 29256, 29257, 29258 };

TEST(top_thread_woken_on_a_throttled_cpu)
{
	cpu_set_t cpus = both_cpus();
	struct trace_run r;
	const struct trace_task *top;

	/*
	 * 6.18 with both limits: CPU 0 was left by 29256 for a fair task
	 * (.633580); the top thread wakes there (.634558); the stopper runs
	 * (.642579) and does not end the throttling; CPU 0 idles (.642653),
	 * so it is RT throttling; the top thread runs at .678371.
	 */
	walk_file(FIX "migrate-top-thread-throttled.txt", migrate_threads, 8, &cpus, RT_BW_BOTH, &r);
	top = &r.t[7];
	ASSERT_EQ(top->wakeup_latency.count, 1);
	EXPECT_EQ(top->wakeup_latency.max, 43812638);	/* .634558252 to .678370890 */
	EXPECT_EQ(top->place.wait_ns, 0);	/* no placement wait */
	EXPECT_EQ(top->place.limited_ns[TRACE_LIMIT_THROTTLED], 43812638);	/* all of it throttled */
	EXPECT_EQ(top->place.limited_ns[TRACE_LIMIT_EITHER], 0);
	EXPECT_EQ(r.t[5].preempted[TRACE_BY_THROTTLED], 1);	/* 29256, left for the fair task */
	/* the kernel's default (unknown) reads it the same way: the CPU idled */
	walk_file(FIX "migrate-top-thread-throttled.txt", migrate_threads, 8, &cpus, RT_BW_UNKNOWN,
		  &r);
	EXPECT_EQ(r.t[7].place.limited_ns[TRACE_LIMIT_THROTTLED], 43812638);
	EXPECT_EQ(r.t[7].place.wait_ns, 0);
}

TEST(the_stopper_is_not_an_rt_task)
{
	static struct trace_event ev[MAX_EVENTS];
	cpu_set_t cpus = both_cpus();
	size_t n = load(FIX "migrate-top-thread-throttled.txt", ev), i;
	struct trace_task t[8];
	struct trace_sched_walk *w;

	/*
	 * The same events with the stopper at the priority the kernel
	 * reports (0, an RT one, before the decoder names it): read so, it
	 * would end the throttling at .642579 and leave the rest of the wait
	 * to placement. This is what the analysis did before.
	 */
	for (i = 0; i < n; i++) {
		if (ev[i].type == TRACE_EV_SWITCH && ev[i].prio2 == TRACE_PRIO_STOP)
			ev[i].prio2 = 0;
		if (ev[i].type == TRACE_EV_SWITCH && ev[i].prio == TRACE_PRIO_STOP)
			ev[i].prio = 0;
	}
	for (i = 0; i < 8; i++) {
		trace_task_init(&t[i], migrate_threads[i], 0, UINT64_MAX);
		trace_task_affinity(&t[i], &cpus);
	}
	w = trace_sched_walk_new(t, 8, NULL, NULL);
	ASSERT_TRUE(w != NULL);
	trace_sched_walk_regime(w, RT_BW_BOTH, 50 * MS);
	for (i = 0; i < n; i++)
		trace_sched_walk_feed(w, &ev[i]);
	trace_sched_walk_free(w);
	EXPECT(t[7].place.wait_ns > 30 * MS, "read as RT, the stopper leaves %llu ns to placement",
	       (unsigned long long)t[7].place.wait_ns);
}

TEST(pinned_fifo_loop_beside_a_fair_hog)
{
	static const pid_t loop[1] = { 7411 };
	struct trace_run r;
	const uint64_t stretches = 50037968ULL + 53953080ULL + 53979239ULL;
	const uint64_t wakeup = 14050139198320ULL - 14050139159436ULL;

	/*
	 * The known answer: three stretches of ~50 ms in which the fair hog
	 * runs; no placement wait but the one wake-up's: taskset moves the
	 * loop to CPU 1 (.139159) where the fair hog runs until .139198. The
	 * trace does not carry the loop's affinity: only the CPU it waits on
	 * counts, never CPU 0.
	 */
	walk_file(FIX "pinned-fifo-loop.txt", loop, 1, NULL, RT_BW_THROTTLING, &r);
	EXPECT_EQ(r.t[0].place.limited_ns[TRACE_LIMIT_THROTTLED], stretches);
	EXPECT_EQ(r.t[0].place.wait_ns, wakeup);
	EXPECT_EQ(r.t[0].place.intervals, 1);
	EXPECT_EQ(r.t[0].preempted[TRACE_BY_THROTTLED], 3);
	EXPECT_EQ(r.cpu[0].lower_ns + r.cpu[0].limited_ns[TRACE_LIMIT_THROTTLED], 0);
	EXPECT_EQ(r.cpu[1].lower_ns, wakeup);
	EXPECT_EQ(r.cpu[1].limited_ns[TRACE_LIMIT_THROTTLED], stretches);
	/*
	 * On the machine it was recorded on, both limits exist, and the fair
	 * hog kept the CPU busy throughout: which of the two, the events
	 * cannot tell.
	 */
	walk_file(FIX "pinned-fifo-loop.txt", loop, 1, NULL, RT_BW_BOTH, &r);
	EXPECT_EQ(r.t[0].place.limited_ns[TRACE_LIMIT_EITHER], stretches);
	EXPECT_EQ(r.t[0].place.limited_ns[TRACE_LIMIT_THROTTLED], 0);
	EXPECT_EQ(r.t[0].preempted[TRACE_BY_LIMITED], 3);
	EXPECT_EQ(r.t[0].place.wait_ns, wakeup);
	/* under the fair server alone, the fair server's */
	walk_file(FIX "pinned-fifo-loop.txt", loop, 1, NULL, RT_BW_FAIR_SERVER, &r);
	EXPECT_EQ(r.t[0].place.limited_ns[TRACE_LIMIT_FAIR_SERVER], stretches);
}

/* Synthetic: tasks 101 (prio 98), 102 (97); 300 fair; 500 a deadline task; 18 the stopper. */
static struct trace_event sw(uint64_t us, int cpu, int prev, int pprio, long state, int next, int nprio)
{
	return (struct trace_event){ .ts = us * US, .cpu = cpu, .type = TRACE_EV_SWITCH, .pid = prev,
				.prio = pprio, .arg = state, .pid2 = next, .prio2 = nprio };
}

static void walk_two(const struct trace_event *e, size_t n, enum rt_bw_regime regime, uint64_t limit,
		     struct trace_task *t, struct trace_cpu *cpu)
{
	cpu_set_t one;
	struct trace_sched_walk *w;
	size_t i;

	CPU_ZERO(&one);
	CPU_SET(0, &one);
	for (i = 0; i < 2; i++) {
		trace_task_init(&t[i], 101 + (pid_t)i, 0, UINT64_MAX);
		trace_task_affinity(&t[i], &one);
	}
	w = trace_sched_walk_new(t, 2, NULL, NULL);
	if (!w)
		return;
	trace_sched_walk_regime(w, regime, limit);
	trace_sched_walk_cpus(w, cpu, 1);
	for (i = 0; i < n; i++)
		trace_sched_walk_feed(w, &e[i]);
	trace_sched_walk_free(w);
}

TEST(deadline_and_stopper_run_above_a_held_cpu)
{
	struct trace_task t[2];
	struct trace_cpu cpu[1] = { 0 };
	/* 101 left for a fair task at 10; a deadline task at 20, the stopper at 30; 101 at 50 */
	const struct trace_event e[] = {
		sw(1, 0, 0, 120, 0, 101, 98),
		sw(10, 0, 101, 98, 0, 300, 120),
		sw(20, 0, 300, 120, 0, 500, -1),
		sw(25, 0, 500, -1, 1, 300, 120),
		sw(30, 0, 300, 120, 0, 18, TRACE_PRIO_STOP),
		sw(35, 0, 18, TRACE_PRIO_STOP, 1, 300, 120),
		sw(50, 0, 300, 120, 0, 101, 98),
	};

	walk_two(e, 7, RT_BW_THROTTLING, 0, t, cpu);
	EXPECT_EQ(t[0].place.limited_ns[TRACE_LIMIT_THROTTLED], 40 * US);	/* 10 to 50, all held */
	EXPECT_EQ(t[0].place.wait_ns, 0);
	EXPECT_EQ(t[0].preempted[TRACE_BY_THROTTLED], 1);	/* once, by the limit */
}

TEST(the_fair_server_stops_when_its_cpu_idles)
{
	struct trace_task t[2];
	struct trace_cpu cpu[1] = { 0 };
	/* 101 left for a fair task at 10 (the fair server); it sleeps at 30; 101 runs at 45 */
	const struct trace_event e[] = {
		sw(1, 0, 0, 120, 0, 101, 98),
		sw(10, 0, 101, 98, 0, 300, 120),
		sw(30, 0, 300, 120, 1, 0, 120),
		sw(45, 0, 0, 120, 0, 101, 98),
	};

	walk_two(e, 4, RT_BW_FAIR_SERVER, 0, t, cpu);
	EXPECT_EQ(t[0].place.limited_ns[TRACE_LIMIT_FAIR_SERVER], 20 * US);	/* 10 to 30 */
	EXPECT_EQ(t[0].place.wait_ns, 15 * US);	/* idle with it runnable: not the server's */
	/* on a kernel with both, the idle CPU says RT throttling, for the whole stretch */
	walk_two(e, 4, RT_BW_BOTH, 0, t, cpu);
	EXPECT_EQ(t[0].place.limited_ns[TRACE_LIMIT_THROTTLED], 35 * US);
	EXPECT_EQ(t[0].place.limited_ns[TRACE_LIMIT_EITHER], 0);
	EXPECT_EQ(t[0].place.wait_ns, 0);
	EXPECT_EQ(t[0].preempted[TRACE_BY_THROTTLED], 1);
}

TEST(a_stretch_ends_at_its_bound)
{
	struct trace_task t[2];
	struct trace_cpu cpu[1] = { 0 };
	/* limit 10 us: a stretch lasts 20 us at most; 101 waits from 10 to 100 */
	const struct trace_event e[] = {
		sw(1, 0, 0, 120, 0, 101, 98),
		sw(10, 0, 101, 98, 0, 300, 120),
		sw(100, 0, 300, 120, 0, 101, 98),
	};

	walk_two(e, 3, RT_BW_THROTTLING, 10 * US, t, cpu);
	EXPECT_EQ(t[0].place.limited_ns[TRACE_LIMIT_THROTTLED], 20 * US);
	EXPECT_EQ(t[0].place.wait_ns, 70 * US);	/* past the bound, the fair task's CPU is placement */
	EXPECT_EQ(cpu[0].limited_ns[TRACE_LIMIT_THROTTLED], 20 * US);
	EXPECT_EQ(cpu[0].lower_ns, 70 * US);
}

TEST(a_wait_for_a_higher_rt_task_is_no_limit)
{
	struct trace_task t[2];
	struct trace_cpu cpu[1] = { 0 };
	/* 101 preempted by 102 (higher) at 10: an RT preemption, no limit */
	const struct trace_event e[] = {
		sw(1, 0, 0, 120, 0, 101, 98),
		sw(10, 0, 101, 98, 0, 102, 97),
		sw(30, 0, 102, 97, 1, 101, 98),
	};

	walk_two(e, 3, RT_BW_BOTH, 0, t, cpu);
	EXPECT_EQ(t[0].preempted[TRACE_BY_BENCH], 1);
	EXPECT_EQ(t[0].place.limited_ns[TRACE_LIMIT_THROTTLED] + t[0].place.limited_ns[TRACE_LIMIT_EITHER],
		  0);
	EXPECT_EQ(t[0].place.wait_ns, 0);
}
