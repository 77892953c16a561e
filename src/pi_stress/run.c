// SPDX-License-Identifier: GPL-2.0-only
/*
 * Placing the groups, starting their threads, and the watchdog that runs the
 * run from above them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pi_stress.h"
#include "tracing.h"
#include "rt_clock.h"
#include "rt_sched.h"
#include "rt_sync.h"

#define THREAD_STACK (128 * 1024)
/* How often the watchdog looks: often enough to see a stall soon after it is due. */
#define WATCH_PERIOD_MAX_NS (50 * RT_NSEC_PER_MSEC)
/* After a stop, how long the groups get to finish their pass. */
#define STOP_GRACE_NS (2 * RT_NSEC_PER_SEC)

/**
 * pis_group_cpu - the CPU of @group
 *
 * With -u, or with a single CPU, every group shares the first CPU with the
 * coordinating thread; otherwise the coordinator keeps the first CPU and
 * group g runs alone on the (g+1)-th.
 */
int pis_group_cpu(const struct pis_cfg *cfg, int group)
{
	if (cfg->uniprocessor || rt_cpus_count(cfg->cpus) == 1)
		return rt_cpus_nth(cfg->cpus, 0);
	return rt_cpus_nth(cfg->cpus, 1 + group);
}

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
	ret = -pthread_attr_setaffinity_np(attr, sizeof(set), &set);
	if (!ret)
		ret = rt_sched_attr_fifo(attr, run->cfg->base_prio + (int)t->role);
	if (!ret)
		ret = -pthread_create(&t->thread, attr, pis_thread_main, t);
	return ret;
}

static pid_t tid_of(void *ctx, size_t i)
{
	return ((struct pis_run *)ctx)->groups[i / PIS_ROLES].threads[i % PIS_ROLES].tid;
}

/**
 * pis_start - set up the groups, start their threads, lock memory, release them
 *
 * The calling thread must already run SCHED_FIFO above the groups, on the
 * coordinator's CPU.
 *
 * Returns 0, or a negative errno with @err saying what failed (run->denied
 * when creating a SCHED_FIFO thread was refused).
 */
int pis_start(struct pis_run *run, char *err, size_t len)
{
	const struct pis_cfg *cfg = run->cfg;
	struct cli_release release;
	pthread_attr_t attr;
	sigset_t old_mask;
	int g, r, ret;

	run->groups = calloc((size_t)cfg->nr_groups, sizeof(*run->groups));
	if (!run->groups) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	ret = rt_barrier_init(&run->ready, (unsigned int)(cfg->nr_groups * PIS_ROLES + 1));
	if (!ret)
		ret = rt_barrier_init(&run->start, (unsigned int)(cfg->nr_groups * PIS_ROLES + 1));
	for (g = 0; !ret && g < cfg->nr_groups; g++)
		ret = setup_group(run, &run->groups[g], g);
	if (ret) {
		snprintf(err, len, "setting up mutexes and barriers: %s", strerror(-ret));
		return ret;
	}
	ret = -pthread_attr_init(&attr);
	if (!ret)
		ret = -pthread_attr_setstacksize(&attr, THREAD_STACK);
	/* signals are for the coordinator: the groups' threads never take them */
	cli_signals_block(&old_mask);
	for (g = 0; !ret && g < cfg->nr_groups; g++) {
		for (r = 0; !ret && r < PIS_ROLES; r++) {
			struct pis_thread *t = &run->groups[g].threads[r];

			t->group = &run->groups[g];
			t->role = (enum pis_role)r;
			ret = start_thread(run, t, &attr);
			if (ret) {
				run->denied = ret == -EPERM;
				snprintf(err, len, "creating group %d's thread %d on CPU %d: %s", g, r,
					 t->group->cpu, strerror(-ret));
			}
		}
	}
	cli_signals_restore(&old_mask);
	pthread_attr_destroy(&attr);
	if (ret)
		return ret;	/* the threads started wait on the barrier until exit */

	/* every stack exists now; MCL_FUTURE would make later allocations fail */
	release = (struct cli_release){ &run->ready, &run->start, run->tracer,
					(size_t)cfg->nr_groups * PIS_ROLES, tid_of, run };
	ret = cli_release(&release, &run->mlock_err, &run->start_ns, err, len);
	if (ret)
		return ret;
	return 0;
}

/**
 * pis_free - release what pis_start() set up, once every thread is joined
 */
void pis_free(struct pis_run *run)
{
	int g;

	for (g = 0; run->groups && g < run->cfg->nr_groups; g++) {
		rt_mutex_destroy(&run->groups[g].mutex);
		rt_barrier_destroy(&run->groups[g].locked);
		rt_barrier_destroy(&run->groups[g].done);
	}
	rt_barrier_destroy(&run->ready);
	rt_barrier_destroy(&run->start);
	free(run->groups);
	run->groups = NULL;
}

static bool group_finished(const struct pis_group *g)
{
	int r;

	for (r = 0; r < PIS_ROLES; r++) {
		if (!atomic_load(&g->threads[r].finished))
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
					if (!atomic_load(&run->groups[g].threads[r].finished))
						break;
				snprintf(err, len,
					 "group %d (CPU %d) did not stop within %.1f s of being told: "
					 "its %s thread is stuck",
					 g, run->groups[g].cpu,
					 (double)(deadline - run->start_ns) / RT_NSEC_PER_SEC,
					 r == PIS_LOW ? "low" : r == PIS_MEDIUM ? "medium" : "high");
				return -ETIMEDOUT;
			}
			rt_sleep_ns(RT_NSEC_PER_MSEC);
		}
		for (r = 0; r < PIS_ROLES; r++)
			pthread_join(run->groups[g].threads[r].thread, NULL);
	}
	return 0;
}

/**
 * pis_watch - watch the groups until they finish, stop them when due
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
int pis_watch(struct pis_run *run, char *err, size_t len)
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
		if (rt_stop_signal(run->stop_req) && !run->interrupted) {
			run->interrupted = rt_stop_signal(run->stop_req);
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
