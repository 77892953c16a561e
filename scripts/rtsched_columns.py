# SPDX-License-Identifier: GPL-2.0-only
"""The cells of rtsched results: their columns (the table's, pi_stress's
group figures, the trace's), their rows (tasks, groups, the total), the
samples of a cell run by run, and --fail-if's grammar for naming one.
"""

import json
import math
import re

from rtsched_results import COLUMNS, ResultError, whole_runs


# pi_stress's per-group figures, compared like the table's columns; row "total"
# is the sum of the groups' rates, and the longest of their waits.
GROUP_COLUMNS = ("per_second", "wait_median", "wait_p99", "wait_max")
# Placement, of runs traced with --trace (ns): per task the time it waited while
# a CPU of its affinity ran a lower priority, and its spans' p99 and maximum;
# row "total" is the sum of the waits, and the longest of the spans.
# Apart from placement, the time the kernel's RT bandwidth limits held the
# CPUs a task waited on, by mechanism (results traced since rtsched told
# them apart); row "total" is the sum.
LIMIT_COLUMNS = ("throttled", "fair_server", "throttled_or_fair_server")
# Of every traced thread too: its wake-up latency's p99 and maximum (ns; row
# "total": the longest) and the PI boosts it was given (row "total": the sum);
# and, in results traced since rtsched measures it, how long a boost that
# found it waiting for a CPU left it waiting (p99, maximum; ns).
WAKEUP_COLUMNS = ("wakeup_p99", "wakeup_max", "pi_boosts")
BOOST_COLUMNS = ("boost_p99", "boost_max")
# And in results traced on a machine whose topology was known: the traced
# migrations by the distance they crossed (row "total": the sum).
DISTANCE_COLUMNS = ("mig_sibling", "mig_cache", "mig_node", "mig_remote")
# And the placement wait by where the CPU that ran lower work was, from the
# CPU the thread waited on: that CPU, or a sibling ... another node (ns).
PLACE_COLUMNS = ("place_here", "place_sibling", "place_cache", "place_node", "place_remote")
TRACE_COLUMNS = (("placement", "placement_p99", "placement_max") + LIMIT_COLUMNS
                 + WAKEUP_COLUMNS + BOOST_COLUMNS + DISTANCE_COLUMNS + PLACE_COLUMNS)
# where each is in a thread of the trace's JSON
_TRACE_KEYS = {"placement": ("placement", "wait_ns"),
               "placement_p99": ("placement", "spans_ns", "p99"),
               "placement_max": ("placement", "spans_ns", "max"),
               "wakeup_p99": ("wakeup_latency_ns", "p99"),
               "wakeup_max": ("wakeup_latency_ns", "max"),
               "pi_boosts": ("pi_boosts",),
               "boost_p99": ("pi_boost_latency_ns", "p99"),
               "boost_max": ("pi_boost_latency_ns", "max")}
_TRACE_KEYS.update({c: ("placement", f"{c}_ns") for c in LIMIT_COLUMNS})
_TRACE_KEYS.update({c: ("migrations", "by_distance", c[len("mig_"):]) for c in DISTANCE_COLUMNS})
_TRACE_KEYS.update({c: ("placement", "by_distance_ns", c[len("place_"):]) for c in PLACE_COLUMNS})
# the columns whose row "total" is the longest of the threads' (else the sum)
_TRACE_LONGEST = ("placement_p99", "placement_max", "wakeup_p99", "wakeup_max", "boost_p99",
                  "boost_max")
# the columns that are times, in ns in the results (shown in us)
NS_COLUMNS = ("wait_median", "wait_p99", "wait_max") + tuple(
    c for c in TRACE_COLUMNS if c != "pi_boosts" and c not in DISTANCE_COLUMNS)


def nr_tasks(docs):
    return len(docs[0]["runs"][0]["rows"])


def task_index(spec, ntasks):
    """'3', 'lowest', 'highest' or 'total' to a row index (ntasks for the total)."""
    if spec == "lowest":
        return 0
    if spec == "highest":
        return ntasks - 1
    if spec == "total":
        return ntasks
    try:
        i = int(spec)
    except ValueError:
        raise ResultError(f"task {spec!r}: expected a number, lowest, highest or total") from None
    if not 0 <= i < ntasks:
        raise ResultError(f"task {spec!r}: expected 0 to {ntasks - 1}, lowest, highest or total")
    return i


