#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# timeout=300
# (one arm64 guest of 2 vCPUs under TCG: about 40 s here)
# sanitizers: not run (its guest runs the static programs, which no sanitizer builds)
# arm64 for real: the programs cross-built (make static-arm64), Debian's
# arm64 kernel (linux-image-arm64, fetched) booted in QEMU's virt machine
# under TCG, and there migrate, pi_stress and spin print their tables with
# exit 0, and a traced run is analysed; the results come back over the
# console (the machine's one serial port), whole. Then what is refused: a
# run mixing architectures, KVM for a foreign guest, x86 programs for it.
. "$(dirname "$0")/tap.bash"
. "$(dirname "$0")/guest.bash"

KERNEL=linux-image-arm64
RES=$TMP/results
mkdir -p "$RES"

if [ "$(uname -m)" = aarch64 ]; then
	echo "# SKIP this machine is arm64: the cross build and the foreign guest are x86_64's"
	exit 4
fi

guest 300 --cpus 2 --results "$RES" --run 'migrate -d 2' --run 'pi_stress -d 2' \
	--run 'spin -d 2' --run 'migrate -d 1 --trace' "$KERNEL"
check "an arm64 guest ran migrate, pi_stress, spin and a traced run (exit $rc)" \
	test "$rc" -eq 0 || diag "$TMP/err"
check "  its kernel is Debian's arm64" grep -Eq "^rtsched-guest: kernel 6\.1\.[0-9]+-[0-9]+-arm64, 2 CPUs online" "$TMP/out"
check "  under TCG, said why" grep -q "accelerator: tcg (arm64 guests on an x86_64 machine)" "$TMP/err"
check "  the programs' tables, each ending in its total row" test "$(grep -c '^total: ' "$TMP/out")" -ge 3
check "  pi_stress passed" grep -q "^PASS: every inversion was resolved by inheritance" "$TMP/out"
check "  spin's table" grep -q "^spin 0.1.0: 3 busy threads" "$TMP/out"
check "  the trace was read and analysed in the guest" \
	grep -Eq "^trace: [0-9]+ events \(sched_switch [1-9]" "$TMP/out"
check "  and its migrations explained" grep -q "^Migrations  traced   /proc  at-wakeup" "$TMP/out"
check "  no frame shown on the console" bash -c "! grep -q '^RTSCHED-FILE-\|^RTSCHED-STATUS' '$TMP/out'"
check "four results came back, whole, each saying arm64" /usr/bin/python3 - "$RES" <<'EOF'
import glob, re, sys
sys.path.insert(0, "scripts")
import rtsched_results as r
files = sorted(glob.glob(sys.argv[1] + "/*/vm-2cpu-tcg/*.json"))
print("#", [f.rsplit("/", 1)[1] for f in files])
assert len(files) == 4, files
tools = []
for f in files:
    d = r.load_file(f)
    s = d["system"]
    assert re.fullmatch(r"6\.1\.\d+-\d+-arm64", s["release"]), s["release"]
    assert s["vm"]["arch"] == "arm64" and s["vm"]["accel"] == "tcg", s["vm"]
    assert s["nr_cpus"] == 2, s["nr_cpus"]
    tools.append(d["tool"])
assert tools == ["migrate", "pi_stress", "spin", "migrate"], tools
EOF
check "the thread CPU-time note names no x86 cause on arm64" \
	bash -c "! grep -q 'unstable TSC' '$TMP/out'"

# --- what is refused, before anything boots
run_bounded 60 $M --accel kvm --results "$RES" "$KERNEL"
check "--accel kvm for an arm64 guest here: exit 4, said why (exit $rc)" test "$rc" -eq 4
check "  the line" grep -q "^kernel-matrix: --accel kvm: arm64 guests on an x86_64 machine run under TCG only$" "$TMP/err" ||
	diag "$TMP/err"
printf 'MZ\0\0not a kernel\n' >"$TMP/bogus"
run_bounded 60 $M --results "$RES" "$TMP/bogus"
check "a file that is no kernel image: exit 2 (exit $rc)" test "$rc" -eq 2
check "  the line names what is accepted" grep -q "not a bootable x86_64 or arm64 kernel image" "$TMP/err"
run_bounded 200 $M --results "$RES" "$KERNEL" linux-image-amd64
check "an arm64 and an x86_64 kernel in one run: exit 2 (exit $rc)" test "$rc" -eq 2
check "  the line says which is which" \
	grep -q "^kernel-matrix: invalid kernels: $KERNEL is arm64, linux-image-amd64 is x86_64; give the kernels of one architecture a run$" "$TMP/err" ||
	diag "$TMP/err"
run_bounded 60 $M --bin static --results "$RES" "$KERNEL"
check "x86_64 programs for an arm64 guest: exit 4 (exit $rc)" test "$rc" -eq 4
check "  the line says to build them" grep -q "no static arm64 benchmark static/migrate: run make static-arm64$" "$TMP/err" ||
	diag "$TMP/err"
check "nothing stored by the refused runs" test "$(find "$RES" -name '*.json' | wc -l)" -eq 4

