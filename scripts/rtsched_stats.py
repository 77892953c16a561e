# SPDX-License-Identifier: GPL-2.0-only
"""The statistics rtsched's verdicts rest on, small enough to check by eye.

A sample here is a sitting's mean: the mean of the runs one boot (or one
process) made. Runs inside a sitting share its state and are not
independent samples of a kernel; the sittings are (scripts/compare's
manual page says why and how it was measured). Every function takes plain
lists of numbers; nothing here knows result files.

The tests (tests/unit/test_stats.py) check each against a worked example
or scipy on known inputs.
"""

import math

# the share of changes of the detectable size a design finds (its power)
POWER = 0.8


def _t():
    from scipy import stats
    return stats.t


def mean_sd(values):
    """Mean and sample standard deviation (0 for a single value)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))


def exact_bound(na, nb):
    """The smallest two-sided p-value any exact (permutation) test of NA
    against NB samples can reach: both ways of separating them completely,
    out of every way of splitting the NA + NB values in two. 2 against 2
    can never be below 1/3, 6 against 6 below 0.0022."""
    return min(1.0, 2 / math.comb(na + nb, na))


class Test:
    """A difference of two means with its standard error and degrees of
    freedom, and its two-sided p-value (None: no test). HOW says where the
    variance came from: 'welch' (both samples), 'spread' (a variance given
    apart, for a side of one sample), 'exact' (no variance at all: the
    samples are constant, p is the exact tests' bound)."""

    def __init__(self, diff, se, df, p, how, floor=0.0):
        self.diff, self.se, self.df, self.p, self.how = diff, se, df, p, how
        self.floor = floor  # the smallest p this design can give (constant samples)

    def can_reject(self):
        """Whether any outcome of this test could be significant: not when
        every sample is one and the same value (each split of them alike,
        an exact test's p is 1 whatever the level), which is why such a
        test stays out of its family (Tarone's rule for discrete tests)."""
        return self.p is not None and not (self.se == 0 and self.diff == 0)

    def interval(self, level=0.95):
        """The LEVEL confidence interval of the difference, or None."""
        if self.p is None:
            return None
        if not self.se:
            return self.diff, self.diff
        h = _t().ppf(0.5 + level / 2, self.df) * self.se
        return self.diff - h, self.diff + h

    def detectable(self, alpha, power=POWER):
        """The smallest difference a test of this design finds with
        probability POWER at level ALPHA (two-sided), from its standard
        error: (t(1 - alpha/2) + t(power)) x se. None without a test."""
        if self.p is None:
            return None
        if not self.se:
            # constant samples: any change is seen, if the design can say so at all
            return 0.0 if self.floor < alpha else None
        t = _t()
        return (t.ppf(1 - alpha / 2, self.df) + t.ppf(power, self.df)) * self.se


def _constant(a, b, how="exact"):
    diff = sum(b) / len(b) - sum(a) / len(a)
    floor = exact_bound(len(a), len(b))
    return Test(diff, 0.0, None, 1.0 if diff == 0 else floor, how, floor)


def welch(a, b):
    """Welch's two-sample t-test of B's mean against A's (unequal
    variances, Welch-Satterthwaite degrees of freedom), or no test (p None)
    when a side has fewer than two samples."""
    diff = sum(b) / len(b) - sum(a) / len(a)
    if len(a) < 2 or len(b) < 2:
        return Test(diff, None, None, None, None)
    (_, sa), (_, sb) = mean_sd(a), mean_sd(b)
    va, vb = sa * sa / len(a), sb * sb / len(b)
    if va + vb == 0:
        return _constant(a, b)
    se = math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va * va / (len(a) - 1) + vb * vb / (len(b) - 1))
    p = 2 * _t().sf(abs(diff) / se, df)
    return Test(diff, se, df, float(p), "welch")


def spread_test(a, b, var, df):
    """The t-test of B's mean against A's with the variance of one sample
    given apart (VAR, estimated with DF degrees of freedom: another set's
    sittings, or a calibration's), as for a side of a single sample: the
    difference over sqrt(VAR (1/na + 1/nb)), Student's t with DF."""
    diff = sum(b) / len(b) - sum(a) / len(a)
    if var is None or not df or df < 1:
        return Test(diff, None, None, None, None)
    if var == 0:
        return _constant(a, b, "spread")
    se = math.sqrt(var * (1 / len(a) + 1 / len(b)))
    return Test(diff, se, df, float(2 * _t().sf(abs(diff) / se, df)), "spread")


def one_sample(values, mu):
    """The two-sided p-value of VALUES' mean against MU (Student's t), or
    None for a single value; a constant sample at MU is 1, apart from it
    the exact tests' bound for one sample (every sign flipped: 2/2^n)."""
    n = len(values)
    if n < 2:
        return None
    m, sd = mean_sd(values)
    if sd == 0:
        return 1.0 if m == mu else min(1.0, 2 / 2 ** n)
    return float(2 * _t().sf(abs(m - mu) / (sd / math.sqrt(n)), n - 1))


def holm(ps):
    """Holm's step-down adjustment of the p-values PS (None: not tested,
    kept None): the family-wise error stays at most alpha whatever the
    dependence between the tests. The i-th smallest of m is multiplied by
    m - i + 1, and no adjusted value is below one before it."""
    tested = sorted((p, i) for i, p in enumerate(ps) if p is not None)
    m = len(tested)
    out = [None] * len(ps)
    running = 0.0
    for k, (p, i) in enumerate(tested):
        running = max(running, min(1.0, (m - k) * p))
        out[i] = running
    return out


class Components:
    """One-way random-effects analysis of GROUPS (each a sitting's runs):
    k sittings, the mean squares between and within them, F and its
    p-value (do sittings differ more than their runs predict?), the sittings'
    means (group_means), and the
    variance components: within a sitting (a run's) and between sittings
    (the method of moments; 0 when negative). ratio: how many times the
    variance of the sittings' means exceeds what their runs predict
    (F, for sittings of equal runs)."""

    def __init__(self, groups):
        groups = [list(g) for g in groups if g]
        self.k = len(groups)
        self.n = sum(len(g) for g in groups)
        means = [sum(g) / len(g) for g in groups]
        self.group_means = means
        grand = sum(sum(g) for g in groups) / self.n if self.n else 0.0
        self.ms_between = self.ms_within = self.f = self.p = None
        self.within = self.between = None
        if self.k >= 2:
            ssb = sum(len(g) * (m - grand) ** 2 for g, m in zip(groups, means))
            self.ms_between = ssb / (self.k - 1)
        if self.n > self.k:
            ssw = sum((x - m) ** 2 for g, m in zip(groups, means) for x in g)
            self.ms_within = ssw / (self.n - self.k)
            self.within = self.ms_within
        if self.ms_between is not None and self.ms_within is not None:
            n0 = (self.n - sum(len(g) ** 2 for g in groups) / self.n) / (self.k - 1)
            self.between = max(0.0, (self.ms_between - self.ms_within) / n0)
            if self.ms_within > 0:
                from scipy import stats
                self.f = self.ms_between / self.ms_within
                self.p = float(stats.f.sf(self.f, self.k - 1, self.n - self.k))
            else:
                self.f = math.inf if self.ms_between > 0 else None
                self.p = 0.0 if self.ms_between > 0 else None
        self.ratio = self.f
