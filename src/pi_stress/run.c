// SPDX-License-Identifier: GPL-2.0-only
/*
 * Placing the groups, starting their threads, and the watchdog that runs the
 * run from above them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pi_stress.h"
#include "rt_clock.h"
#include "rt_sched.h"
#include "rt_sync.h"

/* How often the watchdog looks: often enough to see a stall soon after it is due. */
#define WATCH_PERIOD_MAX_NS (50 * RT_NSEC_PER_MSEC)
/* After a stop, how long the groups get to finish their pass. */
#define STOP_GRACE_NS (2 * RT_NSEC_PER_SEC)

static int setup_group(struct pis_run *run, struct pis_group *g, int id)
{
	int ret;

	g->run = run;
	g->id = id;
	g->cpu = pis_group_cpu(run->cfg, id);
	rt_hist_init(&g->wait);
	ret = rt_mutex_init(&g->mutex, run->cfg->pi);
	if (!ret)
		ret = rt_barrier_init(&g->locked, PIS_ROLES);
	if (!ret)
		ret = rt_barrier_init(&g->done, PIS_ROLES);
	return ret;
}

static int start_thread(struct pis_run *run, struct pis_thread *t, pthread_attr_t *attr)
{
	cpu_set_t set;
	int ret;

	CPU_ZERO(&set);
	CPU_SET(t->group->cpu, &set);
	t->bt.stop = &run->stop;
	ret = -pthread_attr_setaffinity_np(attr, sizeof(set), &set);
	if (!ret)
		ret = bench_thread_create(&t->bt, attr, run->cfg->base_prio + (int)t->role,
					  pis_thread_main, t);
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

/*
 * Set up the groups, start their threads, lock memory, release them. The
 * calling thread must already run SCHED_FIFO above the groups, on the
 * coordinator's CPU.
 */
static int start(struct pis_run *run, char *err, size_t len)
{
	const struct pis_cfg *cfg = run->cfg;
	size_t nr_threads = (size_t)cfg->nr_groups * PIS_ROLES, i;
	pthread_attr_t attr;
	int g, ret;

	run->groups = calloc((size_t)cfg->nr_groups, sizeof(*run->groups));
	if (!run->groups) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	ret = bench_gate_init(&run->gate, nr_threads);
	for (g = 0; !ret && g < cfg->nr_groups; g++)
		ret = setup_group(run, &run->groups[g], g);
	if (ret) {
		snprintf(err, len, "setting up mutexes and barriers: %s", strerror(-ret));
		return ret;
	}
	ret = bench_attr_init(&attr);
	for (i = 0; !ret && i < nr_threads; i++) {
		struct pis_thread *t = nth(run, i);

		t->group = &run->groups[i / PIS_ROLES];
		t->role = (enum pis_role)(i % PIS_ROLES);
		ret = start_thread(run, t, &attr);
		if (ret) {
			run->out->denied = ret == -EPERM;
			snprintf(err, len, "creating group %zu's thread %d on CPU %d: %s",
				 i / PIS_ROLES, (int)t->role, t->group->cpu, strerror(-ret));
		}
	}
	pthread_attr_destroy(&attr);
	if (ret)
		return ret;	/* the threads started wait on the barrier until exit */
	return bench_release(&run->gate, run->tracer, nth_thread, run, nr_threads,
			     &run->out->mlock_err, &run->start_ns, err, len);
}

/* Release what start() set up, once every thread is joined. */
static void free_run(struct pis_run *run)
{
	int g;

	for (g = 0; run->groups && g < run->cfg->nr_groups; g++) {
		rt_mutex_destroy(&run->groups[g].mutex);
		rt_barrier_destroy(&run->groups[g].locked);
		rt_barrier_destroy(&run->groups[g].done);
	}
	bench_gate_destroy(&run->gate);
	free(run->groups);
	run->groups = NULL;
}

static bool group_finished(const struct pis_group *g)
{
	int r;

	for (r = 0; r < PIS_ROLES; r++) {
		if (!atomic_load(&g->threads[r].bt.finished))
			return false;
	}
	return true;
}

/*
 * Wait until every group has finished its pass after a stop, or the grace
 * ends; then join them (at once: they have ended), which orders their
 * writes before the coordinator's reads.
 */
static int wait_stopped(struct pis_run *run, char *err, size_t len)
{
	int64_t deadline = rt_now_ns(CLOCK_MONOTONIC) + run->cfg->watchdog_ns + STOP_GRACE_NS;
	int g, r;

	for (g = 0; g < run->cfg->nr_groups; g++) {
		while (!group_finished(&run->groups[g])) {
			if (rt_now_ns(CLOCK_MONOTONIC) > deadline) {
				for (r = 0; r < PIS_ROLES; r++)
					if (!atomic_load(&run->groups[g].threads[r].bt.finished))
						break;
				snprintf(err, len,
					 "watchdog: group %d (CPU %d) did not stop within %.1f s of being told: "
					 "its %s thread is stuck",
					 g, run->groups[g].cpu,
					 (double)(deadline - run->start_ns) / RT_NSEC_PER_SEC,
					 r == PIS_LOW ? "low" : r == PIS_MEDIUM ? "medium" : "high");
				return -ETIMEDOUT;
			}
			rt_sleep_ns(RT_NSEC_PER_MSEC);
		}
		for (r = 0; r < PIS_ROLES; r++)
			pthread_join(run->groups[g].threads[r].bt.thread, NULL);
	}
	return 0;
}

/*
 * Watch the groups until they finish, stop them when due.
 *
 * Every period, a group whose pass count has not moved for the watchdog
 * timeout is marked stalled and the run is stopped; so is a run whose
 * duration is over. Stopping breaks medium's spin, so a stalled group
 * finishes its pass and its threads end: the run stops cleanly.
 *
 * A first signal (@run->stop_req) stops the run as the duration would; a
 * second makes it return -EINTR at once, leaving the threads.
 *
 * Returns 0 once every thread has been joined, -EINTR when asked to return
 * now, or a negative errno with @err set when a group did not stop.
 */
static int watch(struct pis_run *run, char *err, size_t len)
{
	const struct pis_cfg *cfg = run->cfg;
	int64_t period = cfg->watchdog_ns / 4, deadline = INT64_MAX, now, next;
	uint64_t *seen;
	int64_t *moved;
	bool all_done;
	int g, ret;

	if (period > WATCH_PERIOD_MAX_NS)
		period = WATCH_PERIOD_MAX_NS;
	seen = calloc((size_t)cfg->nr_groups, sizeof(*seen));
	moved = calloc((size_t)cfg->nr_groups, sizeof(*moved));
	if (!seen || !moved) {
		free(seen);
		free(moved);
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	for (g = 0; g < cfg->nr_groups; g++)
		moved[g] = run->start_ns;
	if (cfg->duration_ns)
		deadline = run->start_ns + cfg->duration_ns;

	for (next = run->start_ns + period;; next += period) {
		rt_sleep_until_intr(next < deadline ? next : deadline);
		if (rt_stop_now(run->stop_req)) {
			/* asked to go at once: the threads are left as they are */
			free(seen);
			free(moved);
			snprintf(err, len, "stopped by a second signal");
			return -EINTR;
		}
		now = rt_now_ns(CLOCK_MONOTONIC);
		if (rt_stop_signal(run->stop_req) && !run->out->interrupted) {
			run->out->interrupted = rt_stop_signal(run->stop_req);
			run->out->cut_short = now < deadline;
			atomic_store(&run->stop, true);
		}
		all_done = true;
		for (g = 0; g < cfg->nr_groups; g++) {
			struct pis_group *grp = &run->groups[g];
			uint64_t p = atomic_load(&grp->progress);

			if (group_finished(grp))
				continue;
			all_done = false;
			if (p != seen[g]) {
				seen[g] = p;
				moved[g] = now;
			} else if (now - moved[g] >= cfg->watchdog_ns) {
				grp->stalled = true;
				atomic_store(&run->stop, true);
			}
		}
		if (now >= deadline)
			atomic_store(&run->stop, true);
		/* a stalled group or a signal: nobody waits for the rest of the period */
		if (all_done || atomic_load(&run->stop))
			break;
	}
	free(seen);
	free(moved);
	ret = wait_stopped(run, err, len);
	if (run->tracer)
		rt_tracer_stop(run->tracer);
	return ret;
}

/* The rows, windows and group results of the run just done, into run->out. */
static void collect(struct pis_run *run)
{
	const struct pis_cfg *cfg = run->cfg;
	struct bench_run *out = run->out;
	struct pis_result *res = out->own;
	size_t i;
	int g;

	out->have_migrations = true;
	out->end_ns = run->start_ns;
	for (i = 0; i < (size_t)cfg->nr_groups * PIS_ROLES; i++) {
		const struct pis_thread *t = nth(run, i);

		out->have_migrations &= bench_thread_row(&t->bt, t->iterations, &out->rows[i],
							 out->windows ? &out->windows[i] : NULL);
	}
	for (g = 0; g < cfg->nr_groups; g++) {
		const struct pis_group *grp = &run->groups[g];
		int64_t end = run->start_ns;
		int r;

		for (r = 0; r < PIS_ROLES; r++)
			end = grp->threads[r].bt.end_ns > end ? grp->threads[r].bt.end_ns : end;
		out->end_ns = end > out->end_ns ? end : out->end_ns;
		res[g] = (struct pis_result){
			.cpu = grp->cpu,
			.inversions = grp->threads[PIS_HIGH].iterations,
			.seconds = (double)(end - run->start_ns) / RT_NSEC_PER_SEC,
			.stalled = grp->stalled,
			.unresolved = grp->unresolved,
			.medium_ran = grp->medium_ran,
			.uncontended = grp->uncontended,
		};
		rt_hist_summarise(&grp->wait, &res[g].wait);
	}
}

static const char *const role_name[PIS_ROLES] = { "low", "medium", "high" };

/**
 * pis_execute - one run of the groups into @run->out: start them, watch
 * them to their end, collect what they did
 *
 * A first signal (@run->stop_req) stops the run as the duration would
 * (@run->out->interrupted); a second makes it return -EINTR at once.
 *
 * Returns 0, -EINTR, -ETIMEDOUT when a group did not stop (its threads
 * still run; @err names it), or another negative errno with @err set.
 */
int pis_execute(struct pis_run *run, char *err, size_t len)
{
	size_t i;
	int ret;

	ret = start(run, err, len);
	if (ret)
		return ret;
	run->out->start_ns = run->start_ns;
	ret = watch(run, err, len);
	if (ret)
		return ret;
	for (i = 0; i < (size_t)run->cfg->nr_groups * PIS_ROLES; i++) {
		const struct pis_thread *t = nth(run, i);

		if (t->bt.err) {
			snprintf(err, len, "group %zu's %s thread: %s: %s", i / PIS_ROLES,
				 role_name[t->role], t->bt.err_what, strerror(-t->bt.err));
			return t->bt.err;
		}
	}
	collect(run);
	free_run(run);
	return 0;
}
