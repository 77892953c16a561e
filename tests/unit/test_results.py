#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The results module: reading, checking and writing result files (TAP)."""

import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
from rtsched_columns import (NS_COLUMNS, check_column, parse_fail_if, samples,  # noqa: E402
                             task_index, trace_columns, trace_samples, traced, traced_boosts,
                             traced_distances, traced_limits, traced_place_distances)
from rtsched_files import PrivateDir, write_new, write_replacing  # noqa: E402
from rtsched_results import ResultError, bandwidth_of, load_file, scheduler_settings  # noqa: E402
from taplib import done, ok, raises as raises_any  # noqa: E402


def raises(fn, text, what):
    raises_any(fn, ResultError, text, what)



# the statistics and the verdicts: tests/unit/test_verdicts.py

ref = os.path.join(HERE, "..", "..", "results", "reference")
for name in sorted(os.listdir(ref)):
    if not name.endswith(".json"):
        continue
    doc = load_file(os.path.join(ref, name))
    rows = doc["runs"][0]["rows"]
    total = doc["runs"][0]["total"]
    ok(len(rows) == 8 and all(total[c] == sum(r[c] for r in rows)
                              for c in ("vol", "nonvol", "migrated", "iterations")),
       f"reference {name}: 8 rows whose sums are the total")
    ok(doc["source"]["transcribed_from"] != "", "  says where it was transcribed from")

doc = load_file(os.path.join(ref, "commit-43fa5460fe60-before-pi.json"))
ok(samples([doc], task_index("highest", 8), "migrated") == [346], "highest task's migrations")
ok(samples([doc], task_index("total", 8), "migrated") == [6341], "the total's migrations")
raises(lambda: task_index("9", 8), "expected 0 to 7", "task 9 of 8")
raises(lambda: task_index("top", 8), "expected a number", "task 'top'")

with tempfile.TemporaryDirectory() as d:
    def write(name, text):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(text)
        return path
    raises(lambda: load_file(write("cut.json", '{"schema": "rtsched-result/1", "ru')),
           "cut short", "a truncated file")
    raises(lambda: load_file(write("other.json", '{"inversion": 3}')),
           "not an rtsched result", "rt-tests' JSON")
    raises(lambda: load_file(write("list.json", '[1, 2]')), "not a JSON object", "a JSON list")
    raises(lambda: load_file(os.path.join(d, "none.json")), "no such file", "a missing file")
    bad = json.loads(open(os.path.join(ref, "lwn-2011-after-pi.json")).read())
    del bad["runs"][0]["rows"][3]["migrated"]
    raises(lambda: load_file(write("hole.json", json.dumps(bad))), "without the counts",
           "a row without migrated")
    raises(lambda: load_file(write("bin.json", "\udcff".encode("utf-8", "surrogateescape")
                                   .decode("latin-1"))), "not JSON", "binary garbage")

# placement, from the trace of each run: per thread, the total the sum, or the longest span
def placed(*waits):
    return {"trace": {"threads": [{"placement": {"wait_ns": w, "spans_ns": {"p99": w // 2,
                                                                              "max": w}}}
                                  for w in waits]}}


tdoc = {"_path": "t.json", "runs": [placed(10, 30), placed(20, 50)]}
ok(traced([tdoc]), "runs with placement figures are traced")
ok(trace_samples([tdoc], 1, "placement") == [30, 50], "thread 1's waits, one per run")
ok(trace_samples([tdoc], 2, "placement") == [40, 70], "the total: the sum of the waits")
ok(trace_samples([tdoc], 2, "placement_max") == [30, 50], "the total of max: the longest")
ok(trace_samples([tdoc], 0, "placement_p99") == [5, 10], "p99 of thread 0's spans")
untraced = {"_path": "u.json", "runs": [placed(1), {"rows": []}]}
ok(not traced([untraced]), "a run without a trace: not traced")
raises(lambda: trace_samples([untraced], 0, "placement"), "run 2 has no traced threads",
       "placement of an untraced run")
ok(parse_fail_if("wait_p99:total>10%") == ("wait_p99", "total", ">", 10.0),
   "a --fail-if column with digits (wait_p99) is read")
ok(parse_fail_if("placement_max:highest<5%")[0] == "placement_max",
   "placement_max as a --fail-if column")

# wake-up latency and PI boosts, of every traced thread: the total the longest, or the sum
def woken(*lat):
    return {"trace": {"threads": [{"placement": {"wait_ns": 1, "spans_ns": {"p99": 1, "max": 1}},
                                   "wakeup_latency_ns": {"p99": p99, "max": mx},
                                   "pi_boosts": boosts}
                                  for p99, mx, boosts in lat]}}


