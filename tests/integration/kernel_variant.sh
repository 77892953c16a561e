#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# timeout=360
# (reads and edits the whole linux-source-6.1: ~110 s here)
# sanitizers: not run (it tests a Python script, no compiled program)
# scripts/kernel-variant without building a kernel: the pre-43fa5460 edit on
# the real source of Debian's linux-source-6.1 (the two conditions gone,
# nothing else touched, refusal of a source that does not match), and the
# configuration fragment taking over x86_64_defconfig + kvm_guest.config.
. "$(dirname "$0")/tap.bash"

V=scripts/kernel-variant
TARBALL=/usr/src/linux-source-6.1.tar.xz
if [ ! -r "$TARBALL" ]; then
	echo "# $TARBALL is missing: run scripts/install-deps (it installs linux-source-6.1)"
	ok 1 "the kernel source package is installed"
	exit 1
fi

# unpack TARBALL DIR: the Kconfig world of a linux-source-N tarball (no C
# sources but scripts/ and include/), and rt.c, into DIR
unpack() {
	local top
	top=$(basename "$1" .tar.xz)
	mkdir -p "$2" &&
		tar -xJf "$1" -C "$2" --strip-components=1 --exclude='*.c' --exclude='*.h' \
			--exclude='*.S' --exclude='*.dts*' --exclude='*.json' --exclude='*/tools/*' \
			--exclude='*/Documentation/*' &&
		tar -xJf "$1" -C "$2" --strip-components=1 --wildcards "$top/scripts/*" \
			"$top/include/*" "$top/kernel/sched/rt.c" "$top/Documentation/Kconfig"
}

SRC=$TMP/src
unpack "$TARBALL" "$SRC"
ok $? "unpacked the parts of $TARBALL the tests need"
RT=$SRC/kernel/sched/rt.c
cp "$RT" "$TMP/rt.c.orig"

# --- the edit
run_bounded 30 $V --edit-only "$SRC"
check "--edit-only applies the edit (exit $rc)" test "$rc" -eq 0
# body FILE FUNCTION: the body of a function, from its name to the closing brace
body() { awk -v f="$2" '$0 ~ "^(static [a-z ]+ )?"f"\\(" { on = 1 } on { print } on && /^}/ { exit }' "$1"; }
body "$TMP/rt.c.orig" select_task_rq_rt >"$TMP/sel.orig"
body "$RT" select_task_rq_rt >"$TMP/sel"
body "$TMP/rt.c.orig" task_woken_rt >"$TMP/woken.orig"
body "$RT" task_woken_rt >"$TMP/woken"
check "select_task_rq_rt() was found in the packaged source" \
	grep -q "curr->prio <= p->prio" "$TMP/sel.orig"
check "task_woken_rt() was found in the packaged source" \
	grep -q "rq->curr->prio <= p->prio" "$TMP/woken.orig"
check "select_task_rq_rt(): the priority test on the running task is gone" \
	bash -c "! grep -q 'curr->prio' '$TMP/sel' && ! grep -q 'curr->nr_cpus_allowed' '$TMP/sel'"
check "select_task_rq_rt(): a running RT task still makes the woken task look for a CPU" \
	grep -Pzq 'test = curr &&\n\s+unlikely\(rt_task\(curr\)\);' "$TMP/sel"
check "task_woken_rt(): no condition on the running task is left" \
	bash -c "! grep -Eq 'rq->curr->prio|rt_task\\(rq->curr\\)|dl_task\\(rq->curr\\)|curr->nr_cpus_allowed' '$TMP/woken'"
check "task_woken_rt(): the woken task's own conditions stay" \
	bash -c "grep -q '!task_on_cpu(rq, p)' '$TMP/woken' && grep -q 'p->nr_cpus_allowed > 1;' '$TMP/woken'"
# nothing else changed: outside the two functions the files are the same
strip() { awk '/^(select_task_rq_rt|static void task_woken_rt)\(/ { skip = 1 } !skip { print } skip && /^}/ { skip = 0 }' "$1"; }
check "nothing outside the two functions changed" cmp -s <(strip "$TMP/rt.c.orig") <(strip "$RT")
diff "$TMP/rt.c.orig" "$RT" >"$TMP/diff"
check "the diff takes out 6 lines of conditions and adds 2 comments (and the new ends)" \
	test "$(grep -c '^<' "$TMP/diff")" -eq 6 -a "$(grep -c '^>' "$TMP/diff")" -eq 4

