# SPDX-License-Identifier: GPL-2.0-only
# Every option is documented in --help, the man page and the task guides
# (doc/, or the README) (make install: tests/integration/install.sh).
. "$(dirname "$0")/tap.bash"

for prog in migrate pi_stress spin analyse; do
	src=src/$prog/main.c
	page=$(ls man/$prog.[18])
	# the program's own options, and the common ones it takes from src/cli
	# and src/bench (-d, -b)
	srcs=$src
	grep -q CLI_LONG_OPTIONS "$src" && srcs="$srcs src/cli/cli.h"
	grep -q BENCH_LONG_OPTIONS "$src" && srcs="$srcs src/bench/bench.h"
	opts=$(cat $srcs | grep -oE '\{ "[a-z-]+", (required|no)_argument' | cut -d'"' -f2)
	check "$prog: the option table was found" test -n "$opts"
	./$prog --help >"$TMP/help"
	for o in $opts; do
		# the short letter, or none for a long-only option
		short=$(cat $srcs | grep -E "\{ \"$o\", " | grep -oE "'[a-zA-Z]'" | tr -d "'")
		flag=${short:+-$short, }--$o
		check "$prog $flag is in --help" grep -qE -- "(^| )$flag( |$)" "$TMP/help"
		check "$prog --$o is in $page" grep -qE -- "\\\\-\\\\-${o//-/\\\\-}" $page
		check "$prog $flag is in doc/ or README.md" grep -q -- "\`$flag" README.md doc/*.md
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
	# every script ends a failed file operation (a full disk, an unwritable
	# cache or results folder) in exit 3 (rtsched_proc.run_main): said
	check "$page's EXIT STATUS gives 3, a failed file operation (every script's)" \
		bash -c "sed -n '/^\.SH EXIT STATUS/,/^\.SH/p' '$page' | tr '\n' ' ' | grep -qE '(^|[;,] )3 [a-z]'"
done

# --- the figures the documents state that a test can check
# each integer option's range in --help is the one the program accepts (the
# value past its top is refused naming the same range) and the one its man
# page gives
for prog in migrate pi_stress spin analyse; do
	page=$(ls man/$prog.[18])
	/usr/bin/python3 - "$prog" "$page" >"$TMP/ranges" <<'PY'
import re, subprocess, sys
prog, page = sys.argv[1], sys.argv[2]
run = lambda *a: subprocess.run(['./' + prog, *a], capture_output=True, text=True, timeout=30)
man = open(page).read()
items = {}
for m in re.finditer(r'^\.TP[^\n]*\n([^\n]*)\n(.*?)(?=^\.TP|^\.SH|\Z)', man, re.M | re.S):
    for o in re.findall(r'\\-\\-([a-z][a-z\\-]*)', m.group(1)):
        items.setdefault(o.replace('\\', ''), m.group(1) + '\n' + m.group(2))
for line in run('--help').stdout.split('\n'):
    m = re.match(r'\s+(?:-\w, )?--([a-z-]+)\s+[A-Z]+\s+(.*)', line)
    r = m and re.search(r'\b(\d+)-(\d+)\b', m.group(2))
    if not r or m.group(1) in ('cpus', 'pid'):   # CPU and pid lists: examples, not ranges
        continue
    o, (lo, hi) = m.group(1), r.groups()
    man_ok = re.search(r'\b%s( to |\\-|-)%s\b' % (lo, hi), items.get(o, '')) is not None
    print('%s --%s %s-%s: the man page says it: %s' % (prog, o, lo, hi, man_ok))
    if prog != 'analyse':   # analyse reads a file first; its options are checked by the page
        err = run('--' + o, str(int(hi) + 1)).stderr
        said = ('from %s to %s' % (lo, hi)) in err
        print('%s --%s %s-%s: --%s %d is refused with that range: %s' % (prog, o, lo, hi, o, int(hi) + 1, said))
PY
	check "$prog: its integer options' ranges were found" test -s "$TMP/ranges"
	while IFS= read -r line; do
		ok $([ "${line##*: }" = True ] && echo 0 || echo 1) "${line%: *}"
	done <"$TMP/ranges"
done

# the README is a front door: the guides it names exist and each is named
lines=$(wc -l <README.md)
check "README.md is a front door: $lines lines, at most 300" test "$lines" -le 300
for f in doc/*.md; do
	check "README.md names $f" grep -qF "($f)" README.md
done
grep -oE '\]\([^)#]+' README.md doc/*.md | while IFS= read -r link; do
	from=${link%%:*} to=${link#*](}
	case "$to" in http*) continue ;; esac
	[ -e "$(dirname "$from")/$to" ] || echo "$from -> $to"
done >"$TMP/dangling"
check "every link between README.md and doc/ leads to a file" test ! -s "$TMP/dangling" ||
	diag "$TMP/dangling"
# the layout block names every folder of src/ and the test time limit tests/run gives
for d in src/*/; do
	check "the README's layout names $d" grep -q "^${d} " README.md
done
limit=$(sed -n 's/^TIMEOUT=\${RTSCHED_TEST_TIMEOUT:-\([0-9]*\)}$/\1/p' tests/run)
check "the README states tests/run's time limit ($limit s)" grep -q "a test's time limit: $limit s" README.md
