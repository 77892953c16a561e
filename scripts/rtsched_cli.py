# SPDX-License-Identifier: GPL-2.0-only
"""What every script shares of its command line: where it runs from (the
source tree or an installed rtsched), where results go by default, its
argument parser, and its words.
"""

import argparse
import os
import sys


# Where the scripts run from: the source tree (scripts/ beside the Makefile),
# or an installed rtsched, whose libexec folder keeps the tree's layout
# without the Makefile (make install).
TOP = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
IN_TREE = os.path.exists(os.path.join(TOP, "Makefile"))


def results_dir(*parts):
    """The default folder for results: results/ of the source tree, or of the
    current folder when rtsched is installed."""
    return os.path.join(TOP if IN_TREE else os.getcwd(), "results", *parts)


def plural(n, word):
    """N WORD in words: '1 boot', '6 boots', '2 processes'."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word}{'es' if word.endswith(('s', 'x')) else 's'}"


class Parser(argparse.ArgumentParser):
    """argparse that reports bad usage in one line, exit 2, without the usage
    dump, and takes options only as written: an abbreviation (--cpu for
    --cpus) is refused, not matched, so that no option is taken for another
    or slips past the checks of the one it was meant as."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message):
        print(f"{self.prog}: {message}", file=sys.stderr)
        sys.exit(2)
