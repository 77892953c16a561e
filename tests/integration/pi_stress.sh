# SPDX-License-Identifier: GPL-2.0-only
# pi_stress run for real: inheritance holds and is measured; the control run
# without it is caught by the watchdog, every time.
. "$(dirname "$0")/tap.bash"
require_rt

# group_cell FILE GROUP FIELD: inversions, rate, median, p99, max of a group line
group_cell() {
	awk -v g="$2" -v f="$3" '
		BEGIN { c["inversions"] = 3; c["rate"] = 4; c["median"] = 5; c["p99"] = 7; c["max"] = 9 }
		/^Group  CPU/ { on = 1; next }
		on && $1 == g { print $(c[f]); exit }' "$1"
}

groups=$((NCPUS > 1 ? NCPUS - 1 : 1))
run_bounded 30 ./pi_stress -d 1
ok $rc "a PI run passes (exit $rc)"
check "  says PASS" grep -q '^PASS: every inversion was resolved by inheritance$' "$TMP/out"
check "  one row per thread ($groups groups x 3), totals are the sums" table_ok "$TMP/out" $((3 * groups))
check "  no thread migrated: they are pinned" column_all "$TMP/out" migrated -eq 0
inv=$(group_cell "$TMP/out" 0 inversions)
check "  group 0 made inversions ($inv)" test "${inv:-0}" -gt 0
for r in 0 1 2; do
	check "  group 0's thread $r took part in every one" test "$(cell "$TMP/out" $r iterations)" = "$inv"
done
check "  the waits are reported: median, p99, max" \
	grep -qE '^ +0 +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ us +[0-9.]+ us +[0-9.]+ us$' "$TMP/out"
check "  nothing on stderr" test ! -s "$TMP/err"

run_bounded 30 ./pi_stress -q -i 2000
ok $rc "-i 2000 passes"
check "  every thread made exactly 2000" column_all "$TMP/out" iterations -eq 2000
check "  -q: the table comes first" grep -q '^Task 3g' <(head -n1 "$TMP/out")

# high cannot get the mutex before low has done its hold: the wait includes it
run_bounded 30 ./pi_stress -q -i 300 --hold 200us
med=$(group_cell "$TMP/out" 0 median)
ok $rc "--hold 200us passes"
check "  the median wait ($med us) includes low's 200 us hold" awk -v m="$med" 'BEGIN { exit !(m >= 200) }'

# twelve groups on one CPU, each low holding 100 ms once boosted: their holds
# queue (one priority, FIFO), 1.2 s, past the default 1 s watchdog; the run
# is no failure of inheritance, and the watchdog grows to twice the queue
run_bounded 60 ./pi_stress -u -g 12 --hold 100ms -d 2
ok $rc "-u -g 12 --hold 100ms: inheritance works, exit 0 (got $rc)" || diag "$TMP/out" "$TMP/err"
check "  the header says the watchdog it took and why" \
	grep -q ', watchdog 2400ms (twice the 12 holds of 100ms that can queue on one CPU)$' "$TMP/out"

# a hold past the default report threshold (5 ms) needs no --wait-bound:
# the waits reported are those 5 ms longer than the hold
run_bounded 30 ./pi_stress -i 20 --hold 10ms
ok $rc "--hold 10ms without --wait-bound runs (exit $rc)"
check "  and reports waits over 15ms" grep -q 'low holds 10ms once boosted; high waits over 15ms are reported' "$TMP/out"

# --wait-bound is enforced when given: waits include low's hold, so this fails
run_bounded 30 ./pi_stress -q -i 200 --hold 999us --wait-bound 1ms
ok $(( rc == 1 ? 0 : 1 )) "a wait beyond --wait-bound fails the run (exit $rc)"
check "  and says so" grep -q '^FAIL group 0 (CPU [0-9]*): the high thread waited up to [0-9.]* us, more than --wait-bound 1ms; medium never ran meanwhile' "$TMP/out"

