// SPDX-License-Identifier: GPL-2.0-only
/*
 * Strict parsing of option values: integers, durations and the messages that
 * say what was wrong.
 */
#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/opts.h"

/**
 * rt_parse_int - parse a whole decimal integer within [min, max]
 *
 * Leading white space, a '+' sign, hexadecimal and trailing characters are
 * refused: a value on a command line should mean one thing.
 *
 * Returns 0, -EINVAL when @s is not an integer, -ERANGE when it is outside
 * [min, max] (also on overflow).
 */
int rt_parse_int(const char *s, int64_t min, int64_t max, int64_t *out)
{
	const char *p = s;
	char *end;
	long long v;

	if (!s)
		return -EINVAL;
	if (*p == '-')
		p++;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/**
 * rt_parse_range - the first @len characters of @s as N or LO-HI: whole
 * numbers from @min to @max (no sign), LO <= HI
 *
 * Returns 0, -EINVAL (not N or LO-HI: an empty side, a second dash, a sign,
 * anything else), or -ERANGE (out of @min-@max, or HI below LO).
 */
int rt_parse_range(const char *s, size_t len, int64_t min, int64_t max, int64_t *lo, int64_t *hi)
{
	char buf[48], *dash;
	int ret;

	if (!len || len >= sizeof(buf) || !isdigit((unsigned char)s[0]) ||
	    !isdigit((unsigned char)s[len - 1]))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	dash = strchr(buf, '-');
	if (dash) {
		*dash = '\0';
		/* "1-2-3": the second side must be a number alone */
		if (!isdigit((unsigned char)dash[1]) || strchr(dash + 1, '-'))
			return -EINVAL;
	}
	ret = rt_parse_int(buf, min, max, lo);
	if (!ret)
		ret = dash ? rt_parse_int(dash + 1, min, max, hi) : (*hi = *lo, 0);
	if (!ret && *hi < *lo)
		ret = -ERANGE;
	return ret;
}

static const struct {
	const char *suffix;
	uint64_t ns;
} units[] = {
	{ "us", 1000ULL },	   { "ms", 1000000ULL },	{ "s", 1000000000ULL },
	{ "m", 60000000000ULL }, { "h", 3600000000000ULL },
};

/**
 * rt_parse_duration - parse "10", "500ms", "2m", "250us", "1.5s" into nanoseconds
 * @bare_unit_ns: the unit of a number written without suffix
 *
 * Returns 0, -EINVAL for text that is not a duration, -ERANGE when the value is
 * outside [min_ns, max_ns].
 */
int rt_parse_duration(const char *s, uint64_t bare_unit_ns, int64_t min_ns, int64_t max_ns,
		      int64_t *out_ns)
{
	uint64_t whole = 0, frac = 0, frac_div = 1, unit = bare_unit_ns;
	const char *p = s;
	bool digits = false;
	long double ns;
	size_t i;

	if (!s || !isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		digits = true;
		if (whole > UINT64_MAX / 10 - 10)
			return -ERANGE;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		for (; isdigit((unsigned char)*p); p++) {
			/* nanoseconds are the resolution: further digits change nothing */
			if (frac_div < 1000000000000ULL) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				frac_div *= 10;
			}
		}
	}
	if (!digits)
		return -EINVAL;
	if (*p) {
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
			if (!strcmp(p, units[i].suffix)) {
				unit = units[i].ns;
				break;
			}
		}
		if (i == sizeof(units) / sizeof(units[0]))
			return -EINVAL;
	}
	ns = (long double)whole * unit + (long double)frac * unit / frac_div;
	if (ns < (long double)min_ns || ns > (long double)max_ns)
		return -ERANGE;
	*out_ns = (int64_t)(ns + 0.5L);
	return 0;
}

/**
 * rt_format_duration - write @ns in the largest unit that keeps it exact
 *
 * Returns what snprintf returns.
 */
int rt_format_duration(char *buf, size_t len, int64_t ns)
{
	static const struct {
		const char *suffix;
		int64_t ns;
	} fmt[] = {
		{ "h", 3600000000000LL }, { "m", 60000000000LL }, { "s", 1000000000LL },
		{ "ms", 1000000LL },	  { "us", 1000LL },
	};
	size_t i;

	if (!ns)
		return snprintf(buf, len, "0");
	for (i = 0; i < sizeof(fmt) / sizeof(fmt[0]); i++) {
		if (ns % fmt[i].ns == 0)
			return snprintf(buf, len, "%" PRId64 "%s", ns / fmt[i].ns, fmt[i].suffix);
	}
	if (ns >= 1000000)
		return snprintf(buf, len, "%.3fms", ns / 1e6);
	return snprintf(buf, len, "%" PRId64 "ns", ns);
}

/**
 * rt_opt_parse - parse @arg as @spec says, or explain in @err why not
 *
 * @err receives one line without newline, e.g.
 * "invalid --threads 'abc': expected an integer from 1 to 98".
 *
 * Returns 0, or -EINVAL / -ERANGE with @err filled.
 */
int rt_opt_parse(const struct rt_optspec *spec, const char *arg, int64_t *out, char *err,
		 size_t errlen)
{
	char lo[32], hi[32];
	int ret;

	if (spec->kind == RT_OPT_INT)
		ret = rt_parse_int(arg, spec->min, spec->max, out);
	else
		ret = rt_parse_duration(arg, spec->bare_unit_ns, spec->min, spec->max, out);
	if (!ret)
		return 0;

	if (spec->kind == RT_OPT_INT) {
		snprintf(err, errlen, "invalid %s '%s': expected an integer from %" PRId64
			 " to %" PRId64, spec->name, arg, spec->min, spec->max);
	} else {
		char bare[32];

		rt_format_duration(lo, sizeof(lo), spec->min);
		rt_format_duration(hi, sizeof(hi), spec->max);
		rt_format_duration(bare, sizeof(bare), (int64_t)spec->bare_unit_ns);
		/* "1s" reads as the unit name for a bare number: say "s" rather than "1s" */
		snprintf(err, errlen,
			 "invalid %s '%s': expected a duration from %s to %s (a number with "
			 "unit us, ms, s, m or h; no unit means %s)",
			 spec->name, arg, lo, hi, bare[0] == '1' ? bare + 1 : bare);
	}
	return ret;
}
