// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scheduler events' formats: the kernel's sched_switch is found with
 * every field; one that lacks a field is named, so that a damaged or foreign
 * trace says what it lacks instead of "no sched_switch events".
 */
#include <stdio.h>
#include <string.h>

#include <event-parse.h>

/* a test of the trace layer's internals: its event decoder */
#include "trace/internal/decode.h"
#include "harness.h"

#define HEAD                                                                             \
	"name: sched_switch\nID: 372\nformat:\n"                                         \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"           \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"           \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"   \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"                     \
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"                  \
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"                      \
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"                       \
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"                     \
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"                 \
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"

#define PRINT "\nprint fmt: \"prev_pid=%d next_pid=%d\", REC->prev_pid, REC->next_pid\n"

/* The decoder of a tep holding only @format (sched); NULL if it does not parse. */
static struct tep_handle *decoder_of(const char *format, struct trace_decoder *d)
{
	struct tep_handle *tep = tep_alloc();

	if (tep && tep_parse_event(tep, format, strlen(format), "sched") != TEP_ERRNO__SUCCESS) {
		tep_free(tep);
		tep = NULL;
	}
	if (tep)
		trace_decoder_init(d, tep);
	return tep;
}

/* sched_switch with its last field @last: the id found, or -1 with the field missing */
static const struct {
	const char *last, *missing;
	int id;
} formats[] = {
	{ "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n", NULL, 372 },
	{ "\tfield:int next_priX;\toffset:60;\tsize:4;\tsigned:1;\n", "next_prio", -1 },
	{ "", "next_prio", -1 },
};

TEST(a_missing_field_is_named)
{
	struct trace_decoder d;
	struct tep_handle *tep;
	char format[2048];
	size_t i;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		snprintf(format, sizeof(format), "%s%s%s", HEAD, formats[i].last, PRINT);
		tep = decoder_of(format, &d);
		ASSERT(tep, "format %zu parses", i);
		EXPECT_EQ(d.id[TRACE_EV_SWITCH], formats[i].id);
		if (formats[i].missing)
			EXPECT(d.missing[TRACE_EV_SWITCH] &&
			       !strcmp(d.missing[TRACE_EV_SWITCH], formats[i].missing),
			       "format %zu: missing %s", i, d.missing[TRACE_EV_SWITCH]);
		else
			EXPECT(!d.missing[TRACE_EV_SWITCH], "format %zu: nothing missing", i);
		/* the events not in the formats at all are not "missing a field" */
		EXPECT(!d.missing[TRACE_EV_WAKING], "sched_waking is absent, not damaged");
		tep_free(tep);
	}
}
