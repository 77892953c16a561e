#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# sanitizers: not run (it tests Python scripts, no compiled program)
# scripts/reproduce --assemble on the reproduction stored in
# results/reproduction/ (CI cannot build two kernels per submission): the
# four tables beside the commit's, the significance from scripts/compare,
# the plot; the refusals when results are missing; and a whole reproduction
# with stand-ins for the kernel tools, where a cell's guest fails once (run
# again on its own) or every time (exit 1 after 3 tries).
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
check "  and the means of the sittings here" grep -q "here (mean of 6 sittings, 18 runs)" "$TMP/out"
# our means, recomputed from the newest design's files: the mean of each
# boot's mean; the table must print exactly these
check "  whose task 7 migrations are the means of the boots' means" $PY - "$TMP/out" "$STORED" <<'EOF2'
import glob, json, re, sys
out = open(sys.argv[1]).read()
printed = [float(line.split()[7]) for line in out.splitlines()
           if re.match(r"^ +7: ", line) and len(line.split()) == 9 and "%" not in line]
design = sorted(glob.glob(f"{sys.argv[2]}/sittings-*"))[-1]
want = []
for when, pi in (("pre43fa5460", "pi"), ("stock", "pi"), ("pre43fa5460", "nopi"), ("stock", "nopi")):
    boots = {}
    for f in glob.glob(f"{design}/*-rtsched-{when}/vm-*/*.json"):
        d = json.load(open(f))
        if bool(d["config"]["pi"]) == (pi == "pi"):
            boots.setdefault(d["sitting"]["boot_id"], []).extend(
                r["rows"][7]["migrated"] for r in d["runs"])
    means = [sum(v) / len(v) for v in boots.values()]
    want.append(round(sum(means) / len(means), 1))
sys.exit(0 if printed == want else f"printed {printed}, files say {want}")
EOF2
check "  the significance of the differences, from compare, the boots as the samples" \
	test "$(grep -c "^Significance, " "$TMP/out")" -eq 2 -a "$(grep -c "^   sitting: the boot, 6 against 6$" "$TMP/out")" -eq 2
check "  the highest thread's fall significant with and without PI (the README's answer)" \
	test "$(grep -cE '^ +7: .* -100\.0% .*: significant$' "$TMP/out")" -eq 2
# the single boots stored before rtsched had sittings: assembled, said to be no evidence
mkdir -p "$TMP/legacy"
cp -r "$STORED"/6.1.192-rtsched-* "$TMP/legacy/"
run_bounded 120 $R --assemble --results "$TMP/legacy" --plot "$TMP/legacy.png"
check "the single boots stored before sittings: assembled (exit $rc), the means of their 5 runs" \
	bash -c "[ $rc -eq 0 ] && [ \$(grep -c 'here (mean of 5 runs)' '$TMP/out') -eq 4 ]"
check "  said to be no evidence, every cell" \
	bash -c "grep -q '(single boots, stored before rtsched had sittings: one sitting a cell is no evidence)' '$TMP/out' && [ \$(grep -c 'one sitting a side: not evidence$' '$TMP/out') -eq 18 ]"
run_bounded 120 $R --assemble --results "$STORED" --plot "$TMP/m.png"
check "  a plot of the migrations" bash -c "file '$TMP/m.png' | grep -q 'PNG image data, 1200 x 600'"
check "  and names where it is, not the private folder it was drawn in" \
	grep -qx "plot: wrote $TMP/m.png (1200x600)" "$TMP/out"
check "  the stored results say they came from a VM" $PY -c '
import glob, json, sys
docs = [json.load(open(f)) for f in glob.glob(sys.argv[1] + "/*/vm-*/*.json")]
sys.exit(0 if len(docs) >= 4 and all(d["system"]["vm"]["vcpus"] == 4 and d["system"]["nr_cpus"] == 4 for d in docs) else 1)' "$STORED"

# placement, from the traced reproduction (scripts/reproduce --trace)
run_bounded 120 $R --assemble --trace --results "$STORED/placement" --plot "$TMP/pm.png"
check "assembles the traced reproduction (exit $rc)" test "$rc" -eq 0 || diag "$TMP/err"
check "  the placement table: 8 threads and the total" \
	test "$(sed -n '/^Placement: per thread/,/^  (total/p' "$TMP/out" | grep -cE '^( +[0-7]:|total) ')" -eq 9
