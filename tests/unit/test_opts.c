// SPDX-License-Identifier: GPL-2.0-only
/* The option parsers: what they accept, what they refuse, what they say. */
#include <errno.h>

#include "rt_clock.h"
#include "rt_opts.h"
#include "tap.h"

static void ints(void)
{
	static const struct {
		const char *s;
		int ret;
		int64_t v;
	} cases[] = {
		{ "0", 0, 0 },		{ "42", 0, 42 },	 { "98", 0, 98 },
		{ "-5", 0, -5 },	{ "99", -ERANGE, 0 },	 { "-11", -ERANGE, 0 },
		{ "", -EINVAL, 0 },	{ "abc", -EINVAL, 0 }, { "5x", -EINVAL, 0 },
		{ " 5", -EINVAL, 0 },	{ "+5", -EINVAL, 0 },	 { "0x10", -EINVAL, 0 },
		{ "1e3", -EINVAL, 0 },	{ "5 ", -EINVAL, 0 },	 { "-", -EINVAL, 0 },
		{ "99999999999999999999999", -ERANGE, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t v = 12345;
		int ret = rt_parse_int(cases[i].s, -10, 98, &v);

		tap_ok(ret == cases[i].ret && (ret || v == cases[i].v),
		       "rt_parse_int('%s') in [-10, 98] gives %d", cases[i].s, cases[i].ret);
		if (!ret && ret == cases[i].ret)
			tap_is(v, cases[i].v, "  and the value");
	}
	tap_is(rt_parse_int(NULL, 0, 1, &(int64_t){ 0 }), -EINVAL, "rt_parse_int(NULL) is -EINVAL");
}

static void durations(void)
{
	static const struct {
		const char *s;
		uint64_t bare;
		int ret;
		int64_t ns;
	} cases[] = {
		{ "10", RT_NSEC_PER_SEC, 0, 10 * RT_NSEC_PER_SEC },
		{ "10", RT_NSEC_PER_MSEC, 0, 10 * RT_NSEC_PER_MSEC },
		{ "500ms", RT_NSEC_PER_SEC, 0, 500 * RT_NSEC_PER_MSEC },
		{ "2m", RT_NSEC_PER_SEC, 0, 120 * RT_NSEC_PER_SEC },
		{ "1h", RT_NSEC_PER_SEC, 0, 3600 * RT_NSEC_PER_SEC },
		{ "250us", RT_NSEC_PER_SEC, 0, 250 * RT_NSEC_PER_USEC },
		{ "1.5s", RT_NSEC_PER_SEC, 0, 1500 * RT_NSEC_PER_MSEC },
		{ "0.5", RT_NSEC_PER_MSEC, 0, 500 * RT_NSEC_PER_USEC },
		{ "3s", RT_NSEC_PER_MSEC, 0, 3 * RT_NSEC_PER_SEC },
		{ "0", RT_NSEC_PER_SEC, -ERANGE, 0 },
		{ "25h", RT_NSEC_PER_SEC, -ERANGE, 0 },
		{ "1us", RT_NSEC_PER_SEC, -ERANGE, 0 },
		{ "", RT_NSEC_PER_SEC, -EINVAL, 0 },
		{ "s", RT_NSEC_PER_SEC, -EINVAL, 0 },
		{ "5q", RT_NSEC_PER_SEC, -EINVAL, 0 },
		{ "5 s", RT_NSEC_PER_SEC, -EINVAL, 0 },
		{ "-1", RT_NSEC_PER_SEC, -EINVAL, 0 },
		{ "1.", RT_NSEC_PER_SEC, -EINVAL, 0 },
		{ ".5", RT_NSEC_PER_SEC, -EINVAL, 0 },
		{ "1.5.3", RT_NSEC_PER_SEC, -EINVAL, 0 },
		{ "5ns", RT_NSEC_PER_SEC, -EINVAL, 0 },
		{ "99999999999999999999999", RT_NSEC_PER_SEC, -ERANGE, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t ns = -1;
		int ret = rt_parse_duration(cases[i].s, cases[i].bare, 10 * RT_NSEC_PER_USEC,
					    24 * 3600 * RT_NSEC_PER_SEC, &ns);

		tap_ok(ret == cases[i].ret && (ret || ns == cases[i].ns),
		       "rt_parse_duration('%s', bare unit %llu ns) gives %d, %lld ns", cases[i].s,
		       (unsigned long long)cases[i].bare, cases[i].ret, (long long)cases[i].ns);
	}
}

static void messages(void)
{
	const struct rt_optspec threads = { "--threads", RT_OPT_INT, 1, 98, 0 };
	const struct rt_optspec dur = { "--duration", RT_OPT_DURATION, 10 * RT_NSEC_PER_MSEC,
					24 * 3600 * RT_NSEC_PER_SEC, RT_NSEC_PER_SEC };
	char err[RT_OPT_ERRLEN] = "";
	int64_t v;

	tap_is(rt_opt_parse(&threads, "7", &v, err, sizeof(err)), 0, "rt_opt_parse accepts 7");
	tap_is(v, 7, "  and returns it");
	tap_is(rt_opt_parse(&threads, "abc", &v, err, sizeof(err)), -EINVAL,
	       "rt_opt_parse refuses abc");
	tap_str(err, "invalid --threads 'abc': expected an integer from 1 to 98",
		"  naming the option, the value and the range");
	rt_opt_parse(&dur, "5q", &v, err, sizeof(err));
	tap_str(err,
		"invalid --duration '5q': expected a duration from 10ms to 24h (a number with "
		"unit us, ms, s, m or h; no unit means s)",
		"a bad duration names the range and the units");
}

static void formats(void)
{
	char buf[32];

	rt_format_duration(buf, sizeof(buf), 10 * RT_NSEC_PER_SEC);
	tap_str(buf, "10s", "10 s formats as 10s");
	rt_format_duration(buf, sizeof(buf), 90 * RT_NSEC_PER_SEC);
	tap_str(buf, "90s", "90 s formats as 90s");
	rt_format_duration(buf, sizeof(buf), 120 * RT_NSEC_PER_SEC);
	tap_str(buf, "2m", "120 s formats as 2m");
	rt_format_duration(buf, sizeof(buf), 1500 * RT_NSEC_PER_USEC);
	tap_str(buf, "1500us", "1.5 ms formats as 1500us");
	rt_format_duration(buf, sizeof(buf), 0);
	tap_str(buf, "0", "zero formats as 0");
	rt_format_duration(buf, sizeof(buf), 1234567);
	tap_str(buf, "1.235ms", "an inexact value keeps three decimals");
}

int main(void)
{
	ints();
	durations();
	messages();
	formats();
	return tap_done();
}
