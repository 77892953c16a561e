# SPDX-License-Identifier: GPL-2.0-only
"""Reading rtsched result files (schema rtsched-result/1): whole or refused,
what they measured and where, whether they may be compared or pooled, and
their sittings (the boot and the process their runs shared).

Every problem with an input is a ResultError whose message is one line that
names the file and what is wrong; the scripts print it and exit 2. The
cells a result has (its columns and rows, and how to read them) are
rtsched_columns'.
"""

import errno
import json
import math
import os
import re
import stat


SCHEMA = "rtsched-result/1"
COLUMNS = ("vol", "nonvol", "migrated", "iterations")
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
              "withheld", "unresolved", "medium_ran", "uncontended"},
}


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


def _walk_error(e):
    """A folder below a set that cannot be read is said, not skipped."""
    raise ResultError(f"{e.filename}: {e.strerror}")


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
    else:
        try:
            is_dir = stat.S_ISDIR(os.stat(arg).st_mode)
        except OSError as e:
            # a name too long (past the system's 4096 bytes) is not a missing one
            raise ResultError(f"{arg}: " + ("no such file or folder" if e.errno == errno.ENOENT
                                            else e.strerror)) from None
        paths = [arg]
        if is_dir:
            paths = sorted(os.path.join(d, f) for d, _, files in os.walk(arg, onerror=_walk_error)
                           for f in files if f.endswith(".json"))
            if not paths:
                raise ResultError(f"{arg}: no result files (*.json) in this folder")
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
    layout = f", {v['topology']}" if v.get("topology") else ""
    return (f"a VM ({v.get('accel')}, {v.get('vcpus')} vCPUs{layout} on "
            f"{v.get('host', {}).get('nodename')})")


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


def differences(a, b, name_a, name_b):
    """What differs between results A and B besides the kernel, in
    sentences naming them NAME_A and NAME_B: PI, the CPUs, the scheduler's
    settings (where both say), and where they ran. compare says them under
    its tables, result-lines beside its conditions."""
    out = []
    if b["config"].get("pi") != a["config"].get("pi"):
        out.append(f"{name_b} and {name_a} differ in PI mutexes")
    ca, cb = a.get("system", {}).get("nr_cpus"), b.get("system", {}).get("nr_cpus")
    if ca != cb:
        out.append(f"{name_a} ran on {ca} CPUs, {name_b} on {cb}")
    sa, sb = scheduler_settings(a), scheduler_settings(b)
    for what in sa:  # a known difference: where a side does not know, nothing is said
        vague = ("unknown", "not recorded")
        if sa[what] != sb[what] and not any(v in x for v in vague for x in (sa[what], sb[what])):
            out.append(f"{name_a} and {name_b} differ in {what}: {name_a} {sa[what]}, "
                       f"{name_b} {sb[what]}")
    wa, wb = where_ran(a), where_ran(b)
    if wa != wb:
        out.append(f"{name_a} ran on {wa}, {name_b} on {wb}: a difference may come from the "
                   "platform, not the kernel")
    return out


def set_identity(doc):
    """What the results of one set must share beyond the configuration, as
    (name, words) pairs: the kernel, and the settings that decide its
    figures (scheduler_settings); words None where the result does not say."""
    unknown = ("not recorded", "unknown")
    return [("kernel", (doc.get("system") or {}).get("release"))] + [
        (k, None if v in unknown else v) for k, v in scheduler_settings(doc).items()]


def check_comparable(named_docs, one_place=False):
    """Raise unless every document has the same tool and configuration that matters.

    ONE_PLACE: also the same place (one machine, or one kind of virtual
    machine, its layout too), the same kernel and the same settings of its
    scheduler, as the runs of one result set must be: pooled, two kernels
    or two regimes would be one wide spread that hides both.
    """
    first_name, first = named_docs[0]
    for name, doc in named_docs[1:]:
        if one_place and where_ran(doc) != where_ran(first):
            raise ResultError(f"cannot pool {first_name} (ran on {where_ran(first)}) with "
                              f"{name} (ran on {where_ran(doc)}) in one set")
        for (what, a), (_, b) in zip(set_identity(first), set_identity(doc)) if one_place else ():
            if a is not None and b is not None and a != b:
                raise ResultError(f"cannot pool {first_name} ({what} {a}) with {name} "
                                  f"({what} {b}) in one set: give each its own (a folder, "
                                  "a file, or @LIST)")
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


def whole_runs(doc):
    """The runs the statistics rest on: a run a signal cut short (marked
    partial) is left out when the document has whole ones."""
    whole = [r for r in doc["runs"] if not r.get("partial")]
    return whole or doc["runs"]


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


def count_sittings(docs, unit):
    """How many sittings (UNIT) DOCS hold."""
    key = boot_of if unit == "boot" else process_of
    return len({key(d) for d in docs})