check "  the significance of the placement waits, with and without PI" \
	test "$(grep -c 'compare --column placement)' "$TMP/out")" -eq 2
check "  a plot of the placement waits" bash -c "file '$TMP/placement.png' | grep -q 'PNG image data, 1200 x 600'"
check "  the highest thread waited less after the commit, in both cells (the README's answer)" \
	bash -c "sed -n '/^Placement: per thread/,/^  (total/p' '$TMP/out' | awk '\$1 == \"7:\" { exit !(\$5 < \$2 && \$11 < \$8) }'"
run_bounded 60 $R --assemble --trace --results "$STORED" --plot "$TMP/y.png"
check "--assemble --trace of untraced results: exit 2 (got $rc), saying so" \
	bash -c "[ $rc -eq 2 ] && grep -q 'not every cell was traced' '$TMP/err'"

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
# a bad --plot is refused before anything is touched (it once deleted the file, then refused it)
echo "my notes" >"$TMP/notes.txt"
run_bounded 30 $R --assemble --results "$STORED" --plot "$TMP/notes.txt"
check "--plot notes.txt: exit 2 (got $rc), one line naming the option and what is accepted" \
	bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$TMP/err') -eq 1 ] &&
		grep -q \"invalid --plot '$TMP/notes.txt': expected a file name ending in .png\" '$TMP/err'" ||
	diag "$TMP/err"
check "  and notes.txt is as it was" grep -qx "my notes" "$TMP/notes.txt"
run_bounded 30 $R --assemble --results "$STORED" --plot "$TMP/none/m.png"
check "--plot in a folder that does not exist: exit 2 (got $rc)" \
	bash -c "[ $rc -eq 2 ] && grep -q 'invalid --plot .*cannot write in' '$TMP/err'"
# a picture that exists is replaced only by a whole new one
cp "$TMP/m.png" "$TMP/old.png"
run_bounded 30 $R --assemble --results "$TMP/half" --plot "$TMP/old.png"
check "  failing results leave the picture that was there (exit $rc)" cmp -s "$TMP/m.png" "$TMP/old.png"
run_bounded 10 $R --runs 0
check "--runs 0: exit 2, one line" test "$rc" -eq 2 -a "$(wc -l <"$TMP/err")" -eq 1
run_bounded 10 $R --duration 10ms
check "--duration 10ms: exit 2, what is accepted" grep -q "expected whole seconds" "$TMP/err"

