// SPDX-License-Identifier: GPL-2.0-only
/*
 * migrate without running it: each mode's defaults and refusals, the checks
 * of the whole command line, the trace buffer, the watchdog's stall window
 * and the thread it names.
 */
#include <limits.h>

#include "cpus_of.h"
#include "harness.h"
#include "migrate/migrate.h"
#include "lib/clock.h"

/* A command line as the options leave it, and what the configuration must make of it. */
struct mode_case {
	const char *name;
	const char *mode;
	int ncpus;
	int threads, locks;		/* 0: not given */
	int64_t duration_ns, loops;	/* 0: not given */
	int base_prio;
	int want_threads, want_locks;
	int64_t want_duration_ns;
	const char *want_err;		/* a part of the refusal, or NULL */
};

static const struct mode_case mode_cases[] = {
	{ "contention-defaults-2cpus", "contention", 2, 0, 0, 0, 0, 1, 4, 2, 10 * RT_NSEC_PER_SEC,
	  NULL },
	{ "contention-defaults-8cpus", "contention", 8, 0, 0, 0, 0, 1, 16, 8,
	  10 * RT_NSEC_PER_SEC, NULL },
	{ "contention-given", "contention", 2, 8, 3, 2 * RT_NSEC_PER_SEC, 0, 1, 8, 3,
	  2 * RT_NSEC_PER_SEC, NULL },
	{ "contention-refuses-loops", "contention", 2, 0, 0, 0, 5, 1, 0, 0, 0,
	  "--loops applies to --mode lockstep and paired" },
	{ "lockstep-defaults", "lockstep", 4, 0, 0, 0, 0, 1, 5, 4, 0, NULL },
	{ "lockstep-refuses-duration", "lockstep", 4, 0, 0, RT_NSEC_PER_SEC, 0, 1, 0, 0, 0,
	  "--duration applies to --mode contention; lockstep runs --loops" },
	{ "paired-defaults", "paired", 4, 0, 0, 0, 0, 1, 5, 4, 0, NULL },
	{ "paired-locks-from-threads", "paired", 4, 3, 0, 0, 0, 1, 3, 2, 0, NULL },
	{ "paired-threads-from-locks", "paired", 4, 0, 6, 0, 0, 1, 7, 6, 0, NULL },
	{ "paired-refuses-misfit", "paired", 4, 3, 3, 0, 0, 1, 0, 0, 0,
	  "--threads 3 with --locks 3 does not fit" },
	{ "priorities-up-to-99", "contention", 2, 98, 0, 0, 0, 1, 98, 2, 10 * RT_NSEC_PER_SEC,
	  NULL },
	{ "priorities-past-99", "contention", 2, 98, 0, 0, 0, 2, 0, 0, 0,
	  "98 threads at --base-prio 2 need SCHED_FIFO priorities 2-100, past 99" },
	{ "worst-case-too-long", "lockstep", 2, 98, 1024, 0, 100000000, 1, 0, 0, 0,
	  "could take longer than" },
	/* 98 threads on 64 locks: a pass is 64 x 99 units, past 5 s */
	{ "pass-longer-than-duration", "contention", 64, 98, 0, 5 * RT_NSEC_PER_SEC, 0, 1, 0, 0,
	  0, "--duration 5s is shorter than one pass: each of 98 threads holds and sleeps 99 "
	  "units of 1ms on each of 64 locks, 6336ms in all" },
	{ "pass-fits-the-duration", "contention", 64, 98, 0, 7 * RT_NSEC_PER_SEC, 0, 1, 98, 64,
	  7 * RT_NSEC_PER_SEC, NULL },
	/* --cpus of more than the shape fits: the advice names what would do */
	{ "too-many-cpus", "contention", 64, 0, 0, 0, 0, 1, 0, 0, 0,
	  "the contention shape on 64 CPUs needs 2 x 64 threads at distinct SCHED_FIFO "
	  "priorities from --base-prio 1, past 99: accepted: --cpus of at most 49 CPUs, "
	  "or --threads up to 98" },
	{ "base-leaves-one-cpu", "contention", 2, 0, 0, 0, 0, 97, 0, 0, 0,
	  "accepted: --cpus of at most 1 CPU, --base-prio up to 95, or --threads up to 2" },
	{ "base-leaves-none", "contention", 2, 0, 0, 0, 0, 98, 0, 0, 0,
	  "accepted: --base-prio up to 95, or --threads up to 1" },
};

/* How many CPUs a mode's default shape fits, and the words that say why. */
struct fit_case {
	const char *name;
	const char *mode;
	int64_t duration_ns;		/* 0: not given */
	int locks;			/* 0: not given */
	int base_prio;
	int want;
	const char *want_why;
};

