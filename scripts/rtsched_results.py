# SPDX-License-Identifier: GPL-2.0-only
"""Reading rtsched result files (schema rtsched-result/1) for compare, plot and batch.

Every problem with an input is a ResultError whose message is one line that
names the file and what is wrong; the scripts print it and exit 2.
"""

import argparse
import errno
import fcntl
import json
import math
import os
import re
import signal
import stat
import subprocess
import sys
import tempfile

SCHEMA = "rtsched-result/1"
COLUMNS = ("vol", "nonvol", "migrated", "iterations")
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
# The configuration that must match for two result sets to be comparable,
# and what must match too where both results say (the published tables do
# not say how long their runs were).
SAME_CONFIG = {
    "migrate": ("mode", "threads", "locks"),
    "pi_stress": ("groups", "uniprocessor"),
    "spin": ("threads",),
}
SAME_WHEN_KNOWN = {
    "migrate": ("duration_ns", "loops", "unit_ns"),
    "pi_stress": ("duration_ns", "inversions", "hold_ns", "wait_bound_ns", "spread"),
    "spin": ("duration_ns", "unit_ns"),
}


# Every field the benchmarks write, by where it stands: what this module knows
# how to read. tests/integration/results.sh fails when a file has others.
KNOWN_FIELDS = {
    "": {"schema", "tool", "version", "command_line", "start_time", "end_time", "return_code",
         "system", "config", "migrations_source", "runs", "summary", "group_summary", "pass",
         "partial", "source", "sitting"},
    "sitting": {"boot_id", "process", "pid", "design"},
    "system": {"sysname", "nodename", "release", "version", "machine", "cpus", "nr_cpus",
               "numa_nodes", "rt_runtime_us", "rt_period_us", "preempt_model", "realtime",
               "environment", "vm", "thread_clock", "rt_bandwidth", "scheduler", "isolation",
               "topology"},
    "run": {"measured_s", "startup_ms", "rows", "total", "groups", "trace", "partial",
            "machine"},
    "row": {"task"} | set(COLUMNS),
    "group": {"group", "cpu", "inversions", "seconds", "per_second", "wait_ns", "stalled",
              "unresolved", "medium_ran", "uncontended"},
}


# Where the scripts run from: the source tree (scripts/ beside the Makefile),
# or an installed rtsched, whose libexec folder keeps the tree's layout
# without the Makefile (make install).
TOP = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
IN_TREE = os.path.exists(os.path.join(TOP, "Makefile"))


def results_dir(*parts):
    """The default folder for results: results/ of the source tree, or of the
    current folder when rtsched is installed."""
    return os.path.join(TOP if IN_TREE else os.getcwd(), "results", *parts)


def unknown_fields(doc):
    """The fields of DOC this module does not know, as 'where.name' strings."""
    out = [k for k in doc if k not in KNOWN_FIELDS[""] and not k.startswith("_")]
    out += [f"system.{k}" for k in doc.get("system", {}) if k not in KNOWN_FIELDS["system"]]
    out += [f"sitting.{k}" for k in doc.get("sitting") or {} if k not in KNOWN_FIELDS["sitting"]]
    for run in doc["runs"]:
        out += [f"runs[].{k}" for k in run if k not in KNOWN_FIELDS["run"]]
        for row in run["rows"]:
            out += [f"rows[].{k}" for k in row if k not in KNOWN_FIELDS["row"]]
        for g in run.get("groups", []):
            out += [f"groups[].{k}" for k in g if k not in KNOWN_FIELDS["group"]]
    return sorted(set(out))


class ResultError(Exception):
    """One line saying which input is wrong and how."""


def _need(cond, path, what):
    if not cond:
        raise ResultError(f"{path}: {what}")


# The largest result read: 98 threads x 100 runs with their traces is well under it.
MAX_RESULT_BYTES = 64 << 20
# The largest count a result holds: the programs write 64-bit integers.
MAX_COUNT = 1 << 64


