// SPDX-License-Identifier: GPL-2.0-only
/*
 * The system a run meets, read once: what makes RT threads impossible
 * (exit 4), what makes the numbers doubtful (the notes), and the header's
 * lines on the kernel. Every sentence is of the kernel it runs on: the RT
 * bandwidth regime decides which mechanism is named, and what could not be
 * read is said to be unknown, with why.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "bench/env.h"
#include "lib/work.h"

/**
 * bench_sys_read - read the kernel's and the machine's settings for a run on @cpus
 *
 * Exits 3 when out of memory; what cannot be read is unknown, not an error.
 */
void bench_sys_read(struct bench_sys *s, const struct bitmask *cpus)
{
	rt_kernel_read(&s->kernel, "");
	if (rt_bandwidth_read(&s->bw, &s->kernel, cpus, "") ||
	    rt_domains_read(&s->dom, "") == -ENOMEM)
		cli_die(EXIT_SYSCALL, "reading the kernel's settings: out of memory");
	rt_env_read(&s->env, cpus, "/sys");
	/* no topology is no failure: the figures by distance are left out */
	if (rt_topology_read(&s->topo, "") == -ENOMEM)
		cli_die(EXIT_SYSCALL, "reading the CPU topology: out of memory");
}

void bench_sys_free(struct bench_sys *s)
{
	rt_topology_free(&s->topo);
	rt_bandwidth_free(&s->bw);
	rt_domains_free(&s->dom);
	rt_kernel_free(&s->kernel);
}

/**
 * bench_env_check - exit 4 when RT threads could never run: RT throttling
 * with sched_rt_runtime_us 0 (from 6.12 without RT group scheduling the
 * sysctl bounds only deadline admission, and RT threads run)
 */
void bench_env_check(const struct bench_sys *s)
{
	if (s->bw.rt_runtime_us == 0 && s->bw.throttling != 0)
		cli_die(EXIT_MISSING,
			"kernel.sched_rt_runtime_us is 0: RT throttling would never let RT threads "
			"run here; sysctl -w kernel.sched_rt_runtime_us=950000 (or -1) to give them "
			"time");
}

static double ms(int64_t ns)
{
	return (double)ns / 1e6;
}

/* The fair server's values: "50.0 of every 1000.0 ms on each CPU", or per CPU, or unknown. */
static void fair_words(const struct rt_bandwidth *bw, char *buf, size_t len)
{
	size_t i, used;

	if (!bw->fair) {
		snprintf(buf, len, "its values unknown");
		return;
	}
	if (rt_bandwidth_fair_same(bw) == 1) {
		if (!bw->fair[0].runtime_ns)
			snprintf(buf, len, "off (runtime 0) on each CPU");
		else
			snprintf(buf, len, "%.1f of every %.1f ms on each CPU",
				 ms(bw->fair[0].runtime_ns), ms(bw->fair[0].period_ns));
		return;
	}
	used = (size_t)snprintf(buf, len, "per CPU");
	for (i = 0; i < bw->nfair && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s %d: %.1f/%.1f ms",
					 i ? "," : "", bw->fair[i].cpu, ms(bw->fair[i].runtime_ns),
					 ms(bw->fair[i].period_ns));
}

/**
 * bench_bandwidth_line - the RT bandwidth regime in one line, for the header
 *
 * Returns what snprintf returns.
 */
int bench_bandwidth_line(const struct rt_bandwidth *bw, char *buf, size_t len)
{
	char fair[256];

	fair_words(bw, fair, sizeof(fair));
	switch (bw->regime) {
	case RT_BW_THROTTLING:
		return snprintf(buf, len, "RT throttling %ld/%ld us", bw->rt_runtime_us,
				bw->rt_period_us);
	case RT_BW_FAIR_SERVER:
		return snprintf(buf, len, "the fair server, %s; no RT throttling%s", fair,
				bw->group_sched == 0 ? " (no CONFIG_RT_GROUP_SCHED)" : "");
	case RT_BW_BOTH:
		return snprintf(buf, len, "RT throttling %ld/%ld us (CONFIG_RT_GROUP_SCHED) and the "
				"fair server, %s", bw->rt_runtime_us, bw->rt_period_us, fair);
	case RT_BW_NEITHER:
		return snprintf(buf, len, "none: no RT throttling (sched_rt_runtime_us %ld)%s",
				bw->rt_runtime_us,
				bw->fair_server == 1 ? ", the fair server off on every CPU" : "");
	default:
		return snprintf(buf, len, "unknown%s%s", bw->fair_server == 1 ? " (the fair server, " : "",
				bw->fair_server == 1 ? "and RT throttling unknown)" : "");
	}
}

