// SPDX-License-Identifier: GPL-2.0-only
/*
 * The statically linked programs' trace.dat reader: none. libtracecmd
 * exists only as a shared library in Debian, and the static programs run
 * where nothing but the kernel is (a VM's initramfs, which has no trace-cmd
 * to record either): their --trace says so and exits 4 before the run.
 */
#include <errno.h>
#include <stdio.h>

#include "rt_tracedat.h"

bool rt_tracedat_available(void)
{
	return false;
}

int rt_tracedat_open(struct rt_tracedat **d, const char *path, const char *buffer, char *err,
		     size_t len)
{
	(void)path;
	(void)buffer;
	*d = NULL;
	snprintf(err, len, "this statically linked build cannot read a trace.dat (libtracecmd is "
		 "a shared library): use the dynamically linked program to trace");
	return -EOPNOTSUPP;
}

const char *rt_tracedat_buffer(const struct rt_tracedat *d)
{
	(void)d;
	return "";
}

int rt_tracedat_walk(struct rt_tracedat *d, const struct rt_tracedat_ops *ops, void *ctx)
{
	(void)d;
	(void)ops;
	(void)ctx;
	return -EOPNOTSUPP;
}

const char *rt_tracedat_comm(const struct rt_tracedat *d, pid_t pid)
{
	(void)d;
	(void)pid;
	return NULL;
}

void rt_tracedat_close(struct rt_tracedat *d)
{
	(void)d;
}
