# SPDX-License-Identifier: GPL-2.0-only
# TAP for the integration tests, sourced by each tests/integration/*.sh.
# Every run of a benchmark goes through run_bounded, so that a runaway
# SCHED_FIFO program is killed rather than left to stall the machine.

cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
tap_n=0
tap_failed=0
TMP=$(mktemp -d /tmp/rtsched-test.XXXXXX)
# a test that mounts something under $TMP adds its umount to tap_cleanup
tap_cleanup=""
trap 'eval "$tap_cleanup"; rm -rf "$TMP"; echo "1..$tap_n"; [ "$tap_failed" -eq 0 ]' EXIT

ok() { # ok CONDITION-STATUS DESCRIPTION: returns CONDITION-STATUS
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		tap_failed=$((tap_failed + 1))
		echo "not ok $tap_n - $2"
	fi
	return "$1"
}

check() { # check DESCRIPTION COMMAND...: ok when COMMAND succeeds
	local what=$1
	shift
	"$@"
	ok $? "$what"
}

skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - # SKIP $*"
}

diag() { sed 's/^/#   /' "$@"; }

# not_in_sources PKG: the scripts' line saying that apt lacks PKG, and where
# it comes from (a Debian 12 without bookworm-security lacks the 6.12 kernels)
not_in_sources() {
	/usr/bin/python3 -B -c 'import sys; sys.path.insert(0, sys.argv[1]); import rtsched_kernel as rk
print(rk.not_in_sources(sys.argv[2]))' "$(dirname "${BASH_SOURCE[0]}")/../../scripts" "$1"
}

# run_bounded SECONDS CMD...: run with stdout in $TMP/out, stderr in $TMP/err, status in $rc
run_bounded() {
	local limit=$1
	shift
	timeout -s KILL "$limit" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	rc=$?
}

# closed_pipe SECONDS CMD...: run CMD with stdout a pipe whose reader is gone
# (every write fails with EPIPE, or SIGPIPE kills it), stderr in $TMP/err,
# status in $rc (a signal N shows as 256 - N)
closed_pipe() {
	local limit=$1
	shift
	timeout -s KILL "$limit" /usr/bin/python3 -c 'import os, subprocess, sys
r, w = os.pipe()
os.close(r)
sys.exit(subprocess.call(sys.argv[1:], stdout=w, stdin=subprocess.DEVNULL))' "$@" 2>"$TMP/err"
	rc=$?
}

# The capability, probed: can this process run SCHED_FIFO at all?
have_rt() { chrt -f 1 true 2>/dev/null; }

# rt_hog CPU MS AT NAME [COMM]: in the background, an RT task of priority 99
# named NAME on CPU, busy MS ms after AT s (killed 10 s after AT at the
# latest); with COMM, AT counts from when the SCHED_FIFO priority 1 thread
# of a process named COMM (a benchmark's lowest by default) has had 100 ms
# of CPU: a run's threads wait at its gate, taking none, until it starts, and
# the set-up before it (seconds under the sanitizers) is not part of the
# run. That is waited for 60 s at most. The hog sleeps a second before it
# exits, at once: its exit (the interpreter's and the kernel's, 5-15 ms here
# at that priority) is not part of the hog
rt_hog() {
	local wait=0
	[ -z "${5:-}" ] || wait=60
	timeout -s KILL $(( ${3%.*} + 10 + wait )) taskset -c "$1" chrt -f 99 /usr/bin/python3 -c 'import glob, os, sys, time
open("/proc/self/comm", "w").write(sys.argv[3])

def lowest_thread_ran(comm):
    for d in glob.glob("/proc/[0-9]*"):
        try:
            if open(d + "/comm").read().strip() != comm:
                continue
            for t in glob.glob(d + "/task/*/stat"):
                f = open(t).read().rsplit(")", 1)[1].split()
                # rt_priority, policy; utime + stime in ticks (USER_HZ, 100)
                if f[37] == "1" and f[38] == "1" and int(f[11]) + int(f[12]) >= 10:
                    return True
        except (OSError, IndexError):
            pass
    return False

if len(sys.argv) > 4:
    give_up = time.monotonic() + 60
    while not lowest_thread_ran(sys.argv[4]) and time.monotonic() < give_up:
        time.sleep(0.01)
time.sleep(float(sys.argv[2]))
end = time.monotonic() + float(sys.argv[1]) / 1000
while time.monotonic() < end:
    pass
time.sleep(1)
os._exit(0)' "$2" "$3" "$4" ${5:+"$5"} &
}

require_rt() {
	if ! have_rt; then
		echo "# SKIP no SCHED_FIFO privilege here (run as root or with CAP_SYS_NICE)"
		trap - EXIT
		rm -rf "$TMP"
		exit 4
	fi
}

# table_ok FILE N: the table has rows 0..N-1 and a total row equal to the column sums
table_ok() {
	awk -v n="$2" '
		/^total:/ { done = 1 }
		!done && /^ *[0-9]+:/ { id = $1; sub(":", "", id); if (id + 0 != rows + 0) bad = "row " rows " is labelled " id
			for (c = 2; c <= 5; c++) sum[c] += $c; rows++ }
		/^total:/ && totals < 1 { totals++; for (c = 2; c <= 5; c++) if ($c != sum[c]) bad = "total column " c " is " $c ", sum " sum[c] }
		END { if (rows != n) bad = rows " rows, want " n
		      if (totals != 1) bad = totals " total rows"
		      if (bad) { print "# " bad; exit 1 } }' "$1"
}

# cell FILE ID COLUMN: vol, nonvol, migrated or iterations of thread ID
cell() {
	awk -v id="$2:" -v col="$3" '
		BEGIN { c["vol"] = 2; c["nonvol"] = 3; c["migrated"] = 4; c["iterations"] = 5 }
		$1 == id { print $(c[col]); exit }' "$1"
}

# column_all FILE COLUMN TEST VALUE: every thread's COLUMN satisfies [ x TEST VALUE ]
column_all() {
	local f=$1 col=$2 op=$3 val=$4 id=0 x
	while x=$(cell "$f" "$id" "$col") && [ -n "$x" ]; do
		[ "$x" "$op" "$val" ] || { echo "# thread $id: $col $x, want $op $val"; return 1; }
		id=$((id + 1))
	done
	[ "$id" -gt 0 ]
}

NCPUS=$(nproc)

# bad_inputs PROGRAM < TABLE: each line "args|exit code|pattern" must give
# that exit code, one stderr line "PROGRAM: <pattern...>" and no stdout.
bad_inputs() {
	local prog=$1 args want pattern lines
	while IFS='|' read -r args want pattern; do
		[ -z "$args" ] && continue
		# shellcheck disable=SC2086 # the arguments are meant to split
		run_bounded 10 "./$prog" $args
		lines=$(wc -l <"$TMP/err")
		ok $(( rc == want ? 0 : 1 )) "$prog $args: exit $want (got $rc)"
		if grep -qE -- "^$prog: $pattern" "$TMP/err" && [ "$lines" -eq 1 ]; then
			ok 0 "  one line: $(cat "$TMP/err")"
		else
			ok 1 "  one line matching: $pattern"
			diag "$TMP/err"
		fi
		check "  nothing on stdout" test ! -s "$TMP/out"
	done
}
