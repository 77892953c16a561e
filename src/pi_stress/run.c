// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run's groups: set up, their threads described for the driver (each on
 * its group's CPU, watched by the coordinator's poll), what a stall and a
 * group that does not stop mean, and the groups' results.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pi_stress/pi_stress.h"
#include "lib/clock.h"
#include "lib/opts.h"
#include "lib/procstat.h"
#include "lib/sched.h"
#include "lib/sync.h"

static int setup_group(struct pis_run *run, struct pis_group *g, int id)
{
	int ret;

	g->run = run;
	g->id = id;
	g->cpu = pis_group_cpu(run->cfg, id);
	g->withheld = -1;
	rt_hist_init(&g->wait);
	ret = rt_mutex_init(&g->mutex, run->cfg->pi);
	if (!ret)
		ret = rt_barrier_init(&g->locked, PIS_ROLES);
	if (!ret)
		ret = rt_barrier_init(&g->done, PIS_ROLES);
	return ret;
}

/* Thread i of the table: group i / 3's low, medium or high. */
static struct pis_thread *nth(const struct pis_run *run, size_t i)
{
	return &run->groups[i / PIS_ROLES].threads[i % PIS_ROLES];
}

static struct bench_thread *nth_thread(void *ctx, size_t i)
{
	return &nth(ctx, i)->bt;
}

const char *const pis_role_name[PIS_ROLES] = { "low", "medium", "high" };

static void name_thread(void *ctx, size_t i, char *buf, size_t len)
{
	(void)ctx;
	snprintf(buf, len, "group %zu's %s thread", i / PIS_ROLES, pis_role_name[i % PIS_ROLES]);
}

/*
 * Which thread of stalled group @g, if any, was withheld rather than
 * inverted: runnable (/proc says R, or being woken) while no medium
 * thread of the run spins. On one CPU a group's medium spins whenever
 * high waits and low is not above it, so a group stalled with no medium
 * spinning was not failed by inheritance: its CPU ran something above its
 * threads, or its host did not run it. Not with --spread, where a medium
 * on another CPU may spin while its low waits for a CPU. Returns the
 * role, or -1.
 */
static int withheld(const struct pis_run *run, const struct pis_group *g)
{
	struct rt_task t;
	int i;

	if (run->cfg->spread)
		return -1;
	for (i = 0; i < run->nr_groups; i++)
		if (atomic_load(&run->groups[i].spinning))
			return -1;
	for (i = 0; i < PIS_ROLES; i++)
		if (!rt_procstat_task("/proc", g->threads[i].bt.tid, &t) && t.state == 'R')
			return i;
	return -1;
}

/*
 * A thread whose group made no pass for the watchdog's time: the group is
 * marked stalled, the verdict's evidence, and the run stops. Stopping
 * breaks medium's spin, so a stalled group finishes its pass and its
 * threads end: the run stops cleanly. Whether a thread of it was withheld
 * is read now, while it is stuck.
 */
static int stalled(void *ctx, size_t i, int64_t for_ns, char *err, size_t len)
{
	struct pis_group *g = nth(ctx, i)->group;

	(void)for_ns;
	(void)err;
	(void)len;
	if (!g->stalled)
		g->withheld = withheld(ctx, g);
	g->stalled = true;
	return 0;
}

/* A group that did not finish its pass after the stop: its thread @i named. */
static void late(void *ctx, size_t i, int64_t since_ns, char *err, size_t len)
{
	const struct pis_group *g = nth(ctx, i)->group;
	char place[32];

	snprintf(err, len,
		 "watchdog: group %d%s did not stop within %.1f s of being told: "
		 "its %s thread is stuck",
		 g->id, pis_place(g->cpu, place, sizeof(place)),
		 (double)since_ns / RT_NSEC_PER_SEC, pis_role_name[i % PIS_ROLES]);
}

/* The run's state gone (@run, its threads joined or never started). */
static void free_run(struct pis_run *run)
{
	int g;

	for (g = 0; g < run->nr_groups; g++) {
		rt_mutex_destroy(&run->groups[g].mutex);
		rt_barrier_destroy(&run->groups[g].locked);
		rt_barrier_destroy(&run->groups[g].done);
	}
	free(run->groups);
	free(run);
}