static const struct fit_case fit_cases[] = {
	/* ten passes of 22 x 45 units fit 10 s; of 23 x 47 they do not */
	{ "contention-default", "contention", 0, 0, 1, 22,
	  "the contention shape fits 22: its 2 x CPUs threads at distinct SCHED_FIFO priorities "
	  "from --base-prio 1 fit 49 CPUs, and a pass takes every thread 2 x CPUs + 1 units of "
	  "1ms on each lock, of which --duration 10s holds 10 on 22" },
	/* a duration given needs one pass: 49 x 99 units fit a minute */
	{ "contention-a-minute", "contention", 60 * RT_NSEC_PER_SEC, 0, 1, 49, "holds 1 on 49" },
	{ "contention-one-second", "contention", RT_NSEC_PER_SEC, 0, 1, 22, NULL },
	{ "contention-few-locks", "contention", 0, 2, 1, 49, NULL },
	{ "contention-high-base", "contention", 60 * RT_NSEC_PER_SEC, 0, 61, 19, NULL },
	{ "lockstep", "lockstep", 0, 0, 1, 97,
	  "its CPUs + 1 threads at distinct SCHED_FIFO priorities from --base-prio 1, and the "
	  "coordinator above them, fit 97 CPUs" },
	{ "paired", "paired", 0, 0, 11, 87, NULL },
	{ "paired-locks-set-the-threads", "paired", 0, 8, 1, INT_MAX, NULL },
};

TEST_TABLE(default_cpus_fit_the_shape, struct fit_case, fit_cases)
{
	struct mig_cfg cfg = {
		.mode = mig_mode_named(row->mode),
		.p.duration_ns = row->duration_ns, .p.duration_given = row->duration_ns != 0,
		.nr_locks = row->locks, .set_locks = row->locks != 0,
		.unit_ns = RT_NSEC_PER_MSEC, .p.base_prio = row->base_prio,
	};
	char why[1024] = "";

	ASSERT(cfg.mode, "no mode named %s", row->mode);
	EXPECT_EQ(cfg.mode->fit_cpus(&cfg, why, sizeof(why)), row->want);
	if (row->want_why)
		EXPECT_CONTAINS(why, row->want_why);
}

/* What the default fit gives, the configuration takes: no refusal on options not given. */
TEST(the_fit_is_accepted)
{
	int base, n;

	for (base = 1; base <= 97; base++) {
		struct mig_cfg cfg = { .mode = &mig_contention, .unit_ns = RT_NSEC_PER_MSEC,
				       .p.base_prio = base };
		char err[1024] = "";

		n = cfg.mode->fit_cpus(&cfg, err, sizeof(err));
		EXPECT(mig_configure(&cfg, n, err, sizeof(err)) == 0,
		       "--base-prio %d on %d CPUs refused: %s", base, n, err);
	}
}

static struct mig_cfg cfg_of(const struct mode_case *c)
{
	struct mig_cfg cfg = {
		.mode = mig_mode_named(c->mode),
		.nr_threads = c->threads, .set_threads = c->threads != 0,
		.nr_locks = c->locks, .set_locks = c->locks != 0,
		.p.duration_ns = c->duration_ns, .p.duration_given = c->duration_ns != 0,
		.loops = c->loops ? c->loops : 50, .set_loops = c->loops != 0,
		.unit_ns = RT_NSEC_PER_MSEC,
		.p.base_prio = c->base_prio,
	};

	return cfg;
}

TEST_TABLE(mode_configuration, struct mode_case, mode_cases)
{
	struct mig_cfg cfg = cfg_of(row);
	char err[512] = "";
	int ret;

	ASSERT(cfg.mode, "no mode named %s", row->mode);
	ret = mig_configure(&cfg, row->ncpus, err, sizeof(err));
	if (row->want_err) {
		EXPECT_EQ(ret, -EINVAL);
		EXPECT_CONTAINS(err, row->want_err);
		EXPECT(!strchr(err, '\n'), "the refusal is one line: %s", err);
		return;
	}
	ASSERT(ret == 0, "refused: %s", err);
	EXPECT_EQ(cfg.nr_threads, row->want_threads);
	EXPECT_EQ(cfg.nr_locks, row->want_locks);
	EXPECT_EQ(cfg.p.duration_ns, row->want_duration_ns);
	/* a mode says how it stops: contention by time, the others by loops */
	EXPECT_EQ(cfg.mode->timed, !strcmp(row->mode, "contention"));
}

TEST(mode_names)
{
	EXPECT(mig_mode_named("lockstep") == &mig_lockstep, "lockstep");
	EXPECT(mig_mode_named("paired") == &mig_paired, "paired");
	EXPECT(mig_mode_named("contention") == &mig_contention, "contention");
	EXPECT(mig_mode_named("Contention") == NULL, "names are exact");
	EXPECT(mig_mode_named("") == NULL, "the empty name");
}

