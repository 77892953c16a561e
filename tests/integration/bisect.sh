#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# sanitizers: not run (it tests Python scripts, no compiled program)
# scripts/bisect with stand-ins for the build and the guest: a small git
# history whose one planted commit raises task 7's migrations from ~5 to
# ~500 (tests/integration/bisect-stand-in writes real result files with
# those figures), bisected on migrated:7>50% to exactly that commit; a
# revision whose guest fails is skipped, one whose figures decide nothing is
# skipped, never guessed; an interrupted bisection resumes without measuring
# again what it had; the user's tree is never touched; and the refusals.
# The real bisection on linux-source-6.1 is tests/bisect-demo (README).
. "$(dirname "$0")/tap.bash"

STANDIN=$PWD/tests/integration/bisect-stand-in
export STANDIN_TEMPLATE=$PWD/results/reproduction/6.1.192-rtsched-stock/vm-4cpu-tcg/20261203T022526Z-1-migrate-contention-t8.json
export STANDIN_CALLS=$TMP/calls RTSCHED_CACHE=$TMP/cache
REPO=$TMP/repo

# the history: base (~5 migrations), five harmless commits, the planted one
# (~500), one harmless commit after it
mkdir -p "$REPO"
(
	cd "$REPO" || exit 1
	git init -q
	git config user.email rtsched@example.org
	git config user.name rtsched
	echo 5 >behaviour
	echo 0 >notes
	git add behaviour notes
	git commit -qm "base"
	for i in 1 2 3 4 5; do
		echo "$i" >>notes
		git commit -qam "harmless $i"
	done
	echo 500 >behaviour
	git commit -qam "sched/rt: take out the conditions of 43fa5460fe60"
	echo 7 >>notes
	git commit -qam "harmless 7"
) >"$TMP/git.log" 2>&1 || diag "$TMP/git.log"
rev() { git -C "$REPO" rev-parse "$1"; }
PLANTED=$(rev HEAD~1)
HEAD0=$(rev HEAD)

# bisect ARGS...: the stand-ins' bisection of the whole history, bounded
bisect() {
	run_bounded 120 scripts/bisect --tree "$REPO" --good HEAD~7 --bad HEAD \
		--fail-if 'migrated:7>50%' --runs 3 --sittings 3 --budget 5 \
		--build-command 'cp behaviour "$RTSCHED_BISECT_IMAGE"' --step-command "$STANDIN" "$@"
}

untouched() { # the user's tree: same HEAD, nothing changed, no bisection in it
	[ "$(rev HEAD)" = "$HEAD0" ] && [ -z "$(git -C "$REPO" status --porcelain)" ] &&
		[ -z "$(git -C "$REPO" for-each-ref refs/bisect)" ] &&
		! git -C "$REPO" bisect log >/dev/null 2>&1
}

# --- the planted commit, found
: >"$STANDIN_CALLS"
bisect --results "$TMP/r1"
check "the bisection ends with the first bad commit (exit $rc)" test "$rc" -eq 0 || diag "$TMP/err" "$TMP/out"
check "  it is the planted commit" \
	grep -q "^first bad commit: $PLANTED sched/rt: take out the conditions of 43fa5460fe60$" "$TMP/out"
check "  with the figures that convicted it" \
	grep -qE "^  convicted by: migrated of task 7: here [0-9.]+ ± [0-9.]+ \([0-9]+ sittings\), good end .* p=0\.0" "$TMP/out"
check "  every step logged with its result files, figures, p-values and decision" /usr/bin/python3 - "$TMP/r1/bisect.log" <<'PY'
import re, sys
log = open(sys.argv[1]).read()
steps = re.findall(r"^step \d+: ([0-9a-f]{12}) ", log, re.M)
decisions = re.findall(r"^  (good|bad|skip): ", log, re.M)
figures = re.findall(r"^  \d+ sittings: migrated of task 7: .* against the good end [-+0-9.inf]+% p=[0-9.]+, "
                     r"against the bad end [-+0-9.inf]+% p=[0-9.]+$", log, re.M)
assert steps and len(decisions) == len(steps), (steps, decisions)
rounds = re.findall(r"^  round \d+: 3 result files in \S+/revisions/[0-9a-f]{12}/round-\d+$", log, re.M)
assert len(rounds) >= len(steps) + 2, rounds
assert len(figures) >= len(steps), figures
assert re.search(r"^the ends: migrated of task 7: good [0-9.]+ \(\d+ sittings\), bad [0-9.]+ .*p=[0-9.]+ < 0\.01667$",
                 log, re.M), "no ends line"
