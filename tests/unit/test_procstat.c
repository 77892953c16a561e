// SPDX-License-Identifier: GPL-2.0-only
/* The /proc readers against fixture trees and against this very thread. */
#include <errno.h>
#include <time.h>
#include <unistd.h>

#include "rt_procstat.h"
#include "tap.h"

#define FIX "tests/fixtures/"

static void fixtures(void)
{
	struct rt_counters c;

	tap_is(rt_procstat_read(FIX "proc-6.18", 4242, &c), 0, "6.18 status and sched read");
	tap_is(c.vol, 53, "  voluntary_ctxt_switches");
	tap_is(c.nonvol, 3220, "  nonvoluntary_ctxt_switches (not mistaken for voluntary)");
	tap_ok(c.have_migrations, "  has migrations");
	tap_is(c.migrations, 1470, "  se.nr_migrations");

	tap_is(rt_procstat_read(FIX "proc-2.6.36", 4242, &c), 0, "2.6.36 layout reads");
	tap_is(c.vol, 713, "  voluntary");
	tap_is(c.nonvol, 1, "  nonvoluntary");
	tap_is(c.migrations, 2, "  se.nr_migrations, not se.nr_migrations_cold");

	tap_is(rt_procstat_read(FIX "proc-nosched", 4242, &c), 0,
	       "a kernel without the sched file is not an error");
	tap_ok(!c.have_migrations, "  but migrations are marked missing");
	tap_is(c.vol, 53, "  and the switches are still read");

	tap_is(rt_procstat_read(FIX "proc-broken", 4242, &c), -ENODATA,
	       "a status without nonvoluntary_ctxt_switches is -ENODATA");
	tap_is(rt_procstat_read(FIX "proc-6.18", 1, &c), -ENOENT, "a missing thread is -ENOENT");
}

static void parsers(void)
{
	struct rt_counters c = { 0 };

	tap_is(rt_procstat_parse_sched("se.nr_migrations : lots\n", &c), -EINVAL,
	       "a count that is not a number is -EINVAL");
	tap_ok(!c.have_migrations, "  and leaves migrations missing");
	tap_is(rt_procstat_parse_sched("se.nr_migrations:7", &c), 0,
	       "a last line without newline parses");
	tap_is(c.migrations, 7, "  to its value");
	tap_is(rt_procstat_parse_status("nonvoluntary_ctxt_switches:\t4\n", &c), -ENODATA,
	       "nonvoluntary alone does not stand in for voluntary");
	tap_is(rt_procstat_parse_status("voluntary_ctxt_switches:\t99999999999999999999999\n"
					"nonvoluntary_ctxt_switches:\t1\n",
					&c),
	       -ERANGE, "an overflowing count is -ERANGE");
}

static void delta(void)
{
	struct rt_counters a = { 10, 20, 30, true }, b = { 15, 21, 38, true }, d;

	rt_counters_delta(&b, &a, &d);
	tap_ok(d.vol == 5 && d.nonvol == 1 && d.migrations == 8 && d.have_migrations,
	       "delta subtracts each counter");
	a.have_migrations = false;
	rt_counters_delta(&b, &a, &d);
	tap_ok(!d.have_migrations && d.migrations == 0,
	       "delta has no migrations unless both readings do");
}

static void live(void)
{
	struct rt_counters before, after;
	struct timespec ts = { 0, 1000000 };

	tap_is(rt_procstat_read("/proc", gettid(), &before), 0, "this thread's counters read");
	nanosleep(&ts, NULL);
	nanosleep(&ts, NULL);
	rt_procstat_read("/proc", gettid(), &after);
	tap_ok(after.vol >= before.vol + 2, "two sleeps count two voluntary switches (%llu -> %llu)",
	       (unsigned long long)before.vol, (unsigned long long)after.vol);
}

int main(void)
{
	fixtures();
	parsers();
	delta();
	live();
	return tap_done();
}
