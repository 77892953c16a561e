#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# timeout=420
# --watch, --on-threshold and --on-end, with known answers on this machine:
# a planted stall (an RT task of priority 99 pinned to the run's only CPU,
# busy 30 ms at a random moment of the run) is caught, its window saved and
# opened by trace-cmd report, and its explanation names the planted task; a
# quiet run of the same length saves nothing; RT throttling beside a fair
# hog is caught and named; a threshold of 0 saves windows at a bounded rate;
# the signal, shell, stop and --on-end actions act. The stall's runs last
# $WATCH_SECONDS (60 s unless set).
. "$(dirname "$0")/tap.bash"
require_rt

SECONDS_RUN=${WATCH_SECONDS:-60}
CPU=$((NCPUS - 1))
# a bare number is microseconds; times past an hour, unknown kinds and actions are refused
bad_inputs migrate <<'EOF'
--on-threshold foo>1ms|2|invalid --on-threshold 'foo>1ms': expected WHAT>TIME\[:ACTION\] with WHAT one of placement, wakeup, boost, runnable$
--on-threshold wakeup|2|invalid --on-threshold 'wakeup': expected WHAT>TIME
--on-threshold wakeup>|2|invalid --on-threshold 'wakeup>': expected a time of 0-1h after '>'
--on-threshold wakeup>2h|2|invalid --on-threshold 'wakeup>2h': expected a time of 0-1h
--on-threshold wakeup>5ms:bogus|2|invalid --on-threshold 'wakeup>5ms:bogus': expected an action of trace, signal,num=N\[,pid=PID\|parent\], shell,command=CMD or stop, not 'bogus'$
--on-threshold wakeup>5ms:signal|2|invalid --on-threshold 'wakeup>5ms:signal': expected signal,num=N
--on-threshold wakeup>5ms:signal,num=0|2|invalid --on-threshold 'wakeup>5ms:signal,num=0': expected signal,num=N
--on-threshold wakeup>5ms:shell,command=|2|invalid --on-threshold 'wakeup>5ms:shell,command=': expected an action
--on-end stop|2|invalid --on-end 'stop': expected an action of trace, signal,num=N\[,pid=PID\|parent\], shell,command=CMD, not 'stop'$
EOF
args=""
for i in $(seq 17); do args="$args --on-threshold wakeup>${i}ms"; done
# shellcheck disable=SC2086 # the arguments are meant to split
run_bounded 10 ./migrate $args
check "17 --on-threshold: exit 2, at most 16 (got $rc)" \
	bash -c "[ $rc -eq 2 ] && grep -q \"invalid --on-threshold 'wakeup>17ms': at most 16 of them\" '$TMP/err'"

bad_inputs analyse <<'EOF2'
--explain wakeup x.dat|2|invalid --explain 'wakeup': expected WHAT>TIME with WHAT one of placement, wakeup, boost, runnable$
--explain runnable>1y x.dat|2|invalid --explain 'runnable>1y': expected a time of 0-1h
EOF2

# the trace action needs trace-cmd: refused before the run, not an hour later
RTSCHED_TRACE_CMD=/nonexistent run_bounded 20 ./migrate -t 2 -d 5 -q --on-threshold 'runnable>1ms'
check "--on-threshold ...:trace without trace-cmd: exit 4 before the run (got $rc)" \
	bash -c "[ $rc -eq 4 ] && grep -q '^migrate: --watch: /nonexistent is not installed' '$TMP/err' && [ ! -s '$TMP/out' ]"

if [ "$NCPUS" -lt 2 ]; then
	skip "the planted stall needs a CPU for the run and one for the rest ($NCPUS CPU here)"
	exit 0
fi

# the waits the result file's crossings explain, one per line
explained() {
	/usr/bin/python3 -c 'import json, sys
for c in json.load(open(sys.argv[1]))["watch"]["crossings_kept"]:
    print(c["explanation"], c.get("window", "-"))' "$1"
}

# The kernel's RT bandwidth: RT throttling takes 50 ms a second from a busy
# RT CPU. The stall's runs turn it off, where the fair server keeps the
# CPU's own kernel threads running (6.12 on); a kernel without it skips them.
runtime=$(cat /proc/sys/kernel/sched_rt_runtime_us)
run_bounded 20 ./migrate -c "$CPU" -t 2 -d 0.2 -q --json "$TMP/probe.json"
fair_server=$(/usr/bin/python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["system"]["rt_bandwidth"]["fair_server"])' "$TMP/probe.json" 2>/dev/null)
tap_cleanup="echo $runtime > /proc/sys/kernel/sched_rt_runtime_us; $tap_cleanup"

if [ "$fair_server" != "True" ]; then
	skip "the planted stall: this kernel has no fair server, and RT throttling (which would take 50 ms a second of the run's CPU) cannot be turned off safely"
