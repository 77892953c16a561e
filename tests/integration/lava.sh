#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# sanitizers: not run (it tests the lab definition, a shell script, under test-definitions' runner; the runs it makes are ordinary ones)
# rtsched in a test lab, under the tools labs run, none of them written here:
# the test definition (lava/rtsched/) run by Linaro test-definitions' own
# test-runner.py, dropped into its checkout and from rtsched's repository;
# its result lines through that checkout's send-to-lava.sh into a recording
# lava-test-case; and `batch --ktap` read by the kernel's KTAP parser
# (tools/testing/kunit/kunit_parser.py of linux-source-6.1).
#
# TEST_DEFINITIONS=DIR points at a test-definitions checkout (default
# ../shared/vendor/test-definitions where it exists); KUNIT_SOURCE at the
# kernel source tarball (default /usr/src/linux-source-6.1.tar.xz).
. "$(dirname "$0")/tap.bash"
require_rt

TOP=$PWD
TD=${TEST_DEFINITIONS:-}
[ -z "$TD" ] && [ -d ../shared/vendor/test-definitions ] && TD=$(cd ../shared/vendor/test-definitions && pwd)
KUNIT_SOURCE=${KUNIT_SOURCE:-/usr/src/linux-source-6.1.tar.xz}

# a stand-in for lava-test-case that records its arguments, one call a line
mkdir -p "$TMP/fakebin"
cat >"$TMP/fakebin/lava-test-case" <<EOF
#!/bin/sh
echo "\$*" >>"$TMP/calls"
EOF
chmod +x "$TMP/fakebin/lava-test-case"

# expected_calls RESULT.TXT: the lava-test-case calls its lines ask for
expected_calls() {
	awk '$2 ~ /^(pass|fail|skip)$/ {
		if (NF == 2) print $1 " --result " $2
		else print $1 " --result " $2 " --measurement " $3 " --units " $4 }' "$1"
}

# run_runner LABEL REPO DEFINITION PARAMS...: test-runner.py as the ORIGIN of
# test-definitions says, from REPO (a git checkout); result.txt in $result
run_runner() {
	local label=$1 repo=$2 def=$3
	shift 3
	rm -rf "$TMP/out-$label"
	(cd "$repo" && . ./automated/bin/setenv.sh >/dev/null &&
		timeout -s KILL 170 /usr/bin/python3 "$TD/automated/utils/test-runner.py" -s -e \
			-o "$TMP/out-$label" -d "$def" -r "$@") >"$TMP/runner-$label.log" 2>&1
	rc=$?
	result=$(find "$TMP/out-$label" -path '*/rtsched/output/result.txt' | head -n 1)
	csv=$(find "$TMP/out-$label" -name result.csv | head -n 1)
}

# cases_ok LABEL BENCH REPEATS THREADS: the cases of one benchmark are there
cases_ok() {
	local label=$1 b=$2 reps=$3 t=$4 want
	check "$label: $b-run pass" grep -qx "$b-run pass" "$result"
	if [ "$b" = migrate ]; then
		check "$label: migrate-shape (contention) is a verdict with its measurement" \
			grep -qE '^migrate-shape (pass|fail) [0-9.]+ %$' "$result"
		want=$((t * 4 * (1 + reps)))
		check "$label: every thread's 4 columns, as a mean and per run ($want lines)" \
			test "$(grep -cE '^(run[0-9]+-)?migrate-t[0-9]+-(vol|nonvol|migrated|iterations) pass [0-9.]+ [a-z]+$' "$result")" -eq "$want"
		check "$label: migrate-t$((t - 1))-migrated in migrations" \
			grep -qE "^migrate-t$((t - 1))-migrated pass [0-9.]+ migrations$" "$result"
		check "$label: run$reps-migrate-t0-iterations, the last run's own" \
			grep -qE "^run$reps-migrate-t0-iterations pass [0-9]+ iterations$" "$result"
	else
		check "$label: pi_stress-shape pass (PI resolves every inversion)" \
			grep -qx "pi_stress-shape pass" "$result"
		check "$label: pi_stress-total-per_second in inversions/s" \
			grep -qE '^pi_stress-total-per_second pass [0-9.]+ inversions/s$' "$result"
		check "$label: pi_stress-g0-wait_p99 in us" \
			grep -qE '^pi_stress-g0-wait_p99 pass [0-9.]+ us$' "$result"
	fi
}

if [ -z "$TD" ] || [ ! -f "$TD/automated/utils/test-runner.py" ]; then
	skip "no test-definitions checkout: set TEST_DEFINITIONS=DIR (github.com/Linaro/test-definitions) to run lava/rtsched under its test-runner.py"
