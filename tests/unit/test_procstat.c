// SPDX-License-Identifier: GPL-2.0-only
/* The /proc readers against fixture trees and against this very thread. */
#include <errno.h>
#include <time.h>
#include <unistd.h>

#include "lib/cpustat.h"
#include "lib/procstat.h"
#include "harness.h"

#define FIX "tests/fixtures/"

TEST(fixture_trees)
{
	struct rt_counters c;

	/* 6.18 status and sched read */
	EXPECT_EQ(rt_procstat_read(FIX "proc-6.18", 4242, &c), 0);
	EXPECT_EQ(c.vol, 53);	/* voluntary_ctxt_switches */
	/* nonvoluntary_ctxt_switches (not mistaken for voluntary) */
	EXPECT_EQ(c.nonvol, 3220);
	EXPECT(c.have_migrations, "has migrations");
	EXPECT_EQ(c.migrations, 1470);	/* se.nr_migrations */

	/* the 2.6.36 layout reads */
	EXPECT_EQ(rt_procstat_read(FIX "proc-2.6.36", 4242, &c), 0);
	EXPECT_EQ(c.vol, 713);	/* voluntary */
	EXPECT_EQ(c.nonvol, 1);	/* nonvoluntary */
	EXPECT_EQ(c.migrations, 2);	/* se.nr_migrations, not se.nr_migrations_cold */

	/* a kernel without the sched file is not an error */
	EXPECT_EQ(rt_procstat_read(FIX "proc-nosched", 4242, &c), 0);
	EXPECT(!c.have_migrations, "migrations are marked missing");
	EXPECT_EQ(c.vol, 53);	/* and the switches are still read */

	/* a status without nonvoluntary_ctxt_switches is -ENODATA */
	EXPECT_EQ(rt_procstat_read(FIX "proc-broken", 4242, &c), -ENODATA);
	/* a missing thread is -ENOENT */
	EXPECT_EQ(rt_procstat_read(FIX "proc-6.18", 1, &c), -ENOENT);
}

TEST(parsers)
{
	struct rt_counters c = { 0 };

	/* a count that is not a number is -EINVAL */
	EXPECT_EQ(rt_procstat_parse_sched("se.nr_migrations : lots\n", &c), -EINVAL);
	EXPECT(!c.have_migrations, "migrations left missing");
	/* a last line without newline parses */
	EXPECT_EQ(rt_procstat_parse_sched("se.nr_migrations:7", &c), 0);
	EXPECT_EQ(c.migrations, 7);	/* to its value */
	/* nonvoluntary alone does not stand in for voluntary */
	EXPECT_EQ(rt_procstat_parse_status("nonvoluntary_ctxt_switches:\t4\n", &c), -ENODATA);
	EXPECT_EQ(rt_procstat_parse_status("voluntary_ctxt_switches:\t99999999999999999999999\n"
					"nonvoluntary_ctxt_switches:\t1\n",
					&c), -ERANGE);	/* an overflowing count is -ERANGE */
}

TEST(task_name_state_and_class)
{
	struct rt_task t;

	/* kthreadd (this machine's stat): asleep, PF_KTHREAD in the flags */
	EXPECT_EQ(rt_procstat_task(FIX "proc-6.18", 2, &t), 0);
	EXPECT_STR(t.comm, "kthreadd");
	EXPECT_EQ(t.state, 'S');
	EXPECT(t.kthread, "kthreadd is a kernel thread");
	/* a name with spaces and parentheses ends at the last ')' */
	EXPECT_EQ(rt_procstat_task(FIX "proc-6.18", 7889, &t), 0);
	EXPECT_STR(t.comm, "a) (b");
	EXPECT_EQ(t.state, 'R');
	EXPECT(!t.kthread, "a process is not a kernel thread");
	/* a task that is gone */
	EXPECT_EQ(rt_procstat_task(FIX "proc-6.18", 1, &t), -ENOENT);
	/* this very thread, running */
	EXPECT_EQ(rt_procstat_task("/proc", (pid_t)gettid(), &t), 0);
	EXPECT_EQ(t.state, 'R');
	EXPECT(!t.kthread, "this thread is not a kernel thread");
}

TEST(delta)
{
	struct rt_counters a = { 10, 20, 30, true }, b = { 15, 21, 38, true }, d;

	rt_counters_delta(&b, &a, &d);
	EXPECT(d.vol == 5 && d.nonvol == 1 && d.migrations == 8 && d.have_migrations,
	       "delta subtracts each counter");
	a.have_migrations = false;
	rt_counters_delta(&b, &a, &d);
	EXPECT(!d.have_migrations && d.migrations == 0,
	       "delta has no migrations unless both readings do");
}

TEST(this_thread)
{
	struct rt_counters before, after;
	struct timespec ts = { 0, 1000000 };

	/* this thread's counters read */
	EXPECT_EQ(rt_procstat_read("/proc", gettid(), &before), 0);
	nanosleep(&ts, NULL);
	nanosleep(&ts, NULL);
	rt_procstat_read("/proc", gettid(), &after);
	EXPECT(after.vol >= before.vol + 2, "two sleeps, voluntary switches %llu -> %llu",
	       (unsigned long long)before.vol, (unsigned long long)after.vol);
}

/* /proc/stat's CPU lines: all the time of the CPUs asked for, and their steal. */
TEST(cpu_time_and_steal)
{
	static const char stat[] =
		"cpu  100 0 50 1000 0 0 0 30 0 0\n"
		"cpu0 10 1 5 100 2 3 4 7 9 9\n"
		"cpu1 20 0 10 200 0 0 0 23 0 0\n"
		"intr 12345 0 0\n"
		"cpu2 1 1 1 1 1 1 1 1 0 0\n";
	struct bitmask *m = numa_allocate_cpumask();
	struct rt_cputime t;

	numa_bitmask_setbit(m, 0);
	numa_bitmask_setbit(m, 2);
	ASSERT_EQ(rt_cpustat_parse(stat, m, &t), 0);
	/* guest time is in user already: 8 fields */
	EXPECT_EQ(t.total, 10 + 1 + 5 + 100 + 2 + 3 + 4 + 7 + 8);
	EXPECT_EQ(t.steal, 7 + 1);
	/* a CPU without a line */
	numa_bitmask_setbit(m, 3);
	EXPECT_EQ(rt_cpustat_parse(stat, m, &t), -EINVAL);
	numa_bitmask_clearall(m);
	numa_bitmask_setbit(m, 0);
	EXPECT_EQ(rt_cpustat_read("/proc", m, &t), 0);
	EXPECT_TRUE(t.total > 0);
	EXPECT_EQ(rt_cpustat_read("/nonexistent", m, &t), -ENOENT);
	numa_free_cpumask(m);
}