def samples(docs, task, column):
    """One value per whole run of every document: the cell of TASK (or the total) in COLUMN."""
    out = []
    for doc in docs:
        for run in whole_runs(doc):
            rows = run["rows"]
            if task == len(rows):
                out.append(sum(r[column] for r in rows))
            else:
                out.append(rows[task][column])
    return out


def nr_groups(docs):
    return len(docs[0]["runs"][0].get("groups", []))


def _figure(x):
    """X as a float when it is a figure a run can measure (a count, a rate, a
    time: a JSON number, finite, 0 or more), else None. A string ("nan"), a
    boolean or a negative is not one, though float() would take it."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    x = float(x)
    return x if math.isfinite(x) and x >= 0 else None


def _per_run(docs, row, column, rows_of_run, value, what, total):
    """One value per whole run of DOCS: VALUE of row ROW among ROWS_OF_RUN(run)
    (None: the run has none, say so), or TOTAL of them all for row == their
    number. WHAT names a row in messages; a value that is not a figure
    (_figure) is refused, naming it."""
    out = []
    for doc in docs:
        for i, run in enumerate(whole_runs(doc)):
            rows = rows_of_run(run)
            if rows is None:
                raise ResultError(f"{doc['_path']}: run {i + 1} has no {what}s"
                                  f"{' (run with --trace)' if what == 'traced thread' else ''}")
            vals = []
            for n, r in enumerate(rows):
                try:
                    raw = value(r)
                except (KeyError, TypeError, IndexError):
                    raise ResultError(f"{doc['_path']}: run {i + 1} has a {what} without "
                                      f"{column}") from None
                v = _figure(raw)
                if v is None:
                    raise ResultError(f"{doc['_path']}: run {i + 1}: {what} {n}'s {column} is "
                                      f"{json.dumps(raw)[:40]}: expected a number of 0 or more")
                vals.append(v)
            out.append(total(vals) if row == len(vals) else vals[row])
    return out


def group_samples(docs, group, column):
    """One value per run: COLUMN of GROUP (or, for group == nr_groups, of all groups)."""
    def groups(run):
        g = run.get("groups")
        return g if isinstance(g, list) and g else None

    def value(g):
        return g["per_second"] if column == "per_second" else g["wait_ns"][column[5:]]

    return _per_run(docs, group, column, groups, value, "group",
                    sum if column == "per_second" else max)


def traced(docs):
    """Whether every whole run of DOCS has the placement figures of --trace."""
    return all(isinstance(r.get("trace"), dict)
               and isinstance(r["trace"].get("threads"), list) and r["trace"]["threads"]
               and all(isinstance(t, dict) and isinstance(t.get("placement"), dict)
                       for t in r["trace"]["threads"])
               for d in docs for r in whole_runs(d))


def trace_samples(docs, task, column):
    """One value per run: trace COLUMN of TASK (or, for the total, the sum of
    the waits and boosts and the longest of the spans and latencies)."""
    def threads(run):
        return run["trace"]["threads"] if traced([{"runs": [run]}]) else None

    def value(t):
        v = t
        for k in _TRACE_KEYS[column]:
            v = v[k]
        return v

    return _per_run(docs, task, column, threads, value, "traced thread",
                    max if column in _TRACE_LONGEST else sum)


def parse_fail_if(spec):
    """A --fail-if condition COLUMN:ROW>PCT% or COLUMN:ROW<PCT% as
    (column, row, op, pct), or a ResultError saying what is accepted."""
    m = re.fullmatch(r"([a-z_0-9]+):([a-z0-9]+)([<>])(\d+(?:\.\d+)?)%", spec)
    if not m or m.group(1) not in COLUMNS + GROUP_COLUMNS + TRACE_COLUMNS:
        raise ResultError(f"--fail-if {spec!r}: expected COLUMN:ROW>PCT% or COLUMN:ROW<PCT%, "
                          f"e.g. migrated:highest>10% (COLUMN: "
                          f"{', '.join(COLUMNS + GROUP_COLUMNS + TRACE_COLUMNS)})")
    pct = float(m.group(4))
    if not math.isfinite(pct):
        raise ResultError(f"--fail-if {spec!r}: the percentage is past a double's range")
    return m.group(1), m.group(2), m.group(3), pct


def traced_limits(docs):
    """Whether every whole run of DOCS is traced and tells the kernel's RT
    bandwidth limits apart (results of rtsched before that have only a
    'throttled_ns' that counted an idle CPU alone)."""
    return traced(docs) and all(
        "fair_server_ns" in t["placement"]
        for doc in docs for r in whole_runs(doc) for t in r["trace"]["threads"])


def traced_boosts(docs):
    """Whether every whole run of DOCS is traced and has the threads' PI
    boost latencies (results of rtsched before that do not)."""
    return traced(docs) and all(
        isinstance(t.get("pi_boost_latency_ns"), dict)
        for doc in docs for r in whole_runs(doc) for t in r["trace"]["threads"])


def traced_distances(docs):
    """Whether every whole run of DOCS is traced with its machine's topology
    known: its threads' migrations by distance."""
    return traced(docs) and all(
        isinstance(t.get("migrations", {}).get("by_distance"), dict)
        for doc in docs for r in whole_runs(doc) for t in r["trace"]["threads"])


