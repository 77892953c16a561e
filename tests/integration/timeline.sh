#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/plot --timeline streams its trace: the memory it takes is the
# picture's, not the trace's. pi_stress traces of 1 s and 3 s (about
# 750,000 events a second): the longer takes no more memory than the
# shorter, both far below what keeping every event took (1.06 GB for 1 s, measured),
# with and without --window. The lanes' content: tests/unit/test_timeline.py.
. "$(dirname "$0")/tap.bash"
require_rt

# peak KB RSS of COMMAND and its children, in $kb; status in $rc
peak() {
	kb=$(timeout -s KILL 300 /usr/bin/python3 -c 'import resource, subprocess, sys
rc = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc)' "$@" 2>"$TMP/err")
	rc=${kb#* }
	kb=${kb% *}
}

for d in 1 3; do
	run_bounded 60 ./pi_stress -q -d $d --trace-out "$TMP/p$d.dat"
	check "a ${d} s pi_stress trace recorded (exit $rc)" test "$rc" -eq 0 || diag "$TMP/err"
done
events() { ./analyse --events "$1" | grep -c '^[SWUMP] '; }
n1=$(events "$TMP/p1.dat")
n3=$(events "$TMP/p3.dat")
echo "# events: $n1 in 1 s, $n3 in 3 s"
check "  the 3 s trace holds more than twice the 1 s trace's events" test "$n3" -gt $((2 * n1))

for w in "" "--window 100:105"; do
	for d in 1 3; do
		rm -f "$TMP/t$d.png"
		peak scripts/plot --timeline "$TMP/p$d.dat" -o "$TMP/t$d.png" $w
		eval "kb$d=$kb rc$d=$rc"
	done
	check "plot --timeline ${w:-(whole run)}: both drawn (exit $rc1, $rc3)" \
		bash -c "[ $rc1 -eq 0 ] && [ $rc3 -eq 0 ] && [ -s '$TMP/t1.png' ] && [ -s '$TMP/t3.png' ]" ||
		diag "$TMP/err"
	check "  the 3 s trace took no more memory than the 1 s one ($((kb3 / 1024)) MB, $((kb1 / 1024)) MB; 10 MB spare)" \
		test "$kb3" -le $((kb1 + 10240))
	check "  under 400 MB either way (keeping every event took 1.06 GB for 1 s)" \
		test "$kb3" -lt $((400 * 1024)) -a "$kb1" -lt $((400 * 1024))
done
