# SPDX-License-Identifier: GPL-2.0-only
# Without RT privilege migrate says what is missing and exits 4; the probe
# tries SCHED_FIFO for real, so a user with CAP_SYS_NICE runs, and an RT
# cgroup without runtime stops root.
. "$(dirname "$0")/tap.bash"

if [ "$(id -u)" -ne 0 ]; then
	echo "# SKIP these checks switch users and cgroups, which needs root"
	trap - EXIT
	exit 4
fi
# the checkout may sit where nobody cannot read: run a copy from /tmp
as_nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
chmod 755 "$TMP"
install -m 755 migrate pi_stress "$TMP/"

run_bounded 20 "${as_nobody[@]}" --inh-caps=-all "$TMP/migrate" -d 0.2
ok $(( rc == 4 ? 0 : 1 )) "an ordinary user: exit 4 (got $rc)"
check "  says what would grant it" grep -qE '^migrate: cannot run SCHED_FIFO threads at priority 5: Operation not permitted; run as root, or grant CAP_SYS_NICE .*, or raise RLIMIT_RTPRIO to 5 \(now 0' "$TMP/err"
check "  in one line" test "$(wc -l <"$TMP/err")" -eq 1
check "  and prints no table" test ! -s "$TMP/out"

run_bounded 30 "${as_nobody[@]}" --inh-caps=+sys_nice --ambient-caps=+sys_nice "$TMP/migrate" -q -d 0.3
ok $rc "an ordinary user with CAP_SYS_NICE runs (exit $rc)"
check "  and gets the table" table_ok "$TMP/out" $((2 * NCPUS))

run_bounded 20 "${as_nobody[@]}" --inh-caps=-all "$TMP/pi_stress" -d 0.2
ok $(( rc == 4 ? 0 : 1 )) "pi_stress as an ordinary user: exit 4 (got $rc)"
check "  says what would grant it" grep -qE '^pi_stress: cannot run SCHED_FIFO threads at priority 4: Operation not permitted; run as root, or grant CAP_SYS_NICE .*pi_stress.*, or raise RLIMIT_RTPRIO to 4' "$TMP/err"
run_bounded 30 "${as_nobody[@]}" --inh-caps=+sys_nice --ambient-caps=+sys_nice "$TMP/pi_stress" -q -i 1000
ok $rc "pi_stress as an ordinary user with CAP_SYS_NICE runs (exit $rc)"

# cgroup v1 with RT group scheduling: a new cgroup has cpu.rt_runtime_us 0
cpu_cg=""
for d in /sys/fs/cgroup/cpu /sys/fs/cgroup/cpu,cpuacct; do
	[ -f "$d/cpu.rt_runtime_us" ] && { cpu_cg=$d; break; }
done
if [ -n "$cpu_cg" ] && mkdir "$cpu_cg/rtsched-test-$$" 2>/dev/null; then
	cg="$cpu_cg/rtsched-test-$$"
	run_bounded 20 sh -c 'echo $$ > "$1/cgroup.procs" && exec ./migrate -d 0.2' sh "$cg"
	rmdir "$cg"
	ok $(( rc == 4 ? 0 : 1 )) "root in a cgroup without RT runtime: exit 4 (got $rc)"
	check "  names the cgroup's file" grep -q "this process's cgroup gives RT tasks no runtime ($cg/cpu.rt_runtime_us is 0)" "$TMP/err"
else
	skip "no cgroup v1 cpu controller with RT group scheduling on this kernel"
fi