def _no_constant(name):
    raise ValueError(f"{name} is not a number a result holds")


def _finite(text):
    x = float(text)
    if not math.isfinite(x):
        raise ValueError(f"the number {text[:20]}{'...' if len(text) > 20 else ''} is "
                         "beyond a double's range")
    return x


def _bounded(text):
    x = int(text) if len(text) <= 40 else MAX_COUNT
    if abs(x) >= MAX_COUNT:
        raise ValueError(f"a {len(text.lstrip('-'))}-digit integer, past 64 bits")
    return x


def open_regular(path, what="a result"):
    """PATH opened for reading (binary), if it is a regular file: a FIFO, a
    device or a folder is refused with a ResultError (never waited on, never
    read forever)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise ResultError(f"{path}: no such file") from None
    except PermissionError:
        raise ResultError(f"{path}: not readable (permission denied)") from None
    except OSError as e:
        raise ResultError(f"{path}: cannot read: {e.strerror}") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        if stat.S_ISDIR(st.st_mode):
            raise ResultError(f"{path}: is a directory")
        raise ResultError(f"{path}: not a regular file (a FIFO, a device, a socket): "
                          f"{what} is a file")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def read_bounded(path):
    """The bytes of the regular file PATH (open_regular()), at most MAX_RESULT_BYTES."""
    with open_regular(path) as f:
        try:
            data = f.read(MAX_RESULT_BYTES + 1)
        except OSError as e:
            raise ResultError(f"{path}: cannot read: {e.strerror}") from None
    if len(data) > MAX_RESULT_BYTES:
        raise ResultError(f"{path}: larger than {MAX_RESULT_BYTES >> 20} MiB: not an rtsched "
                          "result")
    return data


def load_file(path):
    """The document in PATH, checked to be a whole rtsched result."""
    data = read_bounded(path)
    try:
        doc = json.loads(data.decode("utf-8"), parse_constant=_no_constant,
                         parse_float=_finite, parse_int=_bounded)
    except UnicodeDecodeError:
        raise ResultError(f"{path}: not JSON (not UTF-8 text)") from None
    except json.JSONDecodeError as e:
        raise ResultError(f"{path}: not JSON, or cut short (line {e.lineno}: {e.msg})") from None
    except RecursionError:
        raise ResultError(f"{path}: not an rtsched result (JSON nested too deep)") from None
    except ValueError as e:
        raise ResultError(f"{path}: not an rtsched result ({e})") from None
    _need(isinstance(doc, dict), path, "not an rtsched result (not a JSON object)")
    _need(doc.get("schema") == SCHEMA, path,
          f"not an rtsched result (schema {doc.get('schema')!r}, want {SCHEMA!r})")
    _need(doc.get("tool") in SAME_CONFIG, path, f"unknown tool {doc.get('tool')!r}")
    _need(isinstance(doc.get("config"), dict), path, "no config object")
    # what the scripts read of the machine: objects, or absent
    system = doc.setdefault("system", {})
    _need(isinstance(system, dict), path, "its system is not a JSON object")
    for key in ("vm", "environment", "rt_bandwidth", "scheduler", "isolation"):
        _need(system.get(key) is None or isinstance(system[key], dict), path,
              f"its system.{key} is not a JSON object")
    sitting = doc.get("sitting")
    _need(sitting is None or (isinstance(sitting, dict) and all(
        sitting.get(k) is None or isinstance(sitting[k], str) for k in ("boot_id", "process"))
        and (sitting.get("design") is None or isinstance(sitting["design"], dict))),
        path, "its sitting is not an object of a boot_id and a process (strings)")
    host = (system.get("vm") or {}).get("host")
    _need(host is None or isinstance(host, dict), path, "its system.vm.host is not a JSON object")
    runs = doc.get("runs")
    _need(isinstance(runs, list) and runs, path, "no runs")
    threads = doc["config"].get("threads")
    width = threads if isinstance(threads, int) and threads > 0 else None
    for i, run in enumerate(runs):
        rows = run.get("rows") if isinstance(run, dict) else None
        _need(isinstance(rows, list) and rows, path, f"run {i + 1} has no rows")
        if width is None:
            width = len(rows)
        _need(len(rows) == width, path,
              f"run {i + 1} has {len(rows)} rows for "
              + (f"{threads} threads" if width == threads else f"run 1's {width}")
              + ": not a whole result")
        for row in rows:
            _need(isinstance(row, dict)
                  and all(isinstance(row.get(c), int) and row.get(c) >= 0 for c in COLUMNS),
                  path, f"run {i + 1} has a row without the counts {', '.join(COLUMNS)}")
    doc["_path"] = path
    return doc


def load_set(arg):
    """A result set: one file, every *.json below a folder, or (@LIST) the
    files a list names, one path a line (relative to the list's folder).
    Returns (name, [docs])."""
    if arg.startswith("@"):
        lst = arg[1:]
        try:
            text = read_bounded(lst).decode("utf-8")
        except UnicodeDecodeError:
            raise ResultError(f"{lst}: not a list of result files (not UTF-8 text)") from None
        base = os.path.dirname(lst)
        paths = [os.path.join(base, x.strip()) for x in text.splitlines() if x.strip()]
        if not paths:
            raise ResultError(f"{lst}: names no result file")
    elif os.path.isdir(arg):
        paths = sorted(os.path.join(d, f) for d, _, files in os.walk(arg)
                       for f in files if f.endswith(".json"))
        if not paths:
            raise ResultError(f"{arg}: no result files (*.json) in this folder")
    elif os.path.exists(arg):
        paths = [arg]
    else:
        raise ResultError(f"{arg}: no such file or folder")
    docs = [load_file(p) for p in paths]
    check_comparable([(p, d) for p, d in zip(paths, docs)], one_place=True)
    return arg, docs


def describe(doc):
    """What a result measured, in a few words: 'migrate contention, 8 threads, PI'."""
    c = doc["config"]
    if doc["tool"] == "migrate":
        return (f"migrate {c.get('mode')}, {c.get('threads')} threads, {c.get('locks')} locks, "
                f"{'PI' if c.get('pi') else 'no PI'}")
    if doc["tool"] == "spin":
        return f"spin, {c.get('threads')} threads"
    g = c.get("groups")
    return (f"pi_stress, {g} group{'' if g == 1 else 's'}{' spread' if c.get('spread') else ''}, "
            f"{'PI' if c.get('pi') else 'no PI'}")


def where_ran(doc):
    """Where a result was measured: 'the machine itself', or 'a VM (tcg, 4 vCPUs)'."""
    v = doc.get("system", {}).get("vm")
    if not v:
        return "the machine itself"
    return f"a VM ({v.get('accel')}, {v.get('vcpus')} vCPUs on {v.get('host', {}).get('nodename')})"


def _release(doc):
    m = re.match(r"(\d+)\.(\d+)", doc.get("system", {}).get("release", ""))
    return (int(m.group(1)), int(m.group(2))) if m else None


def bandwidth_of(doc):
    """The RT bandwidth regime a result ran under, in words: 'RT throttling
    950000/1000000 us', 'the fair server 50/1000 ms', 'unknown'. Results
    written before rtsched recorded the regime say only the sysctls, which
    mean RT throttling before Linux 6.12 and are not enough from 6.12."""
    s = doc.get("system", {})
    bw = s.get("rt_bandwidth")
    rt, per = s.get("rt_runtime_us"), s.get("rt_period_us")
    thr = f"RT throttling {rt}/{per} us"
    if bw is None:
        rel = _release(doc)
        if rel is None or rel >= (6, 12) or rt is None:
            return "not recorded"
        return thr if 0 <= rt < per else "neither (no RT throttling)"
    fair = "the fair server"
    cpus = bw.get("fair_server_cpus")
    if cpus:
        vals = {(c.get("runtime_ns"), c.get("period_ns")) for c in cpus}
        if len(vals) == 1:
            r, p = vals.pop()
            fair += f" {r / 1e6:g}/{p / 1e6:g} ms" if r else " off"
        else:
            fair += " (per CPU)"
    return {"throttling": thr, "fair_server": fair, "both": f"{thr} and {fair}",
            "neither": "neither"}.get(bw.get("regime"), "unknown")


def scheduler_settings(doc):
    """What decides a result's figures besides the kernel's code, as NAME ->
    words: the RT bandwidth regime, preemption, RT_PUSH_IPI, sched_ext."""
    s = doc.get("system", {})
    sch = s.get("scheduler") or {}
    feats = sch.get("features")
    push = "not recorded" if "scheduler" not in s else "unknown" if feats is None else \
        "on" if "RT_PUSH_IPI" in feats else "off" if "NO_RT_PUSH_IPI" in feats else "absent"
    mode = sch.get("preempt_mode")
    return {"RT bandwidth": bandwidth_of(doc),
            "preemption": f"{s.get('preempt_model')}" if mode is None or mode in str(
                s.get("preempt_model")) else f"{s.get('preempt_model')} mode {mode}",
            "RT_PUSH_IPI": push,
            "sched_ext": sch.get("sched_ext") or ("not recorded" if "scheduler" not in s
                                                   else "unknown")}


def check_comparable(named_docs, one_place=False):
    """Raise unless every document has the same tool and configuration that matters.

    ONE_PLACE: also the same place (one machine, or one kind of virtual
    machine), as the runs of one result set must be.
    """
    first_name, first = named_docs[0]
    for name, doc in named_docs[1:]:
        if one_place and where_ran(doc) != where_ran(first):
            raise ResultError(f"cannot pool {first_name} (ran on {where_ran(first)}) with "
                              f"{name} (ran on {where_ran(doc)}) in one set")
        if one_place and bool(doc["config"].get("pi")) != bool(first["config"].get("pi")):
            pi = ("no PI", "PI")
            raise ResultError(f"cannot pool {first_name} ({pi[bool(first['config'].get('pi'))]}) "
                              f"with {name} ({pi[bool(doc['config'].get('pi'))]}) in one set: "
                              "give each its own (a folder, a file, or @LIST)")
        if doc["tool"] != first["tool"]:
            raise ResultError(f"cannot compare {first_name} ({first['tool']}) with "
                              f"{name} ({doc['tool']})")
        for key in SAME_CONFIG[doc["tool"]] + SAME_WHEN_KNOWN[doc["tool"]]:
            a, b = first["config"].get(key), doc["config"].get(key)
            if key in SAME_WHEN_KNOWN[doc["tool"]] and (a is None or b is None):
                continue
            if a != b:
                raise ResultError(f"cannot compare {first_name} ({setting(key, a)}) with {name} "
                                  f"({setting(key, b)}): the configurations differ")


def setting(key, value):
    """A configuration value as the options say it: 'duration 1s', 'threads 4'."""
    if key.endswith("_ns") and isinstance(value, int):
        for unit, ns in (("s", 10**9), ("ms", 10**6), ("us", 10**3)):
            if value % ns == 0:
                return f"{key[:-3]} {value // ns}{unit}"
        return f"{key[:-3]} {value}ns"
    return f"{key} {value}"


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


def whole_runs(doc):
    """The runs the statistics rest on: a run a signal cut short (marked
    partial) is left out when the document has whole ones."""
    whole = [r for r in doc["runs"] if not r.get("partial")]
    return whole or doc["runs"]


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


def _per_run(docs, row, column, rows_of_run, value, what, total):
    """One value per whole run of DOCS: VALUE of row ROW among ROWS_OF_RUN(run)
    (None: the run has none, say so), or TOTAL of them all for row == their
    number. WHAT names a row in messages."""
    out = []
    for doc in docs:
        for i, run in enumerate(whole_runs(doc)):
            rows = rows_of_run(run)
            if rows is None:
                raise ResultError(f"{doc['_path']}: run {i + 1} has no {what}s"
                                  f"{' (run with --trace)' if what == 'traced thread' else ''}")
            try:
                vals = [float(value(r)) for r in rows]
            except (KeyError, TypeError, ValueError):
                raise ResultError(f"{doc['_path']}: run {i + 1} has a {what} without "
                                  f"{column}") from None
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
    return m.group(1), m.group(2), m.group(3), float(m.group(4))


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


def check_column(col, tool, trace_cols=()):
    """Raise unless a TOOL's results, whose trace columns are TRACE_COLS
    (trace_columns()), have the column COL."""
    if col in TRACE_COLUMNS and not trace_cols:
        raise ResultError(f"{col} is a figure of --trace: these results have runs without "
                          f"placement figures (run with --trace)")
    if col in LIMIT_COLUMNS and col not in trace_cols:
        raise ResultError(f"{col} is a figure of runs traced since rtsched tells the kernel's "
                          f"RT bandwidth limits apart: these results are older (their placement "
                          f"has no fair_server_ns)")
    if col in BOOST_COLUMNS and col not in trace_cols:
        raise ResultError(f"{col} is a figure of runs traced since rtsched measures how long a "
                          f"PI boost left a thread waiting: these results are older (their "
                          f"threads have no pi_boost_latency_ns)")
    if col in DISTANCE_COLUMNS and col not in trace_cols:
        raise ResultError(f"{col} is a figure of runs traced where rtsched knew the machine's "
                          f"topology: these results have threads without migrations.by_distance")
    if col in PLACE_COLUMNS and col not in trace_cols:
        raise ResultError(f"{col} is a figure of runs traced where rtsched knew the machine's "
                          f"topology, since it splits the placement wait by distance: these "
                          f"results have threads without placement.by_distance_ns")
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


def boot_of(doc):
    """The boot a result ran in: its kernel's boot id, or (results written
    before rtsched recorded it, and the published tables) the file itself,
    so that such a file is a sitting of its own."""
    b = (doc.get("sitting") or {}).get("boot_id")
    return f"boot {b}" if b else f"file {doc['_path']}"


def process_of(doc):
    """The process that wrote a result: the id it drew, else the file."""
    p = (doc.get("sitting") or {}).get("process")
    return f"{boot_of(doc)} process {p}" if p else f"file {doc['_path']}"


def sitting_unit(*doc_sets):
    """What a sitting is when DOC_SETS are compared: the boot, unless two of
    the sets share one (runs of one kernel in one boot, a setting changed
    between processes), where the process is all that separates them."""
    seen = set()
    for docs in doc_sets:
        boots = {boot_of(d) for d in docs}
        if boots & seen:
            return "process"
        seen |= boots
    return "boot"


def own_unit(docs):
    """What a sitting is in one set described alone (a plot's bar): its
    boots, or, when it ran in one boot, its processes."""
    return "boot" if len({boot_of(d) for d in docs}) > 1 else "process"


def sittings(docs, read, row, unit):
    """The values of ROW that READ(docs, row) gives, one list per sitting
    of DOCS (UNIT: 'boot' or 'process'), sittings in the order they come."""
    key = boot_of if unit == "boot" else process_of
    out = {}
    for d in docs:
        out.setdefault(key(d), []).extend(read([d], row))
    return [v for v in out.values() if v]


def plural(n, word):
    """N WORD in words: '1 boot', '6 boots', '2 processes'."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word}{'es' if word.endswith(('s', 'x')) else 's'}"


def count_sittings(docs, unit):
    """How many sittings (UNIT) DOCS hold."""
    key = boot_of if unit == "boot" else process_of
    return len({key(d) for d in docs})


class Parser(argparse.ArgumentParser):
    """argparse that reports bad usage in one line, exit 2, without the usage dump."""

    def error(self, message):
        print(f"{self.prog}: {message}", file=sys.stderr)
        sys.exit(2)


def check_output(path, opt):
    """Refuse, before any work, an output file that exists (a link even if
    dangling) or whose folder cannot take it: a ResultError (exit 2)."""
    if os.path.lexists(path):
        raise ResultError(f"{opt} {path!r}: the file exists; choose another name")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ResultError(f"{opt} {path!r}: no folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ResultError(f"{opt} {path!r}: cannot write in {folder}")


def check_output_dir(path, opt):
    """Create the folder PATH for outputs now, before any work, or raise a
    ResultError (exit 2) saying why it cannot be."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise ResultError(f"invalid {opt} {path!r}: {e.strerror}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise ResultError(f"invalid {opt} {path!r}: cannot write in it")


class PrivateDir:
    """A folder of this process's own (mode 0700) beside a file to write,
    held by its descriptor: a name in it (path()) is reached through the
    descriptor, so that another user who may write the folder around it can
    neither plant a link there nor swap the folder for one of theirs."""

    def __init__(self, beside):
        parent = os.path.dirname(beside) or "."
        self.name = tempfile.mkdtemp(prefix=f"{os.path.basename(beside)}.tmp.", dir=parent)
        try:
            self.fd = os.open(self.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError:
            self.fd = -1
        st = os.fstat(self.fd) if self.fd >= 0 else None
        if not st or st.st_uid != os.geteuid() or st.st_mode & 0o7777 != 0o700:
            self.close()
            raise OSError(errno.EPERM, "another folder was put in place of this one", self.name)

    def path(self, name):
        return f"/proc/self/fd/{self.fd}/{name}"

    def link(self, name, dest):
        """Give DEST the file NAME (FileExistsError if DEST exists, a link even)."""
        os.link(name, dest, src_dir_fd=self.fd, follow_symlinks=False)

    def replace(self, name, dest):
        """DEST becomes the file NAME, replacing what is there (a link itself, not its target)."""
        os.replace(name, dest, src_dir_fd=self.fd)

    def close(self):
        if self.fd >= 0:
            for n in os.listdir(self.fd):
                try:
                    os.unlink(n, dir_fd=self.fd)
                except OSError:
                    pass
            os.close(self.fd)
            self.fd = -1
        try:
            os.rmdir(self.name)
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def sweep_temporaries(path):
    """Remove what a killed run left beside PATH: PATH.tmp.XXXXXX files and
    private folders of this user that no live process locks (the programs
    lock theirs while they run). Returns how many went."""
    folder, base = os.path.split(path)
    folder = folder or "."
    gone = 0
    for name in os.listdir(folder):
        if not (name.startswith(f"{base}.tmp.") and len(name) == len(base) + 11):
            continue
        full = os.path.join(folder, name)
        try:
            st = os.lstat(full)
            if st.st_uid != os.geteuid() or not (stat.S_ISREG(st.st_mode)
                                                  or stat.S_ISDIR(st.st_mode)):
                continue
            is_dir = stat.S_ISDIR(st.st_mode)
            fd = os.open(full, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK
                         | (os.O_DIRECTORY if is_dir else 0))
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if is_dir:
                for n in os.listdir(fd):
                    os.unlink(n, dir_fd=fd)
                os.rmdir(full)
            else:
                os.unlink(full)
            gone += 1
        except OSError:
            pass
        finally:
            os.close(fd)
    return gone


def write_new(path, write):
    """Write PATH whole or not at all and never over an existing file: WRITE
    fills a file (mode 0666 less the umask) in a private folder beside it,
    which is then linked to PATH (FileExistsError if PATH appeared meanwhile)."""
    with PrivateDir(path) as d:
        name = os.path.basename(path)
        os.close(os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666, dir_fd=d.fd))
        write(d.path(name))
        d.link(name, path)


def write_replacing(path, text):
    """PATH gets TEXT whole, replacing what was there; a link planted at PATH
    is replaced, never written through."""
    with PrivateDir(path) as d:
        name = os.path.basename(path)
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666, dir_fd=d.fd)
        with open(fd, "w", encoding="utf-8") as f:
            f.write(text)
        d.replace(name, path)


class Stopped(Exception):
    """SIGTERM or SIGHUP, raised where the script is, so that its cleanups run."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def _stop(signum, frame):
    raise Stopped(signum)


def _signal_group(pgid, sig):
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        pass


def run_child(cmd, timeout=None, grace=60, **kw):
    """Run CMD (Popen's KW: stdout, stderr, env, cwd, text) to its end, or
    for TIMEOUT seconds; a CompletedProcess, whose `ended` is None, or how
    it was ended past its time: "SIGTERM", or "SIGKILL" when it was still
    there GRACE seconds after. CMD runs in a session of its own, so that
    nothing it starts outlives it: past its time, or when a signal or an
    error stops this script, the whole session is told to stop (SIGTERM:
    make deletes what it had begun and its sub-makes stop, kernel-matrix
    takes its guest down, a benchmark writes its partial result), given
    GRACE seconds, then killed; the stop goes on only after that.
    (subprocess.run kills only its child, with SIGKILL: a kernel build's
    sub-makes went on building after the script had exited.)"""
    p = subprocess.Popen(cmd, start_new_session=True, **kw)
    out = err = ended = None
    try:
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            ended = "SIGTERM"
            _signal_group(p.pid, signal.SIGTERM)
            try:
                out, err = p.communicate(timeout=grace)
            except subprocess.TimeoutExpired:
                ended = "SIGKILL"
                _signal_group(p.pid, signal.SIGKILL)
                out, err = p.communicate()
            _signal_group(p.pid, signal.SIGKILL)  # what it left behind
    except BaseException:
        try:
            _signal_group(p.pid, signal.SIGTERM)
            p.wait(grace)
        except BaseException:
            pass  # a second signal, or the grace over: killed below
        _signal_group(p.pid, signal.SIGKILL)
        p.wait()
        raise
    r = subprocess.CompletedProcess(cmd, p.returncode, out, err)
    r.ended = ended
    return r


def run_main(main, prog):
    """Run a script's MAIN and exit with its status. Closed standard
    descriptors get /dev/null first (else the first file opened would take
    their place); a closed pipe on stdout, or any other failing file
    operation, ends in one line on stderr and exit 3, never a traceback; an
    input no check foresaw ends in one line and exit 2, never in exit 1 (a
    verdict) by a traceback; SIGINT, SIGTERM and SIGHUP end it through its
    cleanups, exit 128 + N."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            os.open(os.devnull, os.O_RDWR)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _stop)
    try:
        try:
            code = main()
        except SystemExit as e:  # argparse's --help and usage errors: flushed here too
            code = e.code if isinstance(e.code, int) else 0 if e.code is None else 1
            if isinstance(e.code, str):
                print(e.code, file=sys.stderr)
        sys.stdout.flush()
    except (KeyboardInterrupt, Stopped) as e:
        # the cleanups (finally) have run: temporary files, guests
        sig = e.signum if isinstance(e, Stopped) else signal.SIGINT
        print(f"{prog}: stopped by {signal.Signals(sig).name}", file=sys.stderr)
        code = 128 + sig
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print(f"{prog}: writing to standard output: Broken pipe; what it did not print is lost",
              file=sys.stderr)
        code = 3
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        print(f"{prog}: {where}{e.strerror or e}", file=sys.stderr)
        code = 3
    except (MemoryError, RecursionError, ValueError, TypeError, AttributeError, KeyError,
            IndexError, ZeroDivisionError, OverflowError) as e:
        # an input the checks did not foresee: still one line and exit 2, never
        # exit 1 (a verdict) by a traceback; RTSCHED_DEBUG=1 shows where
        if os.environ.get("RTSCHED_DEBUG"):
            import traceback
            traceback.print_exc()
        print(f"{prog}: cannot read its input ({type(e).__name__}: {str(e)[:200]}); this is "
              "a defect of rtsched: please report it with the input", file=sys.stderr)
        code = 2
    sys.exit(code)