assert "each of up to 3 looks at p < 0.01667 (--alpha 0.05 / 3)" in log
PY
check "  a good step says why in words" grep -qE "^  good: below the bad end, p=[0-9.]+ < 0.01667, and not risen more than 50% against the good end by the test \(p=[0-9.]+\)$" "$TMP/out"
check "  the ends' rounds alternate: good, bad, good, bad, good, bad" /usr/bin/python3 - \
	"$STANDIN_CALLS" "$(rev HEAD~7)" "$HEAD0" <<'PY'
import sys
calls = open(sys.argv[1]).read().split()
good, bad = sys.argv[2], sys.argv[3]
assert calls[:6] == [good, bad] * 3, calls[:6]
PY
check "  the log on stdout is the log in the results" cmp -s "$TMP/out" "$TMP/r1/bisect.log"
check "  the user's tree is untouched" untouched
check "  the state records the answer" /usr/bin/python3 -c "import json,sys
d = json.load(open('$TMP/r1/bisect.json'))
assert d['first_bad'] == '$PLANTED', d['first_bad']
assert all(r.get('verdict') in ('good', 'bad', 'skip', 'measured') for r in d['revisions'].values())"

# --- one commit between the ends: it is the answer, convicted by the ends
bisect --results "$TMP/r5" --good HEAD~2 --bad HEAD~1
check "the bad end's parent is the good end: the bad end (exit $rc)" \
	grep -q "^first bad commit: $PLANTED " "$TMP/out" || diag "$TMP/err"
check "  convicted by the ends' figures, no step run" bash -c \
	"grep -q '^  the bad end itself: migrated of task 7: ' '$TMP/out' && ! grep -q '^step' '$TMP/out'"

# --- a revision whose guest fails: skipped, said, and the answer still right
FIRST=$(git -C "$REPO" rev-list --bisect HEAD ^HEAD~7)
: >"$STANDIN_CALLS"
STANDIN_FLAKY=$FIRST bisect --results "$TMP/r2"
check "a failing step: still the planted commit (exit $rc)" \
	grep -q "^first bad commit: $PLANTED " "$TMP/out" || diag "$TMP/err"
check "  its failed rounds are logged, then it is skipped" bash -c \
	"grep -c '^  a round failed (exit 1; .*stand-in: this revision.s guest did not boot)' '$TMP/out' | grep -qx 2 &&
	 grep -q '^  skip: 2 rounds failed (booted or run)' '$TMP/out'"

# --- one bisection at a time into a --results folder: a second (of
# another tree) is refused before it writes, exit 2 (two trees into one
# --results both ran, one log, one state)
hold() { # hold FILE: a process holding FILE's lock, as a running bisection does ($holder)
	/usr/bin/python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "a+")
fcntl.flock(f, fcntl.LOCK_EX)
time.sleep(20)' "$1" &
	holder=$!
}
mkdir -p "$TMP/busy/r"
hold "$TMP/busy/r/bisect.lock"
sleep 0.5
bisect --results "$TMP/busy/r"
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
check "a --results folder another bisection writes: exit 2 (got $rc), one line, nothing written" \
	bash -c "[ $rc -eq 2 ] && grep -q '^bisect: another bisection writes into .*/busy/r' '$TMP/err' && [ ! -e '$TMP/busy/r/bisect.log' ]" ||
	diag "$TMP/err"

# --- links planted in --results are never written through: at bisect.log,
# and at the good end's build.log (27 lines were appended to the one's
# target, the other's truncated)
mkdir -p "$TMP/links/revisions/$(rev HEAD~7 | cut -c1-12)"
echo precious >"$TMP/victim1"
echo precious >"$TMP/victim2"
ln -s "$TMP/victim1" "$TMP/links/bisect.log"
ln -s "$TMP/victim2" "$TMP/links/revisions/$(rev HEAD~7 | cut -c1-12)/build.log"
: >"$STANDIN_CALLS"
bisect --results "$TMP/links"
check "links at bisect.log and build.log: the bisection runs (exit $rc)" test "$rc" -eq 0 || diag "$TMP/err"
check "  their targets untouched" bash -c "[ \"\$(cat '$TMP/victim1' '$TMP/victim2')\" = \"precious
precious\" ]"
check "  the log is a file of its own, written" bash -c "[ ! -L '$TMP/links/bisect.log' ] && grep -q '^first bad commit' '$TMP/links/bisect.log'"

