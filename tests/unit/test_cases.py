#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The test cases labs read (scripts/rtsched_cases.py) on results with known answers (TAP)."""

import copy
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
from rtsched_cases import (Case, cases, check_name, condition_name, fail_if_cases,  # noqa: E402
                           ktap_test, measurement_cases, number, run_case, shape_case)
from rtsched_results import ResultError, load_file  # noqa: E402
from taplib import done, ok, raises  # noqa: E402

REF = os.path.join(HERE, "..", "..", "results", "reference")
BEFORE = os.path.join(REF, "commit-43fa5460fe60-before-pi.json")
AFTER = os.path.join(REF, "commit-43fa5460fe60-after-pi.json")


def migrate(runs, mode="contention", status=0):
    """A migrate result whose runs are lists of per-thread migrations."""
    rows = [[{"task": t, "vol": 1, "nonvol": 2, "migrated": m, "iterations": 10}
             for t, m in enumerate(r)] for r in runs]
    return {"tool": "migrate", "return_code": status, "command_line": ["migrate", "-p"],
            "config": {"mode": mode, "threads": len(runs[0]), "locks": 2, "pi": True},
            "system": {"release": "6.1", "nr_cpus": 2, "preempt_model": "PREEMPT",
                       "environment": {"notes": ["RT throttling is on"]}},
            "runs": [{"rows": r} for r in rows], "_path": "synthetic.json"}


def pi_stress(passed, pi=True):
    g = {"per_second": 1000.0, "wait_ns": {"median": 1500, "p99": 12345, "max": 20000}}
    return {"tool": "pi_stress", "return_code": 0 if passed else 1, "pass": passed,
            "config": {"groups": 1, "pi": pi}, "system": {},
            "runs": [{"rows": [], "groups": [g]}], "_path": "p.json"}


def names(cs):
    return [c.name for c in cs]


# --- the numbers labs chart
ok(number(3.0) == "3" and number(121.4) == "121.4" and number(6.4123) == "6.41"
   and number(100.0) == "100", "measurements: no trailing zeros, at most 2 decimals")
ok(Case("x-t0-vol", "pass", 2.5, "switches").line() == "x-t0-vol pass 2.5 switches",
   "a case's line: name result measurement units")
ok(Case("x-run", "skip").line() == "x-run skip", "a verdict without a measurement")

# --- the run itself
ok(run_case("m", 0, None, migrate([[5, 0]])).result == "pass", "exit 0 with a result: pass")
c = run_case("m", 4, "migrate: SCHED_FIFO needs root or CAP_SYS_NICE", None)
ok(c.result == "skip" and "CAP_SYS_NICE" in c.diag[0], "exit 4: skip, the program's line as reason")
c = run_case("m", 3, "migrate: calibrating: Numerical result out of range", None)
ok(c.result == "fail" and c.diag[0] == "exit 3, no result file", "exit 3 without a file: fail")
ok(run_case("m", 0, None, None).result == "fail", "exit 0 but no result: fail")
c = run_case("p", 5, "pi_stress: no verdict: the machine starved the run: the coordinator, "
             "above every thread, woke 1013 ms late", pi_stress(False))
ok(c.result == "skip" and "woke 1013 ms late" in c.diag[0],
   "exit 5: skip, the starved machine's line as reason, not a kernel's failure")
ok(run_case("m", None, None, migrate([[5, 0]], status=0)).result == "pass",
   "no status given: the result's return_code decides")
cut = migrate([[5, 0]])
cut["partial"] = True
ok(run_case("m", 0, None, cut).result == "fail", "a result a signal cut short: fail")
ok(run_case("p", 1, None, pi_stress(False)).result == "pass",
   "pi_stress exit 1 is its verdict (the shape), not a failed run")
c = run_case("m", 0, None, migrate([[5, 0]]))
ok(any("RT throttling is on" in d for d in c.diag) and any("migrate -p" in d for d in c.diag),
   "the run's diagnostics: environment notes and the command line")

# --- the documented shape
ok(shape_case("m", migrate([[100, 24]])).result == "pass", "highest 24 of lowest 100: pass")
ok(shape_case("m", migrate([[100, 25]])).result == "fail",
   "highest 25 of lowest 100 is not under a quarter: fail")
ok(shape_case("m", migrate([[100, 0], [100, 40]])).result == "pass",
   "the mean of the runs (20 of 100): pass")
c = shape_case("m", migrate([[0, 0]]))
ok(c.result == "skip" and "nothing to compare" in c.diag[0], "no migrations at all: skip, why")
ok(shape_case("m", migrate([[7]])).result == "skip", "one thread: skip")
ok(shape_case("m", migrate([[100, 0]], mode="paired")) is None, "paired: no documented shape")
ok(shape_case("p", pi_stress(True)).result == "pass", "pi_stress with PI that passes: pass")
ok(shape_case("p", pi_stress(False)).result == "fail", "pi_stress with PI that fails: fail")
ok(shape_case("p", pi_stress(False, pi=False)).result == "pass",
   "the --no-pi control that fails: pass")
ok(shape_case("m", migrate([[100, 10]])).measurement == 10.0, "the shape's measurement: 10 %")

# --- the figures: mean, then per whole run
cs = measurement_cases("m", migrate([[4, 0]]))
ok(names(cs)[:4] == ["m-t0-vol", "m-t0-nonvol", "m-t0-migrated", "m-t0-iterations"]
   and len(cs) == 8, "one run: 2 threads x 4 columns, no run prefix")
