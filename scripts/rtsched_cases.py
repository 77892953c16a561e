# SPDX-License-Identifier: GPL-2.0-only
"""Test cases from rtsched results, as test labs read them.

A case is a name, a result (pass, fail or skip), an optional measurement
with its units, and diagnostic lines. From one result file and how its
program exited come:

  NAME-run              the run itself: pass, fail, or skip where the machine
                        lacks what it needs (exit 4); the reason and the
                        environment notes are its diagnostics
  NAME-shape            the documented shape of the experiment, where one is
                        documented (migrate contention: the highest thread
                        migrates less than a quarter as often as the lowest;
                        pi_stress: passes with PI, fails without)
  NAME-fail-if-...      each --fail-if condition against a baseline (skip:
                        it moved, and nothing could test it)
  NAME-tT-COLUMN        migrate, spin: thread T's mean over the whole runs
  NAME-gG-FIGURE        pi_stress: group G's rate and waits (NAME-total-...
                        for all groups)
  runR-NAME-...         the same per run R, when there are several

Two forms: result lines (`name result [measurement [units]]`, the form of
Linaro test-definitions' result.txt, which its send-to-lava.sh turns into
lava-test-case calls) and KTAP version 1 (the kernel's
Documentation/dev-tools/ktap.rst). A verdict is a case, never an exit status.
"""

import re
import shlex

from rtsched_columns import (DISTANCE_COLUMNS, NS_COLUMNS, group_samples, nr_groups, nr_tasks,
                             parse_fail_if, resolve_fail_if, rows_of, samples, trace_columns,
                             trace_samples, traced)
from rtsched_results import (COLUMNS, ResultError, check_comparable, differences, load_set,
                             sitting_unit, whole_runs)
from rtsched_stats import mean_sd
from rtsched_verdicts import cell_of, family, gate, undecided_why

# every time is reported in us (the results hold ns)
UNITS = {"vol": "switches", "nonvol": "switches", "migrated": "migrations",
         "iterations": "iterations", "per_second": "inversions/s", "pi_boosts": "boosts",
         **{c: "us" for c in NS_COLUMNS}, **{c: "migrations" for c in DISTANCE_COLUMNS}}
# Exit statuses of the benchmarks (migrate(8), pi_stress(8)).
EXIT_SKIP = 4
# the machine starved the run: no verdict, no result (the programs' exit 5)
EXIT_STARVED = 5
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


class Case:
    """One test case: NAME RESULT [MEASUREMENT [UNITS]], with diagnostics."""

    def __init__(self, name, result, measurement=None, units=None, diag=()):
        self.name, self.result = name, result
        self.measurement, self.units = measurement, units
        self.diag = list(diag)

    def line(self):
        """The case as a result line."""
        out = [self.name, self.result]
        if self.measurement is not None:
            out.append(number(self.measurement))
            if self.units:
                out.append(self.units)
        return " ".join(out)


def number(v):
    """A measurement as labs parse it: at most two decimals, no trailing zeros."""
    return f"{v:.2f}".rstrip("0").rstrip(".") if v == v else "nan"


def check_name(name):
    """NAME as a case prefix: one word that labs accept (letters, digits, - _ .)."""
    if not NAME_RE.fullmatch(name):
        raise ResultError(f"--name {name!r}: expected letters, digits, '-', '_' or '.', "
                          "starting with a letter or digit")
    return name


def notes(doc):
    """What the result says about where it ran: the kernel, the command, the
    environment notes and a coarse clock (what it does not say is left out)."""
    s = doc.get("system", {})
    where = [f"kernel {s['release']}" if s.get("release") else None,
             f"{s['nr_cpus']} CPUs" if s.get("nr_cpus") else None,
             f"preemption {s['preempt_model']}" if s.get("preempt_model") else None,
             f"command: {command(doc)}" if doc.get("command_line") else None]
    out = [", ".join(w for w in where if w)] if any(where) else []
    out += [f"note: {n}" for n in s.get("environment", {}).get("notes", [])]
    clock = s.get("thread_clock") or {}
    if clock.get("coarse"):
        out.append(f"note: the thread CPU-time clock steps by {clock.get('max_step_ns')} ns: "
                   "a unit of work lasts up to one step longer")
    return out


