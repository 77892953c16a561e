/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_REGIME_H
#define RT_REGIME_H

/*
 * What limits RT threads on a CPU they keep busy, as a kernel has it.
 * Before 6.12, RT throttling: once the RT tasks of a CPU have run
 * sched_rt_runtime_us of a sched_rt_period_us, the CPU runs other tasks, or
 * idles, for the rest of the period. From 6.12 (commit 5f6bd380c7bd) RT
 * throttling exists only with CONFIG_RT_GROUP_SCHED, and the fair server, a
 * deadline entity per CPU, runs starved fair tasks above the RT ones for
 * its runtime of each period; it never idles a CPU. bandwidth.c works out
 * the running kernel's; the trace analysis attributes time by it.
 */
enum rt_bw_regime {
	RT_BW_UNKNOWN,		/* not told */
	RT_BW_NEITHER,		/* nothing limits RT threads */
	RT_BW_THROTTLING,	/* RT throttling alone */
	RT_BW_FAIR_SERVER,	/* the fair server alone */
	RT_BW_BOTH,		/* both: whichever comes first */
};

extern const char *const rt_bw_regime_names[];	/* "unknown", "neither", "throttling", ... */
enum rt_bw_regime rt_bw_regime_of(const char *name);

#endif
