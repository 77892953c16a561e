# SPDX-License-Identifier: GPL-2.0-only
# The watchdog: a benchmark thread that stops making progress ends the run
# with exit 3 and its name, instead of a hang. The thread is stopped from
# outside: moved alone into a frozen cgroup v1 freezer.
. "$(dirname "$0")/tap.bash"
require_rt

fz=/sys/fs/cgroup/freezer
if [ "$NCPUS" -lt 2 ]; then
	skip "one CPU: the benchmark would starve this script"
	exit 0
fi
if [ ! -w "$fz/cgroup.procs" ] || ! mkdir "$fz/rtsched-stuck-$$" 2>/dev/null; then
	skip "no cgroup v1 freezer to stop a single thread with"
	exit 0
fi
cg=$fz/rtsched-stuck-$$
# thaw first, whatever happened, then make sure the benchmark is gone
cleanup() {
	echo THAWED >"$cg/freezer.state" 2>/dev/null
	kill -9 "$pid" 2>/dev/null
	sleep 0.2
	rmdir "$cg" 2>/dev/null
}
trap 'cleanup; rm -rf "$TMP"; echo "1..$tap_n"; [ "$tap_failed" -eq 0 ]' EXIT

# lockstep: every thread takes every lock; freezing one stalls the others too
# -c 0: the threads keep CPU 0 busy, this script runs on the other
./migrate -m lockstep -L 300 -t 3 -c 0 >"$TMP/out" 2>"$TMP/err" &
pid=$!
# the benchmark threads exist: the main thread and three more
for i in $(seq 200); do
	[ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -ge 4 ] && break
	sleep 0.02
done
victim=$(ls /proc/$pid/task | sort -n | sed -n 3p)	# the second benchmark thread
echo "$victim" >"$cg/tasks" && echo FROZEN >"$cg/freezer.state"
# the watchdog speaks once its deadline passed; a frozen thread cannot die
# before it is thawed, so thaw it then
for i in $(seq 300); do
	grep -q 'watchdog' "$TMP/err" 2>/dev/null && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
echo THAWED >"$cg/freezer.state"
wait $pid
rc=$?
ok $(( rc == 3 ? 0 : 1 )) "a frozen thread: the watchdog ends the run, exit 3 (got $rc)"
check "  naming the thread that did not finish" grep -qE '^migrate: watchdog: thread [0-9]+ \(tid [0-9]+, SCHED_FIFO [0-9]+\) did not finish within [0-9.]+ s of the start' "$TMP/err"
check "  and no table" test "$(grep -c '^total:' "$TMP/out")" -eq 0
