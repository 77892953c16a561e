#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make install puts everything a user runs in place under names that cannot
# collide with rt-tests (rtsched-NAME: rt-tests owns pi_stress and
# pi_stress(8)), and the installed tools work from a clean PATH with the
# source tree out of sight: two runs, compared and plotted. make uninstall
# takes it all away.
. "$(dirname "$0")/tap.bash"
require_rt

D=$TMP/root
top=$PWD
run_bounded 300 make --no-print-directory install DESTDIR="$D" prefix=/usr
ok $rc "make install DESTDIR=... prefix=/usr (exit $rc)" || diag "$TMP/err"
(cd "$D/usr" && find . | sort) >"$TMP/tree"

progs="migrate pi_stress spin analyse batch bisect calibrate compare plot kernel-matrix kernel-variant reproduce result-lines"
for p in $progs; do
	check "  installs rtsched-$p, executable" test -x "$D/usr/bin/rtsched-$p"
done
for m in man/*.[18]; do
	n=${m#man/}
	n=rtsched-${n#rtsched-}
	check "  and its page $n" test -s "$D/usr/share/man/man${m##*.}/$n"
done
find "$D/usr/bin" "$D/usr/share/man" -type f -o -type l | grep -v '/rtsched-[^/]*$' >"$TMP/other"
check "  nothing in bin or man but rtsched-*" test ! -s "$TMP/other" || diag "$TMP/other"
check "  rtsched-pi_stress.8 is titled as installed" grep -q '^\.TH RTSCHED-PI_STRESS 8' "$D/usr/share/man/man8/rtsched-pi_stress.8"
check "  rtsched-compare.1 names the command as installed" \
	bash -c "grep -q '^\.B rtsched-compare' '$D/usr/share/man/man1/rtsched-compare.1' && ! grep -q 'scripts/compare' '$D/usr/share/man/man1/rtsched-compare.1'"
grep -n '^\.BR \(migrate\|pi_stress\|spin\|analyse\) (\|[^-]\b\(migrate\|pi_stress\|spin\)(8)\|[^-]\banalyse(1)' \
	"$D"/usr/share/man/man?/* >"$TMP/xref"
check "  the installed pages refer to each other by their installed names (rtsched-migrate(8))" \
	test ! -s "$TMP/xref" || diag "$TMP/xref"
chmod 755 "$TMP"
run_bounded 30 setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
	"$D/usr/bin/rtsched-migrate" -d 0.1
check "  as a user without RT privilege, the installed migrate names its own file for setcap (exit $rc)" \
	bash -c "[ $rc -eq 4 ] && grep -qF 'setcap cap_sys_nice,cap_ipc_lock+ep $D/usr/libexec/rtsched/migrate)' '$TMP/err'" ||
	diag "$TMP/err"
for m in "$D"/usr/share/man/man?/*; do
	groff -man -ww -z "$m" 2>"$TMP/groff"
	check "  ${m##*/} renders without warnings" test ! -s "$TMP/groff" || diag "$TMP/groff"
done

# The installed tools alone: a clean environment, the tree hidden under a
# tmpfs in a mount namespace of their own, working in an empty folder.
W=$TMP/work
mkdir -p "$W"
installed() { # installed COMMAND: run COMMAND (sh) with only the installed rtsched
	run_bounded 120 unshare -m sh -c 'mount -t tmpfs rtsched-hidden "$1" && cd "$2" &&
		exec env -i PATH="$3/usr/bin:/usr/bin:/bin" HOME="$2" sh -c "$4"' sh "$top" "$W" "$D" "$1"
}
installed 'test ! -e '"$top"'/Makefile && command -v rtsched-migrate'
check "the tree is out of sight and rtsched-migrate is in PATH (exit $rc)" \
	bash -c "[ $rc -eq 0 ] && grep -qx '$D/usr/bin/rtsched-migrate' '$TMP/out'"
installed 'rtsched-migrate -q -t 3 -d 0.3 --json a.json && rtsched-migrate -q -t 3 -d 0.3 -p --json b.json'
check "rtsched-migrate runs twice, with --json (exit $rc)" test "$rc" -eq 0 || diag "$TMP/err"
installed 'rtsched-compare a.json b.json'
check "rtsched-compare compares the two results (exit $rc)" \
	bash -c "[ $rc -eq 0 ] && grep -q '^migrated: A vs B' '$TMP/out'" || diag "$TMP/err"
installed 'rtsched-plot a.json b.json -o m.png'
check "rtsched-plot draws them (exit $rc)" bash -c "[ $rc -eq 0 ] && [ -s '$W/m.png' ]" || diag "$TMP/err"
installed 'rtsched-migrate -q -t 3 -d 0.3 --trace-out t.dat && rtsched-analyse -q t.dat && rtsched-plot --timeline t.dat -o t.png'
check "rtsched-migrate --trace-out, rtsched-analyse and rtsched-plot --timeline of its trace.dat (exit $rc)" \
	bash -c "[ $rc -eq 0 ] && grep -q '^Migrations' '$TMP/out' && [ -s '$W/t.png' ]" || diag "$TMP/err"
