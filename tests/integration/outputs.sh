#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# What the programs write survives what happens around them: standard
# descriptors closed at start, a closed pipe on stdout, a full disk, the
# umask, a file name that is not UTF-8; and an output that cannot be
# written (a dangling link, two options naming one file) is refused before
# the run, not after it. Both programs, through the same mechanism.
. "$(dirname "$0")/tap.bash"
require_rt
PY=/usr/bin/python3
instances() { ls /sys/kernel/tracing/instances 2>/dev/null | grep -c '^rtsched-'; }
json_ok() { $PY -c 'import json, sys; d = json.load(open(sys.argv[1], encoding="utf-8")); sys.exit(0 if d["schema"] == "rtsched-result/1" else 1)' "$1"; }
no_tmp() { test -z "$(find "$TMP" -name '*.tmp.*')"; }
# why_not RESULT: what a run that did not pass said (its stderr, and its
# result's verdict), for the log of a failing check
why_not() {
	diag "$TMP/err"
	$PY -c 'import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
print("# return code", d.get("return_code"), "pass", d.get("pass"))
for r in d.get("runs", []):
    for g in r.get("groups", []):
        print("#  ", {k: v for k, v in g.items() if not isinstance(v, (dict, list))})' "$1" 2>&1 |
		head -20
}
short() { # short PROGRAM: the arguments of a short run of it
	case "$1" in migrate) echo "-d 0.3" ;; pi_stress) echo "-i 200" ;; esac
}

for p in migrate pi_stress; do
	a=$(short $p)
	# --- standard descriptors closed at start
	# shellcheck disable=SC2086
	timeout -s KILL 30 ./$p $a --json "$TMP/$p-closed1.json" >&- 2>"$TMP/err" </dev/null
	rc=$?
	check "$p >&- --json: exit 0 (got $rc)" test "$rc" -eq 0 || why_not "$TMP/$p-closed1.json"
	check "  the result file is JSON, not the table" json_ok "$TMP/$p-closed1.json"
	# shellcheck disable=SC2086
	timeout -s KILL 30 ./$p $a --json "$TMP/$p-closed2.json" >"$TMP/out" 2>&- <&-
	rc=$?
	check "$p 2>&- <&- --json: exit 0 (got $rc)" test "$rc" -eq 0 || why_not "$TMP/$p-closed2.json"
	check "  the result file is JSON" json_ok "$TMP/$p-closed2.json"
	check "  and the table on stdout" grep -q '^total:' "$TMP/out"

	# --- a closed pipe on stdout (as under | head -1, once head has gone)
	# shellcheck disable=SC2086
	closed_pipe 30 ./$p $a --trace --json "$TMP/$p-pipe.json"
	check "$p with stdout a closed pipe: exit 3 (got $rc), not SIGPIPE" test "$rc" -eq 3
	check "  says so in one line" grep -q "^$p: writing to standard output: Broken pipe" "$TMP/err" ||
		diag "$TMP/err"
	check "  the result file is written whole" json_ok "$TMP/$p-pipe.json"
	check "  no temporary file left" no_tmp
	check "  the trace instance is gone" test "$(instances)" -eq 0

	# --- a full disk
	mkdir -p "$TMP/full"
	if mount -t tmpfs -o size=64k rtsched-full "$TMP/full"; then
		tap_cleanup='umount "$TMP/full" 2>/dev/null'
		head -c 60000 /dev/zero >"$TMP/full/filler" 2>/dev/null
		# shellcheck disable=SC2086
		run_bounded 30 ./$p $a -r 3 --json "$TMP/full/r.json"
		check "$p --json on a full disk: exit 3 (got $rc)" test "$rc" -eq 3
		check "  naming the file and the cause" \
			grep -q "^$p: writing --json '$TMP/full/r.json': No space left on device$" "$TMP/err" ||
			diag "$TMP/err"
		check "  no file, no temporary file left" test "$(ls "$TMP/full")" = filler
		umount "$TMP/full"
		tap_cleanup=""
	else
		ok 1 "a small tmpfs could be mounted"
	fi

	# --- the umask decides the mode, as for any file the user writes
	# shellcheck disable=SC2086
	(umask 022 && timeout -s KILL 30 ./$p $a -q --json "$TMP/$p-022.json" >/dev/null 2>&1)
	check "$p under umask 022: the result file is 0644" test "$(stat -c %a "$TMP/$p-022.json")" = 644
	# shellcheck disable=SC2086
	(umask 077 && timeout -s KILL 30 ./$p $a -q --json "$TMP/$p-077.json" >/dev/null 2>&1)
	check "  under umask 077: 0600" test "$(stat -c %a "$TMP/$p-077.json")" = 600

	# --- a file name that is not UTF-8 goes into command_line
	name="$TMP/$p-caf$(printf '\351').json"
	# shellcheck disable=SC2086
	run_bounded 30 ./$p $a -q --json "$name"
	check "$p --json NAME-IN-LATIN-1: exit 0 (got $rc)" test "$rc" -eq 0
	check "  the result is valid UTF-8 JSON" json_ok "$name"
	check "  and compare reads it" bash -c "scripts/compare '$name' '$name' >/dev/null"

	# --- refused before the run: exit 2 at once, nothing written
	ln -s "$TMP/nowhere/x.json" "$TMP/dangling.json"
	run_bounded 30 ./$p -d 30 --json "$TMP/dangling.json"
	check "$p --json DANGLING-LINK: exit 2 (got $rc) before the run" \
		bash -c "[ $rc -eq 2 ] && [ ! -s '$TMP/out' ]"
	check "  one line: the file exists" grep -q "^$p: invalid --json '$TMP/dangling.json': the file exists" "$TMP/err"
	rm "$TMP/dangling.json"
	run_bounded 30 ./$p -d 30 --json "$TMP/same" --trace-out "$TMP/./same"
	check "$p --json X --trace-out ./X: exit 2 (got $rc) before the run" \
		bash -c "[ $rc -eq 2 ] && [ ! -s '$TMP/out' ]"
	check "  one line naming both options" \
		grep -q "^$p: invalid --trace-out '$TMP/./same': --json writes that file already" "$TMP/err"
	check "  and nothing left" eval 'no_tmp && [ ! -e "$TMP/same" ]'
done

# --- without --json, a closed stdout does not send the table into the trace buffer
if [ -w /sys/kernel/tracing/trace ]; then
	: >/sys/kernel/tracing/trace
	timeout -s KILL 30 ./migrate -d 0.3 >&- 2>/dev/null </dev/null
	check "migrate >&-: the table does not go into the trace buffer" \
		bash -c "! grep -q 'Task        vol' /sys/kernel/tracing/trace"
fi