/**
 * pis_prepare - set up run @r of b's groups (in @r->state) and describe
 * their threads in @set: group g's low, medium and high at base, base + 1
 * and base + 2 on the group's CPU (--spread: on the run's CPUs), watched by
 * the coordinator's poll. The state outlives a run whose groups did not stop.
 *
 * Returns 0 or a negative errno.
 */
int pis_prepare(const struct bench *b, struct bench_run *rn, struct bench_threads *set)
{
	const struct pis_cfg *cfg = b->cfg;
	struct pis_run *run = calloc(1, sizeof(*run));
	int64_t period = cfg->watchdog_ns / 4;
	int g, r, ret = -ENOMEM;

	if (!run)
		return ret;
	*run = (struct pis_run){ .cfg = cfg, .work = b->work };
	run->groups = calloc((size_t)cfg->nr_groups, sizeof(*run->groups));
	for (g = 0; run->groups && g < cfg->nr_groups; g++) {
		ret = setup_group(run, &run->groups[g], g);
		if (ret)
			break;
		run->nr_groups = g + 1;
	}
	if (ret) {
		free_run(run);
		return ret;
	}
	rn->state = run;
	for (g = 0; g < cfg->nr_groups; g++) {
		for (r = 0; r < PIS_ROLES; r++) {
			struct pis_thread *t = &run->groups[g].threads[r];

			t->group = &run->groups[g];
			t->role = (enum pis_role)r;
			t->bt = (struct bench_thread){ .prio = cfg->p.base_prio + r,
						       .cpu = t->group->cpu,
						       .body = pis_thread_body,
						       .progress = &t->group->progress };
		}
	}
	*set = (struct bench_threads){
		.nth = nth_thread, .ctx = run, .name = name_thread,
		.duration_ns = cfg->p.duration_ns,
		.stop_grace_ns = cfg->watchdog_ns + BENCH_STOP_GRACE_NS,
		.watch = BENCH_WATCH_POLL, .stall_ns = cfg->watchdog_ns,
		.poll_ns = period < BENCH_POLL_MAX_NS ? period : BENCH_POLL_MAX_NS,
		.stalled = stalled, .late = late,
	};
	return 0;
}

/* Release what pis_prepare() set up for run @r, once every thread is joined (or never started). */
void pis_release(const struct bench *b, struct bench_run *r)
{
	(void)b;
	free_run(r->state);
	r->state = NULL;
}

/* The group results of run @rn, just made, into its own results; the driver has its rows. */
void pis_collect(const struct bench *b, struct bench_run *rn)
{
	const struct pis_run *run = rn->state;
	struct pis_result *res = rn->own;
	int64_t start_ns = rn->start_ns;
	int g, r;

	(void)b;
	for (g = 0; g < run->cfg->nr_groups; g++) {
		const struct pis_group *grp = &run->groups[g];
		int64_t end = start_ns;

		for (r = 0; r < PIS_ROLES; r++)
			end = grp->threads[r].bt.end_ns > end ? grp->threads[r].bt.end_ns : end;
		res[g] = (struct pis_result){
			.cpu = grp->cpu,
			.inversions = atomic_load(&grp->threads[PIS_HIGH].bt.iterations),
			.seconds = (double)(end - start_ns) / RT_NSEC_PER_SEC,
			.stalled = grp->stalled,
			.unresolved = grp->unresolved,
			.withheld = grp->withheld,
			.medium_ran = grp->medium_ran,
			.uncontended = grp->uncontended,
		};
		rt_hist_summarise(&grp->wait, &res[g].wait);
		if (grp->withheld >= 0 && !rn->machine.withheld[0]) {
			char place[32], wd[32];

			rt_format_duration(wd, sizeof(wd), run->cfg->watchdog_ns);
			snprintf(rn->machine.withheld, sizeof(rn->machine.withheld),
				 "group %d%s made no pass for %s while its %s thread was "
				 "runnable and no inversion was pending (no medium thread "
				 "spinning): its CPU ran something above them, or its host did "
				 "not run it", g, pis_place(grp->cpu, place, sizeof(place)), wd,
				 pis_role_name[grp->withheld]);
		}
	}
}
