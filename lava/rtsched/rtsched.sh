#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# rtsched in a test lab: run the benchmarks with --json and turn each result
# into test-case lines, `name pass|fail|skip [measurement [units]]`, in
# output/result.txt (scripts/result-lines of rtsched writes them), the form
# Linaro test-definitions' send-to-lava.sh reads. rtsched.yaml beside this
# file calls it; the folder works dropped into a test-definitions checkout as
# automated/linux/rtsched/ and from rtsched's repository as lava/rtsched/.
#
#   rtsched.sh [-b "migrate pi_stress spin"] [-m MODE] [-t THREADS] [-l LOCKS]
#              [-p true|false] [-d DURATION] [-L LOOPS] [-r REPEATS]
#              [-w BACKGROUND_CMD] [-B BASELINE] [-f "COND ..."]
#              [-R RTSCHED] [-s true|false] [-P PACKAGE]
#   rtsched.sh -S FILE    send FILE's lines as LAVA test cases (where
#                         test-definitions' send-to-lava.sh is not at hand)
#
# With -P (a Debian package: a .deb path or http(s) URL), rtsched is that
# package, installed with apt-get (which fetches what it depends on) before
# anything runs. Else rtsched is found in -R (a source tree or an installed
# libexec/rtsched or lib/rtsched folder), else installed (rtsched-migrate
# in PATH), else in the tree this folder belongs to; its programs are used
# as built there, else its static ones (make static), else it is built
# (installing what the build needs with scripts/install-deps --build,
# unless -s true). One case says which: rtsched-install-package (pass, or
# fail with apt's line, every benchmark then failing with it),
# rtsched-install-built (built here), rtsched-install-found (installed or
# built already); its log names the version and where.
#
# Verdicts are test cases, never the exit status: LAVA runs the steps under
# `set -e`, and a failing step would end the whole definition. Exit status:
# 0 the cases were written, 2 bad usage of this script, 130 or 143 stopped
# by SIGINT or SIGTERM (the running benchmark is told, and what it wrote
# becomes cases all the same).
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
OUTPUT="$HERE/output"
RESULT_FILE="$OUTPUT/result.txt"

BENCHMARKS=migrate MODE=contention THREADS="" LOCKS="" PI=true DURATION=10s LOOPS=""
REPEATS=3 BACKGROUND_CMD="" BASELINE="" FAIL_IF="" RTSCHED="" SKIP_INSTALL=false SEND="" PACKAGE=""
BUILT="" NORECS=""

usage() {
	echo "usage: $0 [-b BENCHMARKS] [-m MODE] [-t THREADS] [-l LOCKS] [-p true|false]" \
		"[-d DURATION] [-L LOOPS] [-r REPEATS] [-w BACKGROUND_CMD] [-B BASELINE]" \
		"[-f FAIL_IF] [-R RTSCHED] [-s true|false] [-P PACKAGE] | -S FILE" >&2
	exit 2
}

while getopts "b:m:t:l:p:d:L:r:w:B:f:R:s:S:P:" opt; do
	case "$opt" in
	b) BENCHMARKS=$OPTARG ;;
	m) MODE=$OPTARG ;;
	t) THREADS=$OPTARG ;;
	l) LOCKS=$OPTARG ;;
	p) PI=$OPTARG ;;
	d) DURATION=$OPTARG ;;
	L) LOOPS=$OPTARG ;;
	r) REPEATS=$OPTARG ;;
	w) BACKGROUND_CMD=$OPTARG ;;
	B) BASELINE=$OPTARG ;;
	f) FAIL_IF=$OPTARG ;;
	R) RTSCHED=$OPTARG ;;
	s) SKIP_INSTALL=$OPTARG ;;
	S) SEND=$OPTARG ;;
	P) PACKAGE=$OPTARG ;;
	*) usage ;;
	esac
