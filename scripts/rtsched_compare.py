# SPDX-License-Identifier: GPL-2.0-only
"""Result sets side by side, cell by cell: what scripts/compare prints, for
it and for the scripts that compare sets they assembled (reproduce).

The sample is the sitting (rtsched_verdicts); the cells of one comparison
are one family, and so are the --fail-if conditions of one command.
"""

from rtsched_cli import plural
from rtsched_columns import (GROUP_COLUMNS, NS_COLUMNS, check_column, resolve_fail_if, rows_of,
                             trace_columns, usable_columns)
from rtsched_results import (check_comparable, count_sittings, describe, differences,
                             process_of, sitting_unit, sittings, whole_runs)
from rtsched_verdicts import LEVEL, Cell, family, gate, spread_of, tested, undecided_why

EXIT_UNDECIDED = 5


def runs_of(docs):
    """The runs compared: the whole ones (a run a signal cut short is left out)."""
    n = sum(len(whole_runs(d)) for d in docs)
    left = sum(len(d["runs"]) for d in docs) - n
    return f"{n} run{'s' if n != 1 else ''}" + (f" ({left} partial left out)" if left else "")


def sittings_of(docs):
    """A set's sittings in words: '6 boots', '1 boot (5 processes)', '1
    sitting (its boot not recorded)'."""
    known = [d for d in docs if (d.get("sitting") or {}).get("boot_id")]
    boots, procs = count_sittings(known, "boot"), count_sittings(known, "process")
    out = plural(boots, "boot") + (f" ({plural(procs, 'process')})" if procs != boots else "")
    files = len(docs) - len(known)
    if not files:
        return out
    rest = (f"{plural(files, 'sitting')} (its boot not recorded)" if files == 1 else
            f"{plural(files, 'sitting')} (boots not recorded: a file each)")
    return f"{out} and {rest}" if known else rest


class Calibration:
    """--calibration SET: A/A sittings whose spread judges a side of one sitting."""

    def __init__(self, name, docs):
        self.name, self.docs = name, docs
        self.unit = "boot" if count_sittings(docs, "boot") > 1 else "process"
        self.k = count_sittings(docs, self.unit)

    def spread(self, col, row, unit):
        """The Spread of the calibration's sittings in COL, ROW, if they are
        sittings of UNIT (boots cannot be bounded by processes of one boot)."""
        if unit != self.unit:
            return None
        read = rows_of(self.docs, col)[2]
        return spread_of(sittings(self.docs, read, row, unit),
                         f"the calibration's {plural(self.k, unit)}")


def compare_sets(sets, column="all", conds=(), alpha=0.05, cal=None):
    """Print SETS ([(name, docs)], the first the baseline) side by side in
    COLUMN ('all', or one), judge the --fail-if conditions CONDS (their
    text) at ALPHA, a side of one sitting by CAL (a Calibration) where
    given; the exit status: 0, 1 a condition held, EXIT_UNDECIDED a
    condition moved and nothing could test it. A ResultError, before
    anything is printed, for sets that cannot be compared so."""
    check_comparable([(name, docs[0]) for name, docs in sets])
    if cal is not None:
        check_comparable([(sets[0][0], sets[0][1][0]), (cal.name, cal.docs[0])])
    tool = sets[0][1][0]["tool"]
    trace_cols = trace_columns(*(docs for _, docs in sets))
    if column != "all":
        check_column(column, tool, trace_cols)
    conds = [resolve_fail_if(c, sets[0][1]) for c in conds]
    for c in conds:  # every set has the condition's column, before a table is printed
        check_column(c[0], tool, trace_cols)
    base = sets[0][1]
    units = [sitting_unit(base, docs) for _, docs in sets[1:]]
    columns = usable_columns(tool, trace_cols) if column == "all" else (column,)
    # a --fail-if condition is judged on its column even when --column names another
    columns += tuple(c[0] for c in conds if c[0] not in columns)
    tables = [cells_of(base, docs, columns, unit, cal) for (_, docs), unit in zip(sets[1:], units)]
    gates = [(k, c, cell_of_condition(base, docs, c, unit, cal))
             for k, ((_, docs), unit) in enumerate(zip(sets[1:], units)) for c in conds]
    family([g[2] for g in gates])
    header(sets, units, cal, alpha, tables)
    for col in columns:
        for k, table in enumerate(tables):
            print_column(col, table, chr(ord("B") + k), alpha)
    return verdicts(gates, alpha)


def header(sets, units, cal, alpha, tables):
    """The sets, what differs between them, and how they are judged."""
    base_name, base = sets[0]
    print(f"baseline A: {base_name}: {describe(base[0])}, {runs_of(base)} in {sittings_of(base)}")
    for k, (name, docs) in enumerate(sets):
        cut = [d["_path"] for d in docs if d.get("partial")]
        if cut:
            print(f"   note: {chr(ord('A') + k)} holds {len(cut)} interrupted (partial) "
                  f"result{'s' if len(cut) > 1 else ''}: {cut[0]}{' ...' if len(cut) > 1 else ''}")
    for k, ((name, docs), unit) in enumerate(zip(sets[1:], units)):
        label = chr(ord("B") + k)
        print(f"{label}: {name}: {describe(docs[0])}, {runs_of(docs)} in {sittings_of(docs)}")
        notes(base, docs, label)
        na, nb = count_sittings(base, unit), count_sittings(docs, unit)
        how = (f"   sitting: the {unit}, {na} against {nb}"
               + (f" (A and {label} share a boot)" if unit == "process" else ""))
        if min(na, nb) == 1:
            how += "; " + single_sitting(na, nb, label, cal, unit)
        print(how)
        if cal is not None and cal.unit != unit and min(na, nb) == 1:
            print("   note: the calibration's sittings are processes of one boot: they cannot "
                  "bound a difference of boots, and judge nothing here")
    if cal is not None:
        ours = {process_of(d) for _, docs in sets for d in docs}
        shared = sum(process_of(d) in ours for d in cal.docs)
        if shared:
            print(f"   note: {shared} of the calibration's results are among the sets compared: "
                  "its spread is not independent of their difference")
    m = max([tested(t["cells"]) for t in tables] or [0])
    print("Each sitting's mean is one sample: Welch's t-test on them"
          + (f", Holm's adjustment over the {m} cells tested in a comparison,\n"
             f"significant at {alpha:g} family-wise; CI: {100 * LEVEL:g}% of B - A; detect: "
             f"the change found with 80% power" if m else ""))