# The control: plain mutexes stall a group; the watchdog says so, every time.
for i in 1 2 3; do
	run_bounded 30 ./pi_stress --no-pi -w 300ms -d 10
	ok $(( rc == 1 ? 0 : 1 )) "control run $i (--no-pi): exit 1 (got $rc)"
	check "  the watchdog names the stalled group" \
		grep -q '^FAIL group 0 (CPU [0-9]*): no progress for 300ms: the high thread never got the mutex' "$TMP/out"
	check "  and the run stopped cleanly, with the table" table_ok "$TMP/out" $((3 * groups))
done
run_bounded 30 ./pi_stress --no-pi -w 5s -d 200ms -q
ok $(( rc == 1 ? 0 : 1 )) "--no-pi ending before the watchdog: still exit 1 (got $rc)"
check "  an inversion was left unresolved" grep -q 'an inversion was still unresolved when the run ended' "$TMP/out"

# -u: every group and the coordinator on one CPU; inheritance still holds.
# The bound is raised: a shared CPU also runs other tasks (the fair server).
first=$(taskset -pc $$ | sed 's/.*: //; s/[-,].*//')
run_bounded 30 ./pi_stress -u -g 3 -i 3000 --wait-bound 1s
ok $rc "-u -g 3 passes (exit $rc)"
check "  every group on CPU $first" grep -q "on CPU $first (-u); groups on CPU $first,$first,$first$" "$TMP/out"
check "  within --wait-bound" grep -q '^PASS: every inversion was resolved by inheritance, within --wait-bound$' "$TMP/out"
check "  9 rows, every thread 3000 iterations" column_all "$TMP/out" iterations -eq 3000
check "  medium never ran while high waited" test "$(grep -c 'medium thread ran while' "$TMP/out")" -eq 0
run_bounded 30 ./pi_stress -u -g 2 --no-pi -w 300ms
ok $(( rc == 1 ? 0 : 1 )) "-u -g 2 --no-pi: exit 1"
check "  both groups fail" test "$(grep -c '^FAIL group [01] .*no progress' "$TMP/out")" -eq 2

# --spread: no group pinned, one group per CPU, the scheduler places the
# threads; inheritance still holds, and without it a group stalls (every
# CPU held by a spinning medium) -- on one CPU too.
run_bounded 30 ./pi_stress --spread -d 2 --json "$TMP/spread.json"
ok $rc "--spread passes (exit $rc)"
check "  one group per CPU ($NCPUS)" grep -q "^pi_stress .*: $NCPUS groups\?, " "$TMP/out"
check "  spread over them" grep -q "; groups spread over CPUs .* (--spread)$" "$TMP/out"
check "  no group has a CPU: 'any' in the table, null in the JSON" /usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
g = d["runs"][0]["groups"]
sys.exit(0 if d["config"]["spread"] and g and all(x["cpu"] is None for x in g) else 1)' "$TMP/spread.json"
check "  the group lines say any" test "$(grep -cE '^ +[0-9]+  any ' "$TMP/out")" -eq "$NCPUS"
if [ "$NCPUS" -gt 1 ]; then
	check "  the threads migrated: the scheduler placed them" \
		test "$(awk '/^total:/ { print $4 }' "$TMP/out")" -gt 0
else
	skip "migrations under --spread need two CPUs (this machine has $NCPUS)"
fi
check "  PASS, and no medium-ran or unresolved failure (spread, medium runs elsewhere)" \
	grep -q '^PASS: every inversion was resolved by inheritance$' "$TMP/out"
run_bounded 30 ./pi_stress --spread --no-pi -w 300ms -d 10 -q
ok $(( rc == 1 ? 0 : 1 )) "--spread --no-pi: exit 1 (got $rc)"
check "  the watchdog names a stalled group, without a CPU" \
	grep -q '^FAIL group [0-9]*: no progress for 300ms: the high thread never got the mutex' "$TMP/out"