# --- a step that leaves a process behind: it does not outlive the step
# (five "sleep 300" ran on after a bisection)
: >"$STANDIN_CALLS"
run_bounded 120 scripts/bisect --tree "$REPO" --good HEAD~7 --bad HEAD \
	--fail-if 'migrated:7>50%' --runs 3 --sittings 3 --budget 5 \
	--build-command 'cp behaviour "$RTSCHED_BISECT_IMAGE"' \
	--step-command "sleep 307 & $STANDIN" --results "$TMP/left"
check "a step leaving a sleep behind: the bisection ends (exit $rc)" test "$rc" -eq 0 || diag "$TMP/err"
check "  and nothing it left runs on" bash -c "! pgrep -f '[s]leep 307' >/dev/null" ||
	{ pgrep -af 'sleep 307' | diag; pkill -f 'sleep 307'; }

# --- a round is one sitting whatever it returns: a step whose result files
# each claim a boot of their own (two a round) is looked at and measured as
# the budget says (a revision was looked at 5 times, 10 runs against
# --budget 9, the log promising "up to 3 looks")
: >"$STANDIN_CALLS"
STANDIN_SPLIT=1 bisect --results "$TMP/split" --runs 2
check "result files of a boot each: the bisection ends (exit $rc)" test "$rc" -eq 0 || diag "$TMP/err"
check "  no revision ran more rounds than --budget 5, nor was looked at with more sittings" \
	bash -c "! ls -d '$TMP'/split/revisions/*/round-6 >/dev/null 2>&1 &&
		! grep -qE '^  ([6-9]|[1-9][0-9]+) sittings: ' '$TMP/split/bisect.log'" || diag "$TMP/split/bisect.log"
check "  each look counted its rounds: 3, 4 or 5 sittings" \
	bash -c "grep -E '^  [0-9]+ sittings: ' '$TMP/split/bisect.log' | grep -qvE '^  [345] sittings: ' && exit 1; grep -qE '^  3 sittings: ' '$TMP/split/bisect.log'"

# --- a revision whose results are not of the ends' configuration, or not
# of their program, stops the bisection: exit 2, saying what differs (it was
# measured and convicted, exit 0)
for odd in STANDIN_ODD:locks STANDIN_SPIN:spin; do
	: >"$STANDIN_CALLS"
	run_bounded 120 env "${odd%%:*}=$FIRST" scripts/bisect --tree "$REPO" --good HEAD~7 --bad HEAD \
		--fail-if 'migrated:7>50%' --runs 3 --sittings 3 --budget 5 \
		--build-command 'cp behaviour "$RTSCHED_BISECT_IMAGE"' --step-command "$STANDIN" \
		--results "$TMP/odd2-${odd#*:}"
	check "${odd%%:*}: revision $(echo "$FIRST" | cut -c1-12)'s results differ from the ends': exit 2 (got $rc)" \
		test "$rc" -eq 2 || diag "$TMP/err"
	check "  and it says what differs" grep -qE "^bisect: .*revision $(echo "$FIRST" | cut -c1-12).*(locks 4.*locks 2|\(migrate\).*\(spin\))" "$TMP/err" ||
		diag "$TMP/err"
done

# --- the planted commit's figures decide nothing: skip, never a verdict
STANDIN_NOISY=$PLANTED bisect --results "$TMP/r3"
check "an undecidable step: no first bad commit claimed (exit $rc, want 1)" \
	bash -c "[ $rc -eq 1 ] && ! grep -q '^first bad commit' '$TMP/out'" || diag "$TMP/out"
check "  it ran to the budget and was skipped, with its p-values" \
	grep -qE "^  skip: not decided after 5 sittings \(p=[0-9.]+ against the good end" "$TMP/out"
check "  the candidates named, the planted one among them" bash -c \
	"grep -q '^only skipped revisions are left: the first bad commit is one of' '$TMP/out' &&
	 grep -q '^  ${PLANTED:0:12} sched/rt' '$TMP/out'"

