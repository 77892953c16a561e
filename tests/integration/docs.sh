# SPDX-License-Identifier: GPL-2.0-only
# Every option is documented in --help, the man page and the README, and
# make install puts the program and its man page where they belong.
. "$(dirname "$0")/tap.bash"

opts=$(grep -oE '\{ "[a-z-]+", (required|no)_argument' src/migrate/main.c | cut -d'"' -f2)
check "the option table was found" test -n "$opts"
./migrate --help >"$TMP/help"
for o in $opts; do
	short=$(grep -E "\{ \"$o\", " src/migrate/main.c | grep -oE "'[a-zA-Z]'" | tr -d "'")
	check "--$o (-$short) is in --help" grep -qE -- "-$short, --$o" "$TMP/help"
	check "--$o is in migrate.8" grep -qE -- "\\\\-\\\\-${o//-/\\\\-}" man/migrate.8
	check "--$o is in README.md" grep -q -- "-$short, --$o" README.md
done

if command -v groff >/dev/null; then
	groff -man -ww -z man/migrate.8 2>"$TMP/groff"
	check "migrate.8 renders without warnings" test ! -s "$TMP/groff"
else
	skip "groff is not installed: the man page is not rendered"
fi

make --no-print-directory install DESTDIR="$TMP/root" prefix=/usr >"$TMP/install" 2>&1
ok $? "make install DESTDIR=... prefix=/usr"
check "  installs the program, executable" test -x "$TMP/root/usr/bin/migrate"
check "  and its man page" test -f "$TMP/root/usr/share/man/man8/migrate.8"
make --no-print-directory uninstall DESTDIR="$TMP/root" prefix=/usr >/dev/null 2>&1
check "make uninstall removes them" test ! -e "$TMP/root/usr/bin/migrate" -a ! -e "$TMP/root/usr/share/man/man8/migrate.8"