elif ! /usr/bin/python3 -c 'import pexpect, yaml' 2>/dev/null; then
	skip "test-runner.py needs python3-pexpect and python3-yaml (scripts/install-deps)"
else
	# --- dropped unchanged into a test-definitions checkout
	cp -a "$TD" "$TMP/td"
	cp -a lava/rtsched "$TMP/td/automated/linux/rtsched"
	rm -rf "$TMP/td/automated/linux/rtsched/output"
	(cd "$TMP/td" && git init -q . && git add -A &&
		git -c user.name=t -c user.email=t@localhost commit -qm copy)
	run_runner drop "$TMP/td" automated/linux/rtsched/rtsched.yaml \
		"BENCHMARKS=migrate pi_stress" THREADS=4 DURATION=1s REPEATS=2 RTSCHED="$TOP" \
		BASELINE="$TOP/results/reference/commit-43fa5460fe60-after-pi.json" \
		"FAIL_IF=migrated:highest>10% iterations:total<99%" \
		"BACKGROUND_CMD=touch $TMP/bg-started && exec sleep 3171"
	check "test-runner.py ran the definition dropped into test-definitions (exit $rc)" \
		test "$rc" -eq 0 -a -s "$result"
	check "  the background command ran, and was stopped with the definition" \
		eval 'test -e "$TMP/bg-started" && ! grep -qsa "slee[p].3171" /proc/[0-9]*/cmdline'
	if [ -s "$result" ]; then
		cases_ok drop migrate 2 4
		cases_ok drop pi_stress 2 4
		check "a --fail-if condition against a baseline of other threads fails, saying why" \
			grep -qx "migrate-fail-if-migrated-highest-rose-10pct fail" "$result"
		why=$(find "$TMP/out-drop" -name 'migrate-fail-if-migrated-highest-rose-10pct.log' | head -n 1)
		check "  its log says the configurations differ" grep -q "configurations differ" "$why"
		check "every line is NAME pass|fail|skip [MEASUREMENT UNITS], names unique" \
			eval 'awk "!(\$2 ~ /^(pass|fail|skip)$/) || (NF != 2 && NF != 4) || seen[\$1]++ { bad = 1 } END { exit bad }" "$result"'
		# what test-runner.py read back from the log (send-to-lava.sh's signal lines)
		n_csv=$(($(wc -l <"$csv") - 1))
		check "test-runner.py's result.csv holds every case ($n_csv of $(wc -l <"$result"))" \
			test "$n_csv" -eq "$(wc -l <"$result")"
		check "  with the measurement and units of migrate-t3-migrated" \
			grep -qE ',migrate-t3-migrated,pass,[0-9.]+,migrations' "$csv"

		# --- send-to-lava.sh with a recording lava-test-case, and our own sender
		rm -f "$TMP/calls"
		PATH="$TMP/fakebin:$PATH" sh "$TD/automated/utils/send-to-lava.sh" "$result" >/dev/null
		expected_calls "$result" >"$TMP/want"
		check "send-to-lava.sh makes one right lava-test-case call per line ($(wc -l <"$TMP/want"))" \
			cmp -s "$TMP/want" "$TMP/calls"
		rm -f "$TMP/calls"
		PATH="$TMP/fakebin:$PATH" sh lava/rtsched/rtsched.sh -S "$result" >"$TMP/own"
		check "rtsched.sh -S makes the same calls" cmp -s "$TMP/want" "$TMP/calls"
		check "  and shows a case's log beside it" grep -q "^<LAVA_SIGNAL_STARTTC migrate-run>" "$TMP/own"
		sh lava/rtsched/rtsched.sh -S "$result" | grep '^<LAVA_SIGNAL_TESTCASE' >"$TMP/signals"
		check "without lava-test-case: one signal line per case" \
			test "$(wc -l <"$TMP/signals")" -eq "$(wc -l <"$result")"
	else
		diag "$TMP/runner-drop.log" | tail -n 30
	fi

	# --- from rtsched's own repository, as a LAVA job names it: built there
	# (the files of the work tree, not its build outputs, as one commit)
	mkdir -p "$TMP/repo"
	git ls-files -z --cached --others --exclude-standard |
		tar --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -xf - -C "$TMP/repo"
	(cd "$TMP/repo" && git init -q . && git add -A &&
		git -c user.name=t -c user.email=t@localhost commit -qm copy)
	# test-runner.py wants setenv.sh's folder; the repository has none of its own
	mkdir -p "$TMP/repo/automated/bin" && cp "$TD/automated/bin/setenv.sh" "$TMP/repo/automated/bin/"
	run_runner repo "$TMP/repo" lava/rtsched/rtsched.yaml \
		BENCHMARKS=migrate MODE=contention THREADS=3 PI=false DURATION=1s REPEATS=1 SKIP_INSTALL=true
	check "test-runner.py ran lava/rtsched/rtsched.yaml from rtsched's repository (exit $rc)" \
		test "$rc" -eq 0 -a -s "$result"
	if [ -s "$result" ]; then
		check "  it built migrate there and ran it: migrate-run pass" grep -qx "migrate-run pass" "$result"
		check "  the build's log is kept" test -s "$(dirname "$result")/build.log"
		check "  one run: no runR- lines, 3 threads x 4 columns" \
			test "$(grep -c '^migrate-t' "$result")" -eq 12 -a "$(grep -c '^run' "$result")" -eq 0
	else
		diag "$TMP/runner-repo.log" | tail -n 30
	fi
