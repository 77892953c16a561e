// SPDX-License-Identifier: GPL-2.0-only
/*
 * pi_stress without running it: how many groups fit, where each goes, the
 * defaults, the refusals and the trace buffer.
 */
#include "cpus_of.h"
#include "harness.h"
#include "pi_stress/pi_stress.h"

struct group_case {
	const char *name;
	int ncpus;
	bool uniprocessor;
	bool apart;			/* the coordinator on a housekeeping CPU */
	int groups;			/* 0: not given */
	int want_groups;		/* 0: refused */
	int want_cpu[3];		/* of groups 0-2 */
	const char *want_err;
};

static const struct group_case group_cases[] = {
	/* the coordinator keeps CPU 0, one group per other CPU */
	{ "defaults-4cpus", 4, false, false, 0, 3, { 1, 2, 3 }, NULL },
	{ "defaults-2cpus", 2, false, false, 0, 1, { 1 }, NULL },
	/* one CPU: one group, beside the coordinator */
	{ "defaults-1cpu", 1, false, false, 0, 1, { 0 }, NULL },
	{ "uniprocessor-default", 4, true, false, 0, 1, { 0 }, NULL },
	{ "uniprocessor-shares-cpu0", 4, true, false, 3, 3, { 0, 0, 0 }, NULL },
	{ "uniprocessor-at-most-64", 2, true, false, 65, 0, { 0 },
	  "invalid --groups '65': with -u every group shares one CPU; accepted: 1 to 64" },
	{ "too-many-groups", 2, false, false, 2, 0, { 0 },
	  "invalid --groups '2': each group needs a CPU of its own and CPU 0 is kept for the "
	  "coordinator (CPUs 0-1); -u puts every group on one CPU; accepted: 1 to 1" },
	{ "one-cpu-holds-one", 1, false, false, 2, 0, { 0 },
	  "invalid --groups '2': one CPU (0) holds one group; -u puts more on it; accepted: 1 "
	  "to 1" },
	/* the coordinator on a housekeeping CPU (CPU 9 here): every CPU of the run has a group */
	{ "housekeeping-3cpus", 3, false, true, 0, 3, { 0, 1, 2 }, NULL },
	{ "housekeeping-1cpu", 1, false, true, 0, 1, { 0 }, NULL },
	{ "housekeeping-too-many", 2, false, true, 3, 0, { 0 },
	  "invalid --groups '3': each group needs a CPU of its own (CPUs 0-1; the coordinator "
	  "is on housekeeping CPU 9); -u puts every group on one CPU; accepted: 1 to 2" },
};

static struct pis_cfg cfg_of(int ncpus)
{
	return (struct pis_cfg){ .pi = true, .watchdog_ns = RT_NSEC_PER_SEC, .p.base_prio = 1,
				 .p.cpus = cpus_of(ncpus) };
}

TEST_TABLE(groups_and_placement, struct group_case, group_cases)
{
	struct pis_cfg cfg = cfg_of(row->ncpus);
	char err[512] = "";
	int g, ret;

	cfg.uniprocessor = row->uniprocessor;
	cfg.apart = row->apart;
	cfg.p.coordinator_cpu = row->apart ? 9 : 0;
	cfg.nr_groups = row->groups;
	cfg.set_groups = row->groups != 0;
	ret = pis_configure(&cfg, err, sizeof(err));
	if (row->want_err) {
		EXPECT_EQ(ret, -EINVAL);
		EXPECT_STR(err, row->want_err);
		return;
	}
	ASSERT(ret == 0, "refused: %s", err);
	EXPECT_EQ(cfg.nr_groups, row->want_groups);
	for (g = 0; g < cfg.nr_groups && g < 3; g++)
		EXPECT_EQ(pis_group_cpu(&cfg, g), row->want_cpu[g]);
	numa_free_cpumask(cfg.p.cpus);
}

TEST(spread_groups_share_the_cpus)
{
	struct pis_cfg cfg = cfg_of(4);
	char err[512] = "", place[32];

	/* one group per CPU of the run, the coordinator's too, none pinned */
	cfg.spread = true;
	ASSERT_EQ(pis_configure(&cfg, err, sizeof(err)), 0);
	EXPECT_EQ(cfg.nr_groups, 4);
	EXPECT_EQ(pis_group_cpu(&cfg, 0), -1);
	EXPECT_EQ(pis_group_cpu(&cfg, 3), -1);
	EXPECT_STR(pis_place(-1, place, sizeof(place)), "");
	EXPECT_STR(pis_place(3, place, sizeof(place)), " (CPU 3)");
	/* more groups than CPUs, up to 64 */
	numa_free_cpumask(cfg.p.cpus);
	cfg = cfg_of(2);
	cfg.spread = true;
	cfg.nr_groups = 64;
	cfg.set_groups = true;
	ASSERT_EQ(pis_configure(&cfg, err, sizeof(err)), 0);
	/* the trace buffer takes a CPU's share of the groups: 32 */
	EXPECT_EQ(pis_trace_buffer_kb(&cfg), 256 * 1024);
	cfg.nr_groups = 3;
	EXPECT_EQ(pis_trace_buffer_kb(&cfg), 4096 + 2 * 2 * 40 * 1024);
	cfg.nr_groups = 65;
	EXPECT_EQ(pis_configure(&cfg, err, sizeof(err)), -EINVAL);
	EXPECT_STR(err, "invalid --groups '65': with --spread the groups share the CPUs (0-1); "
			"accepted: 1 to 64");
	/* and not with -u */
	numa_free_cpumask(cfg.p.cpus);
	cfg = cfg_of(2);
	cfg.spread = true;
	cfg.uniprocessor = true;
	EXPECT_EQ(pis_configure(&cfg, err, sizeof(err)), -EINVAL);
	EXPECT_STR(err, "--spread and -u: -u puts every group on one CPU, --spread spreads them "
			"over the CPUs; accepted: one of them");
	numa_free_cpumask(cfg.p.cpus);
}

