# SPDX-License-Identifier: GPL-2.0-only
# The watchdog: a benchmark thread that stops making progress ends the run
# with exit 3 and its name, instead of a hang. The thread is stopped from
# outside: moved alone into a frozen cgroup, with cgroup v2's freezer (a
# threaded cgroup, so that one thread of the process can be moved there:
# Debian 12's default hierarchy), else cgroup v1's.
. "$(dirname "$0")/tap.bash"
require_rt

if [ "$NCPUS" -lt 2 ]; then
	skip "one CPU: the benchmark would starve this script"
	exit 0
fi
v2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
v1=/sys/fs/cgroup/freezer
if [ -n "$v2" ] && [ -e "$v2/cgroup.procs" ] && mkdir "$v2/rtsched-stuck-$$" 2>/dev/null; then
	# the process goes into a threaded domain, the threads to stop into its
	# threaded child, which is frozen
	home=$v2/rtsched-stuck-$$
	cg=$home/stuck
	if ! mkdir "$cg" || ! echo threaded >"$cg/cgroup.type" || [ ! -e "$cg/cgroup.freeze" ]; then
		rmdir "$cg" "$home" 2>/dev/null
		skip "cgroup v2 at $v2 has no threaded freezer (cgroup.freeze, Linux 5.2)"
		exit 0
	fi
	echo "# the cgroup v2 freezer ($cg)"
	freeze() { echo 1 >"$cg/cgroup.freeze"; }
	thaw() { echo 0 >"$cg/cgroup.freeze" 2>/dev/null; }
	stop_threads() { # stop_threads PID TID...: the TIDs of PID, alone
		local p=$1 t
		shift
		echo "$p" >"$home/cgroup.procs"
		for t in "$@"; do echo "$t" >"$cg/cgroup.threads"; done
	}
elif [ -w "$v1/cgroup.procs" ] && mkdir "$v1/rtsched-stuck-$$" 2>/dev/null; then
	home=""
	cg=$v1/rtsched-stuck-$$
	echo "# the cgroup v1 freezer ($cg)"
	freeze() { echo FROZEN >"$cg/freezer.state"; }
	thaw() { echo THAWED >"$cg/freezer.state" 2>/dev/null; }
	stop_threads() {
		local t
		shift
		for t in "$@"; do echo "$t" >"$cg/tasks"; done
	}
else
	skip "no cgroup freezer (v2's cgroup.freeze or v1's freezer) to stop a single thread with"
	exit 0
fi
# thaw first, whatever happened, then make sure the benchmark is gone
cleanup() {
	thaw
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rmdir "$cg" ${home:+"$home"} 2>/dev/null ||
		{ sleep 0.5; rmdir "$cg" ${home:+"$home"} 2>/dev/null; }
}
trap 'cleanup; rm -rf "$TMP"; echo "1..$tap_n"; [ "$tap_failed" -eq 0 ]' EXIT

# rt_prio TID: the task's SCHED_FIFO priority (0 for SCHED_OTHER), the 40th
# field of its stat, counted after the command name
rt_prio() {
	sed 's/.*) //' "/proc/$pid/task/$1/stat" 2>/dev/null | awk '{ print $38 }'
}

# start_frozen LOOPS PRIOS: a lockstep run on CPU 0 (this script runs on the
# other) whose benchmark threads of SCHED_FIFO PRIOS (thread id runs at
# 1 + id) are frozen once they exist; sets pid and frozen (their tids).
# Threads are told by their priority, not by the order of their tids, which
# wraps at pid_max (32768 here).
start_frozen() {
	./migrate -m lockstep -L "$1" -t 3 -c 0 >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	for i in $(seq 200); do
		[ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -ge 4 ] && break
		sleep 0.02
	done
	sleep 0.3
	frozen=""
	for tid in $(ls /proc/$pid/task); do
		case " $2 " in *" $(rt_prio "$tid") "*) frozen="$frozen $tid" ;; esac
	done
	# shellcheck disable=SC2086 # the tids, one word each
	stop_threads "$pid" $frozen
	freeze
}

# await_watchdog: the run's exit status in rc, once the watchdog has spoken;
# a frozen thread cannot die before it is thawed, so thaw it then
await_watchdog() {
	for i in $(seq 300); do
		grep -q 'watchdog' "$TMP/err" 2>/dev/null && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	thaw
	wait $pid
	rc=$?
}

# lockstep: every thread takes every lock; freezing one stalls the others
# once it holds a lock, else once they are done
start_frozen 300 2
victim=${frozen# }
check "  (the thread at SCHED_FIFO 2 found and frozen)" test "$(echo $frozen | wc -w)" -eq 1
await_watchdog
ok $(( rc == 3 ? 0 : 1 )) "a frozen thread: the watchdog ends the run, exit 3 (got $rc)"
# the deadline, or the progress watchdog when the frozen thread held the lock
check "  naming the thread that did not finish" grep -qE "^migrate: watchdog: (thread [0-9]+ \(tid $victim, SCHED_FIFO [0-9]+\) did not finish within [0-9.]+ s of the start|no lock step for [0-9.]+ s: thread [0-9]+ \(tid $victim, )" "$TMP/err" || { diag "$TMP/err"; echo "# victim $victim"; }
check "  and no table" test "$(grep -c '^total:' "$TMP/out")" -eq 0

# every benchmark thread frozen: no lock step at all. The progress watchdog
# (not the deadline, 3000 loops away) ends the run and names the thread
# that holds the lock, or one outside the locks.
start_frozen 3000 "1 2 3"
check "  (the three benchmark threads found and frozen)" test "$(echo $frozen | wc -w)" -eq 3
await_watchdog
ok $(( rc == 3 ? 0 : 1 )) "every thread frozen: the progress watchdog ends the run, exit 3 (got $rc)"
progress='^migrate: watchdog: no lock step for [5-9]\.[0-9] s: thread [0-2] \(tid [0-9]+, SCHED_FIFO [1-3]\) (holds lock 0 and does not let go|is stuck outside the locks); [0-9]+ lock steps done$'
# Under ThreadSanitizer (make check-tsan), a thread frozen inside the
# sanitizer's runtime holds its internal locks, and the progress watchdog,
# instrumented too, can block behind them: the deadline then ends the run,
# naming a thread; that is the sanitizer's doing, not the watchdog's.
[ -n "${TSAN_OPTIONS:-}" ] &&
	progress="$progress|^migrate: watchdog: thread [0-2] \(tid [0-9]+, SCHED_FIFO [1-3]\) did not finish within [0-9.]+ s of the start"
check "  saying how long no step was made, and which thread the others wait for" \
	grep -qE "$progress" "$TMP/err"
[ "$?" -eq 0 ] || { diag "$TMP/err"; echo "# victim $victim"; }
check "  and no table" test "$(grep -c '^total:' "$TMP/out")" -eq 0