fi

# --- the definition where the machine cannot run it: cases, exit 0
cp -a lava/rtsched "$TMP/def"
rm -rf "$TMP/def/output"
# rtsched where a user can reach it (the tree may be in root's home): the
# programs and the scripts, as make install lays them out
mkdir -p "$TMP/rt" && cp -a migrate pi_stress scripts "$TMP/rt/"
chmod 755 "$TMP" && chown -R nobody "$TMP/def"
run_bounded 60 setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
	sh "$TMP/def/rtsched.sh" -R "$TMP/rt" -d 1s -r 1 -b "migrate pi_stress"
check "rtsched.sh as a user without RT privilege: exit 0 (got $rc)" test "$rc" -eq 0
check "  migrate-run skip, pi_stress-run skip" \
	eval 'grep -qx "migrate-run skip" "$TMP/def/output/result.txt" && grep -qx "pi_stress-run skip" "$TMP/def/output/result.txt"'
check "  the skip's reason is its log" grep -qi "privilege\|CAP_SYS_NICE" "$TMP/def/output/migrate-run.log"
run_bounded 60 sh "$TMP/def/rtsched.sh" -R /nonexistent -b migrate
check "rtsched.sh without rtsched: exit 0, migrate-run fail saying where to point it" \
	eval '[ $rc -eq 0 ] && grep -qx "migrate-run fail" "$TMP/def/output/result.txt" && grep -q RTSCHED "$TMP/def/output/migrate-run.log"'
run_bounded 60 sh "$TMP/def/rtsched.sh" -R "$TOP" -b migrate -t 999 -d 1s
check "a bad THREADS is the run's failure with migrate's own line" \
	eval '[ $rc -eq 0 ] && grep -qx "migrate-run fail" "$TMP/def/output/result.txt" && grep -q "invalid --threads" "$TMP/def/output/migrate-run.log"'
run_bounded 60 sh "$TMP/def/rtsched.sh" -x
check "rtsched.sh with an unknown option: exit 2, usage" eval '[ $rc -eq 2 ] && grep -q usage "$TMP/err"'
R=$TMP/def/output/result.txt
run_bounded 60 sh "$TMP/def/rtsched.sh" -R "$TOP" -b ''
check "-b '': exit 0, one failing case saying what BENCHMARKS takes" \
	eval '[ $rc -eq 0 ] && [ "$(cat "$R")" = "rtsched-run fail" ] && grep -q "expected one or more of migrate, pi_stress and spin" "$TMP/def/output/rtsched-run.log"'
run_bounded 60 sh "$TMP/def/rtsched.sh" -R "$TOP" -b 'migrate migrate'
check "-b 'migrate migrate': one failing case, no duplicated names" \
	eval '[ $rc -eq 0 ] && [ "$(cat "$R")" = "migrate-run fail" ] && grep -q "given twice" "$TMP/def/output/migrate-run.log"'
run_bounded 120 sh "$TMP/def/rtsched.sh" -R "$TOP" -b migrate -t 3 -d 0.3s -r 1 \
	-B "$TOP/results/reference/lwn-2011-after-pi.json" -f 'migrated:highest>50% bogus iterations:99>5%'
check "one malformed FAIL_IF word: the other cases all there (exit $rc)" \
	eval '[ $rc -eq 0 ] && grep -qx "migrate-run pass" "$R" && grep -q "^migrate-t2-migrated pass" "$R"' || diag "$R"
