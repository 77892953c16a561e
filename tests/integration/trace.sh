# SPDX-License-Identifier: GPL-2.0-only
# Every lock step writes a trace_marker line that trace-cmd and KernelShark
# show next to the scheduler's events.
. "$(dirname "$0")/tap.bash"
require_rt

trace=$(mktemp "$TMP/trace.XXXXXX")
dir=/sys/kernel/tracing
if [ ! -w "$dir/trace_marker" ]; then
	skip "no writable trace_marker at $dir"
	exit 0
fi
if [ "$(cat $dir/tracing_on)" != 1 ]; then
	skip "tracing is off in the top instance: nothing to read the markers back from"
	exit 0
fi

./migrate -q -m lockstep -L 3 >/dev/null 2>&1 &
pid=$!
wait $pid
ok $? "lockstep -L 3 runs"
cat "$dir/trace" >"$trace"
# the threads' tids follow the process id; a marker line starts with comm-tid
mine() { grep -E -- "-($(seq -s '|' $((pid + 1)) $((pid + 64)))) +\[" "$trace"; }
for step in "taking lock" "took lock" "unlock lock"; do
	n=$(mine | grep -c "tracing_mark_write: thread [0-9]* iter [0-9]*, $step [0-9]")
	ok $(( n > 0 ? 0 : 1 )) "'$step' markers from this run: $n"
done
n=$(mine | grep -c "tracing_mark_write: thread 0 iter 2, unlock lock $((NCPUS - 1))")
check "thread 0's last step, iter 2 unlock lock $((NCPUS - 1)), is marked" test "$n" -eq 1

run_bounded 20 ./migrate -q -d 0.3 -t 2 -l 1
n=$(grep -c "sleeping" "$dir/trace")
ok $(( n > 0 ? 0 : 1 )) "contention marks its sleeps"

# --trace: the scheduler's events of the run, analysed
instances() { ls "$dir/instances" 2>/dev/null | grep -c '^rtsched-'; }
mkdir "$dir/instances/rtsched-999999999" 2>/dev/null	# as a killed run leaves it
j=$TMP/t.json
run_bounded 60 ./migrate -q -d 1 --trace --json "$j"
ok $rc "--trace runs (exit $rc)"
check "  prints the events it read" grep -qE '^trace: [1-9][0-9]* events \(sched_switch [0-9]+, sched_waking' "$TMP/out"
check "  and lost none" test "$(grep -c 'LOST' "$TMP/out")" -eq 0
check "  the migrations by cause, one row per thread" test "$(sed -n '/^Migrations/,/^$/p' "$TMP/out" | grep -cE '^ +[0-9]+:')" -eq $((2 * NCPUS))
check "  the preemptions and waits, one row per thread" test "$(sed -n '/^Preempted/,$p' "$TMP/out" | grep -cE '^ +[0-9]+:')" -eq $((2 * NCPUS))
# the trace and /proc count the same migrations: both follow set_task_cpu(); a
# migration at the very instant of a counter reading may fall either side
check "  traced migrations agree with /proc (within 1 per thread)" /usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
m = [t["migrations"] for r in d["runs"] for t in r["trace"]["threads"]]
print("# traced/proc:", [(x["traced"], x["proc"]) for x in m])
sys.exit(0 if m and all(abs(x["traced"] - x["proc"]) <= 1 for x in m) else 1)' "$j"
check "  causes add up to the traced migrations" /usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if all(t["migrations"]["at_wakeup"] + t["migrations"]["runnable"] + t["migrations"]["other"] == t["migrations"]["traced"] and t["migrations"]["lower_rt"] + t["migrations"]["equal_rt"] <= t["migrations"]["at_wakeup"] for r in d["runs"] for t in r["trace"]["threads"]) else 1)' "$j"
check "  no rtsched trace instance is left behind" test "$(instances)" -eq 0
check "  and one left by a killed run was removed" test ! -e "$dir/instances/rtsched-999999999"

# every run sweeps, traced or not: a stale instance (nobody holds it) goes
mkdir "$dir/instances/rtsched-999999999-0badcafe" 2>/dev/null
run_bounded 30 ./migrate -q -d 0.2
check "a run without --trace removes an instance nobody holds" \
	test ! -e "$dir/instances/rtsched-999999999-0badcafe"

# a run in another PID namespace, whose PIDs say nothing here, leaves a live
# instance alone: the owner holds a lock on it
if unshare -p -f --mount-proc true 2>/dev/null; then
	./migrate -q -d 3 --trace >"$TMP/host.out" 2>&1 </dev/null &
	host=$!
	for _ in $(seq 50); do [ "$(instances)" -gt 0 ] && break; sleep 0.1; done
	run_bounded 30 unshare -p -f --mount-proc ./migrate -q -d 0.3 --trace
	check "a --trace run in another PID namespace: exit 4 (got $rc), tracefs cannot see its threads" \
		bash -c "[ $rc -eq 4 ] && grep -q '^migrate: --trace: this process is in a PID namespace of its own' '$TMP/err'"
	run_bounded 30 unshare -p -f --mount-proc ./migrate -q -d 0.3
	check "  without --trace it runs there (exit $rc), sweeping the instances nobody holds" test "$rc" -eq 0
	timeout 20 tail --pid="$host" -f /dev/null
	wait "$host"
	rc=$?
	check "  and the run here keeps its instance: exit 0 (got $rc), its trace tables" \
		bash -c "[ $rc -eq 0 ] && grep -q '^Preempted' '$TMP/host.out'" || diag "$TMP/host.out"
else
	ok 1 "unshare -p works here (as root)"
fi

