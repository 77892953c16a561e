#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# spin, the third benchmark, written as a description for the driver: it
# gets from the driver everything the other two have (the table and -r, -c,
# --json, --trace, a signal's partial result, the exit statuses, the lab's
# result lines), and the RT class runs its highest threads.
. "$(dirname "$0")/tap.bash"
require_rt
PY=/usr/bin/python3

# --- a run: one thread more than the CPUs; the lowest gets (almost) nothing
run_bounded 30 ./spin -d 0.5 --json "$TMP/a.json"
ok $rc "spin -d 0.5: exit 0 (got $rc)" || diag "$TMP/err"
check "  the header names the threads and their priorities" \
	grep -qE "^spin [0-9.]+: $((NCPUS + 1)) busy threads \(SCHED_FIFO 1-$((NCPUS + 1))\) on CPUs " "$TMP/out"
check "  the table, one row per thread" table_ok "$TMP/out" $((NCPUS + 1))
check "  the time measured against the duration asked" grep -qE '^measured 0\.[0-9]+ s \(duration 500ms\), start-up ' "$TMP/out"
top=$(cell "$TMP/out" "$NCPUS" iterations) low=$(cell "$TMP/out" 0 iterations)
check "  the highest thread did work ($top units), the lowest far less ($low)" \
	test "$top" -gt 0 -a "$low" -lt "$((top / 2 + 1))"
check "  nothing on stderr" test ! -s "$TMP/err" || diag "$TMP/err"
check "  the result file: tool spin, its config, the rows" $PY -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = d["config"]
sys.exit(0 if d["tool"] == "spin" and c["threads"] == int(sys.argv[2]) and
         c["duration_ns"] == 500000000 and c["unit_ns"] == 100000 and
         len(d["runs"][0]["rows"]) == int(sys.argv[2]) and "measured_s" in d["runs"][0] and
         d["migrations_source"] == "se.nr_migrations" and d["partial"] is False else 1)' \
	"$TMP/a.json" $((NCPUS + 1))

# --- -r and -c
run_bounded 30 ./spin -q -t 2 -d 0.2 -r 2 -c 0
ok $rc "spin -q -t 2 -r 2 -c 0: exit 0 (got $rc)" || diag "$TMP/err"
check "  mean ± sd over the two runs" grep -q '± sample standard deviation over 2 runs' "$TMP/out"
check "  -q: no header" bash -c "! grep -q '^spin ' '$TMP/out'"
run_bounded 30 ./spin -q -t 1 -d 0.2 -c 0
check "  one thread on one CPU never migrates" column_all "$TMP/out" migrated -eq 0

# --- the lab's lines from its result
run_bounded 30 scripts/result-lines "$TMP/a.json"
ok $rc "result-lines reads spin's result (exit $rc)" || diag "$TMP/err"
check "  spin-run pass" grep -qx 'spin-run pass' "$TMP/out"
check "  a case per thread and column, e.g. spin-t0-iterations" \
	grep -qE "^spin-t$NCPUS-iterations pass [0-9.]+ iterations$" "$TMP/out"
check "  no shape case: spin documents none" bash -c "! grep -q 'spin-shape' '$TMP/out'"
run_bounded 30 scripts/compare "$TMP/a.json" "$TMP/a.json"
ok $rc "compare takes two spin results (exit $rc)" || diag "$TMP/err"

# --- --trace: the driver's trace tables under spin's table
if [ -d /sys/kernel/tracing ] && command -v trace-cmd >/dev/null; then
	run_bounded 60 ./spin -q -d 0.3 --trace
	ok $rc "spin --trace: exit 0 (got $rc)" || diag "$TMP/err"
	check "  the trace's placement table follows" grep -q '^Placement' "$TMP/out" || diag "$TMP/out"
else
	skip "no tracefs or trace-cmd here: spin --trace is not run"
fi

# --- a signal: the run stops, partial, 128 + the signal
./spin -d 30 --json "$TMP/s.json" >"$TMP/out" 2>"$TMP/err" </dev/null &
pid=$!
for _ in $(seq 100); do grep -q '^kernel ' "$TMP/out" 2>/dev/null && break; sleep 0.1; done
sleep 0.3
kill -INT "$pid"
timeout 10 tail --pid="$pid" -f /dev/null
wait "$pid"
rc=$?
ok $(( rc == 130 ? 0 : 1 )) "spin -d 30, SIGINT: exit 130 (got $rc)"
check "  PARTIAL says when the run stopped" grep -qE '^PARTIAL: SIGINT stopped run 1 after [0-9.]+ s' "$TMP/out"
check "  the result file is marked partial" $PY -c '
import json, sys
sys.exit(0 if json.load(open(sys.argv[1]))["partial"] is True else 1)' "$TMP/s.json"

# --- bad inputs: one line, exit 2, nothing started
bad_inputs spin <<'EOF'
-t 99|2|invalid --threads '99': expected an integer from 1 to 98
-b 90 -t 10|2|10 threads at --base-prio 90 need SCHED_FIFO priorities 90-100, past 99: accepted: --threads up to 9 at this base, or --base-prio up to 89
-d 5ms|2|invalid --duration '5ms'
-u 1|2|unknown option '-u'
EOF