# --- interrupted in the second step (the first, harmless, decided), then resumed
: >"$STANDIN_CALLS"
SECOND=$(git -C "$REPO" rev-list --bisect HEAD ^"$FIRST")
STANDIN_STOP_REV=$SECOND bisect --results "$TMP/r4"
check "stopped by SIGTERM in a step (exit $rc, want 143)" test "$rc" -eq 143
check "  the log says how to resume" \
	grep -q "^interrupted: the same command resumes from $TMP/r4/bisect.json$" "$TMP/r4/bisect.log"
cp "$STANDIN_CALLS" "$TMP/calls.before"
bisect --results "$TMP/r4"
check "resumed: the planted commit (exit $rc)" grep -q "^first bad commit: $PLANTED " "$TMP/out" ||
	diag "$TMP/err"
check "  it says it resumed, and what it had decided" \
	grep -qE "^bisect: .*; resumed from $TMP/r4/bisect.json \(1 revision decided\)$" "$TMP/out"
check "  the ends and the decided steps are not measured again" /usr/bin/python3 - \
	"$TMP/calls.before" "$STANDIN_CALLS" "$TMP/out" <<'PY'
import re, sys
before = open(sys.argv[1]).read().split()
after = open(sys.argv[2]).read().split()[len(before):]
out = open(sys.argv[3]).read()
again = set(after) & set(before[:-1])  # the interrupted round's revision may run again
assert not again, again
assert re.search(r"^step 1: [0-9a-f]{12} .*: good \(measured before\)$", out, re.M)
PY
check "  the tree is still untouched" untouched

# --- the same results folder, another bisection: refused
bisect --results "$TMP/r1" --fail-if 'migrated:7>60%'
check "a results folder of another bisection: refused (exit $rc, want 2)" test "$rc" -eq 2
check "  the line says what differs" grep -q "holds another bisection (it differs in fail_if)" "$TMP/err"

# --- refusals: one line each, the documented exit status
refuse() { # refuse WANT-RC MESSAGE ARGS...
	local want=$1 msg=$2
	shift 2
	rm -rf "${TMP:?}/rr"
	bisect --results "$TMP/rr" "$@"
	check "refused: $* (exit $rc, want $want)" test "$rc" -eq "$want"
	check "  one line: $msg" bash -c "[ \$(wc -l <'$TMP/err') -eq 1 ] && grep -qF -- \"\$1\" '$TMP/err'" _ "$msg" ||
		diag "$TMP/err"
}
refuse 2 "invalid --tree '$TMP': not a git tree" --tree "$TMP"
refuse 2 "--good HEAD is not an ancestor of --bad HEAD~7" --good HEAD --bad HEAD~7
refuse 2 "invalid --good 'nosuch': not a commit of $REPO" --good nosuch
refuse 2 "are the same commit: nothing to bisect" --good HEAD --bad HEAD
# refused up front, not after the good end's build (26 minutes) or with a traceback
refuse 2 "invalid --runs '²': expected a whole number from 1 to 100" --runs ²
refuse 2 "invalid --budget '⁵': expected a whole number" --budget ⁵
refuse 2 "--fail-if 'migrated:7>50%': task 7 of --run 'migrate -t 4 -d 2': its 4 threads are tasks 0 to 3" \
	--run 'migrate -t 4 -d 2'
guest_refuse() { # guest_refuse MESSAGE RUN: a --run line the guest would refuse, without a step command
	rm -rf "${TMP:?}/rg"
	run_bounded 60 scripts/bisect --tree "$REPO" --good HEAD~7 --bad HEAD --fail-if 'migrated:7>50%' \
		--build-command 'cp behaviour "$RTSCHED_BISECT_IMAGE"' --run "$2" --results "$TMP/rg"
	check "--run '$2' for the guest: refused before any build (exit $rc, want 2)" \
		bash -c "[ $rc -eq 2 ] && [ ! -e '$TMP/rg/revisions' ] && grep -qF -- \"\$1\" '$TMP/err'" _ "$1" ||
		diag "$TMP/err"
}
guest_refuse "invalid --run 'cyclictest -d 2': expected a migrate, pi_stress or spin command line" 'cyclictest -d 2'
guest_refuse "invalid --run 'migrate -d 2 --json x': leave out --json, the guest adds its own" 'migrate -d 2 --json x'
mkdir -p "$TMP/dmg"
bisect --results "$TMP/dmg" >/dev/null
/usr/bin/python3 -c 'import json, sys
p = sys.argv[1]; d = json.load(open(p)); d["revisions"] = "damaged"; json.dump(d, open(p, "w"))' "$TMP/dmg/bisect.json"
bisect --results "$TMP/dmg"
check "a damaged bisect.json: exit 2 (got $rc), one line, no traceback" \
	bash -c "[ $rc -eq 2 ] && grep -q 'a bisection.s state, damaged' '$TMP/err' && ! grep -q Traceback '$TMP/err'" ||
	diag "$TMP/err"
