#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The repository holds only what belongs: no empty tracked file, no file
# whose name looks like a shell redirect gone wrong, and no top-level entry
# (tracked, or untracked and not ignored) that the README's layout does not
# document. An empty file named "3: expected COLUMN:TASK>PCT%" was once
# committed at the top.
. "$(dirname "$0")/tap.bash"

if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "# SKIP not a git checkout: the tracked files cannot be listed"
	trap - EXIT
	exit 4
fi
files() { git ls-files; git ls-files --others --exclude-standard; }

# empty files, but for the markers that are empty on purpose
files | while IFS= read -r f; do
	[ -f "$f" ] && [ ! -s "$f" ] && case "$f" in */.gitkeep | */__init__.py) ;; *) echo "$f" ;; esac
done >"$TMP/empty"
check "no empty file in the repository" test ! -s "$TMP/empty" || diag "$TMP/empty"

files | grep '[:<>|"*?]' >"$TMP/odd"
check "no file name with : < > | \" * or ?" test ! -s "$TMP/odd" || diag "$TMP/odd"

# the README's layout block: the first word of each line is an entry
layout=$(awk '/^## Layout/ { on = 1 } on && /^```/ { n++; if (n == 2) exit; next } on && n == 1 { print $1 }' README.md)
check "the README has a layout block" test -n "$layout"
files | cut -d/ -f1 | sort -u | while IFS= read -r top; do
	case "$top" in README.md | .gitignore) continue ;; esac
	documented=0
	for e in $layout; do
		[ "$e" = "$top" ] || [ "${e#"$top"/}" != "$e" ] && documented=1
	done
	[ "$documented" -eq 1 ] || echo "$top"
done >"$TMP/undocumented"
check "every top-level entry is in the README's layout" test ! -s "$TMP/undocumented" ||
	diag "$TMP/undocumented"

# make check-asan and check-tsan leave out the tests that test no sanitized
# program, each named with its reason (tests/run); every test that boots a
# guest is one of them, and make check still runs it
env -u RTSCHED_SANITIZED_ALL RTSCHED_SANITIZED=address tests/run kernel_variant.sh >"$TMP/san" 2>&1
check "under the sanitizers a marked test is listed with its reason, not run" \
	grep -q '^integration/kernel_variant.sh  *not run under the sanitizers: it tests a Python script' "$TMP/san" ||
	diag "$TMP/san"
check "and counted nowhere" grep -qx '0 passed, 0 failed, 0 skipped' "$TMP/san"
# with RTSCHED_SANITIZED_ALL (the fresh root's run) it is run, and counted
RTSCHED_SANITIZED=address RTSCHED_SANITIZED_ALL=1 tests/run apt_sources.sh >"$TMP/all" 2>&1
check "with RTSCHED_SANITIZED_ALL a marked test is run and counted" \
	grep -qE '^[1-9][0-9]* passed, 0 failed, 0 skipped$' "$TMP/all" || diag "$TMP/all"
for t in $(grep -l '^\. .*guest\.bash"$' tests/integration/*.sh); do
	check "${t##*/} boots guests and is left to make check under the sanitizers" \
		grep -q '^# sanitizers: not run (' "$t"
done
