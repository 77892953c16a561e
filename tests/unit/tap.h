/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Minimal TAP for the C unit tests (new ones use harness.h, named tests): one "ok N - what" or "not ok N - what"
 * line per check, "# SKIP why" for a check that cannot run here, and the plan
 * at the end.
 */
#ifndef RT_TAP_H
#define RT_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

/* A check: "ok N - what", or "not ok N - what" and where it is. */
#define tap_ok(...) tap_ok_at(__FILE__, __LINE__, __VA_ARGS__)

static void __attribute__((format(printf, 4, 5), unused))
tap_ok_at(const char *file, int line, int pass, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	if (!pass) {
		tap_failed++;
		printf("# %s:%d: failed\n", file, line);
	}
	printf("%sok %d - ", pass ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static void __attribute__((format(printf, 1, 2), unused)) tap_skip(const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("ok %d - # SKIP ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

#define tap_is(got, want, what)                                                          \
	do {                                                                             \
		long long g_ = (long long)(got), w_ = (long long)(want);               \
		tap_ok(g_ == w_, "%s", what);                                          \
		if (g_ != w_)                                                          \
			printf("#   got %lld, want %lld\n", g_, w_);                    \
	} while (0)

#define tap_str(got, want, what)                                                         \
	do {                                                                             \
		const char *g_ = (got), *w_ = (want);                                  \
		int same_ = g_ && w_ && !strcmp(g_, w_);                               \
		tap_ok(same_, "%s", what);                                             \
		if (!same_)                                                            \
			printf("#   got '%s'\n#  want '%s'\n", g_ ? g_ : "(null)",       \
			       w_ ? w_ : "(null)");                                     \
	} while (0)

static int __attribute__((unused)) tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
