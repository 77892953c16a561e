#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A result that is not what it should be is an input error: one line, exit
# 2, never a traceback, never exit 1 (compare's "a --fail-if condition
# held": CI would read a crash as a regression), never a wait on a FIFO,
# never memory without bound. Text is text: a title, a label or a folder's
# name with $...$ in it is drawn as written. The man page's own example
# after a run that wrote no result gives the run's case.
. "$(dirname "$0")/tap.bash"
PY=/usr/bin/python3
BASE=results/reference/commit-43fa5460fe60-after-pi.json
H=$TMP/hostile
mkdir -p "$H"

# mutate NAME PYTHON: H/NAME.json, the base result changed by PYTHON (on d)
mutate() {
	$PY -c 'import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
open(sys.argv[2], "w").write(json.dumps(d))' "$BASE" "$H/$1.json" "$2"
}
mutate system-null 'd["system"] = None'
mutate system-string 'd["system"] = "a string"'
mutate vm-string 'd["system"]["vm"] = "qemu"'
mutate host-list 'd["system"]["vm"] = {"host": [1]}'
mutate bandwidth-number 'd["system"]["rt_bandwidth"] = 7'
mutate sitting-string 'd["sitting"] = "boot 1"'
mutate boot-number 'd["sitting"] = {"boot_id": 7, "process": "p"}'
mutate design-list 'd["sitting"] = {"boot_id": "b", "process": "p", "design": [1]}'
sed 's/"migrated": [0-9]*/"migrated": 1e309/' "$BASE" >"$H/beyond-double.json"
sed 's/"migrated": [0-9]*/"migrated": -Infinity/' "$BASE" >"$H/infinity.json"
$PY -c 'import sys; open(sys.argv[1], "w").write("[" * 100000 + "]" * 100000)' "$H/deep.json"
$PY -c 'import re, sys; t = open(sys.argv[1]).read(); open(sys.argv[2], "w").write(re.sub("\"migrated\": [0-9]+", "\"migrated\": " + "9" * 5000, t, count=1))' \
	"$BASE" "$H/digits.json"
mkfifo "$H/fifo.json"
HOSTILE="system-null system-string vm-string host-list bandwidth-number sitting-string boot-number
	design-list beyond-double infinity deep digits"