else
	echo -1 >/proc/sys/kernel/sched_rt_runtime_us
	at=$(( 2 + RANDOM % (SECONDS_RUN - 5) )).$(( RANDOM % 10 ))
	echo "# the stall: 30 ms on CPU $CPU at $at s of a $SECONDS_RUN s run"
	rt_hog "$CPU" 30 "$at" planted-stall migrate
	run_bounded $((SECONDS_RUN + 60)) ./migrate -c "$CPU" -t 2 -d "$SECONDS_RUN" -q \
		--on-threshold 'runnable>20ms' --json "$TMP/stall.json"
	wait
	check "a planted 30 ms stall: the run passed (exit $rc)" test "$rc" -eq 0 || diag "$TMP/err"
	explained "$TMP/stall.json" >"$TMP/why"
	diag "$TMP/why"
	n=$(wc -l <"$TMP/why")
	check "  crossed by the run's threads it stalled, 1 or 2 ($n)" test "$n" -ge 1 -a "$n" -le 2
	check "  each crossing names the planted task, an RT task of priority 99, for 30 ms or so" \
		test "$(grep -cE "ran planted-stall \(pid [0-9]+\), an RT task of priority 99 for (2[89]|3[0-9])\.[0-9]+ ms of it" "$TMP/why")" -eq "$n"
	check "  its window saved beside the result file" test -s "$TMP/stall-window-1.dat"
	check "  under the table too, naming the window" \
		grep -q "planted-stall.*window $TMP/stall-window-1.dat" "$TMP/out"
	trace-cmd report "$TMP/stall-window-1.dat" >"$TMP/report" 2>"$TMP/report.err"
	check "  trace-cmd report opens the window, and it holds the stall's switches" \
		grep -q "planted-stall" "$TMP/report" || diag "$TMP/report.err"
	run_bounded 60 ./analyse --explain 'runnable>20ms' "$TMP/stall-window-1.dat"
	check "  analyse takes the window's threads from its markers (exit $rc)" \
		grep -q "^1 run of 2 threads, from the watch's markers (a saved window)" "$TMP/out" ||
		diag "$TMP/err"
	check "  and explains the stall the same way: planted-stall, an RT task of priority 99" \
		grep -qE "^  runnable [0-9.]+ ms > 20ms: thread [0-9]+ \(RT priority [12]\) was runnable from .* ran planted-stall \(pid [0-9]+\), an RT task of priority 99 for" "$TMP/out" ||
		diag "$TMP/out"

	run_bounded $((SECONDS_RUN + 60)) ./migrate -c "$CPU" -t 2 -d "$SECONDS_RUN" -q \
		--on-threshold 'runnable>20ms' --json "$TMP/quiet.json"
	check "a quiet run of the same length (exit $rc)" test "$rc" -eq 0 || diag "$TMP/err"
	check "  crosses nothing and saves nothing" \
		bash -c "[ -z \"\$(ls '$TMP' | grep quiet-)\" ] && grep -q 'runnable>20ms: 0 crossings' '$TMP/out'" ||
		diag "$TMP/out"
	echo "$runtime" >/proc/sys/kernel/sched_rt_runtime_us
fi

# RT throttling beside a fair hog: the hog has the CPU for the limit's time
if [ "$runtime" -lt 0 ]; then
	skip "RT throttling is off here (kernel.sched_rt_runtime_us=-1)"
else
	# busy until the run is over, however long its start-up takes (13 s
	# under AddressSanitizer here: libtraceevent reads /proc/kallsyms)
	timeout -s KILL 60 taskset -c "$CPU" /usr/bin/python3 -c 'import time
open("/proc/self/comm", "w").write("fair-hog")
while True:
    pass' &
	hog=$!
	# named before the run starts: the trace names a task as it was when seen
	for _ in $(seq 100); do cat /proc/[0-9]*/comm 2>/dev/null | grep -qx fair-hog && break; sleep 0.05; done
	run_bounded 60 ./migrate -c "$CPU" -t 2 -d 4 -q --on-threshold 'runnable>30ms' \
		--json "$TMP/hog.json"
	# (TERM: timeout passes it on to the hog; a KILL would end timeout alone)
	kill -TERM "$hog" 2>/dev/null
	wait
	explained "$TMP/hog.json" >"$TMP/why"
	diag "$TMP/why"
	check "RT throttling beside a fair hog: caught (exit $rc)" \
		bash -c "[ $rc -eq 0 ] && [ -s '$TMP/why' ]"
	check "  the explanation names the hog, a fair task, and the kernel's limit" \
		grep -qE "ran fair-hog \(pid [0-9]+\), a fair task \(nice 0\) .*(RT throttling|the fair server)" "$TMP/why"
	check "  a window saved, and no more than one (one per 10 s)" \
		bash -c "[ -s '$TMP/hog-window-1.dat' ] && [ ! -e '$TMP/hog-window-2.dat' ]"
fi

# A threshold of 0: every wait crosses; windows stay one per 10 s, 16 in all
run_bounded 90 ./migrate -c "$CPU" -t 2 -d 12 -q --on-threshold 'runnable>0' \
	--json "$TMP/zero.json"
