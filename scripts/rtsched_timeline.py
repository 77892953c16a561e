# SPDX-License-Identifier: GPL-2.0-only
"""The timelines of one run of a trace, read as a stream into lanes of
bounded size: what plot --timeline draws.

A trace of seconds holds millions of events; a picture has a few thousand
pixels across. So nothing is kept per event: each lane (a CPU, a thread,
its waits, its placement spans) is a row of at most CAP buckets of one
width for all lanes; a bucket keeps how long each key (a thread, a CPU)
held it. When the run outgrows CAP buckets, every lane's buckets are
merged pairwise and the width doubles. The memory is lanes x CAP x keys,
whatever the trace's length; a --window fixes the width from the start
(its events only are kept).
"""

from rtsched_results import ResultError, open_regular

TRACE_DAT_MAGIC = b"\x17\x08\x44tracing"
# the finest bucket: 1 us (a window of a few ms is drawn to the event)
FINEST_NS = 1000


class Lanes:
    """Rows of buckets over [origin, origin + CAP x width), one width for all."""

    def __init__(self, cap, origin, span_ns=None):
        self.cap = cap
        self.origin = origin            # ns of the trace's clock
        self.fixed = span_ns is not None
        self.width = max(1, -(-span_ns // cap)) if self.fixed else FINEST_NS
        self.lanes = {}                 # name -> {bucket index: {key: ns}}

    def _coarsen(self):
        self.width *= 2
        for name, lane in self.lanes.items():
            merged = {}
            for i, keys in lane.items():
                into = merged.setdefault(i // 2, {})
                for k, ns in keys.items():
                    into[k] = into.get(k, 0) + ns
            self.lanes[name] = merged

    def add(self, name, start, end, key):
        """KEY held lane NAME from START to END (ns of the trace's clock)."""
        lane = self.lanes.setdefault(name, {})
        s, e = start - self.origin, end - self.origin
        if self.fixed:
            s, e = max(s, 0), min(e, self.cap * self.width)
        if e <= s:
            return
        while e > self.cap * self.width:
            self._coarsen()
            lane = self.lanes[name]
        i = s // self.width
        while i * self.width < e:
            lo, hi = max(s, i * self.width), min(e, (i + 1) * self.width)
            keys = lane.setdefault(i, {})
            keys[key] = keys.get(key, 0) + hi - lo
            i += 1

    def bars(self, name, whole=True):
        """Lane NAME as (start_ns, length_ns, key) from the origin: runs of
        buckets of one key. WHOLE: a bucket is its key's that held it most,
        drawn when held at least half of it (a CPU's task, a thread's CPU);
        else any time in it marks it (a wait, a placement span: rare, and
        never lost to the scale)."""
        out, w = [], self.width
        for i in sorted(self.lanes.get(name, {})):
            keys = self.lanes[name][i]
            if whole and sum(keys.values()) * 2 < w:
                continue
            key = max(keys, key=lambda k: (keys[k], str(k)))
            if out and out[-1][2] == key and out[-1][0] + out[-1][1] == i * w:
                out[-1] = (out[-1][0], out[-1][1] + w, key)
            else:
                out.append((i * w, w, key))
        return out

    def size(self):
        """How many buckets all lanes hold (bounded by lanes x CAP)."""
        return sum(len(lane) for lane in self.lanes.values())


def trace_lines(path, analyse):
    """The lines of an rtsched-trace/1 text: the file itself, or ANALYSE
    --events of a trace.dat, read as they come."""
    import io
    import subprocess
    with open_regular(path, "a trace") as f:
        magic = f.read(len(TRACE_DAT_MAGIC))
        if magic != TRACE_DAT_MAGIC:
            f.seek(0)
            yield from io.TextIOWrapper(f, encoding="utf-8")
            return
    try:
        p = subprocess.Popen([analyse, "--events", path], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    except OSError as e:
        raise ResultError(f"{path}: a trace.dat needs {analyse} to read it: {e.strerror}") from None
    done = False
    try:
        yield from p.stdout
        done = True
    finally:
        if not done:    # the reader stopped early (a bad line): analyse ends with it
            p.kill()
            p.wait()
            p.stdout.close()
            p.stderr.close()
    err = p.stderr.read().strip()
    if p.wait():
        raise ResultError(err.splitlines()[-1] if err else f"{analyse} --events {path} failed")


class Timeline:
    """Run WANT_RUN of a trace: its threads (tid -> task number), CPUs,
    first and last event times, and its lanes: ("cpu", c) keyed by the PID
    running (0 idle is not kept), ("thread", t) by the CPU, ("wait", t) and
    ("placement", t) by 1."""

    def __init__(self, path, want_run, analyse, cap, window_ms=None):
        self.tasks, self.cpus = {}, set()
        self.first = self.last = None
        self.cap, self.window = cap, window_ms
        self.lanes = None               # made at the run's first event
        self._on_cpu, self._since, self._waking = {}, {}, {}
        self._read(path, want_run, analyse)

    def _event(self, w):
        kind, ts, cpu = w[0], int(w[1]), int(w[2])
        fields = [int(x) for x in w[3:]]
        if self.first is None:
            self.first = ts
            if self.window:
                lo, hi = self.window
                self.lanes = Lanes(self.cap, ts + int(lo * 1e6), int((hi - lo) * 1e6))
            else:
                self.lanes = Lanes(self.cap, ts)
        self.last = ts
        self.cpus.add(cpu)
        if kind == "S":
            nxt = fields[3]
            if cpu in self._on_cpu:
                prev, since = self._on_cpu[cpu], self._since[cpu]
                if prev != 0:
                    self.lanes.add(("cpu", cpu), since, ts, prev)
                if prev in self.tasks:
                    self.lanes.add(("thread", prev), since, ts, cpu)
            self._on_cpu[cpu], self._since[cpu] = nxt, ts
            if nxt in self._waking:
                self.lanes.add(("wait", nxt), self._waking.pop(nxt), ts, 1)
        elif kind == "W" and fields[0] in self.tasks:
            self._waking[fields[0]] = ts

    def _read(self, path, want_run, analyse):
        run, runs = None, set()
        try:
            lines = trace_lines(path, analyse)
            first = next(lines, "")
            if not first.startswith("# rtsched-trace/1"):
                raise ResultError(f"{path}: not an rtsched trace (neither a trace.dat nor "
                                  f"'# rtsched-trace/1' text)")
            for no, line in enumerate(lines, 2):
                w = line.split()
                if not w or w[0] == "#":
                    continue
                try:
                    if w[0] == "R":
                        run = int(w[1])
                        runs.add(run)
                    elif w[0] == "L":
                        # a span as it ended (maybe after the run's lines): tid start end
                        if len(w) != 4:
                            raise ValueError
                        tid, a, b = (int(x) for x in w[1:])
                        if tid in self.tasks and self.lanes is not None:
                            self.lanes.add(("placement", tid), a, b, 1)
                    elif run != want_run:
                        continue
                    elif w[0] == "T":
                        self.tasks[int(w[1])] = int(w[2])
                    elif w[0] == "C":
                        pass
                    elif w[0] in "SWUMP" and len(w[0]) == 1:
                        if len(w) != {"S": 8, "M": 7}.get(w[0], 6):
                            raise ValueError
                        self._event(w)
                    else:
                        raise ValueError
                except (ValueError, IndexError):
                    raise ResultError(f"{path}: line {no} is not a trace event: "
                                      f"{line.strip()[:60]!r}") from None
        except FileNotFoundError:
            raise ResultError(f"{path}: no such file") from None
        except OSError as e:
            raise ResultError(f"{path}: {e.strerror}") from None
        except UnicodeDecodeError:
            raise ResultError(f"{path}: not an rtsched trace (not text)") from None
        if want_run not in runs:
            raise ResultError(f"{path}: no run {want_run} (runs: "
                              f"{', '.join(map(str, sorted(runs))) or 'none'})")
        if self.first is None:
            raise ResultError(f"{path}: run {want_run} has no events")