wdoc = {"_path": "w.json", "runs": [woken((5, 70, 3), (9, 40, 4)), woken((6, 20, 0), (2, 90, 7))]}
ok(trace_samples([wdoc], 0, "wakeup_max") == [70, 20], "thread 0's longest wake-up, per run")
ok(trace_samples([wdoc], 2, "wakeup_max") == [70, 90], "the total of wakeup_max: the longest")
ok(trace_samples([wdoc], 2, "wakeup_p99") == [9, 6], "the total of wakeup_p99: the longest")
ok(trace_samples([wdoc], 2, "pi_boosts") == [7, 7], "the total of pi_boosts: the sum")
ok(trace_samples([wdoc], 1, "pi_boosts") == [4, 7], "thread 1's boosts, per run")
ok("pi_boosts" not in NS_COLUMNS and "wakeup_max" in NS_COLUMNS,
   "boosts are counted, wake-ups timed (shown in us)")
ok(parse_fail_if("pi_boosts:total>10%")[0] == "pi_boosts", "pi_boosts as a --fail-if column")

# the kernel's RT bandwidth limits, apart from placement (results since they are told apart)
def limited(thr, fair, either):
    return {"trace": {"threads": [{"placement": {"wait_ns": 1, "spans_ns": {"p99": 1, "max": 1},
                                                 "throttled_ns": thr, "fair_server_ns": fair,
                                                 "throttled_or_fair_server_ns": either}}]}}


ldoc = {"_path": "l.json", "runs": [limited(5, 0, 1), limited(7, 0, 2)]}
ok(traced_limits([ldoc]) and not traced_limits([tdoc]),
   "limits told apart: a placement with fair_server_ns; older results lack it")
ok(trace_samples([ldoc], 0, "throttled") == [5, 7] and
   trace_samples([ldoc], 1, "throttled_or_fair_server") == [1, 2],
   "throttled and thr|fair per run; the total is their sum")
raises(lambda: check_column("fair_server", "migrate", trace_columns([tdoc])), "are older",
       "fair_server of results traced before the limits were told apart")
ok("fair_server" in trace_columns([ldoc]) and "fair_server" not in trace_columns([ldoc], [tdoc]),
   "the limits' columns: only where every set tells them apart")
ok(trace_columns([untraced]) == () and trace_columns() == (), "untraced: no trace column")

