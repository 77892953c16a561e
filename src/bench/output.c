// SPDX-License-Identifier: GPL-2.0-only
/*
 * The programs' output files: checked, created and registered before the
 * run; their temporary files removed at any early exit.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "bench/output.h"
#include "bench/signals.h"

#define MAX_OUTPUTS 4

/* Read by a signal handler: only unlink() of what is registered. */
static struct rt_outfile *outputs[MAX_OUTPUTS];
static const char *options[MAX_OUTPUTS];
static volatile sig_atomic_t nr_outputs;

/**
 * bench_output_remove_pending - remove the temporary files of the outputs not
 * yet done (a private folder when it holds nothing else: a later run's sweep
 * takes the rest); async-signal-safe, for a second signal's exit
 */
void bench_output_remove_pending(void)
{
	int i;

	for (i = 0; i < nr_outputs; i++)
		rt_outfile_remove_temp(outputs[i]);
}

/**
 * bench_output_open - create @option's file @path before the run, or exit 2
 * saying why it cannot be: it exists, another run is writing it, it is
 * another option's file, or its folder does not take it; @private: in a
 * private folder, for a file that another program writes by name
 * (rt_outfile_open_private())
 *
 * The temporaries that runs killed before they could remove them left in
 * @path's folder go first (rt_outfile_sweep()). Returns the output; it lives
 * until the process exits.
 */
struct rt_outfile *bench_output_open(const char *option, const char *path, bool private)
{
	struct rt_outfile *o;
	int i, ret;

	if (!*path)
		cli_die(EXIT_USAGE, "invalid %s '': expected a file name", option);
	for (i = 0; i < nr_outputs; i++)
		if (strcmp(path, "-") && rt_outfile_same(rt_outfile_path(outputs[i]), path))
			cli_die(EXIT_USAGE, "invalid %s '%s': %s writes that file already; give "
				"each its own", option, path, options[i]);
	if (nr_outputs == MAX_OUTPUTS)
		cli_die(EXIT_USAGE, "invalid %s '%s': too many output files", option, path);
	if (strcmp(path, "-"))
		rt_outfile_sweep_beside(path, ".tmp.");
	ret = private ? rt_outfile_open_private(&o, path) : rt_outfile_open(&o, path);
	if (ret == -EEXIST)
		cli_die(EXIT_USAGE, "invalid %s '%s': the file exists; a result is never "
			"overwritten: remove it or choose another name", option, path);
	if (ret == -EBUSY)
		cli_die(EXIT_USAGE, "invalid %s '%s': another run is writing that file (it holds "
			"%s%s): wait for it to end or choose another name", option, path, path,
			RT_OUTFILE_TEMP);
	if (ret)
		cli_die(EXIT_USAGE, "invalid %s '%s': cannot create a file beside it: %s", option,
			path, strerror(-ret));
	if (!nr_outputs) {
		bench_cleanup_add(bench_output_remove_pending);
		bench_signals_at_exit(bench_output_remove_pending);
	}
	options[nr_outputs] = option;
	outputs[nr_outputs] = o;
	nr_outputs++;
	return o;
}

/**
 * bench_output_commit - give @o its name, or exit 3 saying why not (its
 * temporary file removed)
 */
void bench_output_commit(struct rt_outfile *o, const char *option)
{
	int ret = rt_outfile_commit(o);

	if (ret)
		cli_die(EXIT_SYSCALL, "writing %s '%s': %s", option, rt_outfile_path(o),
			strerror(-ret));
}
