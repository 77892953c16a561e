#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# sanitizers: not run (it tests Python scripts, no compiled program)
# A Debian 12 without bookworm-security (apt's sources as a plain bookworm
# gives them: here through APT_CONFIG, the machine's own left alone) lacks
# the 6.12 kernels, their source and images. The scripts that would fetch
# one say in one line which package, that apt's sources lack it and the
# suite it comes from, exit 4 (something missing); the tests that need one
# skip saying the same, never fail.
. "$(dirname "$0")/tap.bash"
A=$TMP/apt
mkdir -p "$A/sources.list.d" "$A/lists/partial"
cat >"$A/sources.list.d/debian.sources" <<EOS
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
cat >"$A/apt.conf" <<EOS
Dir::Etc::sourcelist "/dev/null";
Dir::Etc::sourceparts "$A/sources.list.d";
Dir::State::Lists "$A/lists";
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOS
export APT_CONFIG=$A/apt.conf
if ! timeout -s KILL 120 apt-get update -q >"$TMP/update" 2>&1 ||
   ! apt-cache show linux-source-6.1 >/dev/null 2>&1; then
	skip "cannot read bookworm's package lists from deb.debian.org: $(tail -1 "$TMP/update")"
	exit 0
fi
check "a plain bookworm has no linux-source-6.12 (the premise)" \
	bash -c "! apt-cache show linux-source-6.12 >/dev/null 2>&1"
export RTSCHED_CACHE=$TMP/cache
line="it is in none of this machine's apt sources; it comes from Debian's bookworm-security: add 'deb http://deb.debian.org/debian-security bookworm-security main' to them and run apt-get update"
run_bounded 60 scripts/kernel-variant --source-package linux-source-6.12 stock
check "kernel-variant --source-package linux-source-6.12: exit $rc, want 4, one line naming the suite" \
	bash -c "[ $rc -eq 4 ] && [ \$(wc -l <'$TMP/err') -eq 1 ] &&
		grep -qF \"kernel-variant: cannot fetch package linux-source-6.12: $line\" '$TMP/err'" ||
	diag "$TMP/err"
pkg=linux-image-6.12.118+deb12-amd64-unsigned
run_bounded 60 scripts/kernel-matrix --results "$TMP/r" --run 'migrate -d 1' "$pkg"
check "kernel-matrix $pkg: exit $rc, want 4, one line naming the suite" \
	bash -c "[ $rc -eq 4 ] && [ \$(wc -l <'$TMP/err') -eq 1 ] &&
		grep -qF \"kernel-matrix: cannot fetch package $pkg: $line\" '$TMP/err'" ||
	diag "$TMP/err"
run_bounded 60 scripts/kernel-matrix --results "$TMP/r" --run 'migrate -d 1' linux-image-0.0-none
check "a package no suite has: exit $rc, want 4, no suite invented" \
	bash -c "[ $rc -eq 4 ] && grep -qx \"kernel-matrix: cannot fetch package linux-image-0.0-none: it is in none of this machine's apt sources\" '$TMP/err'" ||
	diag "$TMP/err"
got=$(not_in_sources linux-source-6.12)
check "the tests' own skip says the same line" test "$got" = "cannot fetch package linux-source-6.12: $line"