done
[ "$OPTIND" -gt $# ] || usage

say() {
	echo "rtsched.sh: $*"
}

# send FILE: each line `name result [measurement [units]]` as lava-test-case,
# or as the signal line LAVA reads from the log where that is not installed;
# a case's diagnostics (NAME.log beside FILE) are shown with it.
send() {
	dir=$(dirname "$1")
	[ -r "$1" ] || { say "no result file $1"; return 0; }
	while read -r name result measurement units; do
		case "$result" in
		pass | fail | skip | unknown) ;;
		*) continue ;;
		esac
		if [ -r "$dir/$name.log" ]; then
			echo "<LAVA_SIGNAL_STARTTC $name>"
			cat "$dir/$name.log"
			echo "<LAVA_SIGNAL_ENDTC $name>"
		fi
		if command -v lava-test-case >/dev/null 2>&1; then
			if [ -n "$measurement" ]; then
				lava-test-case "$name" --result "$result" --measurement "$measurement" \
					--units "${units:-none}"
			else
				lava-test-case "$name" --result "$result"
			fi
		else
			echo "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$name RESULT=$result${measurement:+ MEASUREMENT=$measurement}${units:+ UNITS=$units}>"
		fi
	done <"$1"
}

if [ -n "$SEND" ]; then
	send "$SEND"
	exit 0
fi

# a case this script decides (the run could not start): NAME RESULT WHY
report() {
	echo "$1 $2" >>"$RESULT_FILE"
	echo "$3" >"$OUTPUT/$1.log"
	say "$1 $2: $3"
}

# fetch URL FILE: with curl, else wget
fetch() {
	if command -v curl >/dev/null 2>&1; then
		curl -fsSL -o "$2" "$1"
	else
		wget -q -O "$2" "$1"
	fi
}

