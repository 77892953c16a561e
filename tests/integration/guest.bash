# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Sourced by the tests that boot guests with scripts/kernel-matrix, after
# tap.bash: M is the matrix, guest runs it bounded, once more when the
# emulator failed the guest.
M=scripts/kernel-matrix

# guest SECONDS ARGS...: run_bounded the matrix into $RES (emptied first);
# once more, saying so, when a guest's kernel oopsed or panicked (seen in
# about one boot in ten of Debian's 6.12 and 6.1 under TCG, before init or
# in the run, "Fatal exception in interrupt" or an int3 oops; kernel-matrix
# shows the report) or did not start its init (TCG boots seen stopped at
# 1.3 s, and at 112 s in the crypto self-tests with the host loaded, no
# init within 120 s). Any other failure, or a second, is the check's.
guest() {
	local limit=$1
	shift
	rm -rf "${RES:?}"/*
	run_bounded "$limit" $M "$@"
	if [ "$rc" -ne 0 ] && grep -qE "Kernel panic|\] (Oops|BUG): |the guest did not start its init within" "$TMP/err"; then
		echo "# the guest's kernel failed under the emulator; once more:"
		grep -E "\] (BUG: |Oops: |RIP: |Kernel panic)|did not start its init" "$TMP/err" | diag
		rm -rf "${RES:?}"/*
		run_bounded "$limit" $M "$@"
	fi
}