def single_sitting(na, nb, label, cal, unit):
    """How a comparison with a side of one sitting is judged, in words."""
    if cal is not None and cal.unit == unit and cal.k > 1:
        return f"judged by the spread of {cal.name}'s {plural(cal.k, unit)} (--calibration)"
    if max(na, nb) > 1:
        many = "A" if na > 1 else label
        return (f"{'A' if na == 1 else label}'s one sitting is judged by {many}'s spread of "
                f"sittings")
    return "one sitting a side is not evidence (--calibration gives a spread)"


def notes(base, docs, label):
    """What differs between A and a set besides the kernel."""
    for n in differences(base[0], docs[0], "A", label):
        print(f"   note: {n}")


def cells_of(base, docs, columns, unit, cal):
    """Every cell of one comparison, adjusted as one family: {'cells': [...],
    col: (nrows, what, [Cell per row and the total])}."""
    out, every = {}, []
    for col in columns:
        nrows, what, read = rows_of(base, col)
        row_cells = []
        for t in range(nrows + 1):
            spread = cal.spread(col, t, unit) if cal else None
            row_cells.append(Cell(sittings(base, read, t, unit), sittings(docs, read, t, unit),
                                  spread))
        out[col] = (nrows, what, row_cells)
        every += row_cells
    out["cells"] = family(every)
    return out


def cell_of_condition(base, docs, cond, unit, cal):
    col, t = cond[0], cond[1]
    read = rows_of(base, col)[2]
    return Cell(sittings(base, read, t, unit), sittings(docs, read, t, unit),
                cal.spread(col, t, unit) if cal else None)


def interval_text(c, scale=1):
    """B - A's confidence interval: as a share of A's mean, or in the units
    (divided by SCALE)."""
    ci = c.interval()
    if ci is None:
        return "-"
    lo, hi = ci
    if c.ma:
        return f"[{c.as_share(lo):+.1f}, {c.as_share(hi):+.1f}]%"
    return f"[{lo / scale:+.1f}, {hi / scale:+.1f}]"


def detectable_text(c, alpha, m, scale=1):
    """The change the design finds with 80% power at the family's strictest level."""
    if c.p is None or not c.test.can_reject():  # no test, or outside the family
        return "-"
    d = c.detectable(alpha / max(m, 1))
    if d is None:  # constant samples this few sittings cannot tell apart
        return "none"
    return f"{c.as_share(d):.1f}%" if c.ma else f"{d / scale:.1f}"


def print_column(col, table, label, alpha):
    """Print one column of A against one set; times (ns in the results) in us."""
    nrows, what, cells = table[col]
    m = tested(table["cells"])
    k = 1000 if col in NS_COLUMNS else 1
    print(f"\n{col}{' (us)' if k > 1 else ''}: A vs {label}")
    print(f"{what:>6} {'A mean':>11} {'sd':>8} {label + ' mean':>11} {'sd':>8} "
          f"{'diff':>10} {'change':>8}  {'95% CI':>18} {'detect':>7}  test")
    for t, c in enumerate(cells):
        name_t = "total" if t == nrows else f"{t}:"
        print(f"{name_t:>6} {c.ma / k:11.1f} {c.sa / k:8.1f} {c.mb / k:11.1f} {c.sb / k:8.1f} "
              f"{(c.mb - c.ma) / k:10.1f} {c.rel:+7.1f}%  {interval_text(c, k):>18} "
              f"{detectable_text(c, alpha, m, k):>7}  {c.words(alpha)}")


def verdicts(gates, alpha):
    """The --fail-if lines, and the exit status they make."""
    failed = undecided = 0
    for k, (ccol, _, spec, op, pct), c in gates:
        label = chr(ord("B") + k)
        out = gate(c, op, pct, alpha)
        what = "task" if ccol not in GROUP_COLUMNS else "group"
        moved = (f"{label}: {ccol} of {what} {spec} {'rose' if op == '>' else 'fell'} "
                 f"{c.rel:+.1f}% ({op} {'' if op == '>' else '-'}{pct:g}%)")
        if out == "fail":
            failed += 1
            print(f"FAIL {moved}, {c.words(alpha)}"
                  + (f" (the family: {len(gates)} conditions)" if len(gates) > 1 else ""))
        elif out == "undecided":
            undecided += 1
            print(f"UNDECIDED {moved}: " + (
                "one sitting a side, not evidence: give sittings (boots) of both, or "
                "--calibration" if c.p is None else undecided_why(c)))
    return 1 if failed else EXIT_UNDECIDED if undecided else 0
