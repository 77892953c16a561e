#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The Python tools fail in one line with the documented exit status, never
# a traceback: an output they cannot write is refused before any work (exit
# 2), and a closed pipe on stdout ends them with one line and exit 3.
. "$(dirname "$0")/tap.bash"

ref=results/reference
A=$ref/commit-43fa5460fe60-before-pi.json
B=$ref/commit-43fa5460fe60-after-pi.json
one_line() { # one_line PATTERN: stderr is that one line, and no traceback
	[ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q -- "$1" "$TMP/err" && ! grep -q Traceback "$TMP/err"
}

# --- outputs checked before the work
run_bounded 60 scripts/plot -o /nonexistent/x.png "$A" "$B"
check "plot -o /nonexistent/x.png: exit 2 (got $rc), one line" \
	eval '[ $rc -eq 2 ] && one_line "^plot: -o .*/nonexistent/x.png.: no folder /nonexistent$"'
ln -s "$TMP/nowhere.png" "$TMP/dangling.png"
run_bounded 60 scripts/plot -o "$TMP/dangling.png" "$A" "$B"
check "plot -o DANGLING-LINK: exit 2 (got $rc): the file exists" \
	eval '[ $rc -eq 2 ] && one_line "the file exists"'
run_bounded 60 scripts/plot --timeline "$TMP" -o "$TMP/t.png"
check "plot --timeline DIR: exit 2 (got $rc), one line" \
	eval '[ $rc -eq 2 ] && one_line "^plot: .*: is a directory$"'
run_bounded 60 scripts/batch --results /proc/x --modes contention --pi off
check "batch --results /proc/x: exit 2 (got $rc) before any cell, one line" \
	eval '[ $rc -eq 2 ] && one_line "^batch: invalid --results" && [ ! -s "$TMP/out" ]'
run_bounded 60 scripts/kernel-matrix --results /proc/x linux-image-amd64
check "kernel-matrix --results /proc/x: exit 2 (got $rc) before any guest, one line" \
	eval '[ $rc -eq 2 ] && one_line "^kernel-matrix: invalid --results ./proc/x."'
run_bounded 60 scripts/check-lava --kernel foo
check "check-lava --kernel foo: exit 2 (got $rc), one line naming what it takes" \
	eval '[ $rc -eq 2 ] && one_line "^check-lava: invalid --kernel .foo.: expected a Debian kernel package"'
run_bounded 60 scripts/check-lava --arch riscv64
check "check-lava --arch riscv64: exit 2 (got $rc), one line naming what it takes" \
	eval '[ $rc -eq 2 ] && one_line "^check-lava: invalid --arch .riscv64.: expected amd64 or arm64$"'
# an abbreviated option is not taken for the one it begins: --cpu 8 booted a
# 2-CPU guest past the --topology check (argparse's prefix matching)
for s in kernel-matrix compare batch bisect result-lines plot calibrate reproduce kernel-variant; do
	run_bounded 30 scripts/$s --hel
	check "$s --hel: exit 2 (got $rc), one line: not an abbreviation of --help" \
		eval '[ $rc -eq 2 ] && one_line "unrecognized arguments: --hel$"' || diag "$TMP/err"
done
run_bounded 30 scripts/kernel-matrix --results "$TMP/km" --cpu 8 --topology sockets=2,cores=2 linux-image-amd64
check "kernel-matrix --cpu 8: exit 2 (got $rc) before any guest, one line" \
	eval '[ $rc -eq 2 ] && one_line "unrecognized arguments: --cpu "' || diag "$TMP/err"

# (a copy a user can reach: the tree may be in root's home)
cp -a scripts "$TMP/scripts" && chmod 755 "$TMP"
run_bounded 60 setpriv --reuid=nobody --regid=nogroup --clear-groups "$TMP/scripts/check-lava"
check "check-lava as a user: exit 4 (got $rc), one line: it needs root" \
	eval '[ $rc -eq 4 ] && one_line "^check-lava: needs root"'

# --- result-lines: what a lab's script gets when a run went wrong
run_bounded 60 scripts/result-lines --status 4 --name migrate
check "result-lines --status 4 without a result: migrate-run skip, exit 0 (got $rc)" \
	eval '[ $rc -eq 0 ] && [ "$(cat "$TMP/out")" = "migrate-run skip" ]'
echo '{"schema": "rtsched-result/1", "tool": "migrate", "con' >"$TMP/cut.json"
run_bounded 60 scripts/result-lines --status 3 --name migrate "$TMP/cut.json"
check "result-lines --status 3 --name migrate on a cut-short file: migrate-run fail, exit 0 (got $rc)" \
	eval '[ $rc -eq 0 ] && [ "$(cat "$TMP/out")" = "migrate-run fail" ] && grep -q "not JSON" "$TMP/err"'
run_bounded 60 scripts/result-lines "$TMP/cut.json"
check "result-lines on a cut-short file without --status: exit 2 (got $rc), one line" \
	eval '[ $rc -eq 2 ] && one_line "^result-lines: .*cut.json: not JSON"'
run_bounded 60 scripts/result-lines --fail-if 'migrated:top>1%' --baseline "$A" "$B"
check "result-lines --fail-if with a bad condition: exit 2 (got $rc), no line printed" \
	eval '[ $rc -eq 2 ] && [ ! -s "$TMP/out" ] && one_line "task .top."' || diag "$TMP/err"
run_bounded 60 scripts/result-lines --fail-if 'migrated:highest>1%' "$B"
check "result-lines --fail-if without --baseline: exit 2 (got $rc), one line" \
	eval '[ $rc -eq 2 ] && one_line "needs --baseline"'

# --- result-lines carries compare's notes: a baseline from a VM, a run on the machine itself
# (the baseline: two of this machine's runs, said to have run in a VM as kernel-matrix says it)
mkdir -p "$TMP/vmbase"
for k in 1 2 3; do
	run_bounded 60 ./migrate -q -t 4 -d 0.2 --json "$TMP/run$k.json"
done
for k in 1 2; do
	/usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
d["system"]["vm"] = {"accel": "tcg", "vcpus": 4, "memory_mib": 1024, "host": {"nodename": "lab"}}
json.dump(d, open(sys.argv[2], "w"))' "$TMP/run$k.json" "$TMP/vmbase/$k.json"
done
mv "$TMP/run3.json" "$TMP/host.json"
run_bounded 60 scripts/result-lines --fail-if 'migrated:3>10%' --baseline "$TMP/vmbase" "$TMP/host.json"
check "result-lines against a VM's baseline: exit 0 (got $rc)" test "$rc" -eq 0 || diag "$TMP/err"
check "  the condition's case says, as compare does, that the platforms differ" \
	grep -q "^# migrate-fail-if-migrated-3-rose-10pct: note: the baseline ran on a VM (tcg, 4 vCPUs on lab), this run on the machine itself: a difference may come from the platform, not the kernel$" "$TMP/err" ||
	diag "$TMP/err"
run_bounded 60 scripts/compare "$TMP/vmbase" "$TMP/host.json" --column migrated
check "  compare's own note is unchanged" \
	grep -q "^   note: A ran on a VM (tcg, 4 vCPUs on lab), B on the machine itself: a difference may come from the platform, not the kernel$" "$TMP/out" ||
	diag "$TMP/out"

# --- every cell once; a duration exactly as the benchmarks read it
for a in "--modes paired --pi on,on" "--threads 2,3,2" "--modes paired,paired"; do
	# shellcheck disable=SC2086 # the options split
	run_bounded 30 scripts/batch --dry-run $a
	check "batch $a: exit 2 (got $rc), one line naming the value given twice" \
		eval '[ $rc -eq 2 ] && one_line "given 2 times: each cell once" && [ ! -s "$TMP/out" ]'
done
run_bounded 30 scripts/batch --dry-run --duration 0.0099999999999999999
check "batch --duration 0.0099999999999999999: exit 2 (got $rc): under 10 ms, as migrate reads it" \
	eval '[ $rc -eq 2 ] && one_line "invalid --duration .0.0099999999999999999.: expected 10ms to 24h"'
run_bounded 30 scripts/batch --dry-run --duration 0.01 --modes contention --pi off
check "batch --duration 0.01: accepted (exit $rc)" test "$rc" -eq 0

# --- --help is help: exit 0, on stdout
for s in soak install-deps; do
	run_bounded 30 scripts/$s --help
	check "$s --help: exit 0 (got $rc), its usage on stdout" \
		eval '[ $rc -eq 0 ] && grep -q "scripts/$s" "$TMP/out" && [ ! -s "$TMP/err" ]'
done

# --- a closed pipe on stdout
closed_pipe 60 scripts/compare "$A" "$B"
check "compare with stdout a closed pipe: exit 3 (got $rc), one line" \
	eval '[ $rc -eq 3 ] && one_line "^compare: writing to standard output: Broken pipe"'
for s in batch compare plot kernel-matrix kernel-variant reproduce result-lines check-lava; do
	closed_pipe 60 scripts/$s --help
	check "$s --help with stdout a closed pipe: exit 3 (got $rc), no traceback" \
		eval '[ $rc -eq 3 ] && one_line "^$s: writing to standard output: Broken pipe"'
done
closed_pipe 60 scripts/reproduce --assemble
check "reproduce --assemble with stdout a closed pipe: exit 3 (got $rc), no traceback" \
	eval '[ $rc -eq 3 ] && ! grep -q Traceback "$TMP/err"'

