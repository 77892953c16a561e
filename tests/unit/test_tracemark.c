// SPDX-License-Identifier: GPL-2.0-only
/*
 * Markers reach the trace buffer, and are off without a trace_marker: a
 * marker written while off is nowhere in the buffer afterwards.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <tracefs.h>
#include <unistd.h>

#include "trace/marker.h"
#include "harness.h"

/* A token no other run writes. */
static void token(char *buf, size_t len, const char *what)
{
	snprintf(buf, len, "rtsched-unit-%s-%d-%ld", what, getpid(), (long)time(NULL));
}

TEST(off_before_open_and_after_close)
{
	EXPECT(!trace_marker_enabled(), "markers are off before open");
	if (!trace_marker_open(NULL)) {
		EXPECT(trace_marker_enabled(), "trace_marker opened through libtracefs");
		trace_marker_close();
	}
	EXPECT(!trace_marker_enabled(), "closed, markers are off");
}

TEST(a_marker_reaches_the_buffer_and_none_while_off)
{
	char off[64], on[64], *path, *line = NULL;
	bool seen_on = false, seen_off = false;
	size_t cap = 0;
	FILE *f;

	if (trace_marker_open(NULL))
		TEST_SKIP("no writable trace_marker here: markers stay off");
	if (tracefs_trace_is_on(NULL) != 1) {
		trace_marker_close();
		TEST_SKIP("tracing is off in the top instance: a marker cannot be read back");
	}
	trace_marker_close();
	token(off, sizeof(off), "off");
	trace_mark("%s\n", off);	/* off: must go nowhere */
	ASSERT(!trace_marker_open(NULL), "trace_marker opened again");
	token(on, sizeof(on), "on");
	trace_mark("%s\n", on);
	trace_marker_close();
	/*
	 * Line by line: the top instance's buffer may hold megabytes (every
	 * untraced run marks there), and reading it whole grows one buffer by
	 * small steps, which takes minutes under AddressSanitizer's realloc.
	 */
	path = tracefs_instance_get_file(NULL, "trace");
	ASSERT(path, "the top instance's trace is found");
	f = fopen(path, "r");
	tracefs_put_tracing_file(path);
	ASSERT(f, "the top instance's trace is read");
	while (getline(&line, &cap, f) > 0) {
		seen_on |= strstr(line, on) != NULL;
		seen_off |= strstr(line, off) != NULL;
	}
	free(line);
	fclose(f);
	EXPECT(seen_on, "the marker written while on is in the buffer");
	EXPECT(!seen_off, "the marker written while off is not");
}
