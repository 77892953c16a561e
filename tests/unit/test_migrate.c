// SPDX-License-Identifier: GPL-2.0-only
/*
 * migrate without running it: each mode's defaults and refusals, the checks
 * of the whole command line, the trace buffer, the watchdog's stall window
 * and the thread it names.
 */
#include "cpus_of.h"
#include "harness.h"
#include "migrate.h"
#include "rt_clock.h"

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
};

static struct mig_cfg cfg_of(const struct mode_case *c)
{
	struct mig_cfg cfg = {
		.mode = mig_mode_named(c->mode),
		.nr_threads = c->threads, .set_threads = c->threads != 0,
		.nr_locks = c->locks, .set_locks = c->locks != 0,
		.duration_ns = c->duration_ns, .set_duration = c->duration_ns != 0,
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
	EXPECT_EQ(cfg.duration_ns, row->want_duration_ns);
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
			       .duration_ns = 10 * RT_NSEC_PER_SEC, .p.cpus = cpus_of(2) };

	/* 4096 + 4 threads x 2 s x 200 KiB / 2 CPUs */
	EXPECT_EQ(mig_trace_buffer_kb(&cfg), 4096 + 4 * 2 * 200 / 2);
	/* the run's length changes nothing: the recorder drains the buffer */
	cfg.duration_ns = 24 * 3600 * RT_NSEC_PER_SEC;
	EXPECT_EQ(mig_trace_buffer_kb(&cfg), 4096 + 4 * 2 * 200 / 2);
	cfg.mode = &mig_lockstep;
	EXPECT_EQ(mig_trace_buffer_kb(&cfg), 4096 + 4 * 2 * 200 / 2);
	cfg.nr_threads = 98;
	EXPECT_EQ(mig_trace_buffer_kb(&cfg), 4096 + 98 * 2 * 200 / 2);
	numa_free_cpumask(cfg.p.cpus);
}

TEST(trace_run_sizing)
{
	struct mig_cfg cfg = { .mode = &mig_contention, .nr_threads = 4,
			       .duration_ns = 10 * RT_NSEC_PER_SEC, .p.cpus = cpus_of(2) };

	/* the static programs' whole run: 4096 + 4 threads x 11 s x 200 KiB / 2 CPUs */
	EXPECT_EQ(mig_trace_run_kb(&cfg), 4096 + 4 * 11 * 200 / 2);
	cfg.duration_ns = 24 * 3600 * RT_NSEC_PER_SEC;
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