TEST(trace_buffer_sizing)
{
	struct mig_cfg cfg = { .mode = &mig_contention, .nr_threads = 4,
			       .p.duration_ns = 10 * RT_NSEC_PER_SEC, .p.cpus = cpus_of(2) };

	/* 1024 + 2 threads a CPU x 2 s x 200 KiB */
	EXPECT_EQ(mig_trace_buffer_kb(&cfg), 1024 + 2 * 2 * 200);
	/* the run's length changes nothing: the recorder drains the buffer */
	cfg.p.duration_ns = 24 * 3600 * RT_NSEC_PER_SEC;
	EXPECT_EQ(mig_trace_buffer_kb(&cfg), 1024 + 2 * 2 * 200);
	cfg.mode = &mig_lockstep;
	EXPECT_EQ(mig_trace_buffer_kb(&cfg), 1024 + 2 * 2 * 200);
	cfg.nr_threads = 98;
	EXPECT_EQ(mig_trace_buffer_kb(&cfg), 1024 + 49 * 2 * 200);
	numa_free_cpumask(cfg.p.cpus);
	/* 98 threads on 64 CPUs: 2 a CPU, whole; on 256, 1: what each CPU's events need */
	cfg.p.cpus = cpus_of(64);
	EXPECT_EQ(mig_trace_buffer_kb(&cfg), 1024 + 2 * 2 * 200);
	numa_free_cpumask(cfg.p.cpus);
	cfg.p.cpus = cpus_of(256);
	EXPECT_EQ(mig_trace_buffer_kb(&cfg), 1024 + 1 * 2 * 200);
	numa_free_cpumask(cfg.p.cpus);
}

TEST(trace_run_sizing)
{
	struct mig_cfg cfg = { .mode = &mig_contention, .nr_threads = 4,
			       .p.duration_ns = 10 * RT_NSEC_PER_SEC, .p.cpus = cpus_of(2) };

	/* the static programs' whole run: 1024 + 2 threads a CPU x 11 s x 200 KiB */
	EXPECT_EQ(mig_trace_run_kb(&cfg), 1024 + 2 * 11 * 200);
	cfg.p.duration_ns = 24 * 3600 * RT_NSEC_PER_SEC;
	cfg.nr_threads = 98;
	EXPECT_EQ(mig_trace_run_kb(&cfg), 1024 * 1024);	/* the cap: 1 GiB per CPU */
	cfg.mode = &mig_lockstep;
	EXPECT_EQ(mig_trace_run_kb(&cfg), 8192);		/* runs of loops: 8 MiB */
	numa_free_cpumask(cfg.p.cpus);
}

TEST(stall_window)
{
	struct mig_cfg cfg = { .nr_threads = 4, .unit_ns = RT_NSEC_PER_MSEC };

	/* 5 s and twice a hold and a sleep of nr_threads + 1 units */
	EXPECT_EQ(mig_stall_ns(&cfg), 5 * RT_NSEC_PER_SEC + 2 * 10 * RT_NSEC_PER_MSEC);
}

TEST(saturating_product)
{
	EXPECT_EQ(mig_mul_sat(2, 3, 4, 5), 120);
	EXPECT_EQ(mig_mul_sat(INT64_MAX / 2, 3, 1, 1), INT64_MAX);
	EXPECT_EQ(mig_mul_sat(1, 1, 1 << 30, (int64_t)1 << 40), INT64_MAX);
}

/* Thread states for the watchdog, and the one it must name. */
struct stuck_case {
	const char *name;
	bool finished[4], waiting[4];
	int holds[4];
	int want;
};

static const struct stuck_case stuck_cases[] = {
	{ "holder-not-waiting", { 0 }, { 1, 1, 0, 1 }, { 0, 0, 2, 0 }, 2 },
	{ "holder-waiting-skipped", { 0 }, { 1, 0, 1, 1 }, { 1, 0, 0, 0 }, 1 },
	{ "finished-skipped", { 1, 0, 0, 0 }, { 0, 1, 1, 0 }, { 1, 0, 0, 0 }, 3 },
	{ "all-waiting-first-unfinished", { 1, 0, 0, 0 }, { 1, 1, 1, 1 }, { 0 }, 1 },
};

TEST_TABLE(watchdog_names_the_stuck_thread, struct stuck_case, stuck_cases)
{
	struct mig_cfg cfg = { .nr_threads = 4 };
	struct mig_thread threads[4];
	struct mig_run run = { .cfg = &cfg, .threads = threads };
	int i;

	memset(threads, 0, sizeof(threads));
	for (i = 0; i < 4; i++) {
		threads[i].id = i;
		atomic_store(&threads[i].bt.finished, row->finished[i]);
		atomic_store(&threads[i].bt.waiting, row->waiting[i]);
		atomic_store(&threads[i].holds, row->holds[i]);
	}
	EXPECT_EQ(mig_pick_stuck(&run), row->want);
}
