#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# sanitizers: not run (it tests a shell script, no compiled program)
# scripts/install-deps: after make check's own run of it nothing is missing,
# and a second run says so; each requirement's test catches what is really
# missing (libtraceevent, which libtracefs.pc requires and Debian's
# libtracefs-dev does not pull in; a tool a test calls), naming the
# packages; an ordinary user is told to run it as root. What a fresh
# machine needs is proven by make check-fresh (CI).
. "$(dirname "$0")/tap.bash"

D=scripts/install-deps
run_bounded 60 $D --check
check "nothing is missing after make check ran it (exit $rc), and it says so" \
	bash -c "[ $rc -eq 0 ] && grep -qE '^install-deps: nothing to install: all [0-9]+ requirements are present$' '$TMP/out'"
n=$(sed -nE 's/.*all ([0-9]+) requirements.*/\1/p' "$TMP/out")
run_bounded 10 $D --list
check "--list: one line per requirement ($n), each with its Debian and Fedora packages" \
	bash -c "[ \$(wc -l <'$TMP/out') -eq ${n:-0} ] && ! awk 'NF < 3' '$TMP/out' | grep -q ."
run_bounded 10 $D --bogus
check "an unknown argument: exit 2 (got $rc)" test "$rc" -eq 2

# libtracefs.pc without libtraceevent.pc: both are missing, and the package
# that brings libtraceevent is named
mkdir -p "$TMP/pc"
cp "$(pkg-config --variable=pcfiledir libtracefs)/libtracefs.pc" \
	"$(pkg-config --variable=pcfiledir numa)/numa.pc" "$TMP/pc/"
run_bounded 60 env PKG_CONFIG_LIBDIR="$TMP/pc" $D --check
check "libtraceevent.pc missing: --check exits 1 (got $rc)" test "$rc" -eq 1
check "  and names libtraceevent-dev (or -devel)" grep -qE '^install-deps: packages:.* libtraceevent-dev(el)?( |$)' "$TMP/out" ||
	diag "$TMP/out"

# a tool a test calls, missing from PATH
mkdir -p "$TMP/bin"
for f in /usr/local/bin/* /usr/bin/* /usr/sbin/* /bin/* /sbin/*; do
	case "${f##*/}" in bison | groff) ;; *) ln -sf "$f" "$TMP/bin/" 2>/dev/null ;; esac
done
run_bounded 60 env PATH="$TMP/bin" $D --check
check "bison and groff missing: --check exits 1 (got $rc)" test "$rc" -eq 1
check "  naming what needs them" \
	bash -c "grep -q '^  kernel build tools' '$TMP/out' && grep -q '^  groff' '$TMP/out'"
check "  and nothing else" test "$(grep -c '^  ' "$TMP/out")" -eq 2 || diag "$TMP/out"
chmod 755 "$TMP"
install -m 755 $D "$TMP/install-deps"
run_bounded 60 setpriv --reuid=nobody --regid=nogroup --clear-groups env PATH="$TMP/bin" "$TMP/install-deps"
check "an ordinary user with something missing: exit 4 (got $rc), told to run it as root" \
	bash -c "[ $rc -eq 4 ] && grep -q 'run as root: sudo scripts/install-deps' '$TMP/err'"

# make with that same dependency missing stops on its one line, naming the
# package, before any compiler runs (under -j too)
mkdir -p "$TMP/tree"
cp -r Makefile src "$TMP/tree/"
find "$TMP/tree" -name '*.[oad]' -delete
run_bounded 60 env PKG_CONFIG_LIBDIR="$TMP/pc" make -j2 -C "$TMP/tree"
check "make without libtraceevent.pc: fails (exit $rc) with one error, naming libtraceevent-dev" \
	bash -c "[ $rc -ne 0 ] && [ \$(grep -c 'error' '$TMP/err') -eq 1 ] &&
		grep -q \"^error: pkg-config cannot find 'libtraceevent': install libtraceevent-dev\" '$TMP/err'" ||
	diag "$TMP/err"
check "  and compiles nothing" \
	bash -c "! grep -q 'CC' '$TMP/out' && [ -z \"\$(find '$TMP/tree' -name '*.o')\" ]" || diag "$TMP/out"

# another architecture's packages (arm64's libraries, for make static-arm64):
# arm64 goes among dpkg's architectures before apt-get installs them
mkdir -p "$TMP/bin2"
for f in /usr/local/bin/* /usr/bin/* /usr/sbin/* /bin/* /sbin/*; do
	case "${f##*/}" in aarch64-linux-gnu-pkg-config | dpkg | apt-get) ;;
	*) ln -sf "$f" "$TMP/bin2/" 2>/dev/null ;; esac
done
cat >"$TMP/bin2/dpkg" <<EOS
#!/bin/sh
case "\$1" in
--print-architecture) echo amd64 ;;
--print-foreign-architectures) ;;
*) echo "dpkg \$*" >>"$TMP/calls" ;;
esac
EOS
printf '#!/bin/sh\necho "apt-get $*" >>"%s"\n' "$TMP/calls" >"$TMP/bin2/apt-get"
chmod 755 "$TMP/bin2/dpkg" "$TMP/bin2/apt-get"
run_bounded 60 env PATH="$TMP/bin2" $D
check "arm64's libraries missing: dpkg --add-architecture arm64 first, said" \
	grep -q '^install-deps: dpkg --add-architecture arm64$' "$TMP/out" || diag "$TMP/out"
check "  then apt-get update and the :arm64 packages" \
	bash -c "[ \"\$(sed -n 1p '$TMP/calls')\" = 'dpkg --add-architecture arm64' ] &&
		sed -n 2p '$TMP/calls' | grep -q '^apt-get update' &&
		sed -n 3p '$TMP/calls' | grep -q 'install .*libtracefs-dev:arm64'" || diag "$TMP/calls"
