# SPDX-License-Identifier: GPL-2.0-only
"""Verdicts on rtsched result sets: a cell of two sets, the family of cells
one comparison tests, the --fail-if gates and bisect's step.

The sample is the sitting: the mean of one boot's runs (of one process's,
where the sets compared share a boot). A cell of two sets tests the
sittings' means with Welch's t-test; a side of one sitting is tested
against the other side's spread of sittings, or a calibration's, and two
sides of one sitting each are no evidence without a calibration. The cells
of one comparison are one family, and so are the --fail-if conditions of
one command: Holm's adjustment keeps the chance that identical kernels
raise any flag at alpha, whatever the dependence between the cells (they
depend: a migration one thread is spared is often another's).
"""

import math

from rtsched_results import sittings
from rtsched_stats import holm, mean_sd, one_sample, spread_test, welch

# a cell's confidence interval, and the power its "detectable" change is found with
LEVEL = 0.95


def fmt_p(p):
    """A p-value in a few characters: 0.012, 3.4e-05."""
    return f"{p:.3f}" if p >= 0.001 else f"{p:.1e}"


class Spread:
    """The variance of one sitting's mean, measured apart from the sets
    compared (a calibration's A/A sittings): VAR with DF degrees of
    freedom, WHAT in words ('the calibration's 12 boots')."""

    def __init__(self, var, df, what):
        self.var, self.df, self.what = var, df, what


def spread_of(groups, what):
    """The Spread of the sittings GROUPS (lists of runs), or None for fewer
    than two."""
    if len(groups) < 2:
        return None
    _, sd = mean_sd([sum(g) / len(g) for g in groups])
    return Spread(sd * sd, len(groups) - 1, what)


class Cell:
    """One cell of two result sets, A the baseline: A and B are lists of
    sittings, each the list of its runs' values. ma, mb: the means of the
    sittings' means; sa, sb: their standard deviation (a side of one
    sitting: its runs', marked by na or nb == 1); rel: B against A in %;
    test: the rtsched_stats.Test of the sittings' means, whose p is None
    when nothing tests it; spread: what a side of one sitting was judged
    by (a Spread, or None); padj: the p-value after the family's
    adjustment (set by family())."""

    def __init__(self, a, b, spread=None):
        self.na, self.nb = len(a), len(b)
        self.runs_a, self.runs_b = sum(map(len, a)), sum(map(len, b))
        means_a = [sum(s) / len(s) for s in a]
        means_b = [sum(s) / len(s) for s in b]
        self.ma, self.sa = mean_sd(means_a) if len(a) > 1 else mean_sd(a[0])
        self.mb, self.sb = mean_sd(means_b) if len(b) > 1 else mean_sd(b[0])
        self.spread = None
        if len(a) > 1 and len(b) > 1:
            self.test = welch(means_a, means_b)
        else:
            # a side of one sitting: the variance of a sitting's mean comes
            # from elsewhere, a calibration's sittings or the other side's
            self.spread = spread or spread_of(a if len(a) > 1 else b,
                                              "A's sittings" if len(a) > 1 else "B's sittings")
            self.test = spread_test(means_a, means_b, self.spread and self.spread.var,
                                    self.spread and self.spread.df)
            if self.test.p is None:
                self.spread = None
        self.p = self.test.p
        self.padj = self.p
        self.family = 1  # the tests of its family (family())
        ma, mb = self.ma, self.mb
        self.rel = (mb - ma) / ma * 100 if ma else (0.0 if mb == ma else math.inf)

    def interval(self):
        """The LEVEL confidence interval of B - A, or None without a test."""
        return self.test.interval(LEVEL)

    def detectable(self, alpha):
        """The smallest difference this design finds with 80% probability at
        ALPHA, or None without a test."""
        return self.test.detectable(alpha)

    def as_share(self, x):
        """X (a difference) as a share of A's mean in %, or None when A's mean is 0."""
        return x / abs(self.ma) * 100 if self.ma else None

    def words(self, alpha):
        """What the test says: 'p=0.004, Holm 0.036: significant', or why it says nothing."""
        if self.p is None:
            return "one sitting a side: not evidence"
        if not self.test.can_reject():
            return "the same in every sitting: nothing to test"
        adj = f", Holm {fmt_p(self.padj)}" if self.family > 1 else ""
        return (f"p={fmt_p(self.p)}{adj}: "
                f"{'significant' if self.padj < alpha else 'not significant'}")


