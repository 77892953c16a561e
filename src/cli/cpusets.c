// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where a run goes and where its helpers go. -c may name the affinity
 * mask's CPUs and, beyond it, the isolated and nohz_full CPUs the cpuset
 * gives (a shell started on housekeeping CPUs has only those in its mask,
 * as isolcpus= leaves it). The run's CPUs must lie in one root domain: the
 * RT scheduler never pushes or pulls a thread across two, so a run across
 * them measures two schedulers (--cross-domain runs it anyway). The
 * coordinator, the watchdog and the trace recorder go to housekeeping CPUs
 * (as rtla -H and cyclictest --mainaffinity do): --housekeeping's, or, when
 * the run's CPUs are isolated or nohz_full, the mask's others (a note says
 * when there are none and they share the run's).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static void or_into(struct bitmask *m, const struct bitmask *in)
{
	unsigned int c;

	for (c = 0; in && c < m->size && c < in->size; c++) {
		if (numa_bitmask_isbitset(in, c))
			numa_bitmask_setbit(m, c);
	}
}

static void clear_from(struct bitmask *m, const struct bitmask *out)
{
	unsigned int c;

	for (c = 0; out && c < m->size && c < out->size; c++) {
		if (numa_bitmask_isbitset(out, c))
			numa_bitmask_clearbit(m, c);
	}
}

static struct bitmask *mask_or_die(void)
{
	struct bitmask *m = numa_allocate_cpumask();

	if (!m)
		cli_die(EXIT_SYSCALL, "out of memory");
	return m;
}

/**
 * cli_cpusets_init - what -c may name, and the quiet CPUs, before the options
 */
void cli_cpusets_init(struct cli_common *co)
{
	struct rt_domains *d = calloc(1, sizeof(*d));
	unsigned int c;

	if (!d || rt_domains_read(d, "") == -ENOMEM)
		cli_die(EXIT_SYSCALL, "out of memory");
	co->domains = d;
	co->quiet_cpus = mask_or_die();
	or_into(co->quiet_cpus, d->isolated);
	or_into(co->quiet_cpus, d->nohz_full);
	co->allowed = mask_or_die();
	or_into(co->allowed, co->usable);
	/* a quiet CPU outside the mask: allowed when the cpuset (or, unknown, the machine) has it */
	for (c = 0; c < co->quiet_cpus->size; c++) {
		const struct bitmask *has = d->cpuset ? d->cpuset : d->online;

		if (numa_bitmask_isbitset(co->quiet_cpus, c) && has && c < has->size &&
		    numa_bitmask_isbitset(has, c))
			numa_bitmask_setbit(co->allowed, c);
	}
}

/* "0-1 (the machine's), 2-3 (isolated)": the root domains of @run. */
static void domains_words(const struct rt_domains *d, const struct bitmask *run, char *buf,
			  size_t len)
{
	size_t which[RT_DOMAINS_MAX], i, used = 0;
	int k = rt_domains_of(d, run, which, RT_DOMAINS_MAX);
	struct bitmask *m = mask_or_die();
	char list[256];
	unsigned int c;

	buf[0] = '\0';
	for (i = 0; i < (size_t)k && i < RT_DOMAINS_MAX && used < len; i++) {
		numa_bitmask_clearall(m);
		for (c = 0; c < run->size && c < d->dom[which[i]].cpus->size; c++) {
			if (numa_bitmask_isbitset(run, c) && numa_bitmask_isbitset(d->dom[which[i]].cpus, c))
				numa_bitmask_setbit(m, c);
		}
		rt_cpus_format(m, list, sizeof(list));
		used += (size_t)snprintf(buf + used, len - used, "%s%s %s", i ? ", " : "", list,
					 d->dom[which[i]].name);
	}
	numa_free_cpumask(m);
}

/*
 * The helpers' CPUs when the run's are quiet: the mask's that are neither
 * quiet nor the run's; else the mask's others (quiet too: inside an
 * isolated partition every CPU is); else none (they share the run's).
 */
static struct bitmask *chosen_housekeeping(const struct cli_common *co, const struct bitmask *run)
{
	struct bitmask *hk = mask_or_die();
	unsigned int c;
	bool quiet = false;

	for (c = 0; c < run->size && c < co->quiet_cpus->size; c++)
		quiet |= numa_bitmask_isbitset(run, c) && numa_bitmask_isbitset(co->quiet_cpus, c);
	if (!quiet) {
		numa_free_cpumask(hk);
		return NULL;
	}
	or_into(hk, co->usable);
	clear_from(hk, co->quiet_cpus);
	clear_from(hk, run);
	if (!rt_cpus_count(hk)) {
		or_into(hk, co->usable);
		clear_from(hk, run);
	}
	if (!rt_cpus_count(hk)) {
		numa_free_cpumask(hk);
		return NULL;
	}
	return hk;
}

/**
 * cli_cpusets_done - the options are read and @run are the run's CPUs: exit 2
 * when they span root domains (unless --cross-domain), and choose the
 * housekeeping CPUs
 */
void cli_cpusets_done(struct cli_common *co, const struct bitmask *run)
{
	size_t which[2];
	char list[256], words[1024];

	if (rt_domains_of(co->domains, run, which, 2) > 1 && !co->cross_domain) {
		rt_cpus_format(run, list, sizeof(list));
		domains_words(co->domains, run, words, sizeof(words));
		cli_die(EXIT_USAGE,
			"CPUs %s span root domains (%s): the RT scheduler never moves a thread "
			"between them, and the run would measure two schedulers; choose CPUs of one "
			"with --cpus, or give --cross-domain",
			list, words);
	}
	if (!co->housekeeping_given)
		co->housekeeping = chosen_housekeeping(co, run);
	/* what -c and the checks needed is no longer needed */
	rt_domains_free(co->domains);
	free(co->domains);
	numa_free_cpumask(co->quiet_cpus);
	numa_free_cpumask(co->allowed);
	co->domains = NULL;
	co->quiet_cpus = co->allowed = NULL;
}