# --- the interleaved design, a kernel whose guest fails booted again: the
# reproduce script with stand-ins for kernel-variant (names two images) and
# kernel-matrix (brings back, per boot of an image and command, a result
# stored in the reproduction with a boot id of its own, as the real one
# does, except for the cells in $FAKE/fail)
F=$TMP/fake
mkdir -p "$F/scripts" "$F/results/reference"
cp scripts/reproduce scripts/compare scripts/plot scripts/rtsched_*.py "$F/scripts/"
cp results/reference/*.json "$F/results/reference/"
cat >"$F/scripts/kernel-variant" <<'EOV'
#!/bin/sh
echo "$*" >"$FAKE/variant-args"
for v in stock pre43fa5460; do
	echo "$(echo $v | sed 's/pre/pre-/') 6.1.192-rtsched-$v $FAKE/img/6.1.192-rtsched-$v/bzImage"
done
EOV
cat >"$F/scripts/kernel-matrix" <<'EOM'
#!/bin/bash
# --cpus N --accel A --results DIR --command-timeout T (--run CMD)... (--setting NAME=LINE)...
# --sittings K --order O IMAGE...: K rounds, each booting every image under
# every setting once. A setting's line that sets a scheduler feature shows
# in the results' features, as in a guest whose kernel has it (unless
# $FAKE/nofeature).
runs=() images=() settings=() sittings=1
while [ $# -gt 0 ]; do
	case $1 in
	--results) results=$2; shift ;;
	--run) runs+=("$2"); shift ;;
	--setting) settings+=("$2"); echo "$2" >>"$FAKE/setup"; shift ;;
	--sittings) sittings=$2; shift ;;
	--order) echo "$2" >>"$FAKE/order"; shift ;;
	--cpus | --accel | --command-timeout) shift ;;
	*) images+=("$1") ;;
	esac
	shift
done
[ ${#settings[@]} -gt 0 ] || settings=("")
rc=0
for ((r = 1; r <= sittings; r++)); do
for img in "${images[@]}"; do
for setting in "${settings[@]}"; do
	rel=$(basename "$(dirname "$img")")
	name=${setting%%=*} feature=$(echo "${setting#*=}" | sed -n 's/^echo \([A-Z_]*\) .*/\1/p')
	boot=$(cat /proc/sys/kernel/random/uuid)
	echo "boot $rel $name" >>"$FAKE/boots"
	for i in "${!runs[@]}"; do
		case ${runs[$i]} in *" -p") pi=pi ;; *) pi=nopi ;; esac
		cell="${rel#6.1.192-rtsched-} $pi"
		echo "$cell" >>"$FAKE/calls"
		if grep -qx "$cell" "$FAKE/fail"; then
			[ -e "$FAKE/always" ] || : >"$FAKE/fail"
			rc=1
			continue
		fi
		if [ $pi = pi ]; then
			src=$(ls "$STORED_DIR/$rel"/vm-4cpu-tcg/*-pi.json | tail -n 1)
		else
			src=$(ls "$STORED_DIR/$rel"/vm-4cpu-tcg/*.json | grep -v -- -pi.json | tail -n 1)
		fi
		out=$results${name:+/$name}/$rel/vm-4cpu-tcg
		mkdir -p "$out"
		dst=$out/$(date +%Y%m%dT%H%M%S%N)-$((i + 1))-${src##*Z-?-}
		python3 -c 'import json, sys, uuid
d = json.load(open(sys.argv[1]))
d["sitting"] = {"boot_id": sys.argv[3], "process": uuid.uuid4().hex}
if sys.argv[4]:
    d["system"]["scheduler"] = {"features": ["HRTICK", sys.argv[4]], "features_why": None}
json.dump(d, open(sys.argv[2], "w"))' "$src" "$dst" "$boot" "$([ -e "$FAKE/nofeature" ] || echo "$feature")"
	done
done
done
done
exit $rc
EOM
chmod +x "$F/scripts/kernel-variant" "$F/scripts/kernel-matrix"
export FAKE=$F STORED_DIR=$PWD/$STORED
echo "pre43fa5460 pi" >"$F/fail"
run_bounded 120 $PY "$F/scripts/reproduce" --sittings 2 --results "$F/out" --plot "$F/m.png"
check "a kernel whose guest failed once: reproduce boots it again and finishes (exit $rc)" \
	test "$rc" -eq 0 || diag "$TMP/err"
check "  the boots interleaved: before, after, before, after, then the one again" \
	test "$(awk '{print $2}' "$F/boots" | sed 's/6.1.192-rtsched-//' | tr '\n' ' ')" = "pre43fa5460 stock pre43fa5460 stock pre43fa5460 "
check "  saying so" grep -q "^reproduce: before the commit: 1 sitting missing; booting again after the rounds (2 of 3)$" "$TMP/err"
check "  running only that kernel again (calls: $(tr '\n' ',' <"$F/calls"))" \
	test "$(grep -c . "$F/calls")" -eq 10 -a "$(tail -n 1 "$F/calls")" = "pre43fa5460 pi"
check "  and prints the four tables, of two sittings each (no PI before: three, its boot again)" \
	test "$(grep -c "here (mean of 2 sittings, 10 runs)" "$TMP/out")" -eq 3 -a \
	"$(grep -c "here (mean of 3 sittings, 15 runs)" "$TMP/out")" -eq 1
check "  each judged on the sittings" bash -c "grep -q '^   sitting: the boot, 2 against 2$' '$TMP/out' &&
	grep -q '^   sitting: the boot, 3 against 2$' '$TMP/out'"
check "  in a folder of the design's own" bash -c "ls -d '$F/out'/sittings-*/6.1.192-rtsched-stock/vm-4cpu-tcg"
rm -f "$F/calls" "$F/boots"
echo "pre43fa5460 pi" >"$F/fail" && touch "$F/always"
run_bounded 120 $PY "$F/scripts/reproduce" --sittings 2 --results "$F/out2" --plot "$F/m2.png"
check "a kernel that fails every time: exit 1 (got $rc) after 3 tries, naming it" \
	bash -c "[ $rc -eq 1 ] && grep -q 'sittings still missing after 3 tries: pre-43fa5460 (2)' '$TMP/err' && [ \$(grep -c 'pre43fa5460 pi' '$F/calls') -eq 6 ]" ||
	diag "$TMP/err"

# --- the 2026 series: 6.12, PREEMPT_RT, RT_PUSH_IPI set in the guests
rm -f "$F/calls" "$F/fail" "$F/always" "$F/setup" "$F/boots"
run_bounded 120 $PY "$F/scripts/reproduce" --sittings 2 --series 6.12 --rt --push-ipi off --results "$F/out3" \
	--plot "$F/m3.png"
check "--series 6.12 --rt --push-ipi off: exit $rc" test "$rc" -eq 0 || diag "$TMP/err"
check "  builds from linux-source-6.12 with PREEMPT_RT (kernel-variant $(cat "$F/variant-args"))" \
	test "$(cat "$F/variant-args")" = "--source-package linux-source-6.12 --rt stock pre-43fa5460"
check "  each guest sets NO_RT_PUSH_IPI in sched/features" \
	grep -qx "push-ipi-off=echo NO_RT_PUSH_IPI > /sys/kernel/debug/sched/features || echo 'could not set NO_RT_PUSH_IPI'" "$F/setup"
check "  and the assembly says each cell had it off" \
	test "$(grep -c "RT_PUSH_IPI off$" "$TMP/out")" -eq 4
rm -f "$F/setup" "$F/boots"
run_bounded 180 $PY "$F/scripts/reproduce" --sittings 2 --series 6.12 --push-ipi both --results "$F/out5" \
	--plot "$F/m5.png"
check "--push-ipi both: exit $rc" test "$rc" -eq 0 || diag "$TMP/err"
check "  every kernel booted with it off and on in each round" \
	test "$(awk '{print $2, $3}' "$F/boots" | sed 's/6.1.192-rtsched-//' | tr '\n' ',')" = "pre43fa5460 push-ipi-off,pre43fa5460 push-ipi-on,stock push-ipi-off,stock push-ipi-on,pre43fa5460 push-ipi-off,pre43fa5460 push-ipi-on,stock push-ipi-off,stock push-ipi-on,"
check "  the four tables of each setting, and the stock kernel off against on" bash -c \
	"[ \$(grep -c 'here (mean of 2 sittings' '$TMP/out') -eq 8 ] && [ \$(grep -c '^RT_PUSH_IPI, the stock kernel, .*: A = off, B = on, interleaved boots' '$TMP/out') -eq 2 ]"
check "  a picture for each setting" bash -c "[ -s '$F/m5-push-ipi-off.png' ] && [ -s '$F/m5-push-ipi-on.png' ]"
: >"$F/nofeature"
run_bounded 120 $PY "$F/scripts/reproduce" --sittings 2 --series 6.12 --push-ipi on --results "$F/out4" \
	--plot "$F/m4.png"
check "a guest whose kernel did not take RT_PUSH_IPI: exit 1 (got $rc)" test "$rc" -eq 1
check "  the cells named, and what they had" \
	bash -c "grep -q 'WARNING: RT_PUSH_IPI was asked on but is not in before pi' '$TMP/out' && grep -q 'RT_PUSH_IPI unknown (not recorded)' '$TMP/out' && grep -q 'RT_PUSH_IPI is not as asked in every cell' '$TMP/err'"
run_bounded 10 $R --rt
check "--rt with the 6.1 series: exit 2 (got $rc), one line, what to use" \
	bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$TMP/err') -eq 1 ] && grep -q 'cannot build PREEMPT_RT for x86 .*use --series 6.12' '$TMP/err'"
run_bounded 10 $R --series 6.13
check "--series 6.13: exit 2 (got $rc), naming the series there are" \
	bash -c "[ $rc -eq 2 ] && grep -q \"invalid choice: '6.13'\" '$TMP/err'"
