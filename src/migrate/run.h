/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MIGRATE_RUN_H
#define MIGRATE_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "migrate.h"
#include "bench.h"

int mig_execute(struct mig_run *run, struct bench_run *out, char *err, size_t len);

#endif