n=$(find "$TMP" -name 'zero-window-*' | wc -l)
check "a threshold of 0 over 12 s (exit $rc): 1 or 2 windows ($n)" \
	bash -c "[ $rc -eq 0 ] && [ $n -ge 1 ] && [ $n -le 2 ]"
check "  the crossings beyond them said not acted on" \
	grep -qE "runnable>0: [0-9]+ crossings, the longest .*; [0-9]+ not acted on \(at most one window per 10 s, 16 in all\)" "$TMP/out"
check "  and the result file keeps 64 of them" /usr/bin/python3 -c 'import json, sys
w = json.load(open(sys.argv[1]))["watch"]
assert len(w["crossings_kept"]) == 64 and w["crossings"] > 64, w["crossings"]' "$TMP/zero.json"

# The other actions: a signal, a shell command with the crossing in its environment, a stop
(
	trap 'echo got >"$TMP/usr1"; exit 0' USR1
	sleep 30 &
	wait
) &
catcher=$!
sleep 0.2
run_bounded 30 ./migrate -c "$CPU" -t 2 -d 1 -q \
	--on-threshold "runnable>0:signal,num=10,pid=$catcher" \
	--on-threshold "wakeup>0:shell,command=echo \$RTSCHED_WHAT \$RTSCHED_TID >>$TMP/shell"
kill "$catcher" 2>/dev/null
wait "$catcher" 2>/dev/null
check "signal,num=10,pid=PID: the process had its SIGUSR1 (exit $rc)" test -s "$TMP/usr1"
check "shell,command=CMD: run with RTSCHED_WHAT and RTSCHED_TID" \
	grep -qE '^wakeup [0-9]+$' "$TMP/shell"

start=$(date +%s%N)
run_bounded 30 ./migrate -c "$CPU" -t 2 -d 20 -q --on-threshold 'runnable>0:stop' --on-end trace \
	--json "$TMP/stop.json"
took=$(( ($(date +%s%N) - start) / 1000000 ))
# the run's own time, not the start-up's (13 s under AddressSanitizer here)
ran=$(/usr/bin/python3 -c 'import json, sys
print(int(json.load(open(sys.argv[1]))["runs"][0]["measured_s"] * 1000))' "$TMP/stop.json" 2>/dev/null)
check "stop: a 20 s run ends at its first crossing (ran ${ran:-?} ms, $took ms in all), exit 1" \
	bash -c "[ $rc -eq 1 ] && [ ${ran:-99999} -lt 10000 ]"
check "  saying which threshold stopped it" \
	grep -qE "^migrate: a threshold stopped the run: runnable>0:stop: a wait of [0-9.]+ ms$" "$TMP/err" ||
	diag "$TMP/err"
check "  --on-end trace saved the last window" test -s "$TMP/stop-end.dat"
check "  the result file says the run was stopped (partial)" /usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["watch"]["thresholds"][0]["crossed"] >= 1 and d["watch"]["windows"][0]["on_end"]' "$TMP/stop.json"

# A batch watched: each cell's windows beside its result
run_bounded 30 scripts/batch --dry-run --on-threshold 'soon>1ms'
check "batch --on-threshold 'soon>1ms': exit 2 before any cell (got $rc), one line" \
	bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$TMP/err') -eq 1 ] && grep -q \"^batch: invalid --on-threshold 'soon>1ms': expected WHAT>TIME\" '$TMP/err'"
run_bounded 120 scripts/batch --modes contention --pi off --repeat 1 --duration 2s \
	--on-threshold 'runnable>0' --results "$TMP/batch"
res=$(find "$TMP/batch" -name '*-migrate-contention.json' | head -n1)
check "batch --on-threshold 'runnable>0': the cell passed (exit $rc)" test "$rc" -eq 0 -a -n "$res"
check "  its result file explains its crossings" /usr/bin/python3 -c 'import json, sys
w = json.load(open(sys.argv[1]))["watch"]
assert w["crossings"] > 0 and w["crossings_kept"][0]["explanation"]' "$res"
check "  its window beside it" test -s "${res%.json}-window-1.dat"

# --watch alone: the figures, nothing acted on
run_bounded 30 ./migrate -c "$CPU" -t 2 -d 1 -q --watch --json "$TMP/w.json"
check "--watch: the longest waits under the table (exit $rc)" \
	grep -qE "^watch: [0-9]+ events, 0 lost; the longest waits: placement .*, runnable [0-9.]+ ms" "$TMP/out"
check "  and their histograms in the result file" /usr/bin/python3 -c 'import json, sys
w = json.load(open(sys.argv[1]))["watch"]
assert w["events"] > 0 and w["waits"]["runnable"]["count"] > 0 and w["thresholds"] == []' "$TMP/w.json"
ls /sys/kernel/tracing/instances >"$TMP/inst"
check "no trace instance left behind" bash -c "! grep -q '^rtsched-' '$TMP/inst'"