# --- refusals
run_bounded 30 $V --edit-only "$SRC"
check "an edited source is refused (exit $rc, want 1)" test "$rc" -eq 1
check "  naming the function and the reason" \
	grep -q "select_task_rq_rt() does not hold the expected code .*already edited; refusing to guess" "$TMP/err"
cp "$TMP/rt.c.orig" "$RT"
sed -i 's/(curr->nr_cpus_allowed < 2 || curr->prio <= p->prio);/(curr->nr_cpus_allowed < 2 || curr->prio < p->prio);/' "$RT"
run_bounded 30 $V --edit-only "$SRC"
check "a source with other code (a different kernel) is refused (exit $rc)" test "$rc" -eq 1
check "  and left as it was" \
	grep -q "curr->prio < p->prio);" "$RT"
cp "$TMP/rt.c.orig" "$RT"
sed -i 's/^task_woken_rt(/task_woken_rt_renamed(/; s/^static void task_woken_rt(/static void task_woken_rt_renamed(/' "$RT"
run_bounded 30 $V --edit-only "$SRC"
check "a source without task_woken_rt() is refused (exit $rc)" test "$rc" -eq 1
check "  naming what is missing" grep -q "no function task_woken_rt()" "$TMP/err"
check "  and the first function is not edited on its own" cmp -s "$TMP/rt.c.orig" <(sed 's/task_woken_rt_renamed(/task_woken_rt(/' "$RT")
run_bounded 30 $V --edit-only "$TMP/nowhere"
check "a folder without the source: exit 1, one line" \
	test "$rc" -eq 1 -a "$(wc -l <"$TMP/err")" -eq 1
cp "$TMP/rt.c.orig" "$RT"

# --- the configuration both variants share
run_bounded 120 $V --config-only "$SRC"
check "the fragment takes over x86_64_defconfig + kvm_guest.config (exit $rc)" test "$rc" -eq 0 ||
	diag "$TMP/err"
for o in CONFIG_SMP=y CONFIG_PREEMPT=y CONFIG_SCHED_DEBUG=y CONFIG_FTRACE=y \
	CONFIG_EVENT_TRACING=y CONFIG_DEVTMPFS=y CONFIG_SERIAL_8250_CONSOLE=y CONFIG_BLK_DEV_INITRD=y; do
	check "  .config has $o" grep -qx "$o" "$SRC/.config"
done
check "  and no modules (every driver the guest needs is built in)" \
	grep -qx "# CONFIG_MODULES is not set" "$SRC/.config"
sed -i 's/^CONFIG_SCHED_DEBUG=y/# CONFIG_SCHED_DEBUG is not set/' "$SRC/.config"
run_bounded 120 $V --config-only "$SRC"
check "a configuration missing an option of the fragment is refused (exit $rc)" test "$rc" -eq 1
check "  naming the option" grep -q "did not take .*CONFIG_SCHED_DEBUG=y (got n)" "$TMP/err"

# --- PREEMPT_RT (--rt): refused where x86 cannot have it, before any build
run_bounded 120 $V --rt --config-only "$SRC"
check "--rt on linux-source-6.1: exit 1 (got $rc), saying the source cannot, and what can" \
	bash -c "[ $rc -eq 1 ] && grep -q 'CONFIG_PREEMPT_RT=y (got n): this source cannot build PREEMPT_RT for x86 .*--source-package linux-source-6.12' '$TMP/err'"
run_bounded 10 $V --rt --edit-only "$SRC"
check "--rt with --edit-only: exit 2 (got $rc), not ignored" \
	bash -c "[ $rc -eq 2 ] && grep -q -- '--edit-only takes no VARIANT and no --rt' '$TMP/err'"

# --- bad usage
run_bounded 10 $V --jobs 0
check "--jobs 0: exit 2, one line" test "$rc" -eq 2 -a "$(wc -l <"$TMP/err")" -eq 1
mkdir -p "$TMP/nocache"
run_bounded 10 env RTSCHED_CACHE="$TMP/nocache/c" $V
check "no variant named: exit 2 (got $rc), saying what a build takes" \
	bash -c "[ $rc -eq 2 ] && grep -q 'name the kernels to build: stock, pre-43fa5460 or both; .*26 minutes' '$TMP/err'"
check "  and nothing built or cached" test ! -e "$TMP/nocache/c"
run_bounded 10 $V post-43fa5460
check "an unknown variant: exit 2, naming the ones there are" \
	grep -q "invalid variant 'post-43fa5460': expected stock or pre-43fa5460" "$TMP/err"