def command(doc):
    """The command line of a result as a shell would take it."""
    cl = doc.get("command_line")
    return shlex.join(str(a) for a in cl) if isinstance(cl, list) else str(cl)


def run_case(name, status, reason, doc):
    """NAME-run from the program's exit STATUS (None: the result's own
    return_code), its last error line REASON, and the result DOC (or None)."""
    if status is None and doc is not None:
        status = doc.get("return_code")
    diag = notes(doc) if doc else []
    if reason:
        diag.insert(0, reason)
    if status == EXIT_SKIP:
        return Case(f"{name}-run", "skip", diag=diag or ["the machine lacks a capability"])
    if status == EXIT_STARVED:
        return Case(f"{name}-run", "skip",
                    diag=diag or ["the machine starved the run: no verdict"])
    # pi_stress's 1 is its verdict (NAME-shape), not a run that went wrong
    judged = doc is not None and doc.get("tool") == "pi_stress" and status == 1
    if doc is None or (status != 0 and not judged):
        why = f"exit {status}" + ("" if doc else ", no result file")
        return Case(f"{name}-run", "fail", diag=[why] + diag)
    if doc.get("partial"):
        return Case(f"{name}-run", "fail", diag=["cut short by a signal"] + diag)
    return Case(f"{name}-run", "pass", diag=diag)


def shape_case(name, doc):
    """NAME-shape where the experiment has a documented shape, else None."""
    c = doc["config"]
    if doc["tool"] == "pi_stress":
        want = bool(c.get("pi", True))
        got = bool(doc.get("pass"))
        what = ("with PI every group inverts and no inversion stalls" if want else
                "without PI (the control) an inversion stalls")
        return Case(f"{name}-shape", "pass" if got == want else "fail",
                    diag=[f"{what}: pi_stress says {'pass' if got else 'fail'}"])
    if c.get("mode") != "contention":
        return None
    n = nr_tasks([doc])
    if n < 2:
        return Case(f"{name}-shape", "skip", diag=["one thread: no lowest and highest to compare"])
    lo = mean_sd(samples([doc], 0, "migrated"))[0]
    hi = mean_sd(samples([doc], n - 1, "migrated"))[0]
    said = f"the highest thread migrated {hi:.1f} times, the lowest {lo:.1f}"
    if lo == 0:
        return Case(f"{name}-shape", "skip",
                    diag=[f"{said}: nothing to compare (one CPU?)"])
    return Case(f"{name}-shape", "pass" if 4 * hi < lo else "fail", 100 * hi / lo, "%",
                diag=[f"{said}; the commit's shape wants under a quarter"])


def measurement_cases(name, doc):
    """Every figure: the mean over the whole runs, then per run when several."""
    kept = {id(r) for r in whole_runs(doc)}
    whole = [i for i, r in enumerate(doc["runs"]) if id(r) in kept]
    sets = [("", [doc])]
    if len(whole) > 1:
        sets += [(f"run{i + 1}-", [dict(doc, runs=[doc["runs"][i]])]) for i in whole]
    out = []
    for prefix, docs in sets:
        # the trace's figures, when traced: per task, times in us
        # (NAME-tT-placement is the wait)
        for t in range(nr_tasks(docs)) if traced(docs) else ():
            for col in trace_columns(docs):
                v = mean_sd(trace_samples(docs, t, col))[0] / (1000 if col in NS_COLUMNS else 1)
                out.append(Case(f"{prefix}{name}-t{t}-{col}", "pass", v, UNITS[col]))
        if doc["tool"] != "pi_stress":
            for t in range(nr_tasks(docs)):
                for col in COLUMNS:
                    v = mean_sd(samples(docs, t, col))[0]
                    out.append(Case(f"{prefix}{name}-t{t}-{col}", "pass", v, UNITS[col]))
            continue
        ng = nr_groups(docs)
        for g in range(ng + 1):
            for col in ("per_second", "wait_median", "wait_p99", "wait_max"):
                v = mean_sd(group_samples(docs, g, col))[0]
                if col in NS_COLUMNS:
                    v /= 1000
                row = "total" if g == ng else f"g{g}"
                out.append(Case(f"{prefix}{name}-{row}-{col}", "pass", v, UNITS[col]))
    return out


