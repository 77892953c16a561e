// SPDX-License-Identifier: GPL-2.0-only
/* Markers reach the trace buffer, and are off without a trace_marker. */
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <tracefs.h>
#include <unistd.h>

#include "rt_tracemark.h"
#include "tap.h"

int main(void)
{
	char token[64], *trace;
	int ret, on;

	tap_ok(!rt_tracemark_enabled(), "markers are off before open");
	rt_tracemark("nothing %d", 1);
	tap_ok(1, "a marker while off is a no-op");

	ret = rt_tracemark_open(NULL);
	if (ret) {
		tap_skip("no writable trace_marker here (%d): markers stay off", ret);
		tap_ok(!rt_tracemark_enabled(), "  and say so");
		return tap_done();
	}
	tap_ok(rt_tracemark_enabled(), "trace_marker opened through libtracefs");
	on = tracefs_trace_is_on(NULL);
	if (on != 1) {
		tap_skip("tracing is off in the top instance: the marker cannot be read back");
	} else {
		snprintf(token, sizeof(token), "rtsched-unit-%d-%ld", getpid(), (long)time(NULL));
		rt_tracemark("%s\n", token);
		trace = tracefs_instance_file_read(NULL, "trace", NULL);
		tap_ok(trace && strstr(trace, token), "the marker is in the trace buffer");
		free(trace);
	}
	rt_tracemark_close();
	tap_ok(!rt_tracemark_enabled(), "closed, markers are off");
	return tap_done();
}
