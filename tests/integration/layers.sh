#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# sanitizers: not run (it tests the layer rule, tests/layers, a script make analyze runs on every build)
# The layer rule (tests/layers, run by make analyze): the tree keeps it, and
# a copy of the tree with one breach planted is refused, naming the breach:
# an include going up a floor, one across to a sibling, one of the trace
# layer's internal headers from outside it, an unqualified include, and a
# call up a floor that no header declares (the objects' symbols, not the
# sources, are read for calls).
. "$(dirname "$0")/tap.bash"

check "the tree keeps the layer rule" tests/layers .

tree="$TMP/tree"
fresh() { rm -rf "$tree"; mkdir -p "$tree"; cp -r src "$tree/"; }
# refused FILE TEXT PATTERN DESCRIPTION: TEXT planted at the top of FILE is refused with PATTERN
refused() {
	fresh
	{ echo "$2"; cat "$tree/$1"; } >"$TMP/planted" && mv "$TMP/planted" "$tree/$1"
	tests/layers "$tree" >"$TMP/out" 2>&1
	ok $(( $? == 1 ? 0 : 1 )) "$4: exit 1"
	check "  names it: $3" grep -q -- "$3" "$TMP/out" || diag "$TMP/out"
}
refused src/lib/cpus.c '#include "bench/bench.h"' \
	'src/lib/cpus.c:1: includes "bench/bench.h": lib may use only itself' "an upward include"
refused src/trace/record.c '#include "cli/cli.h"' \
	'src/trace/record.c:1: includes "cli/cli.h": trace may use only lib' "an include across to a sibling"
refused src/migrate/run.c '#include "pi_stress/pi_stress.h"' \
	'src/migrate/run.c:1: includes "pi_stress/pi_stress.h": migrate may use only' "one program including another"
refused src/bench/driver.c '#include "trace/internal/walk.h"' \
	'includes "trace/internal/walk.h": internal to src/trace' "a trace-internal header outside src/trace"
refused src/cli/fit.c '#include "cli.h"' \
	'includes "cli.h": name its folder ("cli/cli.h")' "an unqualified include"

# refused_call FOLDER CODE PATTERN DESCRIPTION: an object of CODE compiled into src/FOLDER is refused
refused_call() {
	fresh
	printf '%s\n' "$2" >"$tree/src/$1/planted.c"
	${CC:-cc} -c -o "$tree/src/$1/planted.o" "$tree/src/$1/planted.c"
	tests/layers "$tree" >"$TMP/out" 2>&1
	ok $(( $? == 1 ? 0 : 1 )) "$4: exit 1"
	check "  names it" grep -q -- "$3" "$TMP/out" || diag "$TMP/out"
}
refused_call lib 'extern int bench_main(int, char **); int planted(void) { return bench_main(0, 0); }' \
	'src/lib/planted.o: calls bench_main of bench: lib may use only itself' "a call up a floor declared by hand"
refused_call bench 'void trace_pages_close(void *p); void planted(void) { trace_pages_close(0); }' \
	'src/bench/planted.o: calls trace_pages_close, internal to src/trace' \
	"a call of a trace-internal function from outside"

fresh
rm "$tree/src/spin/main.o"
tests/layers "$tree" >"$TMP/out" 2>&1
ok $(( $? != 0 ? 0 : 1 )) "an unbuilt folder is not taken as keeping the rule"
check "  says so" grep -q 'src/spin/main.c is not built' "$TMP/out" || diag "$TMP/out"
