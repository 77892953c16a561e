// SPDX-License-Identifier: GPL-2.0-only
/*
 * libtraceevent's records of the sched events and of trace_marker, decoded
 * into what the analysis takes (struct trace_event) and the markers' text.
 */
#include <stdint.h>
#include <string.h>
#include <event-parse.h>

#include "trace/internal/decode.h"

/* The fields read of each event, in struct trace_event's order of use. */
static const char *const fields[TRACE_EV_TYPES][TRACE_EV_NFIELDS] = {
	[TRACE_EV_SWITCH] = { "prev_pid", "prev_prio", "prev_state", "next_pid", "next_prio" },
	[TRACE_EV_WAKING] = { "pid", "prio", "target_cpu" },
	[TRACE_EV_WAKEUP] = { "pid", "prio", "target_cpu" },
	[TRACE_EV_MIGRATE] = { "pid", "prio", "orig_cpu", "dest_cpu" },
	[TRACE_EV_PI] = { "pid", "oldprio", "newprio" },
};

/* The names of the tasks of each event, to tell the stopper by (optional fields). */
static const char *const comms[TRACE_EV_TYPES][2] = {
	[TRACE_EV_SWITCH] = { "prev_comm", "next_comm" },
	[TRACE_EV_WAKING] = { "comm" },
	[TRACE_EV_WAKEUP] = { "comm" },
};

/**
 * trace_decoder_init - find the events and their fields in @tep's formats
 *
 * An event the formats lack, or whose fields are not all there (the first
 * one missing in d->missing), keeps id -1 and is never decoded; the caller
 * says whether that matters.
 */
void trace_decoder_init(struct trace_decoder *d, struct tep_handle *tep)
{
	struct tep_event *ev;
	int i, f;

	memset(d, 0, sizeof(*d));
	d->tep = tep;
	for (i = 0; i < TRACE_EV_TYPES; i++) {
		d->id[i] = -1;
		ev = tep_find_event_by_name(tep, "sched", trace_event_names[i]);
		for (f = 0; ev && f < TRACE_EV_NFIELDS && fields[i][f]; f++) {
			d->field[i][f] = tep_find_field(ev, fields[i][f]);
			if (!d->field[i][f]) {
				d->missing[i] = fields[i][f];
				ev = NULL;
			}
		}
		if (ev)
			d->id[i] = ev->id;
		for (f = 0; ev && f < 2 && comms[i][f]; f++)
			d->comm[i][f] = tep_find_field(ev, comms[i][f]);
		if (ev && !d->common_pid)
			d->common_pid = tep_find_common_field(ev, "common_pid");
		if (ev && !d->common_type)
			d->common_type = tep_find_common_field(ev, "common_type");
	}
	d->swap = tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep);
	d->print_id = -1;
	ev = tep_find_event_by_name(tep, "ftrace", "print");
	if (ev) {
		d->print_buf = tep_find_field(ev, "buf");
		if (!d->common_pid)
			d->common_pid = tep_find_common_field(ev, "common_pid");
		if (d->print_buf && d->common_pid)
			d->print_id = ev->id;
	}
}

/*
 * A number field of @r: read in place where the file has this machine's
 * byte order (the common case, and most of an analysis's time went to
 * libtraceevent's general reader), by libtraceevent otherwise; 0 for a
 * field past the record's end (a damaged file).
 */
static long long num(const struct trace_decoder *d, struct tep_format_field *f,
		     struct tep_record *r)
{
	const unsigned char *p = (const unsigned char *)r->data + f->offset;
	unsigned long long v = 0;
	uint32_t v32;
	uint16_t v16;

	if (f->offset + f->size > r->size)
		return 0;
	if (d->swap) {
		tep_read_number_field(f, r->data, &v);
	} else {
		switch (f->size) {
		case 1:
			v = *p;
			break;
		case 2:
			memcpy(&v16, p, 2);
			v = v16;
			break;
		case 4:
			memcpy(&v32, p, 4);
			v = v32;
			break;
		case 8:
			memcpy(&v, p, 8);
			break;
		default:
			tep_read_number_field(f, r->data, &v);
		}
	}
	/* sign-extend the 32-bit fields (pids, priorities, CPUs) */
	return f->size == 4 ? (long long)(int32_t)v : (long long)v;
}

/*
 * The stopper (the stop class's per-CPU thread, "migration/N") runs above
 * every class, but the kernel reports it at priority 0, an RT one: a
 * throttled CPU running it is still throttled. Told by its name.
 */
static int32_t stopper_prio(const struct tep_format_field *comm, struct tep_record *r, int32_t prio)
{
	static const char name[] = "migration/";
	const char *c;
	int max;

	if (prio != 0 || !comm)
		return prio;
	max = r->size - comm->offset;
	if (max <= (int)sizeof(name))
		return prio;
	c = (const char *)r->data + comm->offset;
	if (strncmp(c, name, sizeof(name) - 1) || c[sizeof(name) - 1] < '0' ||
	    c[sizeof(name) - 1] > '9')
		return prio;
	return TRACE_PRIO_STOP;
}

