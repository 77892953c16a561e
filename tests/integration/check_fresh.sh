#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# sanitizers: not run (it tests a shell script, no compiled program)
# scripts/check-fresh without Debian: its refusals (exit 4: not root, no
# debootstrap, no mirror; exit 2: the package jobs' bad words; and
# check-deb's), and its lifecycle on a root made here of a static
# busybox and a fake make: the exit statuses and the closing line it reports,
# a failure or a skip inside failing it, and a SIGTERM in the middle of
# make check ending it at once with nothing left: no process of the root, no
# mount, no run folder. The real fresh root is built and checked by CI
# (.ci/run runs make check-fresh).
. "$(dirname "$0")/tap.bash"

CF=scripts/check-fresh
export RTSCHED_CACHE=$TMP/cache

# --- refusals, before anything is built
# a copy that nobody can read (the checkout may be in root's home)
chmod 755 "$TMP"
install -m 755 $CF "$TMP/check-fresh"
run_bounded 20 setpriv --reuid=nobody --regid=nogroup --clear-groups "$TMP/check-fresh"
check "not root: exit 4 (got $rc), one line saying so" \
	bash -c "[ $rc -eq 4 ] && [ \$(wc -l <'$TMP/err') -eq 1 ] && grep -q '^check-fresh: needs root' '$TMP/err'"
mkdir -p "$TMP/bin"
for f in /usr/local/bin/* /usr/bin/* /usr/sbin/* /bin/* /sbin/*; do
	[ "${f##*/}" = debootstrap ] || ln -sf "$f" "$TMP/bin/" 2>/dev/null
done
run_bounded 20 env PATH="$TMP/bin" $CF
check "no debootstrap: exit 4 (got $rc), naming the package" \
	bash -c "[ $rc -eq 4 ] && grep -q '^check-fresh: debootstrap is missing: apt-get install debootstrap' '$TMP/err'"
run_bounded 20 $CF --bogus
check "an unknown argument: exit 2 (got $rc)" test "$rc" -eq 2
run_bounded 20 $CF --root "$TMP/nowhere"
check "a --root that is no root file system: exit 2 (got $rc)" test "$rc" -eq 2
# the package's jobs: their words checked before anything is built
for args in "--build-deb" "--build-deb arm64" "--build-deb arm_64 $TMP/debs" \
	"--install-deb" "--install-deb $TMP/nothing.deb" "--install-deb $0" "--sanitized --build-deb amd64 $TMP/debs"; do
	# shellcheck disable=SC2086 # the words are meant to split
	run_bounded 20 $CF $args
	check "$args: exit 2 (got $rc), one line" \
		bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$TMP/err') -eq 1 ] && grep -q -- '--\(build\|install\)-deb' '$TMP/err'" ||
		diag "$TMP/err"
done
# check-deb: its refusals
run_bounded 20 scripts/check-deb --bogus
check "check-deb with an unknown argument: exit 2 (got $rc)" test "$rc" -eq 2
install -m 755 scripts/check-deb "$TMP/check-deb"
run_bounded 20 setpriv --reuid=nobody --regid=nogroup --clear-groups "$TMP/check-deb"
check "check-deb not as root: exit 4 (got $rc), saying so" \
	bash -c "[ $rc -eq 4 ] && grep -q '^check-deb: needs root' '$TMP/err'"

# --- a root of a static busybox whose make does what /etc/fake-make says
if ! file -L /bin/busybox 2>/dev/null | grep -q 'statically linked'; then
	ok 1 "a static busybox is installed (scripts/install-deps installs busybox-static)"
	exit 1
fi
R=$TMP/fakeroot
mkdir -p "$R"/{bin,usr/bin,etc,proc,sys,dev,tmp,root}
cp /bin/busybox "$R/bin/"
for t in sh env sleep cat echo mkdir; do ln -s busybox "$R/bin/$t"; done
ln -s ../../bin/env "$R/usr/bin/env"
cat >"$R/usr/bin/make" <<'MAKE'
#!/bin/sh
# make run | make check, as /etc/fake-make says: pass, fail, skip or hang
echo "fake make $1 in $(pwd)"
[ -f Makefile ] || { echo "no clone here"; exit 2; }
case "$1:$(cat /etc/fake-make)" in
run:*) exit 0 ;;
check:pass) echo "7 passed, 0 failed, 0 skipped" ;;
check:skip) echo "    ok 7 - # SKIP groff is not installed"; echo "6 passed, 0 failed, 1 skipped" ;;
check:fail) echo "6 passed, 1 failed, 0 skipped"; exit 2 ;;
check:hang) echo "hanging"; exec sleep 317 ;;
check-asan:pass)
	mkdir -p tests/out
	echo "# SKIP under a sanitizer the huge heap is refused" >tests/out/unit_test_heap.tap
	echo "    ok 7 - heap # SKIP (see above)"
	echo "6 passed, 0 failed, 1 skipped" ;;
