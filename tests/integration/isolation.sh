# SPDX-License-Identifier: GPL-2.0-only
# The helpers on housekeeping CPUs, on this machine: with --housekeeping,
# the coordinator (the highest SCHED_FIFO), migrate's watchdog (SCHED_OTHER)
# and the trace recorder (trace-cmd, a child process) stay there while the
# benchmark threads run on -c's CPUs. (Isolated CPUs, nohz_full and root
# domains are proved in guests: tests/integration/kernel_matrix.sh.)
. "$(dirname "$0")/tap.bash"
require_rt

if [ "$NCPUS" -lt 2 ]; then
	skip "housekeeping apart from the run needs two CPUs (this machine has $NCPUS)"
	exit 0
fi
last=$((NCPUS - 1))

# sample PID: each thread of PID and of its descendants, "comm policy prio cpus", once
sample() {
	local t c
	for t in /proc/"$1"/task/*; do
		echo "$(cat "$t/comm") $(awk '/^policy/ { print $3 }' "$t/sched") $(awk '/^prio / { print $3 }' "$t/sched") $(awk '/^Cpus_allowed_list/ { print $2 }' "$t/status")"
	done 2>/dev/null
	for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
		sample "$c"
	done
}

for prog in "migrate -t 2" "pi_stress -g 1"; do
	# shellcheck disable=SC2086 # the program and its options
	timeout -s KILL 30 ./$prog -q -c "$last" --housekeeping 0 -d 3 --trace --json "$TMP/hk.json" \
		>"$TMP/out" 2>"$TMP/err" </dev/null &
	pid=$!
	sleep 1.5
	sample "$pid" >"$TMP/sample"
	wait "$pid"
	rc=$?
	ok $rc "$prog -c $last --housekeeping 0 --trace (exit $rc)" || diag "$TMP/err"
	diag "$TMP/sample"
	name=${prog%% *}
	top=$(awk -v n="$name" '$1 == n && $3 < 100 { print $3 }' "$TMP/sample" | sort -n | head -1)
	check "  its coordinator (kernel prio $top) on CPU 0" \
		awk -v n="$name" -v t="$top" '$1 == n && $3 == t { seen = 1; if ($4 != "0") bad = 1 }
			END { exit bad || !seen }' "$TMP/sample"
	check "  its benchmark threads on CPU $last" bash -c \
		"awk -v n='$name' -v t='$top' '\$1 == n && \$3 < 100 && \$3 != t' '$TMP/sample' | grep -q . &&
		 ! awk -v n='$name' -v t='$top' '\$1 == n && \$3 < 100 && \$3 != t && \$4 != \"$last\"' '$TMP/sample' | grep -q ."
	check "  the recorder (trace-cmd) on CPU 0" bash -c \
		"grep -q '^trace-cmd ' '$TMP/sample' && ! awk '\$1 == \"trace-cmd\" && \$4 != \"0\"' '$TMP/sample' | grep -q ."
	if [ "$name" = migrate ]; then
		check "  its watchdog (SCHED_OTHER) on CPU 0" bash -c \
			"awk '\$1 == \"migrate\" && \$3 >= 100' '$TMP/sample' | grep -q . &&
			 ! awk '\$1 == \"migrate\" && \$3 >= 100 && \$4 != \"0\"' '$TMP/sample' | grep -q ."
	fi
	check "  the result says --housekeeping 0" /usr/bin/python3 -c '
import json, sys
sys.exit(0 if json.load(open(sys.argv[1]))["config"]["housekeeping"] == "0" else 1)' "$TMP/hk.json"
	rm -f "$TMP/hk.json"
done
