#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/kernel-matrix for real: Debian's 6.1 kernel (fetched with apt-get
# download, cached) boots in QEMU with 4 virtual CPUs, runs a short
# contention run and the JSON result comes back into results/; then the
# bad inputs and guests that cannot run the experiment.
. "$(dirname "$0")/tap.bash"

KERNEL=linux-image-amd64
M=scripts/kernel-matrix
RES=$TMP/results

no_results() { # no_results: nothing at all under $RES
	[ -z "$(find "$RES" -type f 2>/dev/null)" ]
}

# --- one kernel, 4 virtual CPUs, a contention run; KVM probed, TCG otherwise.
# The results on a file system of their own: the stage in the cache is on
# another (a rename across them fails, as it once did).
mkdir -p "$RES"
mount -t tmpfs rtsched-results "$RES" || ok 1 "a tmpfs for the results could be mounted"
tap_cleanup='umount "$RES"'
run_bounded 400 $M --results "$RES" --run 'migrate -d 1' "$KERNEL"
check "a guest ran the contention test (exit $rc)" test "$rc" -eq 0 || diag "$TMP/err"
json=$(find "$RES" -name '*.json' | head -2)
check "exactly one result came back" test "$(echo "$json" | grep -c .)" -eq 1
check "stored under <guest release>/vm-4cpu-<accel>/" \
	grep -Eq "^$RES/6\.1\.[0-9]+-[0-9]+-amd64/vm-4cpu-(kvm|tcg)/[0-9TZ]+-1-migrate-contention-t8\.json$" <<<"$json"
check "the result says 4 CPUs, the guest's release, 8 rows, and the VM" /usr/bin/python3 - "$json" <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
s = d["system"]
assert s["nr_cpus"] == 4 and s["cpus"] == "0-3", s["cpus"]
assert re.fullmatch(r"6\.1\.\d+-\d+-amd64", s["release"]), s["release"]
rows = d["runs"][0]["rows"]
assert len(rows) == 8 and all(r["iterations"] > 0 for r in rows[4:]), rows
assert s["vm"]["vcpus"] == 4 and s["vm"]["accel"] in ("kvm", "tcg"), s["vm"]
assert s["vm"]["host"]["release"] and s["vm"]["kernel"] == "linux-image-amd64", s["vm"]
assert not d.get("partial")
EOF
check "the table was printed as it came, then where it was stored" \
	grep -q "^total: " "$TMP/out"
check "the accelerator is named" grep -Eq "accelerator: (kvm|tcg)" "$TMP/err"
check "the reader accepts it as a whole result" /usr/bin/python3 -c \
	"import sys; sys.path.insert(0, 'scripts'); import rtsched_results as r; r.load_file('$json')"
# a run here of the same configuration (8 threads, 4 locks, 1 s)
./migrate -q -d 1 -t 8 -l 4 --json "$TMP/here.json" >/dev/null 2>&1 </dev/null
scripts/compare "$json" "$TMP/here.json" >"$TMP/cmp" 2>&1
check "compare says it ran in a VM, against a run on this machine" \
	grep -q "ran on a VM (.*), B on the machine itself" "$TMP/cmp"

