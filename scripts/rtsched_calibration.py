# SPDX-License-Identifier: GPL-2.0-only
"""What a gate says of identical kernels: an A/A calibration's arithmetic.

Given N sittings of one configuration on one kernel (each a list of its
runs' values, per condition of a gate), every way (or a random sample of
the ways) of drawing two disjoint groups of K sittings is a comparison of
identical kernels. The share of them the gate fails is its false-alarm
rate for a design of K sittings a side; adding a change of x % to one
group's values and seeing how often the gate then catches it gives the
smallest change it catches with 80% probability. A design of one sitting a
side is judged as scripts/compare --calibration judges it: by the spread
of the other N - 2 sittings.

Nothing here reads files or prints; scripts/calibrate does.
"""

import itertools
import math

from rtsched_stats import POWER
from rtsched_verdicts import Cell, family, gate, spread_of

# the comparisons drawn for each design: every one up to this, else a sample
MAX_SPLITS = 2000
# fewer for the search of the detectable change (each step judges them all)
MAX_SPLITS_SEARCH = 400
# the largest change looked for, in %
MAX_SHIFT = 10000.0


def count_splits(n, k):
    """How many ordered pairs of disjoint groups of K of N sittings there are."""
    return math.comb(n, k) * math.comb(n - k, k) if 2 * k <= n else 0


def splits(n, k, limit, rng):
    """Ordered pairs (A, B) of disjoint groups of K of the N sittings'
    indices: all of them, or LIMIT drawn with RNG when there are more."""
    total = count_splits(n, k)
    if total <= limit:
        out = []
        for a in itertools.combinations(range(n), k):
            rest = [i for i in range(n) if i not in a]
            out += [(list(a), list(b)) for b in itertools.combinations(rest, k)]
        return out
    out = []
    for _ in range(limit):
        pick = rng.sample(range(n), 2 * k)
        out.append((sorted(pick[:k]), sorted(pick[k:])))
    return out


def judge(groups, conds, alpha, a, b, shift=None, adjust=True):
    """The gate's outcome for each of CONDS ((label, op, pct) each, GROUPS
    their sittings: {label: [runs of sitting i]}) on sittings A against B,
    as compare judges them (Holm over the conditions). SHIFT: (label, x) adds
    x to every run of B in that condition. A side of one sitting is judged
    by the spread of the sittings in neither A nor B. ADJUST False: each
    condition at ALPHA on its own, as rtsched judged before."""
    cells = []
    for label, _, _ in conds:
        sa = [groups[label][i] for i in a]
        sb = [groups[label][i] for i in b]
        if shift is not None and shift[0] == label:
            sb = [[v + shift[1] for v in s] for s in sb]
        spread = None
        if len(a) == 1 or len(b) == 1:
            rest = [g for i, g in enumerate(groups[label]) if i not in a and i not in b]
            spread = spread_of(rest, "the other sittings")
        cells.append(Cell(sa, sb, spread))
    if adjust:
        family(cells)
    return [gate(c, op, pct, alpha) for c, (_, op, pct) in zip(cells, conds)]


def false_alarms(groups, conds, alpha, pairs):
    """Over PAIRS of identical sittings: (failed, undecided, judged): how
    many comparisons the gate failed (any condition), how many it could
    not decide (none failed), of how many."""
    failed = undecided = 0
    for a, b in pairs:
        out = judge(groups, conds, alpha, a, b)
        if "fail" in out:
            failed += 1
        elif "undecided" in out:
            undecided += 1
    return failed, undecided, len(pairs)


def runs_as_samples(groups, conds, alpha):
    """The gate on every ordered pair of two sittings with their runs as the
    samples and each condition on its own, as rtsched judged before it had
    sittings (one boot's runs against another's): (failed, judged)."""
    label0 = conds[0][0]
    runs = {label: [[v] for g in groups[label] for v in g] for label, _, _ in conds}
    where, k = [], 0
    for g in groups[label0]:
        where.append(list(range(k, k + len(g))))
        k += len(g)
    failed = judged = 0
    for i, j in itertools.permutations(range(len(where)), 2):
        judged += 1
        failed += "fail" in judge(runs, conds, alpha, where[i], where[j], adjust=False)
    return failed, judged


def table_alarms(cells, alpha, pairs, adjust=True, runs=False):
    """The share of PAIRS in which compare's table of CELLS (each a list of
    sittings' runs) shows a significant cell: after Holm's adjustment over
    the table (ADJUST), or each cell on its own. RUNS: the runs are the
    samples, PAIRS then pairs of single sittings."""
    hits = 0
    for a, b in pairs:
        row = []
        for groups in cells:
            if runs:
                row.append(Cell([[v] for i in a for v in groups[i]],
                                [[v] for i in b for v in groups[i]]))
            else:
                row.append(Cell([groups[i] for i in a], [groups[i] for i in b]))
        if adjust:
            family(row)
        hits += any(c.padj is not None and c.padj < alpha for c in row)
    return hits / len(pairs)


def caught(groups, conds, alpha, pairs, which, x):
    """The share of PAIRS in which condition WHICH (an index into CONDS)
    fails once its B side moved by X % of the sittings' mean, its way."""
    label, op, _ = conds[which]
    means = [sum(s) / len(s) for s in groups[label]]
    step = x / 100 * abs(sum(means) / len(means)) * (1 if op == ">" else -1)
    hits = sum(judge(groups, conds, alpha, a, b, (label, step))[which] == "fail"
               for a, b in pairs)
    return hits / len(pairs)


def detectable(groups, conds, alpha, pairs, which, power=POWER):
    """The smallest change (in % of the sittings' mean, in the condition's
    direction) condition WHICH catches in a share POWER of PAIRS, to about
    a tenth of a per cent; None when its mean is 0 (a relative change has
    no size), math.inf when not even MAX_SHIFT % is caught."""
    label = conds[which][0]
    if not any(v for s in groups[label] for v in s):
        return None
    hi = 1.0
    while caught(groups, conds, alpha, pairs, which, hi) < power:
        hi *= 2
        if hi > MAX_SHIFT:
            return math.inf
    lo = 0.0
    while hi - lo > max(0.1, hi / 200):
        mid = (lo + hi) / 2
        if caught(groups, conds, alpha, pairs, which, mid) >= power:
            hi = mid
        else:
            lo = mid
    return hi
