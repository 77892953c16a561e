/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_SEVDECODE_H
#define RT_SEVDECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "rt_schedan.h"

/*
 * The scheduler's events and the trace_marker lines of a trace, decoded from
 * libtraceevent's records, whatever they come from: a trace.dat
 * (tracedat.c) or a live instance (tracelive.c).
 */
#define RT_SEV_NFIELDS 5

struct tep_handle;
struct tep_record;
struct tep_format_field;

struct rt_sev_decoder {
	struct tep_handle *tep;
	int id[RT_SEV_TYPES];		/* each event's id, -1 if absent */
	const char *missing[RT_SEV_TYPES];	/* the field an event in the formats lacks, or NULL */
	struct tep_format_field *field[RT_SEV_TYPES][RT_SEV_NFIELDS];
	int print_id;			/* ftrace:print, the markers; -1 if absent */
	struct tep_format_field *print_buf, *common_pid;
	struct tep_format_field *comm[RT_SEV_TYPES][2];	/* the tasks' names, where the event has them */
	struct tep_format_field *common_type;	/* every record's event id */
	bool swap;			/* the file's byte order is not this machine's */
};

enum rt_decoded { RT_DECODED_NONE, RT_DECODED_EVENT, RT_DECODED_MARKER };

void rt_sev_decoder_init(struct rt_sev_decoder *d, struct tep_handle *tep);
enum rt_decoded rt_sev_decode(const struct rt_sev_decoder *d, struct tep_record *r, int cpu,
			      struct rt_sev *e, char *text, size_t len, pid_t *pid);
int rt_sev_type(const struct rt_sev_decoder *d, struct tep_record *r);
enum rt_decoded rt_sev_kind(const struct rt_sev_decoder *d, struct tep_record *r);

#endif