/* What the regime does to RT threads that keep a CPU busy, and the knob that changes it. */
static void bandwidth_note(const struct rt_bandwidth *bw, char *note, size_t len)
{
	char fair[256];
	long rest = bw->rt_period_us - bw->rt_runtime_us;

	fair_words(bw, fair, sizeof(fair));
	switch (bw->regime) {
	case RT_BW_THROTTLING:
		snprintf(note, len,
			 "RT throttling: once RT threads have run %ld us of a %ld us period on a "
			 "CPU, it runs other tasks, or idles, for the other %ld us; waits and "
			 "preemptions show it (sysctl kernel.sched_rt_runtime_us=-1 turns it off)",
			 bw->rt_runtime_us, bw->rt_period_us, rest);
		return;
	case RT_BW_FAIR_SERVER:
		snprintf(note, len,
			 "no RT throttling on this kernel: the fair server runs starved fair tasks "
			 "above RT threads (%s) and never idles a CPU; sched_rt_runtime_us bounds "
			 "only deadline admission here, and /sys/kernel/debug/sched/fair_server/"
			 "cpuN/runtime sets the server (0 turns it off)",
			 fair);
		return;
	case RT_BW_BOTH:
		snprintf(note, len,
			 "two limits here: RT throttling (CONFIG_RT_GROUP_SCHED) runs other tasks, "
			 "or idles the CPU, for %ld us of every %ld us, and the fair server runs "
			 "starved fair tasks above RT threads (%s); the first to act takes the time. "
			 "sysctl kernel.sched_rt_runtime_us=-1 turns off only the throttling",
			 rest, bw->rt_period_us, fair);
		return;
	case RT_BW_NEITHER:
		snprintf(note, len,
			 "nothing limits RT threads here (no RT throttling%s): while they keep their "
			 "CPUs busy, nothing else runs there",
			 bw->fair_server == 1 ? ", the fair server off" : "");
		return;
	default:
		snprintf(note, len, "the RT bandwidth regime is unknown: %s", bw->why);
	}
}

/* One note for what could not be read, with the first reason (usually debugfs, for all). */
static int unknown_note(const struct bench_sys *s, char *note, size_t len)
{
	const struct rt_kernel *k = &s->kernel;
	const char *what[3], *why = NULL;
	int n = 0, used, i;

	if (!strcmp(k->model, "PREEMPT_DYNAMIC") && k->mode_why[0]) {
		what[n++] = "the preemption mode in force";
		why = k->mode_why;
	}
	if (k->features_why[0]) {
		what[n++] = "the scheduler features";
		why = why ? why : k->features_why;
	}
	if (s->bw.fair_server == 1 && !s->bw.fair) {
		what[n++] = "the fair server's values";
		why = why ? why : s->bw.fair_why;
	}
	if (!n)
		return 0;
	used = snprintf(note, len, "unknown here: ");
	for (i = 0; i < n && used >= 0 && (size_t)used < len; i++)
		used += snprintf(note + used, len - (size_t)used, "%s%s", i ? (i == n - 1 ? " and " : ", ") : "",
				 what[i]);
	if (used >= 0 && (size_t)used < len)
		snprintf(note + used, len - (size_t)used, ", because %s", why);
	return 1;
}

/* The CPUs of @cpus that are in @set, as a list into @list; "" none. */
static void among(const struct bitmask *cpus, const struct bitmask *set, char *list, size_t len)
{
	struct bitmask *m = numa_allocate_cpumask();
	unsigned int c;

	list[0] = '\0';
	if (!m)
		return;
	for (c = 0; c < cpus->size && c < set->size; c++) {
		if (numa_bitmask_isbitset(cpus, c) && numa_bitmask_isbitset(set, c))
			numa_bitmask_setbit(m, c);
	}
	if (rt_cpus_count(m))
		rt_cpus_format(m, list, len);
	numa_free_cpumask(m);
}

/* The run's CPUs among the isolated and the nohz_full ones. */
static int isolation_notes(const struct bench_sys *s, const struct bitmask *cpus,
			   char notes[][BENCH_NOTE_LEN], int n)
{
	char list[256];
	bool quiet;

	among(cpus, s->dom.isolated, list, sizeof(list));
	if (list[0])
		snprintf(notes[n++], BENCH_NOTE_LEN,
			 "CPUs %s are isolated (no scheduling domain: isolcpus=domain or an isolated "
			 "cpuset partition): nothing balances fair tasks onto them, and they share "
			 "the kernel's default root domain",
			 list);
	quiet = list[0];
	among(cpus, s->dom.nohz_full, list, sizeof(list));
	if (list[0])
		snprintf(notes[n++], BENCH_NOTE_LEN,
			 "CPUs %s are nohz_full: their tick stops while one task runs there", list);
	if ((quiet || list[0]) && !s->housekeeping)
		snprintf(notes[n++], BENCH_NOTE_LEN,
			 "no CPU of the process's affinity is left for the coordinator, the "
			 "watchdog and the trace recorder: they share the run's CPUs (--housekeeping "
			 "LIST names others the cpuset gives)");
	return n;
}

/* what makes the clock coarse, where it is known: an x86 TSC the kernel does not trust */
#if defined(__x86_64__) || defined(__i386__)
#define COARSE_CLOCK_EXAMPLE ", e.g. an unstable TSC"
#else
#define COARSE_CLOCK_EXAMPLE ""
#endif

