#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The statistics of the verdicts (rtsched_stats) against worked examples
and scipy on known inputs, and the verdicts (rtsched_verdicts) on sittings:
the unit, the family, the gates, bisect's step (TAP)."""

import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
from rtsched_results import boot_of, own_unit, process_of, sitting_unit, sittings  # noqa: E402
from rtsched_stats import (Components, exact_bound, holm, mean_sd, one_sample,  # noqa: E402
                           spread_test, welch)
from rtsched_verdicts import Cell, Spread, Verdict, family, gate, tested  # noqa: E402
from scipy import stats  # noqa: E402
from taplib import done, ok  # noqa: E402


def near(x, y, tol=1e-6):
    return x is not None and abs(x - y) <= tol * max(1.0, abs(y))


# mean 3, squared deviations 4+1+0+1+4 = 10, sample variance 10/4
m, s = mean_sd([1, 2, 3, 4, 5])
ok(m == 3 and near(s, (10 / 4) ** 0.5), "mean_sd of 1..5 is 3, sqrt(2.5)")
ok(mean_sd([7]) == (7, 0.0), "one value: sd 0")

# Welch on 1..5 vs 6..10: difference 5, se sqrt(2.5/5 + 2.5/5) = 1, t = 5,
# df = 8; two-sided p = 0.0010520 (t tables), t(0.975, 8) = 2.306004,
# t(0.8, 8) = 0.888890
t = welch([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])
ok(t.diff == 5 and near(t.se, 1) and near(t.df, 8), f"Welch: diff 5, se 1, df 8 ({t.df})")
ok(near(t.p, 0.0010520, 1e-4), f"Welch's p for t=5, df=8 is 0.0010520 ({t.p:.7f})")
lo, hi = t.interval(0.95)
ok(near(lo, 5 - 2.306004) and near(hi, 5 + 2.306004), f"95% CI 5 -+ 2.306 ([{lo:.3f}, {hi:.3f}])")
ok(near(t.detectable(0.05), 2.306004 + 0.888890),
   f"detectable with 80% power: (2.306 + 0.889) x se = 3.195 ({t.detectable(0.05):.3f})")
rng = random.Random(39)
for k in range(5):
    a = [rng.gauss(100, 10) for _ in range(rng.randint(2, 8))]
    b = [rng.gauss(110, 25) for _ in range(rng.randint(2, 8))]
    ok(near(welch(a, b).p, stats.ttest_ind(a, b, equal_var=False).pvalue, 1e-9),
       f"Welch's p as scipy's ttest_ind(equal_var=False), sample {k + 1} "
       f"({len(a)} and {len(b)} values)")
ok(welch([1], [2, 3]).p is None, "a side of one value: no test")
ok(welch([4, 4], [4, 4]).p == 1.0, "identical constant samples: p = 1")

# constant samples apart: the t-test is undefined; no exact test of 2
# against 2 can be below 2/C(4, 2) = 1/3, nor 6 against 6 below 2/924
ok(near(exact_bound(2, 2), 1 / 3) and near(exact_bound(6, 6), 2 / 924)
   and exact_bound(1, 1) == 1.0, "the exact tests' bound: 1/3, 2/924, 1")
t = welch([0, 0], [1, 1])
ok(near(t.p, 1 / 3) and t.how == "exact", f"0,0 against 1,1: p = 1/3, not 0 ({t.p})")
ok(near(welch([5031] * 2, [5032] * 2).p, 1 / 3), "5031 twice against 5032 twice: p = 1/3")

# a side of one sample against a spread measured apart: A's variance 4
# with 2 df, B one value 8 above: se = sqrt(4 (1/3 + 1)) = 2.3094, t =
# 3.4641, df 2: p = 0.07418 (t tables)
t = spread_test([10, 12, 14], [20], 4.0, 2)
ok(near(t.p, 0.07418, 1e-4) and t.df == 2, f"one value against a spread: p 0.0742 ({t.p:.5f})")
ok(spread_test([1], [2], None, None).p is None, "no spread: no test")

ok(one_sample([3, 3, 3], 3) == 1.0 and one_sample([1], 0) is None,
   "one_sample: a constant sample at the mean, a single value")
ok(near(one_sample([3, 3, 3], 4), 0.25), "one_sample: constant apart: the sign flips' 2/2^3")
# t = (2 - 0) / (1 / sqrt(3)) = 3.4641, df 2: two-sided p = 0.07418 (t tables)
ok(near(one_sample([1, 2, 3], 0), 0.07418, 1e-4), "one_sample: p for t=3.4641, df=2 is 0.0742")