/* A trace_marker line, without its newline; the record's data ends it. */
static void marker(const struct trace_decoder *d, struct tep_record *r, char *text, size_t len,
		   pid_t *pid)
{
	const char *buf = (const char *)r->data + d->print_buf->offset;
	int max = r->size - d->print_buf->offset;
	size_t n = max > 0 ? strnlen(buf, (size_t)max) : 0;

	if (n >= len)
		n = len - 1;
	while (n && buf[n - 1] == '\n')
		n--;
	memcpy(text, buf, n);
	text[n] = 0;
	*pid = (pid_t)num(d, d->common_pid, r);
}

/**
 * trace_decode_comm - the name field @side (0: prev_comm, 1: next_comm of a
 * switch; 0 the task's of a wake-up) of @r, an event of @type, into @buf;
 * "" where the event has none
 */
void trace_decode_comm(const struct trace_decoder *d, struct tep_record *r, int type, int side,
		       char *buf, size_t len)
{
	const struct tep_format_field *f = type >= 0 && type < TRACE_EV_TYPES && side >= 0 &&
					   side < 2 ? d->comm[type][side] : NULL;
	int max = f ? r->size - f->offset : 0;
	size_t n;

	buf[0] = 0;
	if (max <= 0 || !len)
		return;
	n = strnlen((const char *)r->data + f->offset, (size_t)max < (size_t)f->size ?
		    (size_t)max : (size_t)f->size);
	if (n >= len)
		n = len - 1;
	memcpy(buf, (const char *)r->data + f->offset, n);
	buf[n] = 0;
}

/**
 * trace_decode_type - the event id of @r (its common_type), as tep_data_type() gives it
 */
int trace_decode_type(const struct trace_decoder *d, struct tep_record *r)
{
	if (!d->common_type)
		return tep_data_type(d->tep, r);
	return (int)num(d, d->common_type, r);
}

/**
 * trace_decode_kind - what @r is, without decoding it: TRACE_DECODED_EVENT (a
 * scheduler event), TRACE_DECODED_MARKER or TRACE_DECODED_NONE
 */
enum trace_decoded trace_decode_kind(const struct trace_decoder *d, struct tep_record *r)
{
	int id = trace_decode_type(d, r), type;

	if (id == d->print_id)
		return TRACE_DECODED_MARKER;
	for (type = 0; type < TRACE_EV_TYPES; type++) {
		if (d->id[type] == id)
			return TRACE_DECODED_EVENT;
	}
	return TRACE_DECODED_NONE;
}

/**
 * trace_decode - @r as a scheduler event (into @e) or a marker (its text
 * into @text, @len bytes with the NUL, its writer into @pid)
 * @text: NULL when markers are not wanted
 *
 * Returns what @r was: TRACE_DECODED_EVENT, TRACE_DECODED_MARKER or TRACE_DECODED_NONE.
 */
enum trace_decoded trace_decode(const struct trace_decoder *d, struct tep_record *r, int cpu,
				struct trace_event *e, char *text, size_t len, pid_t *pid)
{
	struct tep_format_field *const *f;
	int id = trace_decode_type(d, r), type;

	if (id == d->print_id) {
		if (!text || !len || !pid)
			return TRACE_DECODED_NONE;
		marker(d, r, text, len, pid);
		return TRACE_DECODED_MARKER;
	}
	for (type = 0; type < TRACE_EV_TYPES; type++) {
		if (d->id[type] == id)
			break;
	}
	if (type == TRACE_EV_TYPES)
		return TRACE_DECODED_NONE;
	f = d->field[type];
	*e = (struct trace_event){ .ts = r->ts, .cpu = cpu, .type = type };
	e->pid = (int32_t)num(d, f[0], r);
	e->prio = stopper_prio(d->comm[type][0], r, (int32_t)num(d, f[1], r));
	if (d->common_pid) {
		e->cur = (int32_t)num(d, d->common_pid, r);
		e->has_cur = 1;
	}
	switch (type) {
	case TRACE_EV_SWITCH:
		e->arg = num(d, f[2], r);
		e->pid2 = (int32_t)num(d, f[3], r);
		e->prio2 = stopper_prio(d->comm[type][1], r, (int32_t)num(d, f[4], r));
		break;
	case TRACE_EV_WAKING:
	case TRACE_EV_WAKEUP:
		e->arg = num(d, f[2], r);
		break;
	case TRACE_EV_MIGRATE:
		e->arg = num(d, f[2], r);
		e->arg2 = (int32_t)num(d, f[3], r);
		break;
	case TRACE_EV_PI:
		e->prio2 = (int32_t)num(d, f[2], r);
		break;
	}
	return TRACE_DECODED_EVENT;
}