TEST(default_duration_and_reported_waits)
{
	struct pis_cfg cfg = cfg_of(2);
	char err[512];

	ASSERT_EQ(pis_configure(&cfg, err, sizeof(err)), 0);
	EXPECT_EQ(cfg.p.duration_ns, 10 * RT_NSEC_PER_SEC);
	EXPECT_EQ(cfg.wait_bound_ns, PIS_DEFAULT_REPORT_NS);
	EXPECT_TRUE(!cfg.enforce_bound);

	/* -i alone: no duration; waits reported over --hold + 5 ms */
	cfg = cfg_of(2);
	cfg.inversions = 1000;
	cfg.hold_ns = 2 * RT_NSEC_PER_MSEC;
	ASSERT_EQ(pis_configure(&cfg, err, sizeof(err)), 0);
	EXPECT_EQ(cfg.p.duration_ns, 0);
	EXPECT_EQ(cfg.wait_bound_ns, 7 * RT_NSEC_PER_MSEC);
}

TEST(hold_must_be_below_the_bound)
{
	struct pis_cfg cfg = cfg_of(2);
	char err[512];

	cfg.hold_ns = 10 * RT_NSEC_PER_MSEC;
	cfg.wait_bound_ns = 5 * RT_NSEC_PER_MSEC;
	cfg.enforce_bound = true;
	EXPECT_EQ(pis_configure(&cfg, err, sizeof(err)), -EINVAL);
	EXPECT_STR(err, "--hold 10ms is not below --wait-bound 5ms: high waits at least for "
			"low's hold, so the bound must be longer");
}

TEST(trace_buffer_sizing)
{
	struct pis_cfg cfg = cfg_of(2);

	cfg.nr_groups = 1;
	cfg.p.duration_ns = 2 * RT_NSEC_PER_SEC;
	/* 2 s of 40 MiB on the group's CPU */
	EXPECT_EQ(pis_trace_buffer_kb(&cfg), 4096 + 2 * 40 * 1024);
	/* the run's length changes nothing: the recorder drains the buffer */
	cfg.p.duration_ns = 3600 * RT_NSEC_PER_SEC;
	EXPECT_EQ(pis_trace_buffer_kb(&cfg), 4096 + 2 * 40 * 1024);
	cfg.inversions = 50000;
	EXPECT_EQ(pis_trace_buffer_kb(&cfg), 4096 + 2 * 40 * 1024);
	/* with -u the groups share one CPU's buffer; at most 256 MiB */
	cfg.inversions = 0;
	cfg.uniprocessor = true;
	cfg.nr_groups = 3;
	EXPECT_EQ(pis_trace_buffer_kb(&cfg), 4096 + 3 * 2 * 40 * 1024);
	cfg.nr_groups = 4;
	EXPECT_EQ(pis_trace_buffer_kb(&cfg), 256 * 1024);
	numa_free_cpumask(cfg.p.cpus);
}

TEST(trace_run_sizing)
{
	struct pis_cfg cfg = cfg_of(2);

	cfg.nr_groups = 1;
	cfg.p.duration_ns = 2 * RT_NSEC_PER_SEC;
	/* the static programs' whole run: 3 s of 40 MiB on the group's CPU */
	EXPECT_EQ(pis_trace_run_kb(&cfg), 4096 + 3 * 40 * 1024);
	/* -i 50000 takes about a second, whatever the duration */
	cfg.inversions = 50000;
	EXPECT_EQ(pis_trace_run_kb(&cfg), 4096 + 2 * 40 * 1024);
	/* with -u the groups share one CPU's buffer; at most 256 MiB */
	cfg.inversions = 0;
	cfg.uniprocessor = true;
	cfg.nr_groups = 3;
	EXPECT_EQ(pis_trace_run_kb(&cfg), 256 * 1024);
	numa_free_cpumask(cfg.p.cpus);
}
