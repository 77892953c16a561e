# SPDX-License-Identifier: GPL-2.0-only
"""TAP for the Python tests: ok(), raises(), done() (the plan at the end)."""

import sys

_count = 0
_failed = 0


def ok(cond, what):
    global _count, _failed
    _count += 1
    _failed += not cond
    print(f"{'' if cond else 'not '}ok {_count} - {what}", flush=True)
    return cond


def raises(fn, exc, text, what):
    """FN raises EXC with a one-line message holding TEXT."""
    try:
        fn()
    except exc as e:
        return ok(text in str(e) and "\n" not in str(e), f"{what}: {e}")
    return ok(False, f"{what}: no error")


def done():
    print(f"1..{_count}")
    sys.exit(1 if _failed else 0)