# A CPU taken from a group is not an inversion: an RT task of priority 99
# busy 1.5 s on the group's CPU from 0.5 s into the run (RT throttling, or
# the fair server, gives the time it leaves to fair tasks, not to the group)
# stalls the group with a thread runnable and no medium spinning: no verdict
# (exit 5) with that evidence, and inheritance is not blamed
if [ "$NCPUS" -ge 2 ]; then
	gcpu=$(./pi_stress -g 1 -d 10ms | sed -n 's/.*; groups on CPU \([0-9]*\)$/\1/p')
	rt_hog "$gcpu" 1500 0.5 group-hog
	run_bounded 30 ./pi_stress -g 1 -w 300ms -d 3 --json "$TMP/hog.json"
	wait
	ok $(( rc == 5 ? 0 : 1 )) "an RT hog on the group's CPU (CPU $gcpu): no verdict, exit 5 (got $rc)" ||
		diag "$TMP/out" "$TMP/err"
	check "  the group's line: no inversion pending, its CPU did not run a thread of it" \
		grep -qE "^no verdict: group 0 \(CPU $gcpu\): no progress for 300ms, with no inversion pending: its CPU did not run its (low|medium|high) thread$" "$TMP/out"
	check "  the evidence on stderr; no FAIL, no blame of inheritance" bash -c \
		"grep -qE '^pi_stress: no verdict: the machine starved the run: .*group 0 \(CPU $gcpu\) made no pass for 300ms while its (low|medium|high) thread was runnable and no inversion was pending' '$TMP/err' &&
		 ! grep -q 'FAIL\|inversion was not resolved' '$TMP/out'"
	check "  the result: the group withheld, the machine starved" /usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
g = d["runs"][0]["groups"][0]
m = d["runs"][0]["machine"]
assert d["return_code"] == 5 and g["stalled"] and g["withheld"] in ("low", "medium", "high"), g
assert m["starved"] and "no inversion was pending" in m["starved_why"], m' "$TMP/hog.json"
else
	skip "a hog on a group's CPU needs another CPU for the coordinator ($NCPUS CPU here)"
fi

# -b: low, medium, high and the coordinator at base .. base + 3
./pi_stress -b 20 -d 2 -q >/dev/null 2>&1 &
pid=$!
# read the threads until all are up (start-up time varies with the load and
# a sanitizer) or the run is over
prios=
while kill -0 $pid 2>/dev/null; do
	prios=$(for s in /proc/$pid/task/*/stat; do awk '{print $40}' "$s"; done 2>/dev/null | sort -un | tr '\n' ' ')
	[ "$prios" = "20 21 22 23 " ] && break
	sleep 0.05
done
wait $pid
ok $? "the -b 20 run passed"
check "-b 20: SCHED_FIFO priorities are 20 21 22 and 23 (got: $prios)" test "$prios" = "20 21 22 23 "

# --trace: with inheritance, low is boosted exactly once per inversion
run_bounded 60 ./pi_stress -q -i 2000 --trace --json "$TMP/pt.json"
ok $rc "pi_stress --trace (exit $rc)"
check "  low received one PI boost per inversion, medium and high none" /usr/bin/python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))["runs"][0]["trace"]["threads"]
print("# boosts:", [x["pi_boosts"] for x in t[:3]])
sys.exit(0 if [x["pi_boosts"] for x in t[:3]] == [2000, 0, 0] else 1)' "$TMP/pt.json"
check "  pinned threads: no migration traced" /usr/bin/python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))["runs"][0]["trace"]["threads"]
sys.exit(0 if all(x["migrations"]["traced"] == x["migrations"]["proc"] == 0 for x in t) else 1)' "$TMP/pt.json"
check "  no trace instance is left" test -z "$(ls /sys/kernel/tracing/instances 2>/dev/null | grep '^rtsched-')"
run_bounded 60 ./pi_stress -q --no-pi -w 250ms --trace --json "$TMP/pn.json"
ok $(( rc == 1 ? 0 : 1 )) "pi_stress --no-pi --trace: still exit 1"
check "  and no PI boost at all" /usr/bin/python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))["runs"][0]["trace"]["threads"]
sys.exit(0 if sum(x["pi_boosts"] for x in t) == 0 else 1)' "$TMP/pn.json"