check "  the good condition judged, each bad one a failing case of its own" \
	eval 'grep -q "^migrate-fail-if-migrated-highest-rose-50pct " "$R" && grep -qx "migrate-fail-if-invalid-2 fail" "$R" &&
		grep -qx "migrate-fail-if-invalid-3 fail" "$R" && grep -q "expected COLUMN:ROW" "$TMP/def/output/migrate-fail-if-invalid-2.log"' ||
	diag "$R"
check "  which rtsched ran: found, with its version and folder" \
	eval 'grep -qx "rtsched-install-found pass" "$R" && grep -q "^found in $TOP: migrate (rtsched) " "$TMP/def/output/rtsched-install-found.log"' ||
	diag "$R"
# PACKAGE: installed with apt instead of building; one that cannot be is the
# install's failing case, and every benchmark's, with apt's or the reason
run_bounded 60 sh "$TMP/def/rtsched.sh" -P "$TMP/no-such.deb" -b 'migrate spin'
check "a PACKAGE that is not there: exit 0 (got $rc), rtsched-install-package fail, each benchmark failing" \
	eval '[ $rc -eq 0 ] && [ "$(sort "$R" | tr "\n" " ")" = "migrate-run fail rtsched-install-package fail spin-run fail " ]' ||
	diag "$R"
check "  saying why" grep -q "PACKAGE '$TMP/no-such.deb': no such readable file" "$TMP/def/output/migrate-run.log"
printf 'not a package\n' >"$TMP/bogus.deb"
run_bounded 120 sh "$TMP/def/rtsched.sh" -P "$TMP/bogus.deb" -b migrate
check "a PACKAGE apt cannot install: rtsched-install-package fail with apt's last line" \
	eval '[ $rc -eq 0 ] && grep -qx "rtsched-install-package fail" "$R" && grep -q "apt-get install failed: " "$TMP/def/output/rtsched-install-package.log"' ||
	diag "$TMP/def/output/rtsched-install-package.log"
# a baseline of several results (jobs, each a sitting), space-separated: this
# job's one sitting is judged against their spread, never "undecided"
for i in 1 2 3; do
	./migrate -q -t 3 -d 0.3 -r 1 --json "$TMP/base-$i.json" >/dev/null 2>&1
done
run_bounded 120 sh "$TMP/def/rtsched.sh" -R "$TOP" -b migrate -t 3 -d 0.3s -r 1 -p false \
	-B "$TMP/base-1.json $TMP/base-2.json $TMP/base-3.json" -f 'iterations:total>1000%'
check "a BASELINE of three results: the condition judged (exit $rc)" \
	eval '[ $rc -eq 0 ] && grep -qx "migrate-fail-if-iterations-total-rose-1000pct pass [-0-9.]* %" "$R"' || diag "$R"
check "  against their three sittings" \
	grep -q "in the baseline (3 sittings)" "$TMP/def/output/migrate-fail-if-iterations-total-rose-1000pct.log"
# SIGTERM to the script while a benchmark runs: it is told, its result becomes cases
sh "$TMP/def/rtsched.sh" -R "$TOP" -b 'migrate pi_stress' -t 3 -d 5s -r 1 >"$TMP/out" 2>"$TMP/err" &
pid=$!
for _ in $(seq 100); do
	pgrep -f "$TOP/migrate .*--json $TMP/def/output/migrate.json" >/dev/null && break
	sleep 0.1
done
sleep 1.5
kill -TERM $pid
timeout -s KILL 30 tail --pid=$pid -f /dev/null
wait $pid
rc=$?
check "SIGTERM to rtsched.sh mid-run: exit 143 (got $rc), within the benchmark's grace" test "$rc" -eq 143
check "  migrate's result, stopped, became cases: the run's and its rows" \
	eval 'grep -qx "migrate-run fail" "$R" && grep -q "^migrate-t2-iterations pass" "$R"' || diag "$R"
check "  and pi_stress, not run, is a skip" grep -qx "pi_stress-run skip" "$R" || diag "$R"

