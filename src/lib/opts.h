/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_OPTS_H
#define RT_OPTS_H

#include <stddef.h>
#include <stdint.h>

/*
 * An option's value and what it accepts, carried together so that every value
 * is checked in one place and every message names the option, the value and
 * the accepted range.
 */
enum rt_opt_kind {
	RT_OPT_INT,	 /* a decimal integer */
	RT_OPT_DURATION, /* a number with an optional unit: us, ms, s, m, h */
};

struct rt_optspec {
	const char *name;	   /* "--threads" */
	enum rt_opt_kind kind;
	int64_t min;		   /* RT_OPT_DURATION: nanoseconds */
	int64_t max;
	uint64_t bare_unit_ns;	   /* RT_OPT_DURATION: unit of a number without suffix */
};

#define RT_OPT_ERRLEN 256

int rt_parse_int(const char *s, int64_t min, int64_t max, int64_t *out);
int rt_parse_range(const char *s, size_t len, int64_t min, int64_t max, int64_t *lo, int64_t *hi);
int rt_parse_duration(const char *s, uint64_t bare_unit_ns, int64_t min_ns, int64_t max_ns,
		      int64_t *out_ns);
int rt_opt_parse(const struct rt_optspec *spec, const char *arg, int64_t *out, char *err,
		 size_t errlen);
int rt_format_duration(char *buf, size_t len, int64_t ns);

#endif