# --- what a build needs, refused before anything is unpacked or built
mkdir -p "$TMP/nobin" "$TMP/cache"
run_bounded 30 env PATH="$TMP/nobin" RTSCHED_CACHE="$TMP/cache" /usr/bin/python3 $V stock
check "no compiler, make, bison ...: exit 4 (got $rc), naming them and the packages" \
	bash -c "[ $rc -eq 4 ] && grep -q 'missing build tools: make gcc bc bison flex' '$TMP/err' && grep -q 'apt-get install build-essential' '$TMP/err'"
if mkdir -p "$TMP/small" && mount -t tmpfs -o size=16m tmpfs "$TMP/small" 2>/dev/null; then
	run_bounded 30 env RTSCHED_CACHE="$TMP/small" $V stock
	umount "$TMP/small"
	check "a cache with 16 MiB free: exit 4 (got $rc), saying how much is needed" \
		bash -c "[ $rc -eq 4 ] && grep -q 'not enough disk in $TMP/small: 0.0 GiB free, a kernel build needs 8 GiB' '$TMP/err'"
else
	ok 1 "a tmpfs for the disk-space check could be mounted"
fi
run_bounded 120 env RTSCHED_CACHE="$TMP/cache" $V --source-package linux-source-0.0 stock
check "a source package that does not exist: exit 4 (got $rc), one line" \
	bash -c "[ $rc -eq 4 ] && grep -q 'cannot fetch package linux-source-0.0' '$TMP/err'"
check "  and nothing left in the cache but empty folders" test -z "$(find "$TMP/cache" -type f)"

# --- the 6.12 series (issue 27): Debian's linux-source-6.12, fetched into the
# cache as kernel-variant fetches it; the edit applies to its rt.c, and both
# configurations take, PREEMPT_RT's too
if ! apt-cache show linux-source-6.12 >/dev/null 2>&1; then
	skip "the 6.12 series' 14 checks: $(not_in_sources linux-source-6.12)"
	exit 0
fi
run_bounded 600 python3 -B -c 'import sys; sys.path.insert(0, "scripts"); import rtsched_kernel as rk
print(rk.fetch_deb("linux-source-6.12", "./usr/src/linux-source-6.12.tar.xz"))'
T612=$(tail -n 1 "$TMP/out")/usr/src/linux-source-6.12.tar.xz
if ! check "linux-source-6.12 fetched (exit $rc)" test -r "$T612"; then
	diag "$TMP/err"
	exit 1
fi
S12=$TMP/src612
unpack "$T612" "$S12"
ok $? "unpacked the parts of linux-source-6.12 the tests need"
cp "$S12/kernel/sched/rt.c" "$TMP/rt612.orig"
run_bounded 30 $V --edit-only "$S12"
check "6.12: the pre-43fa5460 edit applies (exit $rc)" test "$rc" -eq 0
check "  the priority conditions gone from both functions (there were 2)" \
	bash -c "[ \$(grep -c 'curr->prio <= p->prio' '$TMP/rt612.orig') -eq 2 ] && ! grep -q 'curr->prio <= p->prio' '$S12/kernel/sched/rt.c'"
check "  and nothing else changed" cmp -s <(strip "$TMP/rt612.orig") <(strip "$S12/kernel/sched/rt.c")
run_bounded 120 $V --config-only "$S12"
check "6.12: the fragment takes (exit $rc)" test "$rc" -eq 0 || diag "$TMP/err"
check "  CONFIG_PREEMPT=y, not PREEMPT_RT" \
	bash -c "grep -qx CONFIG_PREEMPT=y '$S12/.config' && ! grep -qx CONFIG_PREEMPT_RT=y '$S12/.config'"
check "  RT_PUSH_IPI off by default there (Debian's 6.12 has the 2026 change)" \
	grep -Pzq '# else\nSCHED_FEAT\(RT_PUSH_IPI, false\)' <(tar -xJOf "$T612" linux-source-6.12/kernel/sched/features.h)
run_bounded 120 $V --rt --config-only "$S12"
check "6.12 --rt: the PREEMPT_RT fragment takes too (exit $rc)" test "$rc" -eq 0 || diag "$TMP/err"
for o in CONFIG_PREEMPT_RT=y CONFIG_EXPERT=y CONFIG_SCHED_DEBUG=y CONFIG_FTRACE=y; do
	check "  .config has $o" grep -qx "$o" "$S12/.config"
done
check "  and not CONFIG_PREEMPT" grep -qx "# CONFIG_PREEMPT is not set" "$S12/.config"