def condition_name(name, spec):
    """A stable case name for a --fail-if condition: migrated:highest>10% ->
    NAME-fail-if-migrated-highest-rose-10pct."""
    col, row, op, pct = parse_fail_if(spec)
    return (f"{name}-fail-if-{col}-{row}-{'rose' if op == '>' else 'fell'}-"
            f"{number(pct).replace('.', '_')}pct")


def fail_if_cases(name, baseline, doc, conds, alpha):
    """One case per --fail-if condition of DOC against the BASELINE set (a
    file or folder): fail when it holds (significantly, Holm's adjustment
    over the conditions), skip when it moved past its threshold and nothing
    could test it (this run is one sitting: the baseline needs two); an
    unusable baseline fails every condition, saying why."""
    out = []
    try:
        base = load_set(baseline)[1] if baseline else None
        if base is None:
            raise ResultError("no baseline given (--baseline)")
        check_comparable([(baseline, base[0]), (doc["_path"], doc)])
    except ResultError as e:
        return [Case(condition_name(name, s), "fail", diag=[f"baseline: {e}"]) for s in conds]
    unit = sitting_unit(base, [doc])
    # what differs besides the kernel, as compare notes it: beside each condition
    noted = [f"note: {n}" for n in differences(base[0], doc, "the baseline", "this run")]
    judged = []
    for spec in conds:
        try:
            col, t, row, op, pct = resolve_fail_if(spec, base)
            _, what, read = rows_of(base, col)
            judged.append((spec, col, row, op, pct, what, cell_of(base, [doc], col, t, read, unit)))
        except (ResultError, KeyError) as e:
            out.append(Case(condition_name(name, spec), "fail", diag=[f"{spec}: {e}"]))
    family([j[-1] for j in judged])
    for spec, col, row, op, pct, what, c in judged:
        verdict = gate(c, op, pct, alpha)
        result = {"fail": "fail", "pass": "pass", "undecided": "skip"}[verdict]
        diag = [f"{spec}: {col} of {what.lower()} {row}: {c.ma:.1f} in the baseline "
                f"({c.na} sitting{'s' if c.na != 1 else ''}), {c.mb:.1f} here ({c.rel:+.1f}%), "
                f"{c.words(alpha)}"]
        if verdict == "undecided":
            diag.insert(0, "undecided: moved past the threshold, but this run is one sitting "
                           "and so is the baseline: a baseline of two or more (boots) judges it"
                        if c.p is None else f"undecided: moved past the threshold, but "
                        f"{undecided_why(c)}")
        out.append(Case(condition_name(name, spec), result, c.rel, "%", diag=diag + noted))
    return out


def cases(name, doc, status=None, reason=None, baseline=None, conds=(), alpha=0.05):
    """Every case of one benchmark's run: verdicts first, then the figures."""
    out = [run_case(name, status, reason, doc)]
    if doc is None or out[0].result == "skip":
        return out
    shape = shape_case(name, doc)
    if shape:
        out.append(shape)
    out += fail_if_cases(name, baseline, doc, conds, alpha) if conds else []
    return out + measurement_cases(name, doc)


def ktap_plan(n):
    """The KTAP version 1 header of N tests."""
    return ["KTAP version 1", f"1..{n}"]


def ktap_test(n, name, result, diag, sub):
    """Test N of a KTAP run: its diagnostics, its cases as subtests, its
    result line (pass, fail or skip; a skip's reason is its first diagnostic)."""
    out = [f"# {d}" for d in (diag[1:] if result == "skip" else diag)]
    if sub:
        out += ["  KTAP version 1", f"  # Subtest: {name}", f"  1..{len(sub)}"]
        for k, c in enumerate(sub, 1):
            out += [f"  # {d}" for d in c.diag]
            out.append("  " + ktap_result(k, c))
    return out + [ktap_result(n, Case(name, result, diag=diag))]


def ktap_result(n, case):
    """One KTAP result line: ok or not ok, the SKIP directive with its reason,
    or a measurement as diagnostic data."""
    line = f"{'not ok' if case.result == 'fail' else 'ok'} {n} {case.name}"
    if case.result == "skip":
        return f"{line} # SKIP {case.diag[0] if case.diag else ''}".rstrip()
    if case.measurement is not None:
        return f"{line} # {number(case.measurement)} {case.units or ''}".rstrip()
    return line