def traced_place_distances(docs):
    """Whether every whole run of DOCS is traced with its machine's topology
    known, since rtsched splits the placement wait by distance."""
    return traced(docs) and all(
        isinstance(t.get("placement", {}).get("by_distance_ns"), dict)
        for doc in docs for r in whole_runs(doc) for t in r["trace"]["threads"])


def trace_columns(*doc_sets):
    """The trace columns that every set of DOC_SETS has: none unless every
    run was traced; the limits' figures in results that tell them apart, the
    boost latencies in results that measured them, the migrations and the
    placement waits by distance where the topology was known."""
    if not doc_sets or not all(traced(d) for d in doc_sets):
        return ()
    return tuple(c for c in TRACE_COLUMNS
                 if (c not in LIMIT_COLUMNS or all(traced_limits(d) for d in doc_sets))
                 and (c not in BOOST_COLUMNS or all(traced_boosts(d) for d in doc_sets))
                 and (c not in DISTANCE_COLUMNS
                      or all(traced_distances(d) for d in doc_sets))
                 and (c not in PLACE_COLUMNS
                      or all(traced_place_distances(d) for d in doc_sets)))


def usable_columns(tool, trace_cols=()):
    """The columns a TOOL's results have: the table's, pi_stress's group
    figures, and TRACE_COLS (trace_columns()) when they were traced."""
    return COLUMNS + (GROUP_COLUMNS if tool == "pi_stress" else ()) + tuple(trace_cols)


# trace columns that older traced results lack: since when rtsched has them,
# and what those results have not
_NEWER_TRACE_COLUMNS = (
    (LIMIT_COLUMNS, "since rtsched tells the kernel's RT bandwidth limits apart: these results "
                    "are older (their placement has no fair_server_ns)"),
    (BOOST_COLUMNS, "since rtsched measures how long a PI boost left a thread waiting: these "
                    "results are older (their threads have no pi_boost_latency_ns)"),
    (DISTANCE_COLUMNS, "where rtsched knew the machine's topology: these results have threads "
                       "without migrations.by_distance"),
    (PLACE_COLUMNS, "where rtsched knew the machine's topology, since it splits the placement "
                    "wait by distance: these results have threads without "
                    "placement.by_distance_ns"),
)


def check_column(col, tool, trace_cols=()):
    """Raise unless a TOOL's results, whose trace columns are TRACE_COLS
    (trace_columns()), have the column COL."""
    if col in TRACE_COLUMNS and not trace_cols:
        raise ResultError(f"{col} is a figure of --trace: these results have runs without "
                          f"placement figures (run with --trace)")
    for newer, since in _NEWER_TRACE_COLUMNS:
        if col in newer and col not in trace_cols:
            raise ResultError(f"{col} is a figure of runs traced {since}")
    if col not in usable_columns(tool, trace_cols):
        raise ResultError(f"{col} is a pi_stress figure; {tool} results have "
                          f"{', '.join(usable_columns(tool))}")


def resolve_fail_if(spec, docs):
    """A --fail-if condition for the result set DOCS: (column, row index,
    row as given, op, pct), or a ResultError when DOCS have no such cell."""
    col, row, op, pct = parse_fail_if(spec)
    check_column(col, docs[0]["tool"], trace_columns(docs))
    return col, task_index(row, rows_of(docs, col)[0]), row, op, pct


def rows_of(docs, col):
    """How many rows the column has (tasks or groups), what a row is, and how
    to read one: (rows, 'Task' or 'Group', read(docs, row) -> samples)."""
    if col in GROUP_COLUMNS:
        return nr_groups(docs), "Group", lambda d, r: group_samples(d, r, col)
    if col in TRACE_COLUMNS:
        return nr_tasks(docs), "Task", lambda d, r: trace_samples(d, r, col)
    return nr_tasks(docs), "Task", lambda d, r: samples(d, r, col)
