// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the machine gave a run's threads (machine.h): the busy loop's speed
 * against its calibration, the coordinator's lateness, the steal time.
 */
#include <stdio.h>

#include "bench/machine.h"
#include "lib/clock.h"
#include "lib/work.h"

/* A coordinator's probe of its CPU: this much busy work at each poll. */
#define PROBE_NS (50 * 1000LL)

/**
 * bench_machine_start - the run begins on @cpus: their time as /proc/stat has it
 */
void bench_machine_start(struct bench_machine *m, const struct bitmask *cpus)
{
	*m = (struct bench_machine){ .speed = -1, .steal = -1, .probe_speed = -1 };
	m->started = !rt_cpustat_read("/proc", cpus, &m->at_start);
}

/**
 * bench_machine_woke - the coordinator, due at @due_ns, woke at @now_ns
 */
void bench_machine_woke(struct bench_machine *m, int64_t due_ns, int64_t now_ns)
{
	if (now_ns - due_ns > m->late_ns)
		m->late_ns = now_ns - due_ns;
}

/**
 * bench_machine_probe - the coordinator, at a poll, spins PROBE_NS of
 * calibrated loops on its own CPU and counts the CPU time they took: a
 * virtual CPU its host does not run makes them take longer (pi_stress's
 * threads do no busy work of their own to tell it)
 */
void bench_machine_probe(struct bench_machine *m, const struct rt_work *w)
{
	uint64_t loops = w->unit_ns > 0 ? (uint64_t)((double)w->loops_per_unit * PROBE_NS /
						      (double)w->unit_ns) + 1 : 0;
	int64_t t0 = rt_now_ns(CLOCK_THREAD_CPUTIME_ID);

	if (!loops)
		return;
	rt_busy_loops(loops);
	m->probe_ns += rt_now_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
	m->probe_loops += loops;
}

/**
 * bench_machine_end - the run ends: its threads took @loops busy loops for
 * @units units of work, which calibration put at @loops_per_unit each
 */
void bench_machine_end(struct bench_machine *m, const struct bitmask *cpus, uint64_t loops,
		       uint64_t units, uint64_t loops_per_unit, int64_t unit_ns)
{
	struct rt_cputime now;

	if (units && loops_per_unit)
		m->speed = (double)loops / ((double)units * (double)loops_per_unit);
	/* the probes' loops against what their CPU time would have held */
	if (m->probe_ns > 0 && loops_per_unit && unit_ns > 0)
		m->probe_speed = (double)m->probe_loops /
				 ((double)m->probe_ns * (double)loops_per_unit / (double)unit_ns);
	if (m->started && !rt_cpustat_read("/proc", cpus, &now) && now.total > m->at_start.total)
		m->steal = (double)(now.steal - m->at_start.steal) /
			   (double)(now.total - m->at_start.total);
}

/**
 * bench_machine_starved - whether the machine starved the run, with @why
 * the evidence in words ("" when it did not)
 */
bool bench_machine_starved(const struct bench_machine *m, char *why, size_t len)
{
	int n = 0;

	if (len)
		why[0] = '\0';
	if (m->speed >= 0 && m->speed < BENCH_STARVED_SPEED && (size_t)n < len)
		n += snprintf(why + n, len - (size_t)n,
			      "%sthe threads' busy loop ran at %.0f%% of its calibrated speed while "
			      "the kernel counted the time as theirs (a virtual CPU its host did not "
			      "run)", n ? "; " : "", 100 * m->speed);
	if (m->probe_speed >= 0 && m->probe_speed < BENCH_STARVED_SPEED && n >= 0 &&
	    (size_t)n < len)
		n += snprintf(why + n, len - (size_t)n,
			      "%sthe coordinator's probes of its CPU ran at %.0f%% of the calibrated "
			      "speed (a virtual CPU its host did not run)", n ? "; " : "",
			      100 * m->probe_speed);
	if (m->late_ns > BENCH_STARVED_LATE_NS && n >= 0 && (size_t)n < len)
		n += snprintf(why + n, len - (size_t)n,
			      "%sthe coordinator, above every thread, woke %.0f ms late",
			      n ? "; " : "", (double)m->late_ns / RT_NSEC_PER_MSEC);
	if (m->withheld[0] && n >= 0 && (size_t)n < len)
		n += snprintf(why + n, len - (size_t)n, "%s%s", n ? "; " : "", m->withheld);
	if (m->steal > BENCH_STARVED_STEAL && n >= 0 && (size_t)n < len)
		n += snprintf(why + n, len - (size_t)n,
			      "%sa hypervisor stole %.0f%% of the run CPUs' time", n ? "; " : "",
			      100 * m->steal);
	return n > 0;
}

/* "machine": the evidence of one run */
void bench_machine_json(struct rt_json *j, const struct bench_machine *m)
{
	char why[512];
	bool starved = bench_machine_starved(m, why, sizeof(why));

	rt_json_object(j, "machine");
	if (m->speed >= 0)
		rt_json_double(j, "busy_speed", m->speed);
	else
		rt_json_null(j, "busy_speed");
	rt_json_int(j, "coordinator_late_ns", m->late_ns);
	if (m->probe_speed >= 0)
		rt_json_double(j, "coordinator_speed", m->probe_speed);
	else
		rt_json_null(j, "coordinator_speed");
	if (m->steal >= 0)
		rt_json_double(j, "steal", m->steal);
	else
		rt_json_null(j, "steal");
	rt_json_bool(j, "starved", starved);
	rt_json_str(j, "starved_why", starved ? why : NULL);
	rt_json_end(j);
}