# install PACKAGE (a .deb path or URL) with apt-get, or WHY not
install_package() {
	case "$PACKAGE" in
	http://* | https://*)
		deb=$OUTPUT/${PACKAGE##*/}
		case "$deb" in *.deb) ;; *) deb=$OUTPUT/rtsched.deb ;; esac
		say "package: fetching $PACKAGE"
		fetch "$PACKAGE" "$deb" || { WHY="PACKAGE '$PACKAGE': cannot fetch it"; return 1; }
		;;
	/*) deb=$PACKAGE ;;
	*) deb=$PWD/$PACKAGE ;;
	esac
	[ -f "$deb" ] && [ -r "$deb" ] || { WHY="PACKAGE '$PACKAGE': no such readable file"; return 1; }
	say "package: apt-get install $deb"
	# apt takes a path to a .deb as a package; it fetches what the package
	# depends on, and what it recommends (trace-cmd for --trace,
	# python3-scipy for FAIL_IF): a device that cannot fetch those (offline,
	# no mirror) gets the package without them, said in the log
	if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$deb" >"$OUTPUT/install.log" 2>&1; then
		say "package: with what it recommends it could not be installed ($(grep -v '^ *$' "$OUTPUT/install.log" | tail -n 1)); without them"
		if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$deb" \
			>>"$OUTPUT/install.log" 2>&1; then
			WHY="PACKAGE '$PACKAGE': apt-get install failed: $(grep -v '^ *$' "$OUTPUT/install.log" | tail -n 1)"
			return 1
		fi
		NORECS=" (without what it recommends: apt could not fetch them)"
	fi
	command -v rtsched-migrate >/dev/null 2>&1 ||
		{ WHY="PACKAGE '$PACKAGE' installed no rtsched-migrate: not rtsched's package"; return 1; }
}

# TOP (rtsched's folder) and LINES (its result-lines), or WHY not
find_rtsched() {
	if [ -n "$PACKAGE" ]; then
		TOP=$(dirname "$(readlink -f "$(command -v rtsched-migrate)")")
	elif [ -n "$RTSCHED" ]; then
		TOP=$RTSCHED
	elif m=$(command -v rtsched-migrate); then
		TOP=$(dirname "$(readlink -f "$m")")
	elif [ -f "$HERE/../../Makefile" ] && [ -x "$HERE/../../scripts/result-lines" ]; then
		TOP=$(cd "$HERE/../.." && pwd)
	else
		WHY="no rtsched here: install it (make install), or give its folder (RTSCHED)"
		return 1
	fi
	LINES=$TOP/scripts/result-lines
	if [ ! -x "$LINES" ]; then
		WHY="RTSCHED '$TOP': no scripts/result-lines there (a source tree, libexec/rtsched or lib/rtsched)"
		return 1
	fi
	say "rtsched: $TOP"
}

# the program for benchmark $1: built, else static, else built now; or a reason
find_program() {
	if [ -x "$TOP/$1" ] && "$TOP/$1" -V >/dev/null 2>&1; then
		echo "$TOP/$1"
	elif [ -x "$TOP/static/$1" ] && "$TOP/static/$1" -V >/dev/null 2>&1; then
		echo "$TOP/static/$1"
	elif [ -f "$TOP/Makefile" ]; then
		if [ "$SKIP_INSTALL" != true ] && ! "$TOP/scripts/install-deps" --build >&2; then
			echo "cannot install what building rtsched needs (scripts/install-deps --build)"
			return 1
		fi
		say "building rtsched in $TOP (log: $OUTPUT/build.log)" >&2
		BUILT=1
		if ! make -C "$TOP" "$1" >"$OUTPUT/build.log" 2>&1; then
			echo "building $1 failed: $(tail -n 1 "$OUTPUT/build.log")"
			return 1
		fi
		echo "$TOP/$1"
	else
		echo "no $1 in $TOP, built or static (make, or make static)"
		return 1
	fi
}

BG=""
background_start() {
	[ -n "$BACKGROUND_CMD" ] || return 0
	# its own session: stopped as a whole, whatever it starts
	setsid sh -c "$BACKGROUND_CMD" >"$OUTPUT/background.log" 2>&1 &
	BG=$!
	say "background workload (pid $BG): $BACKGROUND_CMD"
}

# its whole process group: SIGTERM, and SIGKILL 5 s later if it is still there
background_stop() {
	[ -n "$BG" ] || return 0
	kill -TERM "-$BG" 2>/dev/null
	i=0
	# (a child that has exited stays a zombie until waited for: not alive)
	while grep -qs '^State:[[:space:]]*[^Z[:space:]]' "/proc/$BG/status" && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -KILL "-$BG" 2>/dev/null
	wait "$BG" 2>/dev/null
	say "background workload stopped"
	BG=""
}

# run benchmark $1 and append its cases to result.txt
run_benchmark() {
	b=$1
	json="$OUTPUT/$b.json" err="$OUTPUT/$b.stderr"
	if ! prog=$(find_program "$b"); then
		report "$b-run" fail "$prog"
		return
	fi
	set -- "$prog"
	case "$b" in
	migrate)
		set -- "$@" -m "$MODE"
		[ -z "$THREADS" ] || set -- "$@" -t "$THREADS"
		[ -z "$LOCKS" ] || set -- "$@" -l "$LOCKS"
		[ "$PI" = true ] && set -- "$@" -p
		if [ "$MODE" = contention ]; then
			set -- "$@" -d "$DURATION"
		elif [ -n "$LOOPS" ]; then
			set -- "$@" -L "$LOOPS"
		fi
		;;
	pi_stress)
		set -- "$@" -d "$DURATION"
		;;
	spin)
		set -- "$@" -d "$DURATION"
		[ -z "$THREADS" ] || set -- "$@" -t "$THREADS"
		;;
	esac
	set -- "$@" -r "$REPEATS" --json "$json"
	say "running: $*"
	"$@" 2>"$err" &
	PID=$!
	rc=""
	while [ -z "$rc" ]; do
		wait "$PID"
		st=$?
		# a signal to this script interrupts wait (> 128) while the benchmark,
		# told too, ends its run and writes its result: wait for it
		if [ $st -gt 128 ] && kill -0 "$PID" 2>/dev/null; then
			continue
		fi
		rc=$st
	done
	PID=""
	cat "$err" >&2
	say "$b: exit $rc"
	set -- "$LINES" --name "$b" --status "$rc" --stderr "$err" --logs "$OUTPUT"
	if [ -n "$FAIL_IF" ]; then
		set -- "$@" --baseline "$BASELINE"
		for cond in $FAIL_IF; do
			set -- "$@" --fail-if "$cond"
		done
	fi
	[ -s "$json" ] && set -- "$@" "$json"
	if ! "$@" >>"$RESULT_FILE" 2>"$OUTPUT/$b-results.stderr"; then
		report "$b-results" fail "$(tail -n 1 "$OUTPUT/$b-results.stderr")"
	fi
	cat "$OUTPUT/$b-results.stderr"
}

set -f # the conditions hold '<', '>' and '%', never a pattern
rm -rf "$OUTPUT"
mkdir -p "$OUTPUT"
: >"$RESULT_FILE"

case "$PI" in
true | false) ;;
*)
	for b in $BENCHMARKS; do
		report "$b-run" fail "invalid PI '$PI': expected true or false"
	done
	exit 0
	;;
esac
if [ -z "$(echo $BENCHMARKS)" ]; then
	report rtsched-run fail "invalid BENCHMARKS '$BENCHMARKS': expected one or more of migrate, pi_stress and spin"
	exit 0
fi
seen=" "
for b in $BENCHMARKS; do
	case "$b" in
	migrate | pi_stress | spin) ;;
	*)
		report "$b-run" fail "invalid BENCHMARKS '$BENCHMARKS': '$b' is not migrate, pi_stress or spin"
		exit 0
		;;
	esac
	case "$seen" in
	*" $b "*)
		report "$b-run" fail "invalid BENCHMARKS '$BENCHMARKS': '$b' is given twice: each once"
		exit 0
		;;
	esac
	seen="$seen$b "
done

if [ -n "$PACKAGE" ] && ! install_package; then
	report rtsched-install-package fail "$WHY"
	for b in $BENCHMARKS; do
		report "$b-run" fail "$WHY"
	done
	exit 0
fi
if ! find_rtsched; then
	for b in $BENCHMARKS; do
		report "$b-run" fail "$WHY"
	done
	exit 0
fi
# BASELINE: a file or folder, or several files or URLs (the results of
# several jobs, each a sitting), space-separated: a list of them for
# result-lines (@LIST), URLs fetched into output/baseline/
case "$BASELINE" in
*" "* | http://* | https://*)
	mkdir -p "$OUTPUT/baseline"
	: >"$OUTPUT/baseline.list"
	n=0
	for src in $BASELINE; do
		n=$((n + 1))
		case "$src" in
		http://* | https://*)
			dst=$OUTPUT/baseline/$n.json
			say "baseline: fetching $src"
			fetch "$src" "$dst" || say "baseline: cannot fetch $src: the conditions will say so"
			;;
		/*) dst=$src ;;
		*) dst=$PWD/$src ;;
		esac
		echo "$dst" >>"$OUTPUT/baseline.list"
	done
	BASELINE=@$OUTPUT/baseline.list
	;;
esac

# SIGINT or SIGTERM: the benchmark running is told, its result becomes
# cases, the benchmarks after it are skipped, and the script exits 128 + N
STOP="" PID=""
stop() {
	STOP=$1
	[ -z "$PID" ] || kill "-$2" "$PID" 2>/dev/null
}
trap background_stop EXIT
trap 'stop 130 INT' INT
trap 'stop 143 TERM' TERM
background_start
for b in $BENCHMARKS; do
	if [ -n "$STOP" ]; then
		report "$b-run" skip "stopped (exit $STOP) before it ran"
		continue
	fi
	run_benchmark "$b"
done
background_stop
# which rtsched ran: the package given, built here, or found
version=$("$TOP/migrate" -V 2>/dev/null || "$TOP/static/migrate" -V 2>/dev/null)
if [ -n "$PACKAGE" ]; then
	report rtsched-install-package pass "installed $PACKAGE$NORECS: ${version:-version unknown}, in $TOP"
elif [ -n "$BUILT" ]; then
	report rtsched-install-built pass "built in $TOP: ${version:-version unknown}"
else
	report rtsched-install-found pass "found in $TOP: ${version:-version unknown}"
fi

say "result lines ($RESULT_FILE):"
cat "$RESULT_FILE"
exit "${STOP:-0}"
