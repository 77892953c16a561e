// SPDX-License-Identifier: GPL-2.0-only
/*
 * The system a run meets: what makes RT threads impossible (exit 4), what
 * makes the numbers doubtful (the notes), and the kernel line of the header.
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli.h"
#include "env.h"
#include "rt_env.h"
#include "rt_sched.h"
#include "rt_work.h"

/**
 * bench_env_check - exit 4 when RT threads could never run: sched_rt_runtime_us 0
 */
void bench_env_check(void)
{
	struct rt_throttle thr;

	if (!rt_sched_throttle(&thr) && thr.runtime_us == 0)
		cli_die(EXIT_MISSING,
			"kernel.sched_rt_runtime_us is 0: RT threads would never run here; "
			"sysctl -w kernel.sched_rt_runtime_us=950000 (or -1) to give them time");
}

/**
 * bench_env_notes - what makes the numbers doubtful on @cpus, one sentence each
 * @work: the calibration, whose clock may be coarse (NULL: not said)
 *
 * Returns how many notes were written.
 */
int bench_env_notes(const struct bitmask *cpus, const struct rt_work *work,
		  char notes[BENCH_NOTES][BENCH_NOTE_LEN])
{
	struct rt_throttle thr;
	struct rt_env env;
	int n = 0;

	rt_env_read(&env, cpus, "/sys");
	if (!rt_sched_throttle(&thr) && thr.runtime_us > 0 && thr.runtime_us < thr.period_us)
		snprintf(notes[n++], BENCH_NOTE_LEN,
			 "RT throttling idles a CPU kept busy by RT threads for %ld us of every %ld "
			 "us (sysctl kernel.sched_rt_runtime_us=-1 turns it off)",
			 thr.period_us - thr.runtime_us, thr.period_us);
	if (env.fair_runtime_ns > 0 && env.fair_period_ns > 0)
		snprintf(notes[n++], BENCH_NOTE_LEN,
			 "the fair server runs other tasks above RT ones for up to %.1f ms of every "
			 "%.1f ms when they starve",
			 (double)env.fair_runtime_ns / 1e6, (double)env.fair_period_ns / 1e6);
	if (env.isolated[0])
		snprintf(notes[n++], BENCH_NOTE_LEN,
			 "CPUs %s are isolated: the scheduler does not balance them, threads move "
			 "between them only when woken",
			 env.isolated);
	if (env.offline[0])
		snprintf(notes[n++], BENCH_NOTE_LEN, "CPUs %s are offline", env.offline);
	if (work && work->clock_step_ns > RT_WORK_COARSE_CLOCK_NS)
		snprintf(notes[n++], BENCH_NOTE_LEN,
			 "the thread CPU-time clock advances in steps of %.3f ms here (the kernel "
			 "does not time tasks finely, e.g. an unstable TSC): a unit of busy work "
			 "can last up to that much longer than asked",
			 (double)work->clock_step_ns / 1e6);
	if (env.governor[0] && strcmp(env.governor, "performance"))
		snprintf(notes[n++], BENCH_NOTE_LEN,
			 "the cpufreq governor is %s, not performance: the CPUs' speed varies (holds "
			 "are CPU time and stay right; iterations vary)",
			 env.governor);
	return n;
}

/**
 * bench_print_kernel - one line: kernel release, preemption model, RT throttling
 */
void bench_print_kernel(FILE *out)
{
	struct rt_throttle thr;
	char model[128];
	struct utsname u;

	rt_sched_preempt_model(model, sizeof(model));
	if (uname(&u))
		strcpy(u.release, "unknown");
	if (rt_sched_throttle(&thr))
		fprintf(out, "kernel %s, %s, RT throttling unknown\n", u.release, model);
	else if (thr.runtime_us < 0)
		fprintf(out, "kernel %s, %s, RT throttling off\n", u.release, model);
	else
		fprintf(out, "kernel %s, %s, RT throttling %ld/%ld us\n", u.release, model,
			thr.runtime_us, thr.period_us);
}