/**
 * bench_env_notes - what makes the numbers doubtful on @cpus, one sentence each
 * @work: the calibration, whose clock may be coarse (NULL: not said)
 *
 * Returns how many notes were written.
 */
int bench_env_notes(const struct bench_sys *s, const struct bitmask *cpus,
		    const struct rt_work *work, char notes[BENCH_NOTES][BENCH_NOTE_LEN])
{
	int n = 0, push = rt_kernel_feature(&s->kernel, "RT_PUSH_IPI");

	bandwidth_note(&s->bw, notes[n++], BENCH_NOTE_LEN);
	n += unknown_note(s, notes[n], BENCH_NOTE_LEN);
	if (push == 0)
		snprintf(notes[n++], BENCH_NOTE_LEN,
			 "RT_PUSH_IPI is off (sched/features): a CPU that looks for RT work pulls it "
			 "from an overloaded CPU under that CPU's runqueue lock, instead of asking "
			 "it by IPI to push");
	if (s->kernel.sched_ext[0] && strcmp(s->kernel.sched_ext, "disabled") &&
	    strcmp(s->kernel.sched_ext, "not built"))
		snprintf(notes[n++], BENCH_NOTE_LEN,
			 "sched_ext is %s: a BPF scheduler, not the fair class, schedules the tasks "
			 "it takes, beside the RT threads",
			 s->kernel.sched_ext);
	n = isolation_notes(s, cpus, notes, n);
	if (s->env.offline[0])
		snprintf(notes[n++], BENCH_NOTE_LEN, "CPUs %s are offline", s->env.offline);
	if (work && work->clock_step_ns > RT_WORK_COARSE_CLOCK_NS)
		snprintf(notes[n++], BENCH_NOTE_LEN,
			 "the thread CPU-time clock advances in steps of %.3f ms here (the kernel "
			 "does not time tasks finely%s): a unit of busy work can last up to that "
			 "much longer than asked",
			 (double)work->clock_step_ns / 1e6, COARSE_CLOCK_EXAMPLE);
	if (s->env.governor[0] && strcmp(s->env.governor, "performance"))
		snprintf(notes[n++], BENCH_NOTE_LEN,
			 "the cpufreq governor is %s, not performance: the CPUs' speed varies (holds "
			 "are CPU time and stay right; iterations vary)",
			 s->env.governor);
	return n;
}

/* The scheduler line: RT_PUSH_IPI, sched_ext, the run's root domains, the housekeeping CPUs. */
static void print_scheduler(const struct bench_sys *s, const struct bitmask *cpus, FILE *out)
{
	const struct bitmask *hk = s->housekeeping;
	int push = rt_kernel_feature(&s->kernel, "RT_PUSH_IPI"), k;
	size_t which[4];
	char list[256];

	rt_cpus_format(cpus, list, sizeof(list));
	fprintf(out, "scheduler: %s, sched_ext %s, ",
		push < 0 ? "features unknown" : push ? "RT_PUSH_IPI" : "NO_RT_PUSH_IPI",
		s->kernel.sched_ext[0] ? s->kernel.sched_ext : "unknown");
	k = rt_domains_of(&s->dom, cpus, which, 4);
	if (k < 0)
		fprintf(out, "root domains unknown");
	else if (k == 1)
		fprintf(out, "CPUs %s in one root domain (%s)", list, s->dom.dom[which[0]].name);
	else
		fprintf(out, "CPUs %s span %d root domains (--cross-domain)", list, k);
	if (hk && rt_cpus_format(hk, list, sizeof(list)) > 0)
		fprintf(out, "; coordinator, watchdog and recorder on CPUs %s", list);
	fprintf(out, "\n");
}

/**
 * bench_limits_words - what takes a CPU from busy RT threads on this kernel,
 * as the start of a list ("RT throttling, "), or "" when nothing does
 */
const char *bench_limits_words(const struct bench_sys *s)
{
	switch (s->bw.regime) {
	case RT_BW_THROTTLING:
		return "RT throttling, ";
	case RT_BW_FAIR_SERVER:
		return "the fair server, ";
	case RT_BW_BOTH:
		return "RT throttling or the fair server, ";
	case RT_BW_NEITHER:
		return "";
	default:
		return "the kernel's RT bandwidth limits, ";
	}
}

/**
 * bench_print_kernel - the header's lines on the kernel: release and
 * preemption, the RT bandwidth regime, the scheduler's settings
 */
void bench_print_kernel(const struct bench_sys *s, const struct bitmask *cpus, FILE *out)
{
	char model[256], bw[512];

	rt_kernel_describe(&s->kernel, model, sizeof(model));
	bench_bandwidth_line(&s->bw, bw, sizeof(bw));
	fprintf(out, "kernel %s, %s\nRT bandwidth: %s\n", s->kernel.release, model, bw);
	print_scheduler(s, cpus, out);
	if (s->topo.nr_cpus) {
		rt_topology_describe(&s->topo, cpus, bw, sizeof(bw));
		fprintf(out, "topology: %s\n", bw);
	}
}
