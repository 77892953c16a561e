#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A run leaves nothing behind, however it ends: a recorder killed mid-run
# (as the OOM killer would) takes its per-CPU children with it, and its
# trace instance and files go; what a SIGKILLed run could not remove (its
# temporary trace.dat folder in $TMPDIR, FILE.tmp.rtsched beside --json) the
# next run writing into that folder sweeps; a second run given a live run's
# --json name is refused before it runs; analyse at a closed pipe leaves no
# temporary; a full $TMPDIR is one line, exit 3, and no stray files.
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

# killed_writing DIR NAME: a run writing --json DIR/NAME, SIGKILLed mid-run
killed_writing() {
	./migrate -q -t 3 -d 4 --json "$1/$2" >/dev/null 2>&1 &
	local pid=$!
	until_ok 10 bash -c "ls '$1' | grep -q '^$2.tmp.'"
	sleep 0.5
	kill -KILL $pid
	wait $pid 2>/dev/null
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
	grep -q "^rtsched-$pid-[0-9a-f]*\.dat\.tmp\.rtsched$" "$TMP/left" || diag "$TMP/left"
TMPDIR=$T run_bounded 60 ./migrate -q -t 2 -d 0.3
check "  the next run (untraced) exits 0 (got $rc)" test "$rc" -eq 0 || diag "$TMP/err"
check "  and has swept it" test -z "$(ls -A "$T")" || ls -A "$T" | diag

# --- SIGKILL with --json: FILE.tmp.rtsched beside it, swept by the next run writing FILE
J=$TMP/json
mkdir -p "$J"
killed_writing "$J" r.json
check "a run killed by SIGKILL leaves r.json.tmp.rtsched beside --json r.json" \
	bash -c "ls '$J' | grep -q '^r\.json\.tmp\.rtsched$'"
echo "a folder of the user's" >"$J/r.json.tmp.notes"
run_bounded 60 ./migrate -q -t 2 -d 0.3 --json "$J/r.json"
check "  the next run with --json r.json exits 0 (got $rc)" test "$rc" -eq 0 || diag "$TMP/err"
ls -A "$J" >"$TMP/left"
printf '%s\n' r.json r.json.tmp.notes >"$TMP/want"
check "  and leaves r.json, the user's r.json.tmp.notes, nothing else" diff "$TMP/want" "$TMP/left" ||
	diag "$TMP/left"

# --- a killed run's temporary is swept by the next run writing into that folder, whatever its name
K=$TMP/anyname
mkdir -p "$K"
killed_writing "$K" first.json
ls -A "$K" >"$TMP/left"
echo "a file of the user's" >"$K/notes.tmp.abcdef"
run_bounded 60 ./migrate -q -t 2 -d 0.3 --json "$K/second.json"
check "a SIGKILLed run's first.json.tmp.*: the next run with --json second.json exits 0 (got $rc)" \
	test "$rc" -eq 0 || diag "$TMP/err"
ls -A "$K" >"$TMP/left2"
printf '%s\n' notes.tmp.abcdef second.json >"$TMP/want"
check "  and has swept it (it was $(tr '\n' ' ' <"$TMP/left")), leaving a file of another program's" \
	diff "$TMP/want" "$TMP/left2" || diag "$TMP/left2"

# --- two runs given one --json name at once: the second is refused before it runs
R=$TMP/reserved
mkdir -p "$R"
./migrate -q -t 2 -d 3 --json "$R/r.json" >/dev/null 2>"$TMP/err1" &
pid=$!
until_ok 10 bash -c "ls '$R' | grep -q '^r.json.tmp.'"
start=$SECONDS
run_bounded 60 ./migrate -q -t 2 -d 3 --json "$R/r.json"
took=$((SECONDS - start))
check "a second run given the --json name a live run writes: exit 2 (got $rc)" test "$rc" -eq 2 ||
	diag "$TMP/err"
check "  at once (in $took s), in one line naming the option and the other run" \
	bash -c "[ $took -lt 2 ] && [ \$(wc -l <'$TMP/err') -eq 1 ] &&
		grep -q \"^migrate: invalid --json '$R/r.json': another run is writing that file\" '$TMP/err'" ||
	diag "$TMP/err"
wait $pid
rc=$?
check "  the first run is untouched: exit 0 (got $rc), r.json whole, nothing else" \
	bash -c "[ $rc -eq 0 ] && [ \"\$(ls -A '$R')\" = r.json ] && /usr/bin/python3 -m json.tool '$R/r.json' >/dev/null" ||
	{ diag "$TMP/err1"; ls -A "$R" | diag; }

# --- analyse killed by nothing: a closed pipe on its stdout leaves no temporary beside --json
A=$TMP/analyse
mkdir -p "$A"
# a trace whose --events outrun a pipe's buffer (64 KiB): about 170 KiB
run_bounded 60 ./migrate -q -t 3 -d 1 --trace-out "$A/run.dat"
closed_pipe 120 ./analyse --events --json "$A/a.json" "$A/run.dat"
check "analyse --events --json with its stdout a closed pipe: exit 3, not a signal (got $rc)" \
	test "$rc" -eq 3 || diag "$TMP/err"
check "  a.json whole (it was written before the output failed), no temporary beside it" \
	bash -c "[ \"\$(ls -A '$A' | tr '\n' ' ')\" = 'a.json run.dat ' ] && /usr/bin/python3 -m json.tool '$A/a.json' >/dev/null" ||
	ls -A "$A" | diag
# its standard output a pipe nobody reads: it blocks there, mid-file, when it is signalled
mkfifo "$TMP/stuck"
exec 3<>"$TMP/stuck"
./analyse --events --json "$A/b.json" "$A/run.dat" >"$TMP/stuck" 2>/dev/null &
pid=$!
until_ok 10 bash -c "ls '$A' | grep -q '^b.json.tmp.'"
sleep 0.5
kill -TERM $pid
wait $pid
rc=$?
check "analyse --json stopped (SIGTERM) mid-file: ended by the signal (got $rc), no temporary left" \
	bash -c "[ $rc -eq 143 ] && ! ls -A '$A' | grep -q '^b\.json'" || ls -A "$A" | diag
exec 3>&-

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
