// SPDX-License-Identifier: GPL-2.0-only
/* The trace analysis on arbitrary event records: any order, any values. */
#include "fuzz.h"
/* a test of the trace layer's internals: its scheduler walk */
#include "trace/internal/walk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n = size / sizeof(struct trace_event), i;
	struct trace_task tasks[4];
	struct trace_event *ev;

	if (!n)
		return 0;
	ev = malloc(n * sizeof(*ev));
	if (!ev)
		return 0;
	memcpy(ev, data, n * sizeof(*ev));
	for (i = 0; i < 4; i++)
		trace_task_init(&tasks[i], (pid_t)(i + 1), 0, UINT64_MAX / (i + 1));
	trace_sched_analyse(ev, n, tasks, 4, NULL, NULL);
	/* the same events in time order must be analysed to the end */
	for (i = 0; i < n; i++) {
		ev[i].ts = i;
		ev[i].pid %= 6;
		ev[i].pid2 %= 6;
	}
	for (i = 0; i < 4; i++)
		trace_task_init(&tasks[i], (pid_t)(i + 1), 0, UINT64_MAX);
	if (trace_sched_analyse(ev, n, tasks, 4, NULL, NULL))
		abort();
	for (i = 0; i < 4; i++) {
		const struct trace_task *t = &tasks[i];

		if (t->mig_wakeup + t->mig_runnable + t->mig_other != t->migrations ||
		    t->mig_lower_rt + t->mig_equal_rt > t->mig_wakeup)
			abort();
	}
	free(ev);
	return 0;
}
