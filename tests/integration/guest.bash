# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Sourced by the tests that boot guests with scripts/kernel-matrix, after
# tap.bash: M is the matrix, guest runs it bounded, once more on an oops.
M=scripts/kernel-matrix

# guest SECONDS ARGS...: run_bounded the matrix; once more when the guest's
# kernel oopsed or panicked (seen in about one boot in ten of Debian's 6.12
# and 6.1 under TCG, before init or in the run, "Fatal exception in
# interrupt" or an int3 oops; kernel-matrix shows the report), saying so
guest() {
	local limit=$1
	shift
	run_bounded "$limit" $M "$@"
	if [ "$rc" -ne 0 ] && grep -qE "Kernel panic|\] (Oops|BUG): " "$TMP/err"; then
		echo "# the guest's kernel oopsed or panicked; once more:"
		grep -E "\] (BUG: |Oops: |RIP: |Kernel panic)" "$TMP/err" | diag
		rm -rf "${RES:?}"/*
		run_bounded "$limit" $M "$@"
	fi
}
