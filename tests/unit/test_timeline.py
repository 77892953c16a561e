#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""plot --timeline's lanes (rtsched_timeline) on traces whose pictures are
known: exact to the event at a fine scale, what held each bucket most at a
coarse one, waits and placement spans never lost to the scale, and a
memory of lanes x buckets whatever the trace's length (TAP)."""

import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
from rtsched_results import ResultError  # noqa: E402
from rtsched_timeline import FINEST_NS, Lanes, Timeline  # noqa: E402
from taplib import done, ok, raises  # noqa: E402

US = 1000
MS = 1000 * US

# --- a fine scale: the bars are the intervals, merged where one key runs on
lanes = Lanes(1000, 5 * MS)
lanes.add("cpu0", 5 * MS, 5 * MS + 10 * US, 7)
lanes.add("cpu0", 5 * MS + 10 * US, 5 * MS + 30 * US, 7)
lanes.add("cpu0", 5 * MS + 30 * US, 5 * MS + 33 * US, 8)
ok(lanes.width == FINEST_NS and lanes.bars("cpu0") == [(0, 30 * US, 7), (30 * US, 3 * US, 8)],
   f"1 us buckets: two intervals of one task are one bar, the next task its own "
   f"({lanes.bars('cpu0')})")

# --- a long run: the buckets coarsen, never more than the cap
lanes = Lanes(1000, 0)
# 10 s of a CPU alternating task 1 (900 us) and task 2 (100 us): 20000 intervals
for k in range(10000):
    lanes.add("cpu0", k * MS, k * MS + 900 * US, 1)
    lanes.add("cpu0", k * MS + 900 * US, (k + 1) * MS, 2)
# one placement span of 2 us at 7 s
lanes.add("placement", 7000 * MS, 7000 * MS + 2 * US, 1)
ok(lanes.size() <= 2 * 1000, f"10 s, 20001 intervals: {lanes.size()} buckets, "
                             f"at most 1000 a lane")
ok(lanes.width * 1000 >= 10000 * MS and lanes.width <= 2 * 10000 * MS // 1000,
   f"  of one width for all lanes, the least that holds the run ({lanes.width} ns)")
whole = lanes.bars("cpu0")
ok(len(whole) == 1 and whole[0][2] == 1 and whole[0][0] == 0 and
   whole[0][1] >= 10000 * MS - lanes.width,
   f"  the CPU: task 1, which held 90% of each bucket ({whole[:3]})")
marks = lanes.bars("placement", whole=False)
ok(len(marks) == 1 and marks[0][0] <= 7000 * MS < marks[0][0] + marks[0][1],
   f"  the 2 us placement span is still drawn, at 7 s ({marks})")
ok(lanes.bars("placement") == [], "  (as a whole-bucket lane it would be lost: that is why "
                                  "marks are not)")

# --- a window: the width fixed from the start, only its time kept
lanes = Lanes(100, 2 * MS, 1 * MS)
lanes.add("t", 0, 10 * MS, 3)
ok(lanes.width == 10 * US and lanes.bars("t") == [(0, 1 * MS, 3)],
   f"a window of 1 ms in 100 buckets: 10 us each, the interval clipped to it "
   f"({lanes.bars('t')})")


# --- a trace read as a stream
def trace(text):
    f = tempfile.NamedTemporaryFile("w", suffix=".trace", delete=False)
    f.write("# rtsched-trace/1\n" + text)
    f.close()
    return f.name


t0 = 1_000_000_000
T = trace(f"""R 0
T 100 0
T 101 1
C 100 migrate
S {t0} 0 120 0 0 100 98
W {t0 + 10 * US} 0 101 97 0
S {t0 + 40 * US} 0 100 98 0 101 97
L 101 {t0 + 20 * US} {t0 + 40 * US}
S {t0 + 90 * US} 1 0 120 0 100 98
S {t0 + 100 * US} 0 101 97 1 0 120
R 1
T 200 0
S {t0 + 200 * US} 0 0 120 0 200 98
""")
tl = Timeline(T, 0, "/nonexistent", 1000)
ok(tl.tasks == {100: 0, 101: 1} and tl.cpus == {0, 1} and tl.first == t0 and
   tl.last == t0 + 100 * US, "run 0: its threads, CPUs, first and last events")
b = tl.lanes.bars
ok(b(("cpu", 0)) == [(0, 40 * US, 100), (40 * US, 60 * US, 101)],
   f"  CPU 0: thread 0 then thread 1 ({b(('cpu', 0))})")
ok(b(("thread", 101)) == [(40 * US, 60 * US, 0)] and b(("thread", 100)) == [(0, 40 * US, 0)],
   "  each thread's lane, keyed by its CPU")
ok(b(("wait", 101), False) == [(10 * US, 30 * US, 1)], "  thread 1 waited from its wake-up")
ok(b(("placement", 101), False) == [(20 * US, 20 * US, 1)], "  and its placement span")
ok(b(("cpu", 1)) == [], "  CPU 1 ran nothing of the run before the idle task")
tl1 = Timeline(T, 1, "/nonexistent", 1000)
ok(tl1.tasks == {200: 0} and tl1.first == t0 + 200 * US, "run 1 read alone")
raises(lambda: Timeline(T, 2, "/nonexistent", 1000), ResultError, "no run 2 (runs: 0, 1)",
       "a run the trace lacks")
raises(lambda: Timeline(trace("R 0\nS 1 2 3\n"), 0, "/nonexistent", 1000), ResultError,
       "line 3 is not a trace event: 'S 1 2 3'", "a broken line, named")
raises(lambda: Timeline(trace("R 0\nW 1 0 x 97 0\n"), 0, "/nonexistent", 1000), ResultError,
       "line 3 is not a trace event", "a field that is not a number")
os.unlink(T)

done()
