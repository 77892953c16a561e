/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MIGRATE_RUN_H
#define MIGRATE_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "migrate.h"
#include "tracing.h"
#include "rt_report.h"

struct mig_outcome {
	struct cli_trace_thread *windows;	/* nr_threads of them, filled when not NULL */
	int64_t start_ns;		/* the start barrier released (CLOCK_MONOTONIC) */
	int64_t end_ns;			/* the last thread stopped */
	int64_t startup_ns;		/* from main() or the previous run to the start barrier */
	bool migrations_from_proc;	/* se.nr_migrations, else sched_getcpu() changes */
	int stuck;			/* the thread the watchdog gave up on, or -1 */
	int mlock_err;			/* errno of mlockall(), 0 when memory is locked */
	bool denied;			/* creating a SCHED_FIFO thread was refused (EPERM) */
	int interrupted;		/* the signal that stopped the run, or 0 */
	int unfinished;			/* threads that did not stop in time after it */
};

int mig_execute(struct mig_run *run, struct rt_row *rows, struct mig_outcome *out, char *err,
		size_t len);

#endif
