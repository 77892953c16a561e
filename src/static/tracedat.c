// SPDX-License-Identifier: GPL-2.0-only
/*
 * The statically linked programs' trace.dat source: none. libtracecmd
 * exists only as a shared library in Debian, and the static programs run
 * where nothing but the kernel is (a VM's initramfs, which has no trace-cmd
 * to record either): their --trace reads the live instance after each run
 * (trace_source_live()), and --trace-out says it cannot be.
 */
#include <errno.h>
#include <stdio.h>

#include "trace/source.h"

bool trace_source_file_supported(void)
{
	return false;
}

int trace_source_file(struct trace_source **s, const char *path, const char *buffer, char *err,
		      size_t len)
{
	(void)path;
	(void)buffer;
	*s = NULL;
	snprintf(err, len, "this statically linked build cannot read a trace.dat (libtracecmd is "
		 "a shared library): use the dynamically linked program");
	return -EOPNOTSUPP;
}