def family(cells):
    """Holm's adjustment over CELLS, one family: each cell's padj, and the
    family's size (its tested cells). A cell whose test could not reject
    whatever its outcome (one value in every sitting of both sides: a
    thread never boosted, never moved) is left out, as Tarone's rule does
    for discrete tests: it could raise no false alarm, and counting it
    would only blunt the others; its padj stays its p, 1."""
    m = tested(cells)
    ps = holm([c.p if c.test.can_reject() else None for c in cells])
    for c, q in zip(cells, ps):
        c.padj, c.family = (q if q is not None else c.p), m
    return cells


def tested(cells):
    """How many of CELLS a test could judge: the family's size."""
    return sum(c.test.can_reject() for c in cells)


def moved(c, op, pct):
    """Whether Cell C's mean rose (op '>') or fell ('<') by more than PCT %."""
    return c.rel > pct if op == ">" else c.rel < -pct


def unreachable(c, alpha):
    """Whether no outcome of Cell C's design could be significant at ALPHA:
    sittings of one value each, whose exact tests' smallest p (2 against 2:
    1/3) is not below it."""
    return c.p is not None and not c.test.se and c.test.floor >= alpha


def gate(c, op, pct, alpha):
    """A --fail-if condition (OP, PCT) on Cell C after its family's
    adjustment: 'fail' (moved past PCT and significant), 'undecided' (moved
    past PCT, and nothing could test it, or no outcome could be significant)
    or 'pass'."""
    if not moved(c, op, pct):
        return "pass"
    if c.padj is None or unreachable(c, alpha):
        return "undecided"
    return "fail" if c.padj < alpha else "pass"


def undecided_why(c):
    """Why gate() left Cell C, which has a test (c.p), undecided: no outcome
    could be significant (unreachable()), in words."""
    n = {2: "two", 3: "three"}.get(min(c.na, c.nb), str(min(c.na, c.nb)))
    side = f"{n} sittings a side" if c.na == c.nb else f"{c.na} and {c.nb} sittings"
    return (f"{side} of one value each: no exact test of them goes below "
            f"p={c.test.floor:.3f}; give more sittings (boots)")


def cell_of(base, docs, col, row, read, unit, spread=None):
    """The Cell of ROW in COL, sets BASE (A) and DOCS (B), sittings by UNIT."""
    return Cell(sittings(base, read, row, unit), sittings(docs, read, row, unit), spread)


class Verdict:
    """A bisection step's sittings HERE against its ends' (GOOD, BAD), each a
    list of sittings' runs, on a --fail-if condition (OP, PCT), at ALPHA.
    verdict: 'bad', 'good' or None (not known yet); vs_good, vs_bad: the
    Cells of each end against the step; why: 'holds' (the condition holds
    against the good end and the step is not apart from the bad end),
    'apart' (the condition does not hold and the step is apart from the bad
    end, towards the good side), 'nearer' (apart from both ends: the side of
    the ends' midpoint MID it is on, by P_MID), or None. A relative change
    from a good end of about 0 is large however small, so the condition
    alone never convicts a step the bad end's figures disown. Fewer than
    two sittings a side are never evidence here."""

    def __init__(self, good, bad, here, op, pct, alpha):
        self.vs_good, self.vs_bad = Cell(good, here), Cell(bad, here)
        self.verdict = self.why = self.mid = self.p_mid = None
        g, b = self.vs_good, self.vs_bad
        if min(len(good), len(bad), len(here)) < 2 or g.p is None or b.p is None:
            return
        holds = gate(g, op, pct, alpha) == "fail"
        towards_good = b.mb < b.ma if op == ">" else b.mb > b.ma
        apart = towards_good and b.p < alpha
        if holds and not apart:
            self.verdict, self.why = "bad", "holds"
        elif apart and not holds:
            self.verdict, self.why = "good", "apart"
        elif holds and apart:
            self.mid = (g.ma + b.ma) / 2
            self.p_mid = one_sample([sum(s) / len(s) for s in here], self.mid)
            if self.p_mid is not None and self.p_mid < alpha:
                above = g.mb > self.mid
                self.verdict = "bad" if above == (op == ">") else "good"
                self.why = "nearer"