installed 'rtsched-pi_stress -q -i 200'
check "rtsched-pi_stress runs (exit $rc)" test "$rc" -eq 0 || diag "$TMP/err"
installed 'rtsched-batch --dry-run'
check "rtsched-batch runs the installed programs and stores under ./results (exit $rc)" \
	bash -c "[ $rc -eq 0 ] && grep -q '^$D/usr/libexec/rtsched/migrate .*--json $W/results/' '$TMP/out'" ||
	diag "$TMP/out"
cp -a lava/rtsched "$W/def" && rm -rf "$W/def/output"
installed 'sh def/rtsched.sh -t 3 -d 0.3 -r 2 && rtsched-result-lines a.json'
check "the lab definition finds the installed rtsched and writes its cases (exit $rc)" \
	bash -c "[ $rc -eq 0 ] && grep -q 'rtsched: $D/usr/libexec/rtsched' '$TMP/out' &&
		grep -qx 'migrate-run pass' '$W/def/output/result.txt' &&
		grep -qE '^migrate-t2-migrated pass [0-9.]+ migrations$' '$TMP/out'" || diag "$TMP/out"
installed 'rtsched-kernel-matrix --help && rtsched-kernel-variant --help && rtsched-reproduce --help && rtsched-bisect --help'
check "the kernel scripts find their modules (exit $rc)" test "$rc" -eq 0 || diag "$TMP/err"
installed 'test -x "$(dirname "$(readlink -f "$(command -v rtsched-kernel-matrix)")")/../static/migrate"'
check "the static programs for the guest are installed beside them" test "$rc" -eq 0

run_bounded 60 make --no-print-directory uninstall DESTDIR="$D" prefix=/usr
ok $rc "make uninstall (exit $rc)"
find "$D" -type f -o -type l >"$TMP/left"
check "  leaves no file behind" test ! -s "$TMP/left" || diag "$TMP/left"

# --- a DESTDIR and a prefix with spaces and a quote: each is one path, end to
# end; uninstall removes what install wrote and nothing else (it once ran
# rm -rf on the DESTDIR's first word, and install left folders in the tree)
S=$TMP/stage
git -C "$top" ls-files --others --exclude-standard >"$TMP/untracked"
mkdir -p "$S" && echo mine >"$S/keep"
D2="$TMP/stage dir/it's"
P2="/opt/my rt"
run_bounded 300 make --no-print-directory install DESTDIR="$D2" prefix="$P2"
ok $rc "make install DESTDIR='$D2' prefix='$P2' (exit $rc)" || diag "$TMP/err"
(cd "$D2$P2" 2>/dev/null && find . | sort) >"$TMP/tree2"
check "  writes the same tree as prefix=/usr, under the whole path" diff "$TMP/tree" "$TMP/tree2" ||
	diff "$TMP/tree" "$TMP/tree2" | head -20 | diag
check "  and nothing beside it: not the DESTDIR's first word, not in the source tree" \
	env S="$S" TMP="$TMP" top="$top" bash -c '[ "$(ls -A "$S")" = keep ] && [ "$(ls -A "$TMP/stage dir")" = "it'\''s" ] &&
		[ ! -e "$top/dir" ] && [ ! -e "$top/rt" ] && [ ! -e "$TMP/dir" ] &&
		git -C "$top" ls-files --others --exclude-standard | cmp -s - "$TMP/untracked"'
run_bounded 60 "$D2$P2/bin/rtsched-migrate" --help
check "  its rtsched-migrate link runs the installed program (exit $rc)" \
	env rc=$rc L="$D2$P2/bin/rtsched-migrate" bash -c '[ $rc -eq 0 ] && [ "$(readlink "$L")" = ../libexec/rtsched/migrate ]'
echo notes >"$D2$P2/libexec/rtsched/notes"
mkdir -p "$D2$P2/libexec/other" && echo other >"$D2$P2/libexec/other/file"
run_bounded 60 make --no-print-directory uninstall DESTDIR="$D2" prefix="$P2"
ok $rc "make uninstall of that DESTDIR and prefix (exit $rc)" || diag "$TMP/err"
(cd "$TMP" && find stage "stage dir" -type f -o -type l | sort) >"$TMP/left2"
printf '%s\n' "stage dir/it's/opt/my rt/libexec/other/file" "stage dir/it's/opt/my rt/libexec/rtsched/notes" \
	stage/keep | sort >"$TMP/want2"
check "  removes what install wrote, keeps a file of the user's in its folder and all else" \
	diff "$TMP/want2" "$TMP/left2" || diff "$TMP/want2" "$TMP/left2" | diag
check "  and says which folder it kept" \
	grep -qxF "uninstall: kept $D2$P2/libexec/rtsched: it holds files install did not write" "$TMP/err" || diag "$TMP/err"
