#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Root never writes through a link another user plants. In a folder every
# user may write (no sticky bit), a hostile user watches for the suite's
# temporary names and, as each appears, plants links at the names the
# recorder writes next (FILE.tmp.XXXXXX.INSTANCE.cpuN, seen in trace-cmd's
# command line), renames a temporary folder away and puts a link to a
# folder of theirs in its place, and plants links at the names the scripts
# write (plot's, result-lines' logs). The files the links point to, and the
# folder, stay untouched; the outputs are whole.
. "$(dirname "$0")/tap.bash"
require_rt
command -v setpriv >/dev/null || { skip "setpriv (util-linux) is missing"; exit 0; }

# Mode 0755 up to U, which is 0777 without the sticky bit: "nobody" can
# rename and plant there; V (the victims) is root's.
R=$(mktemp -d /tmp/rtsched-links-XXXXXX)
tap_cleanup='rm -rf "$R"'
chmod 0755 "$R"
U=$R/shared V=$R/victims
mkdir -p "$U" "$V/dir"
chmod 0777 "$U" "$V/dir"
for i in 0 1 2 3; do echo precious >"$V/victim$i"; done
snapshot() { (cd "$V" && find . -maxdepth 1 -type f -printf '%p %s %T@\n' | sort; cat victim*) ; }
snapshot >"$TMP/before"

# attacker SECONDS PATTERN: as nobody, for SECONDS, plant links at every name
# the recorder would write beside each new temporary matching PATTERN (in U),
# swap each temporary folder for a link to V/dir and each temporary file for
# a link to a victim
attacker() {
	setpriv --reuid=65534 --regid=65534 --clear-groups env U="$U" V="$V" P="$2" S="$1" bash -c '
		end=$((SECONDS + S)); n=0
		while [ $SECONDS -lt $end ]; do
			inst=$(ps -o args= -C trace-cmd 2>/dev/null | grep -o "rtsched-[0-9]*-[0-9a-f]*" | head -1)
			for e in "$U"/$P; do
				[ -e "$e" ] || [ -L "$e" ] || continue
				case $e in *.cpu*|*.moved*) continue ;; esac
				for c in 0 1; do
					ln -s "$V/victim$c" "$e.$inst.cpu$c" 2>/dev/null && n=$((n + 1))
					ln -s "$V/victim$((c + 2))" "$e/$(basename "${e%.tmp.*}").$inst.cpu$c" 2>/dev/null && n=$((n + 1))
				done
				if [ -d "$e" ] && [ ! -L "$e" ] && mv "$e" "$e.moved" 2>/dev/null; then
					ln -s "$V/dir" "$e" && n=$((n + 1))
				elif [ -f "$e" ] && [ ! -L "$e" ] && rm -f "$e" 2>/dev/null; then
					ln -s "$V/victim0" "$e" && n=$((n + 1))
				fi
			done
			sleep 0.01
		done
		echo "planted $n"' >"$TMP/attacker" 2>&1
}
# the victims as they were; in their folder, nothing of root's (the hostile
# user's own links through the swapped folder are theirs)
untouched() { snapshot | diff "$TMP/before" - && [ -z "$(find "$V/dir" -mindepth 1 -user root)" ]; }

# attacked WHAT PATTERN COMMAND...: run COMMAND (exit 0 wanted) with the
# hostile user at work on PATTERN in U, then check that it changed nothing of V
attacked() {
	local what=$1 pattern=$2 apid
	shift 2
	rm -rf "${U:?}"/* 2>/dev/null
	attacker 6 "$pattern" &
	apid=$!
	sleep 0.5
	run_bounded 60 "$@"
	wait $apid
	check "$what with a hostile user in U: exit 0 (got $rc)" test "$rc" -eq 0 || diag "$TMP/err"
	check "  the hostile user planted links ($(cat "$TMP/attacker"))" grep -q '^planted [1-9]' "$TMP/attacker"
	check "  no file outside U changed, nothing written in their folder" untouched ||
		{ snapshot | diff "$TMP/before" - | diag; find "$V/dir" -mindepth 1 -user root | diag; }
}

attacked "migrate --trace-out U/x.dat" 'x.dat.tmp.*' ./migrate -q -t 3 -d 2 --trace-out "$U/x.dat"
run_bounded 60 ./analyse -q "$U/x.dat"
check "  the trace.dat is whole: analyse reads it (exit $rc)" \
	bash -c "[ $rc -eq 0 ] && grep -q '^Migrations' '$TMP/out'" || diag "$TMP/err"

# --trace's own temporary file, in a TMPDIR every user may write
attacked "migrate --trace with TMPDIR=U" 'rtsched-*.dat.tmp.*' env TMPDIR="$U" ./migrate -q -t 3 -d 2 --trace
check "  and the run's analysis is printed" grep -q '^Placement' "$TMP/out"

# plot's picture: its temporary file swapped for a link as it appears
attacked "plot -o U/p.png" 'p.png.tmp.*' scripts/plot results/reference/lwn-2011-before-pi.json \
	results/reference/lwn-2011-after-pi.json -o "$U/p.png"
check "  the picture is there, a file" bash -c "[ -f '$U/p.png' ] && [ ! -L '$U/p.png' ] && [ -s '$U/p.png' ]"

# result-lines --logs: a link planted at a log's name beforehand
rm -rf "${U:?}"/*
mkdir -p "$U/logs" && chmod 0777 "$U/logs"
setpriv --reuid=65534 --regid=65534 --clear-groups ln -s "$V/victim1" "$U/logs/migrate-run.log"
run_bounded 60 scripts/result-lines --logs "$U/logs" results/reference/lwn-2011-after-pi.json
check "result-lines --logs U/logs with a link planted at migrate-run.log: exit 0 (got $rc)" \
	test "$rc" -eq 0 || diag "$TMP/err"
check "  the link's target is untouched" untouched || { snapshot | diff "$TMP/before" - | diag; }
check "  the log replaced the link: a file of its own" \
	bash -c "[ -f '$U/logs/migrate-run.log' ] && [ ! -L '$U/logs/migrate-run.log' ] && [ -s '$U/logs/migrate-run.log' ]"
