#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A run leaves nothing behind, however it ends: a recorder killed mid-run
# (as the OOM killer would) takes its per-CPU children with it, and its
# trace instance and files go; what a SIGKILLed run could not remove (its
# temporary trace.dat folder in $TMPDIR, FILE.tmp.XXXXXX beside --json) the
# next run sweeps; a full $TMPDIR is one line, exit 3, and no stray files.
. "$(dirname "$0")/tap.bash"
require_rt
top=$PWD

instances_of() { ls /sys/kernel/tracing/instances 2>/dev/null | grep -c "^rtsched-$1-"; }
recorders_of() { pgrep -f -- "-B rtsched-$1-" | wc -l; }
# until SECONDS COMMAND: wait up to SECONDS for COMMAND to succeed
until_ok() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.1
	done
}

# --- the recorder killed mid-run
D=$TMP/killed
mkdir -p "$D"
./migrate -q -t 3 -d 4 --trace-out "$D/x.dat" >"$TMP/out" 2>"$TMP/err" &
pid=$!
until_ok 10 pgrep -P $pid -x trace-cmd >/dev/null
rec=$(pgrep -P $pid -x trace-cmd | head -1)
sleep 1
children=$(recorders_of $pid)
kill -KILL "$rec"
timeout -s KILL 30 tail --pid=$pid -f /dev/null
wait $pid
rc=$?
check "the recorder (pid $rec, $children trace-cmd processes) killed mid-run: migrate exits 3 (got $rc)" \
	test "$rc" -eq 3 || diag "$TMP/err"
check "  saying so in one line" bash -c "[ \$(wc -l <'$TMP/err') -eq 1 ] && grep -q '^migrate: .*trace-cmd record was killed by signal 9' '$TMP/err'" ||
	diag "$TMP/err"
check "  no trace-cmd process of the run lives on" until_ok 5 test "$(recorders_of $pid)" -eq 0 ||
	pgrep -af -- "-B rtsched-$pid-" | diag
check "  its trace instance is gone" test "$(instances_of $pid)" -eq 0
check "  and nothing is left in the output folder" test -z "$(ls -A "$D")" || ls -A "$D" | diag

# --- SIGKILL mid --trace: the next run, traced or not, sweeps the folder
T=$TMP/tmpdir
mkdir -p "$T"
TMPDIR=$T ./migrate -q -t 3 -d 4 --trace >/dev/null 2>&1 &
pid=$!
until_ok 10 pgrep -P $pid -x trace-cmd >/dev/null
sleep 1
kill -KILL $pid
wait $pid 2>/dev/null
# the recorder, told by the kernel that its parent died, finishes its file and ends
until_ok 20 test "$(recorders_of $pid)" -eq 0
ls -A "$T" >"$TMP/left"
check "a run killed by SIGKILL mid --trace leaves its temporary folder in TMPDIR" \
	grep -q "^rtsched-$pid-[0-9a-f]*\.dat\.tmp\.[A-Za-z0-9]\{6\}$" "$TMP/left" || diag "$TMP/left"
TMPDIR=$T run_bounded 60 ./migrate -q -t 2 -d 0.3
check "  the next run (untraced) exits 0 (got $rc)" test "$rc" -eq 0 || diag "$TMP/err"
check "  and has swept it" test -z "$(ls -A "$T")" || ls -A "$T" | diag

# --- SIGKILL with --json: FILE.tmp.XXXXXX beside it, swept by the next run writing FILE
J=$TMP/json
mkdir -p "$J"
./migrate -q -t 3 -d 4 --json "$J/r.json" >/dev/null 2>&1 &
pid=$!
until_ok 10 bash -c "ls '$J' | grep -q '^r.json.tmp.'"
sleep 0.5
kill -KILL $pid
wait $pid 2>/dev/null
check "a run killed by SIGKILL leaves r.json.tmp.XXXXXX beside --json r.json" \
	bash -c "ls '$J' | grep -q '^r\.json\.tmp\.[A-Za-z0-9]\{6\}$'"
echo "a folder of the user's" >"$J/r.json.tmp.notes"
run_bounded 60 ./migrate -q -t 2 -d 0.3 --json "$J/r.json"
check "  the next run with --json r.json exits 0 (got $rc)" test "$rc" -eq 0 || diag "$TMP/err"
ls -A "$J" >"$TMP/left"
printf '%s\n' r.json r.json.tmp.notes >"$TMP/want"
check "  and leaves r.json, the user's r.json.tmp.notes, nothing else" diff "$TMP/want" "$TMP/left" ||
	diag "$TMP/left"

# --- a full TMPDIR
F=$TMP/full
mkdir -p "$F" "$TMP/cwd"
if mount -t tmpfs -o size=64k rtsched-full "$F" 2>/dev/null; then
	dd if=/dev/zero of="$F/fill" bs=4k 2>/dev/null
	(cd "$TMP/cwd" && TMPDIR=$F timeout -s KILL 60 "$top/migrate" -q -t 2 -d 0.3 --trace) \
		>"$TMP/out" 2>"$TMP/err"
	rc=$?
	check "--trace with a full TMPDIR: exit 3 (got $rc), one line" \
		bash -c "[ $rc -eq 3 ] && [ \$(wc -l <'$TMP/err') -eq 1 ] && grep -q 'No space left on device' '$TMP/err'" ||
		diag "$TMP/err"
	check "  nothing left in TMPDIR or in the current folder" \
		bash -c "[ \"\$(ls -A '$F')\" = fill ] && [ -z \"\$(ls -A '$TMP/cwd')\" ]" ||
		ls -A "$F" "$TMP/cwd" | diag
	umount "$F"
else
	skip "cannot mount a tmpfs for a full TMPDIR"
fi
