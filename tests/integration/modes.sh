# SPDX-License-Identifier: GPL-2.0-only
# Each mode of migrate, run for real for a few seconds: what users rely on.
. "$(dirname "$0")/tap.bash"
require_rt

# contention, the default: 2 x CPUs threads, table arithmetic, every thread progressed
run_bounded 60 ./migrate -q -d 2
ok $rc "contention runs (exit $rc)"
check "contention: one row per thread (2 x $NCPUS), totals are the sums" table_ok "$TMP/out" $((2 * NCPUS))
check "contention: every thread iterated" column_all "$TMP/out" iterations -gt 0
check "-q prints the table only" grep -q '^Task ' <(head -n1 "$TMP/out")
check "  nothing on stderr" test ! -s "$TMP/err"

# The shape the commit is about: the highest priority thread migrates far
# less than the lowest, with and without priority inheritance.
for pi in "" "-p"; do
	run_bounded 60 ./migrate -q -d 3 -t 4 $pi
	lo=$(cell "$TMP/out" 0 migrated)
	hi=$(cell "$TMP/out" 3 migrated)
	ok $(( rc == 0 && lo > 50 && hi * 4 < lo ? 0 : 1 )) \
		"contention ${pi:-without PI}: thread 3 migrated $hi times, thread 0 $lo (want < a quarter)"
done

# lockstep and paired run --loops passes in every thread, exactly
run_bounded 60 ./migrate -q -m lockstep -L 20
ok $rc "lockstep runs"
check "lockstep: CPUs + 1 rows, totals are the sums" table_ok "$TMP/out" $((NCPUS + 1))
check "lockstep: every thread made --loops 20 passes" column_all "$TMP/out" iterations -eq 20

for pi in "" "-p"; do
	run_bounded 60 ./migrate -q -m paired -L 10 $pi
	ok $rc "paired ${pi:-without PI} runs"
	check "paired: locks + 1 rows, totals are the sums" table_ok "$TMP/out" $((NCPUS + 1))
	check "paired: every thread made --loops 10 passes" column_all "$TMP/out" iterations -eq 10
done

run_bounded 60 ./migrate -q -m paired -t 4 -L 5
check "paired -t 4 takes 3 locks and 4 rows" table_ok "$TMP/out" 4

# -c: threads confined to one CPU cannot migrate
run_bounded 60 ./migrate -c 0 -d 1 -t 3
ok $rc "-c 0 runs"
check "-c 0: the header names CPU 0" grep -q 'CPUs 0$' "$TMP/out"
check "-c 0: no thread migrated" column_all "$TMP/out" migrated -eq 0

# The header says what was asked: locks, unit, priorities, PI
run_bounded 60 ./migrate -l 3 -u 2ms -b 10 -t 3 -p -d 0.5
ok $rc "-l 3 -u 2ms -b 10 -t 3 -p runs"
check "the header shows 3 threads at SCHED_FIFO 10-12, 3 locks, PI" \
	grep -q '3 threads (SCHED_FIFO 10-12), 3 locks (PI)' "$TMP/out"
check "the header shows the 2ms unit and the duration" grep -q '^unit 2ms of CPU time (about [0-9]* busy loops), duration 500ms' "$TMP/out"
check "the run says how long it measured" grep -qE '^measured [0-9.]+ s \(duration 500ms\), start-up' "$TMP/out"

# -b: the threads really run at base + id, the coordinator at base + threads
./migrate -c 0 -b 20 -t 3 -d 2 -q >/dev/null 2>&1 &
pid=$!
# read the threads until all are up and the watchdog with them (it starts
# after the threads; start-up time varies with the load, and a sanitizer
# slows it) or the run is over: each priority once (a sanitizer's own thread
# takes the main thread's); field 40 is the RT priority, 41 the policy
# (1 SCHED_FIFO, 0 SCHED_OTHER)
prios= others=0
while kill -0 $pid 2>/dev/null; do
	stats=$(cat /proc/$pid/task/*/stat 2>/dev/null)
	prios=$(awk '$41 == 1 {print $40}' <<<"$stats" | sort -un | tr '\n' ' ')
	others=$(awk '$41 == 0' <<<"$stats" | wc -l)
	[ "$prios" = "20 21 22 23 " ] && [ "$others" -ge 1 ] && break
	sleep 0.05
done
wait $pid
ok $(( $? == 0 ? 0 : 1 )) "the -b run ended well"
check "-b 20 -t 3: SCHED_FIFO priorities are 20 21 22 and 23 (got: $prios)" test "$prios" = "20 21 22 23 "
check "the progress watchdog runs SCHED_OTHER, below every benchmark thread ($others)" \
	test "$others" -ge 1

# -h and -V
run_bounded 10 ./migrate -h
ok $rc "-h exits 0"
missing=""
for o in mode threads locks pi duration loops unit base-prio cpus quiet help version; do
	grep -q -- "--$o" "$TMP/out" || missing="$missing --$o"
done
check "--help lists every long option${missing:+ (missing:$missing)}" test -z "$missing"
run_bounded 10 ./migrate -V
check "-V prints the version" grep -qE '^migrate \(rtsched\) [0-9]+\.[0-9]+\.[0-9]+$' "$TMP/out"