# Holm's method on the example of its Wikipedia article (four hypotheses,
# alpha 0.05: H4 and H1 rejected): adjusted 0.03, 0.06, 0.06, 0.02
adj = holm([0.01, 0.04, 0.03, 0.005])
ok(all(near(x, y) for x, y in zip(adj, [0.03, 0.06, 0.06, 0.02])),
   f"Holm: 0.01, 0.04, 0.03, 0.005 -> 0.03, 0.06, 0.06, 0.02 ({adj})")
ok([x < 0.05 for x in adj] == [True, False, False, True], "  H1 and H4 rejected at 0.05")
ok(holm([0.5, None, 0.01]) == [0.5, None, 0.02], "Holm: an untested cell is not in the family")
ok(all(near(x, 0.06) for x in holm([0.04, 0.03])),
   "Holm: no adjusted value below one before it (0.04, 0.03 -> 0.06, 0.06)")

# one-way analysis of sittings: means 2, 5, 8 of 3 runs each: MSB 27,
# MSW 1, F 27 on (2, 6) df, p = 0.001; n0 = 3, between (27 - 1) / 3
c = Components([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
f = stats.f_oneway([1, 2, 3], [4, 5, 6], [7, 8, 9])
ok(near(c.f, 27) and near(c.p, 0.001) and near(c.f, f.statistic) and near(c.p, f.pvalue),
   f"Components: F 27, p 0.001, as scipy's f_oneway ({c.f}, {c.p})")
ok(near(c.within, 1) and near(c.between, 26 / 3), "  within 1, between (27 - 1) / 3")
c = Components([[5, 6, 7], [4, 6, 8]])
ok(c.between == 0.0 and c.f == 0.0, "sittings alike: no variance between them")
ok(Components([[1, 2]]).f is None, "one sitting: nothing to compare")

# --- the sitting as the unit
def doc(boot, process, path):
    d = {"_path": path, "runs": []}
    if boot or process:
        d["sitting"] = {"boot_id": boot, "process": process}
    return d


a = [doc("b1", "p1", "a1"), doc("b1", "p2", "a2"), doc("b2", "p3", "a3")]
b = [doc("b3", "p4", "b1"), doc("b4", "p5", "b2")]
ok(sitting_unit(a, b) == "boot", "sets of different boots: the sitting is the boot")
ok(sitting_unit(a, [doc("b2", "p9", "x")]) == "process",
   "sets sharing a boot: the sitting is the process")
ok(own_unit(a) == "boot" and own_unit(a[:2]) == "process",
   "one set alone: its boots, or its processes when it ran in one boot")
ok(own_unit(a) == "boot" and sitting_unit(a, a[2:]) == "process",
   "  whatever another set drawn beside it shares with it")
ok(boot_of(doc(None, None, "f.json")) == "file f.json"
   and process_of(doc(None, None, "f.json")) == "file f.json",
   "a result without its sitting: the file is a sitting of its own")


def read(docs, row):
    return [v for d in docs for v in d["vals"]]


for d, v in zip(a, ([1, 2], [3, 4], [10, 11])):
    d["vals"] = v
ok(sittings(a, read, 0, "boot") == [[1, 2, 3, 4], [10, 11]], "runs grouped by boot")
ok(sittings(a, read, 0, "process") == [[1, 2], [3, 4], [10, 11]], "runs grouped by process")

# many runs in one sitting are no evidence; sittings are
one = Cell([[100, 101, 99, 100, 102]], [[120, 121, 119, 122, 120]])
ok(one.p is None and one.words(0.05) == "one sitting a side: not evidence",
   "one sitting a side, however many runs: not evidence")
c = Cell([[100, 101], [104, 103], [98, 99]], [[120, 121], [123, 122], [119, 118]])
ok(c.na == 3 and c.runs_a == 6 and near(c.ma, 100.833333) and c.p is not None and c.p < 0.01,
   f"three sittings a side: Welch on the sittings' means (p {c.p:.4f})")
ok(near(c.p, welch([100.5, 103.5, 98.5], [120.5, 122.5, 118.5]).p),
   "  the same p as Welch on the three means each")
c = Cell([[10, 10], [12, 12], [14, 14]], [[20, 20]])
ok(near(c.p, 0.07418, 1e-4) and c.spread.what == "A's sittings",
   "B of one sitting: judged by A's spread of sittings")
c = Cell([[10]], [[20]], Spread(4.0, 2, "a calibration"))
ok(near(c.p, 2 * stats.t.sf(10 / (8 ** 0.5), 2)) and c.spread.what == "a calibration",
   "one sitting a side: judged by a calibration's spread when given")

# the family: twenty identical cells and one real change
cells = [Cell([[100], [101], [99]], [[100], [99], [101]]) for _ in range(20)]
cells.append(Cell([[100], [101], [99]], [[150], [151], [149]]))
lucky = Cell([[100], [101], [99], [100]], [[102], [103], [101], [102]])
raw = lucky.p
family(cells + [lucky])
ok(raw < 0.05 and lucky.padj >= 0.05, f"a cell significant alone (p {raw:.4f}) is not among "
   f"22 cells (Holm {lucky.padj:.3f})")
ok(cells[-1].padj < 0.05, f"a change of 50% still is (Holm {cells[-1].padj:.2g})")

# cells that hold one value in every sitting of both sides (a thread never
# boosted) cannot reject: they stay out of the family, and say why
never = [Cell([[0, 0], [0, 0], [0, 0]], [[0, 0], [0, 0], [0, 0]]) for _ in range(8)]
pair = [Cell([[100], [101], [99]], [[104], [105], [103]]) for _ in range(2)]
alone = pair[0].p
family(pair + never)
ok(pair[0].family == 2 and near(pair[0].padj, 2 * alone) and tested(pair + never) == 2,
   f"eight cells of zeros leave the family of two its size (Holm {pair[0].padj:.4f}, "
   f"p {alone:.4f})")
ok(never[0].padj == 1.0 and never[0].words(0.05) == "the same in every sitting: nothing to test"
   and gate(never[0], ">", 0, 0.05) == "pass", "  and each says it had nothing to test")
const = Cell([[5, 5], [5, 5], [5, 5]], [[7, 7], [7, 7], [7, 7]])
family([const] + never)
ok(const.family == 1 and const.test.can_reject() and near(const.padj, 0.1),
   "two constants apart still are a test: the exact bound of 3 against 3, 0.1")

# the gates
c = Cell([[100], [101], [99]], [[150], [151], [149]])
ok(gate(c, ">", 10, 0.05) == "fail" and gate(c, ">", 60, 0.05) == "pass"
   and gate(c, "<", 10, 0.05) == "pass", "gate: rose 50%: fails >10%, passes >60% and <10%")
c = Cell([[100, 101]], [[150, 151]])
ok(gate(c, ">", 10, 0.05) == "undecided" and gate(c, ">", 60, 0.05) == "pass",
   "gate: one sitting a side moved past its threshold: undecided, never a fail")

# bisect's step on migrated:7>50%, each side three sittings
def sit(*means):
    return [[m - 1, m + 1] for m in means]


GOOD, BAD = sit(0, 1, 2), sit(520, 530, 525)


def verdict(here, good=GOOD, bad=BAD, op=">", pct=50, alpha=0.0125):
    return Verdict(good, bad, here, op, pct, alpha)


d = verdict(sit(518, 530, 524))
ok(d.verdict == "bad" and d.why == "holds", f"like the bad end: bad ({d.why})")
d = verdict(sit(0, 2, 1))
ok(d.verdict == "good" and d.why == "apart",
   f"like the good end of about 0: good, whatever the relative change ({d.why})")
d = verdict(sit(0, 1000, 0, 1000))
ok(d.verdict is None, "sittings all over the place: no verdict")
d = verdict(sit(7, 8, 6, 7), good=sit(0, 1, 1))
ok(d.verdict == "good" and d.why == "nearer",
   f"a few migrations over a good end of ~0: apart from both, nearer the good end ({d.why})")
d = verdict(sit(400, 410, 405))
ok(d.verdict == "bad" and d.why == "nearer", f"apart from both, nearer the bad end: bad ({d.why})")
d = verdict(sit(100, 102, 98), good=sit(100, 102, 98), bad=sit(100, 101, 99), alpha=0.05)
ok(d.verdict is None, "ends alike: neither verdict")
d = verdict(sit(405, 395, 400), good=sit(1000, 990, 1010), bad=sit(400, 410, 390), op="<",
            pct=20, alpha=0.05)
ok(d.verdict == "bad", "'<': fell more than 20% against the good end, like the bad: bad")
d = verdict(sit(1005, 995, 1000), good=sit(1000, 990, 1010), bad=sit(400, 410, 390), op="<",
            pct=20, alpha=0.05)
ok(d.verdict == "good", "'<': apart from the bad end, above it: good")
d = verdict([[500, 510, 505, 500, 502, 508]])
ok(d.verdict is None, "one sitting of many runs is no evidence either way")
d = verdict(sit(600, 610, 605), alpha=0.05)
ok(d.verdict == "bad", f"beyond the bad end: bad ({d.why})")

done()
