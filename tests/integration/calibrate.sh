#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# sanitizers: not run (it tests a Python script; the short migrate runs it makes are ordinary ones)
# scripts/calibrate for real on this machine: four processes of a short
# migrate run are four sittings of one boot; their spread, the gate's false
# alarms and the smallest change it catches for designs of one and two a
# side; the same figures again from the stored sittings (--from); the JSON;
# and the refusals. (Boots: tests/unit/test_calibration.py on synthetic
# sittings, and make bench under QEMU.)
. "$(dirname "$0")/tap.bash"
require_rt

PY=/usr/bin/python3
run_bounded 120 scripts/calibrate --run 'migrate -t 4 -d 0.3 -r 2' --sittings 4 \
	--results "$TMP/cal" --fail-if 'migrated:total>10%' --fail-if 'iterations:total<10%' \
	--json "$TMP/cal.json"
check "four sittings made and judged (exit $rc: 0, or 1 where the gate alarmed)" \
	test "$rc" -eq 0 -o "$rc" -eq 1 || diag "$TMP/err"
check "  four processes of one boot, a result file each" $PY - "$TMP/cal" <<'EOF'
import glob, json, sys
docs = [json.load(open(f)) for f in sorted(glob.glob(sys.argv[1] + "/sitting-*.json"))]
assert len(docs) == 4, len(docs)
assert len({d["sitting"]["boot_id"] for d in docs}) == 1
assert len({d["sitting"]["process"] for d in docs}) == 4
EOF
check "  it says they are processes of one boot, which bound no difference of boots" \
	grep -q "^note: these sittings are processes of one boot" "$TMP/out"
check "  the spread of every row of the gate's columns: runs, sittings, F" bash -c \
	"[ \$(grep -cE '^ +(migrated|iterations):([0-3]|total) +[0-9.]+ +[0-9.]+ +[0-9.]+ +([0-9.]+|inf|-) ' '$TMP/out') -eq 10 ]"
check "  the designs of one and two processes a side, with their false alarms" bash -c \
	"grep -qE '^  1 +12 +[0-9]+ \([0-9.]+%\)' '$TMP/out' && grep -qE '^  2 +6 +[0-9]+ \([0-9.]+%\)' '$TMP/out'"
check "  and what the old way (a process's runs against another's) and the whole table say" bash -c \
	"grep -qE '^Had the runs been the samples .* the gate would have failed [0-9]+ of 12 \([0-9.]+%\)\.$' '$TMP/out' &&
	 grep -qE \"^compare's table of all 20 cells: with 2 processes a side, [0-9.]+% of the comparisons show a significant cell \\(Holm's adjustment\\), [0-9.]+% without it; one process's runs against another's, each cell on its own, as before: [0-9.]+%\\.$\" '$TMP/out'"
check "  and the verdict for two a side" \
	grep -qE "^With 2 processes a side, the gate failed [0-9]+ of 6 comparisons of identical sittings \([0-9.]+%, (within|ABOVE) alpha 0.05\)" "$TMP/out"
check "  the exit status is that verdict" bash -c \
	"grep -q 'within alpha' '$TMP/out' && [ $rc -eq 0 ] || { grep -q 'ABOVE alpha' '$TMP/out' && [ $rc -eq 1 ]; }"
check "  the JSON holds the same" $PY - "$TMP/cal.json" "$rc" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "rtsched-calibration/1" and d["unit"] == "process" and d["sittings"] == 4
assert [r["per_side"] for r in d["designs"]] == [1, 2], d["designs"]
two = d["designs"][1]
assert two["comparisons"] == 6 and two["false_alarm_rate"] == two["failed"] / 6
assert d["within_alpha"] == (sys.argv[2] == "0")
assert len(d["cells"]) == 10 and d["conditions"] == ["migrated:total>10%", "iterations:total<10%"]
assert d["runs_as_samples"]["judged"] == 12 and d["table"]["cells"] == 20
EOF
cp "$TMP/out" "$TMP/made"
run_bounded 60 scripts/calibrate --from "$TMP/cal" --fail-if 'migrated:total>10%' \
	--fail-if 'iterations:total<10%'
check "--from the stored sittings: the same figures" \
	cmp -s <(grep -v '^calibrate: ' "$TMP/made") <(grep -v '^calibrate: ' "$TMP/out")

# a sitting that fails stops the calibration, saying which and why
run_bounded 30 scripts/calibrate --run 'migrate -t 200' --results "$TMP/bad"
check "a sitting that fails: exit 1 (got $rc), its error named" \
	bash -c "[ $rc -eq 1 ] && grep -q \"^calibrate: sitting 1 failed (exit 2): migrate: invalid --threads '200'\" '$TMP/err'"

refuse() { # refuse PATTERN ARGS...
	local pat=$1
	shift
	run_bounded 30 scripts/calibrate "$@"
	check "refused: $* (exit $rc, want 2)" \
		bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$TMP/err') -eq 1 ] && grep -qF -- \"\$1\" '$TMP/err'" _ "$pat" ||
		diag "$TMP/err"
}
refuse "give --run 'COMMAND' (sittings to make) or --from SET" --sittings 4
refuse "give --run 'COMMAND' (sittings to make) or --from SET" --run 'migrate' --from "$TMP/cal"
refuse "--kernel is for --run" --from "$TMP/cal" --kernel linux-image-amd64
refuse "--cpus is kernel-matrix's: give it with --kernel" --run 'migrate' --cpus 4
refuse "invalid --sittings '3': expected a whole number from 4 to 1000" --run 'migrate' --sittings 3
refuse "invalid --run 'ls -l': expected a migrate, pi_stress or spin command line" --run 'ls -l'
refuse "leave out --json" --run 'migrate --json x'
refuse "invalid --per-side 3: 4 sittings make two groups of at most 2" --from "$TMP/cal" --per-side 3
refuse "--fail-if 'migrated': expected COLUMN:ROW>PCT%" --from "$TMP/cal" --fail-if migrated
refuse "--json '$TMP/cal.json': the file exists" --from "$TMP/cal" --json "$TMP/cal.json"
mkdir -p "$TMP/two"
cp "$TMP/cal/sitting-001.json" "$TMP/cal/sitting-002.json" "$TMP/two/"
refuse "$TMP/two: 2 processes: a calibration needs 4 sittings at least (two a side)" --from "$TMP/two"
