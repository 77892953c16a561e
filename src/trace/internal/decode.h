/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TRACE_DECODE_H
#define TRACE_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "trace/events.h"

/*
 * The scheduler's events and the trace_marker lines of a trace, decoded from
 * libtraceevent's records, whatever they come from: a trace.dat
 * (tracedat.c) or a live instance (tracelive.c).
 */
#define TRACE_EV_NFIELDS 5

struct tep_handle;
struct tep_record;
struct tep_format_field;

struct trace_decoder {
	struct tep_handle *tep;
	int id[TRACE_EV_TYPES];		/* each event's id, -1 if absent */
	const char *missing[TRACE_EV_TYPES];	/* the field an event in the formats lacks, or NULL */
	struct tep_format_field *field[TRACE_EV_TYPES][TRACE_EV_NFIELDS];
	int print_id;			/* ftrace:print, the markers; -1 if absent */
	struct tep_format_field *print_buf, *common_pid;
	struct tep_format_field *comm[TRACE_EV_TYPES][2];	/* the tasks' names, where the event has them */
	struct tep_format_field *common_type;	/* every record's event id */
	bool swap;			/* the file's byte order is not this machine's */
};

enum trace_decoded { TRACE_DECODED_NONE, TRACE_DECODED_EVENT, TRACE_DECODED_MARKER };

void trace_decoder_init(struct trace_decoder *d, struct tep_handle *tep);
enum trace_decoded trace_decode(const struct trace_decoder *d, struct tep_record *r, int cpu,
				struct trace_event *e, char *text, size_t len, pid_t *pid);
void trace_decode_comm(const struct trace_decoder *d, struct tep_record *r, int type, int side,
		       char *buf, size_t len);
int trace_decode_type(const struct trace_decoder *d, struct tep_record *r);
enum trace_decoded trace_decode_kind(const struct trace_decoder *d, struct tep_record *r);

#endif