doc = migrate([[4, 0], [6, 1], [100, 100]])
doc["runs"][1]["partial"] = True
cs = measurement_cases("m", doc)
got = {c.name: c.measurement for c in cs}
ok(got["m-t0-migrated"] == 52 and "run1-m-t0-migrated" in got and "run3-m-t0-migrated" in got
   and "run2-m-t0-migrated" not in got,
   "three runs, the second cut short: mean of 1 and 3, runs keep their own numbers")
cs = measurement_cases("p", pi_stress(True))
got = {c.name: (c.measurement, c.units) for c in cs}
ok(got["p-g0-per_second"] == (1000.0, "inversions/s") and got["p-g0-wait_p99"] == (12.345, "us")
   and "p-total-wait_max" in got, "pi_stress: rates per second, waits in us, and the total")
doc = migrate([[4, 0]])
doc["runs"][0]["trace"] = {"threads": [
    {"placement": {"wait_ns": 2000, "spans_ns": {"p99": 1000, "max": 1500}},
     "wakeup_latency_ns": {"p99": 40000, "max": 91500}, "pi_boosts": 12 + t} for t in range(2)]}
got = {c.name: (c.measurement, c.units) for c in measurement_cases("m", doc)}
ok(got.get("m-t1-wakeup_max") == (91.5, "us") and got.get("m-t0-wakeup_p99") == (40.0, "us")
   and got.get("m-t1-pi_boosts") == (13, "boosts") and got.get("m-t0-placement") == (2.0, "us"),
   "traced: wake-up latencies in us, PI boosts counted as they are")

# --- conditions against a baseline
ok(condition_name("m", "migrated:highest>10%") == "m-fail-if-migrated-highest-rose-10pct"
   and condition_name("m", "per_second:total<2.5%") == "m-fail-if-per_second-total-fell-2_5pct",
   "a condition's stable name")
before, after = load_file(BEFORE), load_file(AFTER)
cs = fail_if_cases("m", BEFORE, after, ["migrated:highest<50%", "migrated:highest>10%"], 0.05)
ok([c.result for c in cs] == ["skip", "pass"],
   "after against before, one sitting each: the highest fell 99% (undecided: skip), did not "
   "rise (pass)")
ok(abs(cs[0].measurement - (2 - 346) / 346 * 100) < 1e-9 and cs[0].units == "%",
   "  the measurement is the change in %")
ok(cs[0].diag[0].startswith("undecided: ") and "one sitting a side: not evidence" in cs[0].diag[1],
   "  and says one sitting a side is no evidence")
with tempfile.TemporaryDirectory() as d:
    # a baseline of three boots, this run one boot of its own
    for k, top in enumerate((340, 352, 346)):
        b = copy.deepcopy(before)
        b["sitting"] = {"boot_id": f"boot-{k}", "process": f"p{k}"}
        b["runs"][0]["rows"][7]["migrated"] = top
        b.pop("_path")
        with open(os.path.join(d, f"{k}.json"), "w") as f:
            json.dump(b, f)
    here = copy.deepcopy(after)
    here["sitting"] = {"boot_id": "boot-here", "process": "p-here"}
    cs = fail_if_cases("m", d, here, ["migrated:highest<50%", "migrated:highest>10%"], 0.05)
    ok([c.result for c in cs] == ["fail", "pass"],
       "a baseline of three boots: this run's one is judged by their spread: fell (fail)")
    ok("3 sittings" in cs[0].diag[0] and "significant" in cs[0].diag[0],
       f"  the diagnostics say so ({cs[0].diag[0]})")
cs = fail_if_cases("m", "/nonexistent.json", after, ["migrated:highest>10%"], 0.05)
ok(cs[0].result == "fail" and "no such file" in cs[0].diag[0],
   "a baseline that is missing: the condition fails, saying why")
other = copy.deepcopy(after)
other["config"]["threads"] = 4
cs = fail_if_cases("m", BEFORE, other, ["migrated:highest>10%"], 0.05)
ok(cs[0].result == "fail" and "configurations differ" in cs[0].diag[0],
   "a baseline of another configuration: fails, saying the configurations differ")

# --- all of one run, in order
cs = cases("m", after, 0, None, BEFORE, ["migrated:highest>10%"])
ok(names(cs)[:3] == ["m-run", "m-shape", "m-fail-if-migrated-highest-rose-10pct"]
   and len(cs) == 3 + 32, "verdicts first (run, shape, conditions), then the 32 figures")
ok(len(set(names(cs))) == len(cs), "names are unique")
ok(names(cases("m", None, 4, "no privilege")) == ["m-run"], "a skipped run is its only case")
raises(lambda: check_name("migrate pi"), ResultError, "expected letters", "a name with a space")
raises(lambda: check_name("-x"), ResultError, "starting with a letter", "a name with a dash first")

# --- KTAP
lines = ktap_test(2, "cell", "fail", ["FAIL cell"],
                  [Case("cell-run", "pass"), Case("cell-t0-vol", "pass", 3, "switches"),
                   Case("cell-shape", "fail", diag=["too many"])])
ok(lines[0] == "# FAIL cell" and lines[1:4] == ["  KTAP version 1", "  # Subtest: cell", "  1..3"],
   "KTAP: diagnostics, then the subtest header indented two spaces")
ok("  ok 2 cell-t0-vol # 3 switches" in lines and "  # too many" in lines
   and "  not ok 3 cell-shape" in lines and lines[-1] == "not ok 2 cell",
   "  measurements as diagnostic data, a failure's diagnostics before it, the result last")
ok(ktap_test(1, "cell", "skip", ["no privilege"], []) == ["ok 1 cell # SKIP no privilege"],
   "  a skipped cell: its reason in the SKIP directive")

done()
