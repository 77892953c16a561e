#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/reproduce --assemble on the reproduction stored in
# results/reproduction/ (CI cannot build two kernels per submission): the
# four tables beside the commit's, the significance from scripts/compare,
# the plot; and the refusals when results are missing.
. "$(dirname "$0")/tap.bash"

R=scripts/reproduce
STORED=results/reproduction
PY=/usr/bin/python3

run_bounded 120 $R --assemble --results "$STORED" --plot "$TMP/m.png"
check "assembles the stored reproduction (exit $rc)" test "$rc" -eq 0 || diag "$TMP/err"
for t in "before the commit, PI mutexes (the commit's first table)" \
	"after the commit, PI mutexes (its second table)" \
	"before the commit, no PI (its third table)" \
	"after the commit, no PI (its fourth table)"; do
	check "  prints the table: $t" grep -qF "$t" "$TMP/out"
done
# the published top-priority rows, transcribed from the commit: 346 and 2
# migrations with PI, 497 and 1 without
check "  beside the commit's figures (task 7 migrated 346, 2, 497, 1)" \
	test "$(grep -E '^ +7: ' "$TMP/out" | awk 'NF == 9 && !/%/ {print $4}' | tr '\n' ' ')" = "346 2 497 1 "
check "  and the means of 5 runs here" grep -q "here (mean of 5 runs)" "$TMP/out"
# our means, recomputed from the files: the table must print exactly these
check "  whose task 7 migrations are the files' means" $PY - "$TMP/out" "$STORED" <<'EOF'
import glob, json, re, sys
out = open(sys.argv[1]).read()
printed = [float(line.split()[7]) for line in out.splitlines()
           if re.match(r"^ +7: ", line) and len(line.split()) == 9 and "%" not in line]
want = []
for when, pi in (("pre43fa5460", "pi"), ("stock", "pi"), ("pre43fa5460", "nopi"), ("stock", "nopi")):
    files = sorted(f for f in glob.glob(f"{sys.argv[2]}/*-rtsched-{when}/vm-*/*.json")
                   if f.endswith("-pi.json") == (pi == "pi"))
    runs = json.load(open(files[-1]))["runs"]
    want.append(round(sum(r["rows"][7]["migrated"] for r in runs) / len(runs), 1))
sys.exit(0 if printed == want else f"printed {printed}, files say {want}")
EOF
check "  the significance of the differences, from compare" \
	test "$(grep -c "^Significance, " "$TMP/out")" -eq 2 -a "$(grep -c "Welch's two-sample t-test" "$TMP/out")" -eq 2
check "  a plot of the migrations" bash -c "file '$TMP/m.png' | grep -q 'PNG image data, 1200 x 600'"
check "  the stored results say they came from a VM" $PY -c '
import glob, json, sys
docs = [json.load(open(f)) for f in glob.glob(sys.argv[1] + "/*/vm-*/*.json")]
sys.exit(0 if len(docs) >= 4 and all(d["system"]["vm"]["vcpus"] == 4 and d["system"]["nr_cpus"] == 4 for d in docs) else 1)' "$STORED"

# missing results: one line, exit 2
mkdir -p "$TMP/empty"
run_bounded 30 $R --assemble --results "$TMP/empty" --plot "$TMP/x.png"
check "no results: exit 2, naming what is missing" \
	grep -q "no stored result for before pi, after pi, before nopi, after nopi" "$TMP/err"
mkdir -p "$TMP/half"
cp -r "$STORED"/*-rtsched-stock "$TMP/half/"
run_bounded 30 $R --assemble --results "$TMP/half" --plot "$TMP/x.png"
check "only the stock kernel's results: exit $rc, the before runs named" \
	bash -c "[ $rc -eq 2 ] && grep -q 'no stored result for before pi, before nopi (run scripts/reproduce' '$TMP/err'"
check "  and no plot" test ! -e "$TMP/x.png"
run_bounded 10 $R --runs 0
check "--runs 0: exit 2, one line" test "$rc" -eq 2 -a "$(wc -l <"$TMP/err")" -eq 1
run_bounded 10 $R --duration 10ms
check "--duration 10ms: exit 2, what is accepted" grep -q "expected whole seconds" "$TMP/err"