one_line_2() { # one_line_2 PROG WHAT: exit 2, one line on stderr naming PROG, no traceback
	[ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "^$1: .*$2" "$TMP/err" &&
		! grep -q Traceback "$TMP/err"
}
for h in $HOSTILE; do
	run_bounded 30 scripts/compare "$BASE" "$H/$h.json"
	check "compare of a result with $h: exit 2 (got $rc), one line" one_line_2 compare "$h.json" ||
		diag "$TMP/err"
	run_bounded 30 scripts/plot "$BASE" "$H/$h.json" -o "$TMP/$h.png"
	check "plot of it: exit 2 (got $rc), one line, no picture" \
		bash -c "$(declare -f one_line_2); rc=$rc TMP='$TMP'; one_line_2 plot '$h.json' && [ ! -e '$TMP/$h.png' ]" ||
		diag "$TMP/err"
	run_bounded 30 scripts/result-lines "$H/$h.json"
	check "result-lines of it: exit 2 (got $rc), one line" one_line_2 result-lines "$h.json" ||
		diag "$TMP/err"
done
for f in /dev/zero "$H/fifo.json"; do
	run_bounded 20 scripts/compare "$BASE" "$f"
	check "compare of $f: exit 2 at once (got $rc), not a regular file" one_line_2 compare "not a regular file" ||
		diag "$TMP/err"
	run_bounded 20 scripts/result-lines "$f"
	check "result-lines of $f: exit 2 (got $rc)" one_line_2 result-lines "not a regular file" || diag "$TMP/err"
	run_bounded 20 scripts/plot --timeline "$f" -o "$TMP/t.png"
	check "plot --timeline $f: exit 2 (got $rc)" one_line_2 plot "not a regular file" || diag "$TMP/err"
	run_bounded 20 ./analyse -q "$f"
	check "analyse of $f: exit 2 at once (got $rc), one line" \
		bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$TMP/err') -eq 1 ] && grep -q 'not a regular file' '$TMP/err'" ||
		diag "$TMP/err"
done

# --- impossible figures: a group's rate or wait, a trace figure that is not
# a number of 0 or more (a string "nan" or "inf", a negative, a boolean) is
# refused by compare and result-lines with one line naming it (they were
# tested as numbers: "p=1.000 not significant", "placement pass nan us")
PIS=$(find results/reproduction -name '*-pi_stress-g4-spread-pi.json' | sort | head -1)
TRC=$(find results/reproduction/placement -name '*-migrate-contention-t8.json' | sort | head -1)
figure() { # figure NAME BASE PYTHON: H/NAME.json, BASE changed by PYTHON (on d, r the first run)
	$PY -c 'import json, sys
d = json.load(open(sys.argv[1]))
r = d["runs"][0]
exec(sys.argv[3])
open(sys.argv[2], "w").write(json.dumps(d))' "$2" "$H/$1.json" "$3"
}
figure rate-nan "$PIS" 'r["groups"][0]["per_second"] = "nan"'
figure rate-negative "$PIS" 'r["groups"][0]["per_second"] = -1000.0'
figure wait-bool "$PIS" 'r["groups"][1]["wait_ns"]["max"] = True'
figure boosts-negative "$PIS" 'r["trace"]["threads"][0]["pi_boosts"] = -1000'
figure placement-inf "$TRC" 'r["trace"]["threads"][2]["placement"]["wait_ns"] = "inf"'
figure latency-bool "$TRC" 'r["trace"]["threads"][0]["wakeup_latency_ns"]["max"] = False'
for h in rate-nan:"$PIS" rate-negative:"$PIS" wait-bool:"$PIS" boosts-negative:"$PIS" \
	placement-inf:"$TRC" latency-bool:"$TRC"; do
	name=${h%%:*} base=${h#*:}
	run_bounded 30 scripts/compare "$base" "$H/$name.json"
	check "compare of a result with a $name figure: exit 2 (got $rc), one line" \
		one_line_2 compare "$name.json: run 1: .*: expected a number of 0 or more" || diag "$TMP/err"
	run_bounded 30 scripts/result-lines "$H/$name.json"
	check "result-lines of it: exit 2 (got $rc), one line" \
		one_line_2 result-lines "$name.json: run 1: .*: expected a number of 0 or more" || diag "$TMP/err"
done

# --- text is text
mkdir -p "$H/\$x^\$"
cp "$BASE" "$H/\$x^\$/a.json"
run_bounded 60 scripts/plot --title 'cost in $ and $x^$' --labels '$\frac$,b' "$BASE" "$H/\$x^\$" -o "$TMP/math.png"
check "plot --title and --labels with \$...\$, a folder named \$x^\$: drawn (exit $rc)" \
	bash -c "[ $rc -eq 0 ] && [ -s '$TMP/math.png' ]" || diag "$TMP/err"
run_bounded 60 scripts/plot "$BASE" "$H/\$x^\$" -o "$TMP/math2.png"
check "  the folder's name as a label (exit $rc)" bash -c "[ $rc -eq 0 ] && [ -s '$TMP/math2.png' ]" ||
	diag "$TMP/err"

# --- the man page's example after a run that wrote no result (exit 4)
run_bounded 30 scripts/result-lines --status 4 "$H/none.json"
check "result-lines --status 4 r.json with no r.json: exit 0 (got $rc)" test "$rc" -eq 0 || diag "$TMP/err"
check "  one case, the run skipped" bash -c "[ \"\$(cut -d' ' -f1,2 '$TMP/out')\" = 'rtsched-run skip' ]" ||
	diag "$TMP/out"
echo "migrate: --trace: trace-cmd is not installed" >"$H/stderr"
run_bounded 30 scripts/result-lines --status 4 --stderr "$H/stderr" "$H/none.json"
check "  named after the program its standard error names: migrate-run skip" \
	grep -q '^migrate-run skip' "$TMP/out" || diag "$TMP/out"
run_bounded 30 scripts/result-lines --status 4 "$H/migrate.json"
check "  or its file's name: migrate-run skip" grep -q '^migrate-run skip' "$TMP/out" || diag "$TMP/out"
run_bounded 30 scripts/result-lines --status 2 --name migrate "$H/system-null.json"
check "  --status 2 with an unreadable result: the run fails, saying why" \
	grep -q '^migrate-run fail' "$TMP/out" || diag "$TMP/out"

# --- a folder deeper than the system's 4096 bytes: said so, not "no such folder"
DEEP=$TMP/deep
$PY - "$DEEP" "$BASE" <<'PY'
import os, shutil, sys
os.makedirs(sys.argv[1])
os.chdir(sys.argv[1])
for _ in range(45):  # 45 x 100 bytes: past PATH_MAX, made a level at a time
    os.mkdir("a" * 99)
    os.chdir("a" * 99)
shutil.copy(sys.argv[2], "r.json")
PY
long=$DEEP$(printf '/%s' $(for i in $(seq 45); do printf 'a%.0s' $(seq 99); echo; done))
for prog in compare plot result-lines; do
	args=("$long")
	[ $prog = plot ] && args+=(-o "$TMP/deep.png")
	[ $prog = compare ] && args=("$BASE" "$long")
	run_bounded 30 scripts/$prog "${args[@]}"
	check "$prog of a folder named in $((${#long})) bytes: exit 2 (got $rc), one line saying the name is too long" \
		one_line_2 $prog "File name too long" || diag "$TMP/err"
	[ $prog = result-lines ] && continue	# it reads files, not folders
	args=(deep)
	[ $prog = plot ] && args+=(-o "$TMP/deep.png")
	[ $prog = compare ] && args=("$PWD/$BASE" deep)
	(cd "$TMP" && timeout -s KILL 30 "$OLDPWD/scripts/$prog" "${args[@]}") >"$TMP/out" 2>"$TMP/err" </dev/null
	rc=$?
	check "  of its top, whose file lies deeper than 4096 bytes: exit 2 (got $rc), the same" \
		one_line_2 $prog "File name too long" || diag "$TMP/err"
done