esac
MAKE
printf '#!/bin/sh\necho "fake apt-get $*" >&2\n' >"$R/usr/bin/apt-get"
chmod +x "$R/usr/bin/make" "$R/usr/bin/apt-get"
mkdir -p "$TMP/mirror/dists/bookworm"
echo "Origin: rtsched test" >"$TMP/mirror/dists/bookworm/Release"
# a test-definitions checkout to copy in, so that no skip is expected whether
# or not this machine has one
mkdir -p "$TMP/td/automated"
export TEST_DEFINITIONS=$TMP/td
fresh() { # fresh MODE [ARGS]: check-fresh on the fake root
	echo "$1" >"$R/etc/fake-make"
	shift
	run_bounded 60 $CF --root "$R" --mirror "file:$TMP/mirror" "$@"
}

run_bounded 90 $CF --root "$R" --mirror http://127.0.0.1:9/debian
check "no package mirror: exit 4 (got $rc), naming the URL it tried" \
	bash -c "[ $rc -eq 4 ] && grep -q '^check-fresh: no package mirror: cannot fetch http://127.0.0.1:9/debian/dists/bookworm/Release' '$TMP/err'"

fresh pass
check "both pass: exit 0 (got $rc)" test "$rc" -eq 0 || diag "$TMP/err"
check "  make ran in a clone of HEAD" grep -q '^fake make run in /root/rtsched$' "$TMP/out"
check "  reports make run's exit status" grep -q '^check-fresh: make run: exit 0 (0m[0-9][0-9]s)$' "$TMP/out"
check "  and make check's, with its closing line" \
	grep -q '^check-fresh: make check: exit 0 (0m[0-9][0-9]s): 7 passed, 0 failed, 0 skipped$' "$TMP/out"
check "  the clone is of HEAD" grep -q "^check-fresh: HEAD $(git log -1 --format=%h HEAD) " "$TMP/out"
check "  the root is left as it was (the clone went to an overlay)" test ! -e "$R/root/rtsched"
fresh fail
check "a failing check: exit 1 (got $rc)" test "$rc" -eq 1
check "  reported" grep -q '^check-fresh: make check: exit 2 (.*): 6 passed, 1 failed, 0 skipped$' "$TMP/out"
fresh skip
check "a skipped check: exit 1 (got $rc), naming it" \
	bash -c "[ $rc -eq 1 ] && grep -q '# SKIP groff is not installed' '$TMP/out'"
fresh skip --allow-skips
check "  --allow-skips lets it pass (exit $rc)" test "$rc" -eq 0
fresh pass --sanitized
check "--sanitized: exit 0 (got $rc)" test "$rc" -eq 0 || diag "$TMP/out" "$TMP/err"
check "  clang and its runtimes installed after make run" \
	awk '/^fake make run/ { run = NR } /^fake apt-get install .* clang libclang-rt-dev/ { apt = NR }
		END { exit !(run && apt > run) }' "$TMP/out" || diag "$TMP/out"
check "  make check-asan SAN_ALL=1 instead of make check, reported" \
	grep -q '^check-fresh: make check-asan SAN_ALL=1: exit 0 (0m[0-9][0-9]s): 6 passed, 0 failed, 1 skipped$' "$TMP/out"
check "  the sanitizer's own skip expected, said" \
	grep -q '^check-fresh: 1 checks skipped under the sanitizer, as they say: expected$' "$TMP/out"

# --- SIGTERM while make check hangs
echo hang >"$R/etc/fake-make"
$CF --root "$R" --mirror "file:$TMP/mirror" >"$TMP/out" 2>&1 </dev/null &
pid=$!
for _ in $(seq 100); do grep -q '^hanging' "$TMP/out" && break; sleep 0.2; done
check "make check hangs in the root" grep -q '^hanging' "$TMP/out"
in_root() { for p in /proc/[0-9]*; do tr '\0' ' ' <"$p/cmdline"; echo; done 2>/dev/null | grep -c '^sleep 317 $'; }
check "  its processes are seen in the root ($(in_root))" test "$(in_root)" -gt 0
kill -TERM "$pid"
t0=$(date +%s%N)
for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
wait "$pid"
rc=$?
check "SIGTERM: exit 143 (got $rc) within 5 s ($((($(date +%s%N) - t0) / 1000000)) ms)" test "$rc" -eq 143
check "  says so" grep -q '^check-fresh: stopped by SIGTERM$' "$TMP/out"
check "  no process left in the root ($(in_root))" test "$(in_root)" -eq 0
check "  no mount left" bash -c "! grep -q '$TMP' /proc/mounts"
check "  no run folder left" bash -c "! ls -d '$RTSCHED_CACHE'/fresh/run.* 2>/dev/null"