# --- batch --ktap through the kernel's KTAP parser
kunit=${RTSCHED_CACHE:-$HOME/.cache/rtsched}/kunit-6.1
if [ ! -f "$kunit/kunit_parser.py" ] && [ -f "$KUNIT_SOURCE" ]; then
	tar -xJf "$KUNIT_SOURCE" -C "$TMP" --wildcards '*/tools/testing/kunit/*.py' &&
		mkdir -p "$kunit" && cp "$TMP"/*/tools/testing/kunit/*.py "$kunit/"
fi
# parse FILE: the parser's verdict, counts and the leaves, a line each
parse() {
	/usr/bin/python3 - "$kunit" "$1" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import io, contextlib
with contextlib.redirect_stdout(io.StringIO()):  # its printer keeps the stdout it found
    import kunit_parser
    t = kunit_parser.parse_run_tests(open(sys.argv[2]))
print(t.status.name, t.counts.passed, t.counts.failed, t.counts.skipped, t.counts.errors)
def walk(t, depth):
    for s in t.subtests:
        print(depth, s.name, s.status.name)
        walk(s, depth + 1)
walk(t, 0)
EOF
}
if [ ! -f "$kunit/kunit_parser.py" ]; then
	skip "no kunit_parser.py: linux-source-6.1 is not installed (scripts/install-deps), or set KUNIT_SOURCE to a kernel source tarball"
else
	run_bounded 120 scripts/batch --ktap --modes contention,paired --pi on --loops 5 \
		--repeat 2 --duration 1s --pi-stress --results "$TMP/res"
	cp "$TMP/out" "$TMP/ktap"
	parse "$TMP/ktap" >"$TMP/parsed"
	check "batch --ktap: exit 0 (got $rc), the parser says SUCCESS, no errors ($(head -n 1 "$TMP/parsed"))" \
		eval '[ $rc -eq 0 ] && head -n 1 "$TMP/parsed" | grep -qE "^SUCCESS [0-9]+ 0 0 0$"'
	check "  4 cells, each a test" test "$(grep -c '^0 ' "$TMP/parsed")" -eq 4
	check "  the control is a test that passes: its failing is its shape" \
		grep -qx "1 pi_stress-nopi-control-shape SUCCESS" "$TMP/parsed"
	check "  contention's shape and a figure are subtests" \
		eval 'grep -qx "1 migrate-contention-pi-shape SUCCESS" "$TMP/parsed" && grep -qx "1 migrate-contention-pi-t0-migrated SUCCESS" "$TMP/parsed"'
	check "  paired has no documented shape case" \
		eval '! grep -q "migrate-paired-pi-shape" "$TMP/parsed" && grep -qx "1 migrate-paired-pi-run SUCCESS" "$TMP/parsed"'
	check "  subtests are indented two spaces, measurements as diagnostic data" \
		grep -qE '^  ok [0-9]+ migrate-contention-pi-t0-migrated # [0-9.]+ migrations$' "$TMP/ktap"
	diag "$TMP/parsed" | head -n 3

	# a cell that fails, and a machine that cannot run any
	mkdir -p "$TMP/bin"
	printf '#!/bin/sh\necho "migrate: reading the CPUs: Input/output error" >&2\nexit 3\n' >"$TMP/bin/migrate"
	printf '#!/bin/sh\nexit 0\n' >"$TMP/bin/pi_stress"
	chmod +x "$TMP/bin/migrate" "$TMP/bin/pi_stress"
	run_bounded 60 scripts/batch --ktap --bin "$TMP/bin" --modes contention --pi off --repeat 1 \
		--duration 1s --results "$TMP/res"
	cp "$TMP/out" "$TMP/ktap"
	parse "$TMP/ktap" >"$TMP/parsed"
	check "a failing cell: exit 1 (got $rc), the parser says FAILURE" \
		eval '[ $rc -eq 1 ] && head -n 1 "$TMP/parsed" | grep -q "^FAILURE "'
	check "  its run case fails, with the program's line as a diagnostic" \
		eval 'grep -qx "1 migrate-contention-run FAILURE" "$TMP/parsed" && grep -q "^  # migrate: reading the CPUs" "$TMP/ktap"'
	printf '#!/bin/sh\necho "migrate: SCHED_FIFO needs root or CAP_SYS_NICE" >&2\nexit 4\n' >"$TMP/bin/migrate"
	run_bounded 60 scripts/batch --ktap --bin "$TMP/bin" --modes contention --pi off,on \
		--repeat 1 --duration 1s --results "$TMP/res"
	cp "$TMP/out" "$TMP/ktap"
	parse "$TMP/ktap" >"$TMP/parsed"
	check "no RT privilege: exit 4 as kselftest's skip (got $rc), every cell SKIPPED" \
		eval '[ $rc -eq 4 ] && head -n 1 "$TMP/parsed" | grep -qE "^SKIPPED 0 0 2 0$"'
	check "  with the reason" grep -q "^ok 2 migrate-contention-pi # SKIP migrate: SCHED_FIFO needs root" "$TMP/ktap"
fi
