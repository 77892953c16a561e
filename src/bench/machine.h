/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the machine gave a run's threads, measured beside the run: the
 * evidence a failed verdict rests on. A virtual CPU its host does not run,
 * a hypervisor's steal, a coordinator that wakes far too late: the threads
 * did not get the time the kernel counted for them, and what they did not
 * do says nothing of the kernel's scheduler.
 */
#ifndef BENCH_MACHINE_H
#define BENCH_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/cpustat.h"
#include "lib/json.h"

/* Starved: the busy loop ran under a quarter of its calibrated speed... */
#define BENCH_STARVED_SPEED 0.25
/* ...or the coordinator, above every thread, woke this late (RT bandwidth limits take 50 ms)... */
#define BENCH_STARVED_LATE_NS (250 * 1000 * 1000LL)
/* ...or a hypervisor took this share of the run CPUs' time. */
#define BENCH_STARVED_STEAL 0.10

struct bench_machine {
	double speed;			/* busy loops per unit over calibration's; < 0: no busy work */
	int64_t late_ns;		/* the coordinator's latest wake-up past its due time */
	double steal;			/* the run CPUs' steal share of their time; < 0: unknown */
	double probe_speed;		/* the coordinator's probes, the same way; < 0: none */
	uint64_t probe_loops;		/* its probes' loops... */
	int64_t probe_ns;		/* ...and the CPU time they took */
	struct rt_cputime at_start;	/* the run CPUs' time at the gate */
	bool started;			/* at_start was read */
	/*
	 * The program's own evidence, in words ("" none): threads that were
	 * runnable and not run, with nothing of the run's above them
	 */
	char withheld[256];
};

void bench_machine_start(struct bench_machine *m, const struct bitmask *cpus);
void bench_machine_woke(struct bench_machine *m, int64_t due_ns, int64_t now_ns);
struct rt_work;
void bench_machine_probe(struct bench_machine *m, const struct rt_work *w);
void bench_machine_end(struct bench_machine *m, const struct bitmask *cpus, uint64_t loops,
		       uint64_t units, uint64_t loops_per_unit, int64_t unit_ns);
bool bench_machine_starved(const struct bench_machine *m, char *why, size_t len);
void bench_machine_json(struct rt_json *j, const struct bench_machine *m);

#endif
