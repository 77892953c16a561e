#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# timeout=300
# (a package build and lintian: about 40 s here)
# sanitizers: not run (it builds the package with the distribution's compiler)
# The Debian package (debian/), built from a copy of the tree with
# dpkg-buildpackage -b as a user would: it holds every program and script
# as /usr/bin/rtsched-NAME with its man page, the static programs, the lab
# runner's result-lines; its version is the Makefile's; lintian reports no
# error and no warning. (make check-deb builds arm64's too, in a fresh
# root, and runs autopkgtest, piuparts and the fresh root's install.)
. "$(dirname "$0")/tap.bash"

version=$(sed -n 's/^VERSION := //p' Makefile)
check "debian/changelog's version is the Makefile's ($version)" \
	grep -q "^rtsched ($version) " debian/changelog

# a copy of the tree as it is (tracked and new files, not what is ignored)
src=$TMP/rtsched
mkdir -p "$src"
{ git ls-files; git ls-files --others --exclude-standard; } | sort -u |
	while IFS= read -r f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
	xargs -0 cp --parents -t "$src"
run_bounded 240 bash -c "cd '$src' && dpkg-buildpackage -b -us -uc"
check "dpkg-buildpackage -b builds it (exit $rc)" test "$rc" -eq 0 || tail -n 20 "$TMP/out" "$TMP/err" | diag
arch=$(dpkg --print-architecture)
deb=$TMP/rtsched_${version}_$arch.deb
check "  rtsched_${version}_$arch.deb" test -f "$deb"
dpkg-deb -c "$deb" 2>/dev/null | awk '{ print $6 }' | sed 's|^\./|/|' >"$TMP/files"
missing=""
for p in migrate pi_stress spin analyse $(sed -n 's/^SCRIPTS := //p' Makefile); do
	grep -qx "/usr/bin/rtsched-$p" "$TMP/files" || missing="$missing /usr/bin/rtsched-$p"
	grep -Eq "^/usr/share/man/man[18]/rtsched-$p\.[18]\.gz$" "$TMP/files" || missing="$missing rtsched-$p's page"
done
for f in /usr/lib/rtsched/static/migrate /usr/lib/rtsched/static/pi_stress \
	/usr/lib/rtsched/static/spin /usr/lib/rtsched/scripts/result-lines \
	/usr/lib/rtsched/scripts/kernel/init.sh /usr/share/doc/rtsched/copyright; do
	grep -qx "$f" "$TMP/files" || missing="$missing $f"
done
check "  every program and script as rtsched-NAME with its page, the static programs, the lab's result-lines" \
	test -z "$missing" || echo "# missing:$missing"
check "  no byte-compiled module in it (made on install, removed on removal)" \
	bash -c "! grep -q __pycache__ '$TMP/files'"
dpkg-deb -f "$deb" Depends >"$TMP/depends"
check "  it depends on python3 and the libraries it links" \
	bash -c "grep -q 'python3' '$TMP/depends' && grep -q 'libtracefs1' '$TMP/depends' && grep -q 'libtracecmd1' '$TMP/depends'" ||
	diag "$TMP/depends"
# lintian as a user (it warns against root); the .changes names the .deb files
chmod 755 "$TMP"
chmod -R a+rX "$TMP"
run_bounded 240 setpriv --reuid=nobody --regid=nogroup --clear-groups env -C / HOME=/tmp \
	lintian -I --fail-on error,warning "$TMP/rtsched_${version}_$arch.changes"
check "lintian: no error, no warning (exit $rc)" test "$rc" -eq 0 || diag "$TMP/out" "$TMP/err"
check "  and every override it used is in debian/rtsched.lintian-overrides, with its reason" \
	bash -c "! grep -q 'unused-override\|malformed-override' '$TMP/out'"
