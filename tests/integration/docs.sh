# SPDX-License-Identifier: GPL-2.0-only
# Every option is documented in --help, the man page and the README
# (make install: tests/integration/install.sh).
. "$(dirname "$0")/tap.bash"

for prog in migrate pi_stress spin analyse; do
	src=src/$prog/main.c
	page=$(ls man/$prog.[18])
	# the program's own options, and the common ones it takes from src/cli
	srcs=$src
	grep -q CLI_LONG_OPTIONS "$src" && srcs="$src src/cli/cli.h"
	opts=$(cat $srcs | grep -oE '\{ "[a-z-]+", (required|no)_argument' | cut -d'"' -f2)
	check "$prog: the option table was found" test -n "$opts"
	./$prog --help >"$TMP/help"
	for o in $opts; do
		# the short letter, or none for a long-only option
		short=$(cat $srcs | grep -E "\{ \"$o\", " | grep -oE "'[a-zA-Z]'" | tr -d "'")
		flag=${short:+-$short, }--$o
		check "$prog $flag is in --help" grep -qE -- "(^| )$flag( |$)" "$TMP/help"
		check "$prog --$o is in $page" grep -qE -- "\\\\-\\\\-${o//-/\\\\-}" $page
		check "$prog $flag is in README.md" grep -q -- "\`$flag" README.md
	done
	if command -v groff >/dev/null; then
		groff -man -ww -z $page 2>"$TMP/groff"
		check "$page renders without warnings" test ! -s "$TMP/groff"
	else
		skip "groff is not installed: the man page is not rendered"
	fi
done

# the scripts: every long option of their argument parser is in their man page
for pair in batch:rtsched-batch.8 compare:rtsched-compare.1 plot:rtsched-plot.1 \
	kernel-matrix:rtsched-kernel-matrix.8 kernel-variant:rtsched-kernel-variant.8 \
	reproduce:rtsched-reproduce.8 result-lines:rtsched-result-lines.1 bisect:rtsched-bisect.8 \
	calibrate:rtsched-calibrate.8; do
	script=scripts/${pair%%:*} page=man/${pair#*:}
	opts=$(grep 'add_argument(' "$script" | grep -oE '"--[a-z-]+"' | tr -d '"')
	check "$script: the options were found" test -n "$opts"
	for o in $opts; do
		check "$script $o is in $page" grep -qE -- "${o//-/\\\\-}" "$page"
	done
	# --help says what each option does: words after it, or on the next line
	$script --help >"$TMP/help" 2>&1
	for o in $opts; do
		check "$script --help says what $o does" awk -v o="$o" '
			BEGIN { lead = "^  (-[a-z]( [A-Z_]+)?, )?" o "( [A-Z_:.]+| [{][^}]*[}])?" }
			found && /^          +[^ ]/ { ok = 1; exit }
			found { exit }
			$0 ~ lead "  +[^ ]" { ok = 1; exit }
			$0 ~ lead "$" { found = 1 }
			END { exit !ok }' "$TMP/help"
	done
	if command -v groff >/dev/null; then
		groff -man -ww -z "$page" 2>"$TMP/groff"
		check "$page renders without warnings" test ! -s "$TMP/groff"
	fi
done