# how long a PI boost that found a thread waiting for a CPU left it waiting
bdoc = {"_path": "b.json", "runs": [woken((1, 2, 3), (1, 2, 3)) for _ in range(2)]}
for r, mx in zip(bdoc["runs"], (40, 90)):
    for i, t in enumerate(r["trace"]["threads"]):
        t["pi_boost_latency_ns"] = {"count": 2, "median": 5, "p99": mx // 2, "max": mx + i}
ok(traced_boosts([bdoc]) and not traced_boosts([wdoc]),
   "boost latencies: threads with pi_boost_latency_ns; older results lack it")
ok(trace_samples([bdoc], 1, "boost_max") == [41, 91] and
   trace_samples([bdoc], 2, "boost_max") == [41, 91], "boost_max per run; the total the longest")
ok("boost_max" in trace_columns([bdoc]) and "boost_max" not in trace_columns([bdoc], [wdoc]),
   "the boost columns only where every set has them")
raises(lambda: check_column("boost_p99", "pi_stress", trace_columns([wdoc])),
       "no pi_boost_latency_ns", "boost_p99 of results traced before it was measured")


# the traced migrations by the distance they crossed, where the topology was known
ddoc = {"_path": "d.json", "runs": [woken((1, 2, 3), (1, 2, 3)) for _ in range(2)]}
for r, far in zip(ddoc["runs"], (4, 6)):
    for i, t in enumerate(r["trace"]["threads"]):
        t["migrations"] = {"traced": 10, "by_distance": {"sibling": 0, "cache": 10 - far - i,
                                                         "node": 0, "remote": far + i}}
ok(traced_distances([ddoc]) and not traced_distances([bdoc]),
   "distances: threads with migrations.by_distance; results without a topology lack it")
ok(trace_samples([ddoc], 0, "mig_remote") == [4, 6] and
   trace_samples([ddoc], 2, "mig_remote") == [9, 13], "mig_remote per run; the total the sum")
ok("mig_remote" not in NS_COLUMNS, "migrations are counted, not timed")
ok("mig_cache" in trace_columns([ddoc]) and "mig_cache" not in trace_columns([ddoc], [bdoc]),
   "the distance columns only where every set has them")
raises(lambda: check_column("mig_remote", "migrate", trace_columns([bdoc])),
       "without migrations.by_distance", "mig_remote of results traced without a topology")
ok(parse_fail_if("mig_remote:highest>50%")[0] == "mig_remote", "mig_remote as a --fail-if column")

# the placement wait by where the lower CPU was, where the topology was known
pdoc = {"_path": "p.json", "runs": [woken((1, 2, 3), (1, 2, 3)) for _ in range(2)]}
for r, far in zip(pdoc["runs"], (400, 600)):
    for i, t in enumerate(r["trace"]["threads"]):
        t["placement"]["by_distance_ns"] = {"here": 100, "sibling": 0, "cache": 0, "node": 0,
                                            "remote": far + i}
ok(traced_place_distances([pdoc]) and not traced_place_distances([ddoc]),
   "placement by distance: threads with placement.by_distance_ns; older results lack it")
ok(trace_samples([pdoc], 0, "place_remote") == [400, 600] and
   trace_samples([pdoc], 2, "place_remote") == [801, 1201], "place_remote per run; the total the sum")
ok("place_remote" in NS_COLUMNS, "the placement waits are times")
ok("place_here" in trace_columns([pdoc]) and "place_here" not in trace_columns([pdoc], [ddoc]),
   "the placement distance columns only where every set has them")
raises(lambda: check_column("place_remote", "migrate", trace_columns([ddoc])),
       "without placement.by_distance_ns", "place_remote of results traced before the split")
ok(parse_fail_if("place_remote:7>50%")[0] == "place_remote", "place_remote as a --fail-if column")

# the regime a result ran under, and where two differ
def system(release, bw=None, **more):
    s = {"release": release, "rt_runtime_us": 950000, "rt_period_us": 1000000,
         "preempt_model": "PREEMPT_DYNAMIC (full)"}
    if bw:
        s["rt_bandwidth"] = bw
    s.update(more)
    return {"system": s}


fair4 = [{"cpu": c, "runtime_ns": 50000000, "period_ns": 1000000000} for c in range(4)]
ok(bandwidth_of(system("6.1.0-57-amd64")) == "RT throttling 950000/1000000 us",
   "a 6.1 result from before the regime was recorded: its sysctls are RT throttling")
ok(bandwidth_of(system("6.12.118+deb12-amd64")) == "not recorded",
   "a 6.12 one: the sysctls alone do not tell")
ok(bandwidth_of(system("6.12.118", {"regime": "fair_server", "fair_server_cpus": fair4}))
   == "the fair server 50/1000 ms", "the fair server with its values")
ok(bandwidth_of(system("6.18.44", {"regime": "both", "fair_server_cpus": None}))
   == "RT throttling 950000/1000000 us and the fair server", "both, the server's values unknown")
a = scheduler_settings(system("6.1.0", {"regime": "throttling"},
                              scheduler={"features": ["RT_PUSH_IPI"], "sched_ext": "not built"}))
b = scheduler_settings(system("6.12.1", {"regime": "fair_server", "fair_server_cpus": fair4},
                              scheduler={"features": ["NO_RT_PUSH_IPI"],
                                         "sched_ext": "not built"}))
ok([k for k in a if a[k] != b[k]] == ["RT bandwidth", "RT_PUSH_IPI"],
   f"two results differ in the regime and RT_PUSH_IPI: {a} / {b}")

# Files written through a private folder: a folder swapped for a link, a link at
# the name, neither is written through.
with tempfile.TemporaryDirectory() as tmp:
    victim = os.path.join(tmp, "victim")
    theirs = os.path.join(tmp, "theirs")
    os.mkdir(theirs)
    with open(victim, "w") as f:
        f.write("precious")
    out = os.path.join(tmp, "p.png")

    def swap_then_write(name):
        # the moment the writer would open by name: the folder swapped for a link
        os.rename(d_name[0], d_name[0] + ".moved")
        os.symlink(theirs, d_name[0])
        with open(name, "w") as f:
            f.write("picture")

    d_name = []
    real_init = PrivateDir.__init__

    def spy(self, beside):
        real_init(self, beside)
        d_name.append(self.name)
    PrivateDir.__init__ = spy
    write_new(out, swap_then_write)
    PrivateDir.__init__ = real_init
    ok(open(out).read() == "picture" and not os.listdir(theirs),
       "write_new: the private folder swapped for a link mid-write, the file still ours, "
       "nothing in the other folder")
    ok(open(victim).read() == "precious", "  the victim untouched")
    log = os.path.join(tmp, "run.log")
    os.symlink(victim, log)
    write_replacing(log, "diagnostics\n")
    ok(not os.path.islink(log) and open(log).read() == "diagnostics\n"
       and open(victim).read() == "precious",
       "write_replacing: a link at the name is replaced, its target untouched")
    raises_any(lambda: write_new(out, lambda n: None), FileExistsError, "",
               "write_new never replaces an existing file")
    # what is left is the hostile user's: their link and the folder they moved
    left = sorted(x for x in os.listdir(tmp) if ".tmp." in x and not x.endswith(".moved")
                  and not os.path.islink(os.path.join(tmp, x)))
    ok(not left, f"  no private folder of ours left ({left})")

done()
