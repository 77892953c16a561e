// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run's parameters every program has, beside cli's options: the
 * duration (-d), the base priority (-b) and the coordinator's priority
 * above the threads; their options declared once, their defaults the
 * program's data.
 */
#include "bench/bench.h"
#include "lib/clock.h"
#include "lib/opts.h"
#include "lib/sched.h"

static const struct rt_optspec spec_duration = { "--duration", RT_OPT_DURATION,
						 10 * RT_NSEC_PER_MSEC, 24 * 3600 * RT_NSEC_PER_SEC,
						 RT_NSEC_PER_SEC };

/**
 * bench_params_init - @p with the common options (cli_common_init, @usage)
 * and @d's defaults, before the command line is read
 */
void bench_params_init(struct bench_params *p, const struct bench_defaults *d,
		       void (*usage)(FILE *out))
{
	cli_common_init(&p->common, usage);
	p->defaults = d;
	p->duration_ns = d->duration_ns;
	p->duration_given = false;
	p->base_prio = d->base_prio;
}

/**
 * bench_params_option - option @c with @arg, when it is one of the run's
 * parameters (-d, -b); a bad value exits with its message (cli_opt)
 *
 * Returns whether @c was one of them.
 */
bool bench_params_option(struct bench_params *p, int c, const char *arg)
{
	/* -b's range: the run's fewest priorities above it, and the coordinator's */
	const struct rt_optspec spec_base = { "--base-prio", RT_OPT_INT, 1,
					      RT_PRIO_MAX - p->defaults->min_span, 0 };

	if (c == 'd') {
		p->duration_ns = cli_opt(&spec_duration, arg);
		p->duration_given = true;
	} else if (c == 'b') {
		p->base_prio = (int)cli_opt(&spec_base, arg);
	} else {
		return false;
	}
	return true;
}

/**
 * bench_params_threads - the run's @nr_threads rows, its threads at base to
 * base + @span - 1 and the coordinator at base + @span, above them
 */
void bench_params_threads(struct bench_params *p, size_t nr_threads, int span)
{
	p->nr_threads = nr_threads;
	p->coordinator_prio = p->base_prio + span;
}
