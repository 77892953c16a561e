#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# timeout=600
# (four guests of 8 to 64 vCPUs under TCG: 152 s here, 180+ in a loaded CI)
# sanitizers: not run (its guests run the static programs, which no sanitizer builds)
# Every program's defaults at the machine sizes users have: guests of 8,
# 16, 32 and 64 virtual CPUs (Debian's 6.1 kernel, TCG where there is no
# KVM) run migrate and pi_stress as a user would, with no option. Past 22
# CPUs migrate takes the CPUs its shape fits and says so; a table always
# comes, or exit 5 with the machine's evidence; pi_stress never blames
# inheritance for a machine that starved it (exit 0 or 5, never 1). Under
# TCG the guests' virtual CPUs share this machine's: the larger ones are
# starved, which is what the evidence must catch.
. "$(dirname "$0")/tap.bash"
. "$(dirname "$0")/guest.bash"

KERNEL=linux-image-amd64
RES=$TMP/results

# the default fit at 1 ms units and 10 s: 22 CPUs, whole cores of the guest
want_cpus() { # want_cpus NCPUS: the CPUs migrate's default run takes
	if [ "$1" -le 22 ]; then echo "0-$(($1 - 1))"; else echo "0-21"; fi
}

for n in 8 16 32 64; do
	rm -rf "${RES:?}"
	mkdir -p "$RES"
	guest 600 --cpus "$n" --memory 2048 --append lpj=4000000 --results "$RES" \
		--run migrate --run pi_stress "$KERNEL"
	cpus=$(want_cpus "$n")
	m=$(find "$RES" -name '*-1-migrate-*.json' | head -1)
	p=$(find "$RES" -name '*-2-pi_stress-*.json' | head -1)
	# the matrix fails when a command does: exit 5 is allowed, with its evidence
	# ... and a guest that never booted stored nothing: migrate's result (a
	# table, or exit 5 with its evidence) is asked for; pi_stress may store
	# none when starved, which its own check below reads
	check "$n vCPUs: the guest ran both programs' defaults (exit $rc)" bash -c \
		"[ -n '$m' ] &&
		 { [ $rc -eq 0 ] || { [ $rc -eq 1 ] && ! grep -E 'run [12] \(.*\) exited [^5]' '$TMP/err'; }; }" ||
		diag "$TMP/err"
	check "  migrate ran on CPUs $cpus: 2 x CPUs threads" \
		grep -q "^migrate 0.1.0: mode contention, $((2 * (${cpus#0-} + 1))) threads (SCHED_FIFO 1-$((2 * (${cpus#0-} + 1)))), $((${cpus#0-} + 1)) locks (no PI), CPUs $cpus$" "$TMP/out" ||
		grep '^migrate 0' "$TMP/out" | diag
	if [ "$n" -gt 22 ]; then
		check "  the header says which CPUs of the $n and why" \
			grep -q "^note: the run takes CPUs $cpus, 22 of the $n usable (0-$((n - 1))): the contention shape fits 22: " "$TMP/out"
	else
		check "  all of them: no note of a subset" bash -c "! grep -q '^note: the run takes' '$TMP/out'"
	fi
	check "  migrate: a table, or exit 5 with the evidence; the result records the machine" \
		/usr/bin/python3 - "$m" "$n" "$cpus" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n, cpus = int(sys.argv[2]), sys.argv[3]
c, mach = d["config"], d["runs"][0]["machine"]
print("#", d["return_code"], mach)
assert c["cpus"] == cpus, c["cpus"]
assert c["usable_cpus"] == (f"0-{n - 1}" if n > 22 else None), c["usable_cpus"]
iters = sum(r["iterations"] for r in d["runs"][0]["rows"])
if d["return_code"] == 0:
    assert iters > 0
else:
    # no pass at all: not a result, exit 5; never a table of zeros with 0
    assert d["return_code"] == 5 and iters == 0, (d["return_code"], iters)
assert set(mach) >= {"busy_speed", "coordinator_late_ns", "steal", "starved"}
PY
	check "  pi_stress: passed, or exit 5 saying the machine starved it (never 1)" \
		/usr/bin/python3 - "$p" "$TMP/out" <<'PY'
import json, sys
out = open(sys.argv[2]).read()
assert "FAIL " not in out
if not sys.argv[1]:
    # a group that did not stop: no result file, the line says why
    assert "pi_stress: no verdict: the machine starved the run: " in out, "no result, no line"
    sys.exit(0)
d = json.load(open(sys.argv[1]))
rc = d["return_code"]
print("#", rc, d["runs"][0]["machine"])
assert rc in (0, 5), rc
if rc == 5:
    assert d["runs"][0]["machine"]["starved"]
    assert "pi_stress: no verdict: the machine starved the run: " in out
PY
done