# the buffers are where the run is: a CPU outside it gets a page or so
if [ "$NCPUS" -ge 2 ]; then
	./migrate -c 0 -t 2 -d 2 --trace >"$TMP/cpu0.out" 2>&1 </dev/null &
	pid=$!
	# the header comes once the instance is set up
	for _ in $(seq 50); do grep -q '^kernel ' "$TMP/cpu0.out" && break; sleep 0.1; done
	inst=$(ls -d "$dir"/instances/rtsched-* 2>/dev/null | head -1)
	kb0=$(cat "$inst/per_cpu/cpu0/buffer_size_kb" 2>/dev/null)
	kb1=$(cat "$inst/per_cpu/cpu1/buffer_size_kb" 2>/dev/null)
	wait "$pid"
	check "-c 0 --trace: CPU 0's buffer is sized for the run (${kb0:-none} KiB), CPU 1's is not (${kb1:-none} KiB)" \
		bash -c "[ -n '$kb0' ] && [ -n '$kb1' ] && [ '$kb0' -gt 64 ] && [ '$kb1' -le 16 ]"
fi

# PI boosts: in paired mode with PI, high blocks on each owner's lock
run_bounded 60 ./migrate -q -m paired -L 20 -p --trace --json "$TMP/pb.json"
ok $rc "paired -p --trace runs"
check "  every lock owner received PI boosts, the highest thread none" /usr/bin/python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))["runs"][0]["trace"]["threads"]
print("# boosts:", [x["pi_boosts"] for x in t])
sys.exit(0 if all(x["pi_boosts"] > 0 for x in t[:-1]) and t[-1]["pi_boosts"] == 0 else 1)' "$TMP/pb.json"

# --trace-out: the events, in the documented format
run_bounded 60 ./migrate -q -d 0.5 -t 3 --trace-out "$TMP/ev.trace" --json "$TMP/ev.json"
ok $rc "--trace-out runs"
check "  the file starts with its format's name" grep -q '^# rtsched-trace/1' <(head -n1 "$TMP/ev.trace")
check "  names the 3 benchmark threads" test "$(grep -c '^T ' "$TMP/ev.trace")" -eq 3
check "  holds every sched_switch the analysis read" test "$(grep -c '^S ' "$TMP/ev.trace")" -eq \
	"$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["runs"][0]["trace"]["by_event"]["sched_switch"])' "$TMP/ev.json")"
check "  every event line has its fields" awk '/^[SWUMP] / { n = ($1 == "S") ? 8 : ($1 == "M") ? 7 : 6; if (NF != n) exit 1 }' "$TMP/ev.trace"

# a buffer too small says so
run_bounded 60 ./migrate -q -d 2 --trace --trace-buffer 64
ok $rc "--trace-buffer 64 still runs"
check "  and says that it lost events" grep -q '^trace: LOST [0-9]* events: the buffer was too small' "$TMP/out"
check "  the instance is gone" test "$(instances)" -eq 0

# not root: tracefs is root's
chmod 755 "$TMP"
install -m 755 migrate "$TMP/migrate-copy"
run_bounded 30 setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=+sys_nice --ambient-caps=+sys_nice "$TMP/migrate-copy" -d 0.2 --trace
ok $(( rc == 4 ? 0 : 1 )) "--trace as an ordinary user: exit 4 (got $rc)"
check "  says tracefs needs root" grep -qE '^migrate: --trace: .*(tracefs needs root|not mounted)' "$TMP/err"
check "  and prints no table" test ! -s "$TMP/out"

# scripts/plot --timeline draws the article's two pictures from --trace-out
run_bounded 60 scripts/plot --timeline "$TMP/ev.trace" -o "$TMP/tl.png" --size 900x600 --window 0:200
ok $rc "plot --timeline from --trace-out (exit $rc)"
check "  is a PNG of 900 x 600" /usr/bin/python3 -c 'import struct, sys
b = open(sys.argv[1], "rb").read(24)
sys.exit(0 if b[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", b[16:24]) == (900, 600) else 1)' "$TMP/tl.png"
echo "# rtsched-trace/1" >"$TMP/bad.trace"
printf 'R 0\nS 1 2 3\n' >>"$TMP/bad.trace"
run_bounded 30 scripts/plot --timeline "$TMP/bad.trace" -o "$TMP/bad.png"
ok $(( rc == 2 ? 0 : 1 )) "a broken trace file: exit 2"
check "  one line naming the line" grep -qE "^plot: .*/bad.trace: line 3 is not a trace event: 'S 1 2 3'$" "$TMP/err"
run_bounded 30 scripts/plot --timeline "$TMP/ev.trace" -o "$TMP/r1.png" --run 1
ok $(( rc == 2 ? 0 : 1 )) "a run the file does not have: exit 2"
run_bounded 30 scripts/plot --timeline "$j" -o "$TMP/j.png"
ok $(( rc == 2 ? 0 : 1 )) "a result file is not a trace: exit 2"

# tracefs not mounted: as root, libtracefs mounts it (in a mount namespace of our own)
if unshare -m true 2>/dev/null; then
	run_bounded 60 unshare -m sh -c 'umount /sys/kernel/tracing 2>/dev/null; umount /sys/kernel/debug/tracing 2>/dev/null; ! grep -q " tracefs " /proc/mounts && exec ./migrate -q -d 0.2 --trace'
	ok $rc "--trace with tracefs unmounted: mounted and traced (exit $rc)"
	check "  the events were read" grep -qE '^trace: [1-9][0-9]* events' "$TMP/out"
else
	skip "unshare -m is not allowed here: cannot unmount tracefs for the test"
fi
