#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The A/A calibration's arithmetic (rtsched_calibration) on synthetic
sittings whose variances are known: boots that differ far more than the
runs inside one, as Debian's 6.1 does in QEMU (TAP)."""

import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
from rtsched_calibration import (caught, count_splits, detectable, false_alarms,  # noqa: E402
                                 judge, splits)
from scipy import stats  # noqa: E402
from taplib import done, ok  # noqa: E402

rng = random.Random(39)
# twelve boots of one kernel: a boot's own mean ~ N(300, 30), its five
# runs ~ N(that, 5): the runs inside a boot predict a spread of the boots'
# means of 5/sqrt(5) = 2.2, they have 30
boots = []
for _ in range(12):
    here = rng.gauss(300, 30)
    boots.append([rng.gauss(here, 5) for _ in range(5)])
GATE = [("t:total>5%", ">", 5.0), ("t:total<5%", "<", 5.0)]
groups = {label: boots for label, _, _ in GATE}

ok(count_splits(12, 6) == 924 and count_splits(12, 1) == 132 and count_splits(5, 3) == 0,
   "ordered pairs of disjoint groups: C(12,6) = 924, 12 x 11 = 132, none of 3 in 5")
pairs = splits(12, 6, 2000, random.Random(1))
ok(len(pairs) == 924 and all(not set(a) & set(b) for a, b in pairs),
   "every pair of disjoint groups of 6, when they are few")
drawn = splits(12, 3, 500, random.Random(1))
ok(len(drawn) == 500 and all(len(a) == len(b) == 3 and not set(a) & set(b) for a, b in drawn),
   "500 drawn of 18480, disjoint, when they are many")

# the sittings as samples: identical kernels rarely fail the gate
failed, undecided, n = false_alarms(groups, GATE, 0.05, pairs)
ok(failed / n <= 0.05 and undecided == 0,
   f"6 boots a side, the sittings as samples: {failed} false alarms in {n} ({failed / n:.1%}) "
   "<= 5%")

# the runs as samples (each run a sitting of its own, as compare judged
# before): the same identical boots fail the gate most of the time
runs = [[v] for b in boots for v in b]
by_run = {label: runs for label, _, _ in GATE}
run_pairs = [([i for b in a for i in range(5 * b, 5 * b + 5)],
              [i for b in bb for i in range(5 * b, 5 * b + 5)]) for a, bb in pairs[:200]]
failed_runs, _, n_runs = false_alarms(by_run, GATE, 0.05, run_pairs)
ok(failed_runs / n_runs > 0.3,
   f"  the same boots with the runs as samples: {failed_runs} false alarms in {n_runs} "
   f"({failed_runs / n_runs:.0%}): what the sittings prevent")

# one sitting a side, judged by the other ten's spread (compare --calibration)
ones = splits(12, 1, 2000, random.Random(1))
failed1, undecided1, n1 = false_alarms(groups, GATE, 0.05, ones)
ok(failed1 / n1 <= 0.1 and undecided1 == 0,
   f"one boot a side against the others' spread: {failed1} false alarms in {n1}")

# the smallest change caught: near the design's own arithmetic, (t(0.9875,
# df) + t(0.8, df)) x sqrt(2 var / 6) for Holm's strictest level of two
# conditions; its variance is the sample's, so within a third of it
means = [sum(b) / len(b) for b in boots]
m = sum(means) / 12
var = sum((x - m) ** 2 for x in means) / 11
df = 10
want = (stats.t.ppf(1 - 0.025 / 2, df) + stats.t.ppf(0.8, df)) * math.sqrt(2 * var / 6) / m * 100
got = detectable(groups, GATE, 0.05, pairs[:300], 0)
ok(got is not None and abs(got - want) / want < 0.35,
   f"detectable with 6 a side: {got:.1f}% against the arithmetic's {want:.1f}%")
ok(caught(groups, GATE, 0.05, pairs[:300], 0, 2 * got) > 0.95,
   "  twice that is caught nearly always")
ok(caught(groups, GATE, 0.05, pairs[:300], 0, 0) <= 0.05, "  nothing is caught at 0%")

zero = {label: [[0, 0, 0]] * 12 for label, _, _ in GATE}
ok(detectable(zero, GATE, 0.05, pairs[:10], 0) is None,
   "a mean of 0 has no size in per cent: None")
out = judge(groups, GATE, 0.05, [0, 1, 2], [3, 4, 5], ("t:total>5%", 1000))
ok(out[0] == "fail" and out[1] == "pass", "a change of +1000 added to B: '>' fails, '<' passes")

done()
