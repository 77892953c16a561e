// SPDX-License-Identifier: GPL-2.0-only
/* The option parsers: what they accept, what they refuse, what they say. */
#include <errno.h>

#include "lib/clock.h"
#include "lib/opts.h"
#include "harness.h"

TEST(ints)
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

		EXPECT(ret == cases[i].ret && (ret || v == cases[i].v),
		       "rt_parse_int('%s') in [-10, 98] gives %d, %lld; expected %d, %lld",
		       cases[i].s, ret, (long long)v, cases[i].ret, (long long)cases[i].v);
	}
	EXPECT_EQ(rt_parse_int(NULL, 0, 1, &(int64_t){ 0 }), -EINVAL);
}

TEST(durations)
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

		EXPECT(ret == cases[i].ret && (ret || ns == cases[i].ns),
		       "rt_parse_duration('%s', bare unit %llu ns) gives %d, %lld ns; expected %d, "
		       "%lld ns", cases[i].s, (unsigned long long)cases[i].bare, ret, (long long)ns,
		       cases[i].ret, (long long)cases[i].ns);
	}
}

TEST(messages)
{
	const struct rt_optspec threads = { "--threads", RT_OPT_INT, 1, 98, 0 };
	const struct rt_optspec dur = { "--duration", RT_OPT_DURATION, 10 * RT_NSEC_PER_MSEC,
					24 * 3600 * RT_NSEC_PER_SEC, RT_NSEC_PER_SEC };
	char err[RT_OPT_ERRLEN] = "";
	int64_t v;

	EXPECT_EQ(rt_opt_parse(&threads, "7", &v, err, sizeof(err)), 0);
	EXPECT_EQ(v, 7);
	EXPECT_EQ(rt_opt_parse(&threads, "abc", &v, err, sizeof(err)), -EINVAL);
	/* naming the option, the value and the range */
	EXPECT_STR(err, "invalid --threads 'abc': expected an integer from 1 to 98");
	rt_opt_parse(&dur, "5q", &v, err, sizeof(err));
	/* a bad duration names the range and the units */
	EXPECT_STR(err, "invalid --duration '5q': expected a duration from 10ms to 24h (a number "
			"with unit us, ms, s, m or h; no unit means s)");
}

TEST(formats)
{
	char buf[32];

	rt_format_duration(buf, sizeof(buf), 10 * RT_NSEC_PER_SEC);
	EXPECT_STR(buf, "10s");
	rt_format_duration(buf, sizeof(buf), 90 * RT_NSEC_PER_SEC);
	EXPECT_STR(buf, "90s");
	rt_format_duration(buf, sizeof(buf), 120 * RT_NSEC_PER_SEC);
	EXPECT_STR(buf, "2m");
	rt_format_duration(buf, sizeof(buf), 1500 * RT_NSEC_PER_USEC);
	EXPECT_STR(buf, "1500us");
	rt_format_duration(buf, sizeof(buf), 0);
	EXPECT_STR(buf, "0");
	rt_format_duration(buf, sizeof(buf), 1234567);
	EXPECT_STR(buf, "1.235ms");
}

/* N or LO-HI, strict: the value's whole text or nothing (analyse's --pid, --prio) */
TEST(ranges)
{
	static const struct {
		const char *s;
		int ret;
		int64_t lo, hi;
	} cases[] = {
		{ "5", 0, 5, 5 },	  { "40-60", 0, 40, 60 },   { "7-7", 0, 7, 7 },
		{ "5-", -EINVAL, 0, 0 },  { "-5", -EINVAL, 0, 0 },  { "50-", -EINVAL, 0, 0 },
		{ "1-2-3", -EINVAL, 0, 0 }, { "", -EINVAL, 0, 0 },   { "3-2", -ERANGE, 0, 0 },
		{ "0", -ERANGE, 0, 0 },	  { "1-100", -ERANGE, 0, 0 }, { "+5", -EINVAL, 0, 0 },
		{ "5x", -EINVAL, 0, 0 },  { "5 ", -EINVAL, 0, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t lo = -1, hi = -1;
		int ret = rt_parse_range(cases[i].s, strlen(cases[i].s), 1, 99, &lo, &hi);

		EXPECT(ret == cases[i].ret && (ret || (lo == cases[i].lo && hi == cases[i].hi)),
		       "rt_parse_range('%s') in 1-99 gives %d, %lld-%lld; expected %d", cases[i].s,
		       ret, (long long)lo, (long long)hi, cases[i].ret);
	}
	/* only the first LEN characters: an item of a comma-separated list */
	EXPECT_EQ(rt_parse_range("12,34", 2, 1, 99, &(int64_t){ 0 }, &(int64_t){ 0 }), 0);
}