refuse 2 "--fail-if 'migrated:7': expected COLUMN:ROW>PCT% or COLUMN:ROW<PCT%" --fail-if migrated:7
refuse 2 "place_here is a figure of --trace, and --run 'migrate -t 8 -d 10' does not trace" \
	--fail-if 'place_here:7>10%'
refuse 2 "--fail-if 'wait_p99:0>10%': wait_p99 is a pi_stress figure; migrate results have" \
	--fail-if 'wait_p99:0>10%'
refuse 2 "--fail-if 'migrated:9>10%': task 9 of --run 'migrate -t 8 -d 10': its 8 threads are tasks 0 to 7" --fail-if 'migrated:9>10%'
refuse 2 "the percentage is past a double's range" --fail-if "migrated:7>$(printf '9%.0s' $(seq 400))%"
refuse 2 "invalid --runs '0': expected a whole number from 1 to 100" --runs 0
refuse 2 "invalid --sittings '1': expected a whole number from 2 to 100" --sittings 1
refuse 2 "invalid --budget '1': expected a whole number from --sittings (3) to 1000" --budget 1
refuse 2 "invalid --run '': expected a benchmark command" --run ''
refuse 1 "the condition vol:7>50% does not hold between the ends after 5 sittings each" \
	--fail-if 'vol:7>50%'
LOCK=$RTSCHED_CACHE/bisect/$(printf '%s' "$REPO" | sha256sum | cut -c1-12)/lock
check "the workspace's lock is where the test looks" test -e "$LOCK"
rm -rf "$TMP/rr"
exec 9>>"$LOCK"
flock 9 # as a bisection running would hold it
bisect --results "$TMP/rr"
exec 9>&-
check "a second bisection of the same tree at once: refused (exit $rc, want 2; 1 is \"not found\")" test "$rc" -eq 2
check "  the line says another one runs" grep -q "^bisect: another bisection of $REPO is running" "$TMP/err"
mkdir -p "$TMP/small"
if mount -t tmpfs -o size=1m tmpfs "$TMP/small" 2>/dev/null; then
	tap_cleanup="umount '$TMP/small' 2>/dev/null; $tap_cleanup"
	rm -rf "$TMP/rr"
	RTSCHED_CACHE=$TMP/small run_bounded 60 scripts/bisect --tree "$REPO" --good HEAD~7 \
		--bad HEAD --fail-if 'migrated:7>50%' --step-command "$STANDIN" --results "$TMP/rr"
	check "its own build, no disk for it: refused (exit $rc, want 4)" test "$rc" -eq 4
	check "  the line says how much there is and what to do" \
		grep -q "^bisect: not enough disk in $TMP/small/bisect/[0-9a-f]*: 0.0 GiB free, a kernel build needs 8 GiB (set RTSCHED_CACHE to another place)$" "$TMP/err" ||
		diag "$TMP/err"
	umount "$TMP/small"
else
	skip "cannot mount a tmpfs here (not root?)"
fi
# --- a relative RTSCHED_CACHE (resolved where bisect starts, not in the clone it builds in)
top=$PWD
mkdir -p "$TMP/here"
(cd "$TMP/here" && RTSCHED_CACHE=cache timeout -s KILL 120 "$top/scripts/bisect" --tree "$REPO" \
	--good HEAD~7 --bad HEAD --fail-if 'migrated:7>50%' --runs 3 --sittings 3 --budget 5 \
	--build-command 'cp behaviour "$RTSCHED_BISECT_IMAGE"' --step-command "$STANDIN" \
	--results "$TMP/rrel") >"$TMP/out" 2>"$TMP/err" </dev/null
rc=$?
check "RTSCHED_CACHE=cache (relative) with --build-command: the bisection ends (exit $rc, want 0)" \
	test "$rc" -eq 0 || diag "$TMP/err"
check "  at the planted commit, its clone in ./cache where it started" \
	bash -c "grep -q '^first bad commit: $PLANTED ' '$TMP/out' && [ -d '$TMP/here/cache/bisect' ]" ||
	diag "$TMP/out"
check "after all of it, the user's tree is untouched" untouched