# --- a command that fails in the guest: its status is reported, the rest kept
rm -rf "${RES:?}"/*
run_bounded 300 $M --accel tcg --results "$RES" --run 'migrate -d 1 -p' --run 'migrate -t 0' "$KERNEL"
check "a failing command makes the matrix fail (exit $rc)" test "$rc" -eq 1
check "it names the command and its exit status" grep -q "run 2 (migrate -t 0) exited 2" "$TMP/err"
check "the whole result of the command that ran is kept" \
	test "$(find "$RES" -name '*-1-migrate-contention-t8-pi.json' | wc -l)" -eq 1

# --- a kernel without SMP (nosmp): refused by the guest, nothing stored
rm -rf "${RES:?}"/*
run_bounded 300 $M --accel tcg --results "$RES" --append nosmp "$KERNEL"
check "a guest with 1 CPU of 4 cannot run the experiment (exit $rc, want 4)" test "$rc" -eq 4
check "the message names the problem" grep -q "1 CPUs online, 4 asked for" "$TMP/err"
check "nothing stored" no_results

# --- a guest that never starts its init: killed at --boot-timeout
run_bounded 60 $M --accel tcg --results "$RES" --boot-timeout 1 "$KERNEL"
check "a guest that does not boot in time fails (exit $rc, want 1)" test "$rc" -eq 1
check "the message says so" grep -q "did not start its init within 1 s" "$TMP/err"
check "nothing stored" no_results

# --- bad input: one line naming the problem, exit 2 or 4, nothing stored
printf 'not a kernel\n' >"$TMP/text"
bad() { # bad WANT-RC PATTERN ARGS...
	local want=$1 pat=$2
	shift 2
	run_bounded 30 "$@"
	# one line, besides the note that a package is being fetched
	[ "$rc" -eq "$want" ] && [ "$(grep -vc 'with apt-get download$' "$TMP/err")" -eq 1 ] &&
		tail -1 "$TMP/err" | grep -q -- "$pat" &&
		no_results
	ok $? "$(printf '%q ' "${@:2}")-> exit $want, '$pat'" || diag "$TMP/err"
}
bad 2 "invalid kernel '/no/such/vmlinuz': no such file" $M --results "$RES" /no/such/vmlinuz
bad 2 "not a bootable x86 kernel image" $M --results "$RES" "$TMP/text"
bad 2 "invalid kernel 'vmlinuz-6'" $M --results "$RES" vmlinuz-6
bad 2 "give at least one KERNEL" $M --results "$RES"
bad 2 "invalid --cpus '0'" $M --cpus 0 "$KERNEL"
bad 2 "invalid --cpus '65'" $M --cpus 65 "$KERNEL"
bad 2 "a guest needs at least 256 MiB" $M --memory 64 "$KERNEL"
bad 2 "invalid --accel 'xen'" $M --accel xen "$KERNEL"
bad 2 "expected a migrate or pi_stress command line" $M --run 'rm -rf /' "$KERNEL"
bad 2 "invalid benchmark command .*: the guest would get ' as written" $M --run "migrate -m 'contention' -d 1" "$KERNEL"
matrices() { ls -d "${RTSCHED_CACHE:-$HOME/.cache/rtsched}"/matrix-* 2>/dev/null | wc -l; }
before=$(matrices)
bad 2 "invalid benchmark command .*: a command is one line" $M --run $'migrate -d 1\nmigrate -d 2' "$KERNEL"
check "  and no work folder is left in the cache" test "$(matrices)" -eq "$before"

# --- SIGTERM while a guest runs: the guest is stopped, nothing is left
$M --accel tcg --results "$RES" --run 'migrate -d 60' "$KERNEL" >"$TMP/out" 2>"$TMP/err" </dev/null &
pid=$!
for _ in $(seq 300); do grep -q '^migrate 0' "$TMP/out" && break; sleep 0.1; done
check "a guest started its run" grep -q '^migrate 0' "$TMP/out" || diag "$TMP/err"
kill -TERM "$pid"
timeout 20 tail --pid="$pid" -f /dev/null
wait "$pid"
rc=$?
check "SIGTERM: exit 143 (got $rc), saying so" \
	bash -c "[ $rc -eq 143 ] && grep -q '^kernel-matrix: stopped by SIGTERM$' '$TMP/err'"
check "  no QEMU left running" bash -c "! grep -qs 'matri[x]-' /proc/[0-9]*/cmdline"
check "  no work folder left in the cache" test "$(matrices)" -eq "$before"
check "  nothing stored" no_results
bad 2 "leave out --json" $M --run 'migrate --json x' "$KERNEL"
bad 2 "the guest would get ' as written" $M --run "migrate -m 'x" "$KERNEL"
bad 4 "no static benchmark" $M --bin "$TMP" "$KERNEL"
bad 4 "no busybox at /no/busybox" $M --busybox /no/busybox "$KERNEL"
mkdir -p "$TMP/empty"
bad 4 "qemu-system-x86_64 not found" env PATH="$TMP/empty" /usr/bin/python3 $M "$KERNEL"
bad 4 "cannot fetch package linux-image-no-such-kernel" $M linux-image-no-such-kernel
