#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# timeout=360
# (several guests boot: ~100 s here)
# sanitizers: not run (its guests run the static programs, which no sanitizer builds)
# scripts/kernel-matrix for real: Debian's 6.1 kernel (fetched with apt-get
# download, cached) boots in QEMU with 4 virtual CPUs, runs a short
# contention run and the JSON result comes back into results/; then the
# bad inputs and guests that cannot run the experiment.
. "$(dirname "$0")/tap.bash"
. "$(dirname "$0")/guest.bash"

KERNEL=linux-image-amd64
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
check "  and where the two kernels' RT bandwidth regimes differ, which" /usr/bin/python3 -c '
import sys
sys.path.insert(0, "scripts")
import rtsched_results as r
a, b = (r.scheduler_settings(r.load_file(f)) for f in sys.argv[1:3])
ra, rb = a["RT bandwidth"], b["RT bandwidth"]
want = f"   note: A and B differ in RT bandwidth: A {ra}, B {rb}"
lines = open(sys.argv[3]).read().splitlines()
print("#", want)
sys.exit(0 if (want in lines) == (ra != rb) else 1)' \
	"$json" "$TMP/here.json" "$TMP/cmp"

# --- Debian's 6.1 has RT throttling, its 6.12 and 6.12-rt the fair server alone:
# the header and the result say what each kernel has, and no throttling claim
# on 6.12 (it has no CONFIG_RT_GROUP_SCHED: the configuration goes into the guest)
check "6.1: the result's RT bandwidth regime is throttling" /usr/bin/python3 -c '
import json, sys
b = json.load(open(sys.argv[1]))["system"]["rt_bandwidth"]
print("#", b)
sys.exit(0 if b["regime"] == "throttling" and b["rt_group_sched"] is False else 1)' "$json"
check "  and the header says RT throttling" grep -q "^RT bandwidth: RT throttling 950000/1000000 us$" "$TMP/out"
newest() { # newest PATTERN: the newest Debian package whose name matches
	apt-cache search --names-only "$1" | awk '{ print $1 }' | sort -V | tail -1
}
for flavour in amd64 rt-amd64; do
	pkg=$(newest "^linux-image-6\.12\.[0-9]+\+deb12-$flavour-unsigned\$")
	if [ -z "$pkg" ]; then
		skip "the 6.12 $flavour guest's 4 checks: $(not_in_sources "linux-image-6.12.N+deb12-$flavour-unsigned")"
		continue
	fi
	guest 400 --results "$RES" --run 'migrate -d 1' "$pkg"
	check "$pkg: a guest ran the contention test (exit $rc)" test "$rc" -eq 0 || diag "$TMP/err"
	j=$(find "$RES" -name '*.json' | head -1)
	check "  the fair server on each of the 4 CPUs, 50 ms of every 1000, and no RT throttling" \
		/usr/bin/python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["system"]
b = s["rt_bandwidth"]
print("#", b, s["preempt_model"])
ok = (b["regime"] == "fair_server" and b["throttling"] is False and b["rt_group_sched"] is False
      and [(c["runtime_ns"], c["period_ns"]) for c in b["fair_server_cpus"]] == [(50000000, 1000000000)] * 4
      and (sys.argv[2] == "amd64" or s["preempt_model"] == "PREEMPT_RT"))
sys.exit(0 if ok else 1)' "$j" "$flavour"
	check "  the header says the fair server's values" \
		grep -q "^RT bandwidth: the fair server, 50.0 of every 1000.0 ms on each CPU; no RT throttling (no CONFIG_RT_GROUP_SCHED)$" "$TMP/out"
	check "  and nothing of RT throttling" bash -c "! grep -qi 'RT throttling [0-9]\|sched_rt_runtime_us=-1' '$TMP/out'"
done

# --- isolated CPUs: isolcpus=domain and nohz_full at boot, then a cgroup v2
# isolated partition; the benchmark threads on the isolated CPUs, the
# coordinator (the highest SCHED_FIFO), the watchdog (SCHED_OTHER) and
# pi_stress's coordinator elsewhere, as a sampler in the guest sees them
pkg=$(newest '^linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned$')
# (builtins only: a pass over every task with a fork per file took longer under
# TCG than pi_stress's whole run, and once saw none of its threads)
sampler='while :; do for t in /proc/[0-9]*/task/[0-9]*; do read -r n < $t/comm 2>/dev/null || continue; case $n in migrate|pi_stress) p=; c=; while read -r k a b; do case $k in prio) p=$b;; esac; done < $t/sched 2>/dev/null; while read -r k v; do case $k in Cpus_allowed_list:) c=$v;; esac; done < $t/status 2>/dev/null; echo "rtsched-affinity: $n prio $p cpus $c";; esac; done 2>/dev/null; sleep 0.2; done'
placed() { # placed PROGRAM HELPERS RUN: its coordinator (the highest SCHED_FIFO) and the
	# watchdog (SCHED_OTHER) on the CPUs HELPERS, every other thread within the CPUs RUN
	/usr/bin/python3 - "$TMP/out" "$@" <<'EOF2'
import sys
out, prog, helpers, run = sys.argv[1:5]

def cpus(text):
    s = set()
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        s |= set(range(int(lo), int(hi or lo) + 1))
    return s

# a thread that exits between the sampler's reads leaves its prio or CPUs empty
seen = [x for x in (l.split() for l in open(out) if l.startswith(f"rtsched-affinity: {prog} "))
        if len(x) == 6 and x[3].isdigit()]
print("#", sorted(set(" ".join(x[2:]) for x in seen)))
if not seen:
    sys.exit(1)
top = min(int(x[3]) for x in seen)
# the coordinator on the helpers' CPUs; a SCHED_FIFO benchmark thread within the
# run's; migrate's watchdog (120) seen on the helpers'. A thread at 120 is not
# judged: the main thread before it places itself (on every CPU), a benchmark
# thread that has left SCHED_FIFO at its end (the run's), the watchdog
# (the coordinator may be seen at its priority before it pins itself, on all
# the CPUs left to the helpers: never on the run's, and seen on the helpers')
bad = [x for x in seen if int(x[3]) == top and cpus(x[5]) & cpus(run)]
bad += [x for x in seen if int(x[3]) != top and int(x[3]) < 100
        and not cpus(x[5]) <= cpus(run)]
pinned = any(int(x[3]) == top and cpus(x[5]) == cpus(helpers) for x in seen)
watchdog = any(int(x[3]) == 120 and cpus(x[5]) == cpus(helpers) for x in seen)
sys.exit(1 if bad or not pinned or (prog == "migrate" and not watchdog) else 0)
EOF2
}
# (pi_stress's watchdog at 5 s: a TCG guest's virtual CPUs can stall for a second)
guest 400 -v --results "$RES" --append 'isolcpus=domain,managed_irq,2-3 nohz_full=2-3' \
	--background "$sampler" --run 'migrate -c 2-3 -d 3' --run 'pi_stress -c 2-3 -d 3 -w 5s' "$pkg"
check "isolcpus=domain,managed_irq,2-3 nohz_full=2-3: migrate and pi_stress ran on CPUs 2-3 (exit $rc)" \
	test "$rc" -eq 0 || { diag "$TMP/err"; grep -E '^(FAIL|note: group)' "$TMP/out" | diag; }
check "  migrate's threads on 2-3, its coordinator and watchdog on 0-1" placed migrate 0-1 2-3
check "  pi_stress's groups on 2 and 3, its coordinator on 0" placed pi_stress 0 2-3
check "  the header names the isolated and nohz_full CPUs and the housekeeping ones" bash -c \
	"grep -q '^note: CPUs 2-3 are isolated' '$TMP/out' && grep -q '^note: CPUs 2-3 are nohz_full' '$TMP/out' && grep -q 'CPUs 2-3 in one root domain (isolated); coordinator, watchdog and recorder on CPUs 0-1$' '$TMP/out'"
j=$(find "$RES" -name '*migrate-contention*.json' | head -1)
check "  the result: isolated 2-3, nohz_full 2-3, housekeeping 0-1; threads migrated between 2 and 3" \
	/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
i = d["system"]["isolation"]
print("#", i, d["config"]["housekeeping"])
mig = sum(r["migrated"] for r in d["runs"][0]["rows"])
sys.exit(0 if i["isolated"] == "2-3" and i["nohz_full"] == "2-3" and i["run_root_domains"] == 1
         and d["config"]["housekeeping"] == "0-1" and mig > 0 else 1)' "$j"
guest 400 --results "$RES" --append 'isolcpus=domain,managed_irq,2-3' --run 'migrate -c 1-2 -d 1' "$pkg"
check "CPUs 1-2 across two root domains: the guest's migrate refuses them (exit $rc, want 1)" \
	bash -c "[ $rc -eq 1 ] && grep -q 'run 1 (migrate -c 1-2 -d 1) exited 2' '$TMP/err'"
check "  saying why" grep -q "^migrate: CPUs 1-2 span root domains (1 the machine's, 2 isolated): the RT scheduler never moves a thread between them" "$TMP/out"
guest 400 -v --results "$RES" --setup 'mount -t cgroup2 none /sys/fs/cgroup' \
	--setup 'echo +cpuset > /sys/fs/cgroup/cgroup.subtree_control' \
	--setup 'mkdir /sys/fs/cgroup/rt && echo 1-3 > /sys/fs/cgroup/rt/cpuset.cpus && echo isolated > /sys/fs/cgroup/rt/cpuset.cpus.partition' \
	--setup 'echo 1 > /sys/fs/cgroup/rt/cgroup.procs' \
	--background "$sampler" --run 'migrate -c 2-3 -d 3' --run 'pi_stress -c 2-3 -d 3 -w 5s' "$pkg"
check "a cgroup v2 isolated partition of CPUs 1-3: migrate and pi_stress ran on 2-3 in it (exit $rc)" \
	test "$rc" -eq 0 || { diag "$TMP/err"; grep -E '^(FAIL|note: group)' "$TMP/out" | diag; }
check "  migrate's coordinator and watchdog on 1, the partition's CPU outside the run" placed migrate 1 2-3
check "  pi_stress's coordinator on 1" placed pi_stress 1 2-3
j=$(find "$RES" -name '*migrate-contention*.json' | head -1)
check "  the result: the process in the isolated partition /rt, its CPUs 1-3" /usr/bin/python3 -c '
import json, sys
i = json.load(open(sys.argv[1]))["system"]["isolation"]
print("#", i)
sys.exit(0 if i["cpuset_partition"] == "isolated partition /rt" and i["cpuset_cpus"] == "1-3"
         and i["isolated"] == "1-3" else 1)' "$j"

# --- a known layout: 2 sockets of 2 cores, a NUMA node each (QEMU's
# -smp/-numa); the topology the benchmark records and the migrations by the
# distance they crossed match it. (Under TCG QEMU gives 6.1 guests no SMT
# siblings: threads=2 shows as cores, so the layout here has none.)
guest 300 --accel tcg --topology sockets=2,cores=2,nodes=2 --memory 1024 --results "$RES" \
	--run 'migrate -d 2 --trace' "$KERNEL"
check "a 2-socket, 2-node guest ran migrate --trace (exit $rc)" test "$rc" -eq 0 || diag "$TMP/err"
check "  the header says its topology" grep -q '^topology: 4 CPUs in 4 cores, 2 L3 caches, 2 packages, 2 NUMA nodes (distance 21 at most)$' "$TMP/out" ||
	grep '^topology' "$TMP/out" | diag
j=$(find "$RES" -path '*/vm-4cpu-2s2c1t2n-tcg/*' -name '*.json' | head -1)
check "  stored under vm-4cpu-2s2c1t2n-tcg/, the layout in the vm record" test -n "$j"
check "  the result: CPUs 0-1 on node 0 and 2-3 on node 1, an L3 each; migrations by distance add up, some across nodes" \
	/usr/bin/python3 - "$j" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["system"]["topology"]
print("#", t)
assert d["system"]["vm"]["topology"] == {"sockets": 2, "cores": 2, "threads": 1, "nodes": 2}
assert [(c["node"], c["package"], c["cache"]) for c in t["cpus"]] == [(0, 0, 0), (0, 0, 0), (1, 1, 2), (1, 1, 2)]
assert t["node_distances"] == [[10, 21], [21, 10]] and t["cache_level"] == 3
by = [th["migrations"]["by_distance"] for th in d["runs"][0]["trace"]["threads"]]
print("#", by)
assert all(sum(b.values()) == th["migrations"]["traced"]
           for b, th in zip(by, d["runs"][0]["trace"]["threads"]))
# no siblings, and no CPU of another cache on the same node: only cache and remote
assert sum(b["sibling"] + b["node"] for b in by) == 0
assert sum(b["cache"] for b in by) > 0 and sum(b["remote"] for b in by) > 0
# the placement waits by where the lower CPU was: the same layout, adding up
pl = [th["placement"] for th in d["runs"][0]["trace"]["threads"]]
print("#", [p["by_distance_ns"] for p in pl])
assert all(sum(p["by_distance_ns"].values()) == p["wait_ns"] for p in pl)
assert sum(p["by_distance_ns"]["sibling"] + p["by_distance_ns"]["node"] for p in pl) == 0
EOF

# --- a command that fails in the guest: its status is reported, the rest kept
rm -rf "${RES:?}"/*
run_bounded 300 $M --accel tcg --results "$RES" --run 'migrate -d 1 -p' --run 'migrate -t 0' \
	--run 'migrate -d 1 --trace --trace-buffer 4194304' "$KERNEL"
check "a failing command makes the matrix fail (exit $rc)" test "$rc" -eq 1
check "it names the command and its exit status" grep -q "run 2 (migrate -t 0) exited 2" "$TMP/err"
check "the whole result of the command that ran is kept" \
	test "$(find "$RES" -name '*-1-migrate-contention-t8-pi.json' | wc -l)" -eq 1
# trace buffers larger than the guest's memory: what they come to, and the way out
check "trace buffers past the guest's memory: exit 3, the sizes and --trace-buffer named" \
	bash -c "grep -q 'run 3 (migrate -d 1 --trace --trace-buffer 4194304) exited 3' '$TMP/err' &&
		grep -q '^migrate: --trace: the trace buffers, 4194304 KiB on each of 4 CPUs (16384 MiB in all), do not fit in memory; --trace-buffer KB asks for less$' '$TMP/out'" ||
	diag "$TMP/out"

# --- an interleaved design: two boots under each of two settings, every
# result with its place in it (scripts/compare's sittings)
# (a guest the emulator failed: the design once more, guest.bash)
guest 300 --accel tcg --results "$RES" --sittings 2 --append lpj=4000000 \
	--setting 'off=echo NO_RT_PUSH_IPI > /sys/kernel/debug/sched/features' \
	--setting 'on=echo RT_PUSH_IPI > /sys/kernel/debug/sched/features' \
	--run 'migrate -d 0.5' "$KERNEL"
check "--sittings 2, two settings: four boots (exit $rc)" test "$rc" -eq 0 || diag "$TMP/err"
check "  each setting's results in a folder of its own, the feature as it set it" \
	/usr/bin/python3 - "$RES" <<'EOF'
import glob, json, sys
res = sys.argv[1]
seen = []
for name, feat in (("off", "NO_RT_PUSH_IPI"), ("on", "RT_PUSH_IPI")):
    files = glob.glob(f"{res}/{name}/*/vm-4cpu-tcg/*.json")
    assert len(files) == 2, (name, files)
    for f in files:
        d = json.load(open(f))
        assert feat in d["system"]["scheduler"]["features"], (f, d["system"]["scheduler"])
        s = d["sitting"]
        assert s["design"]["setting"] == name and s["design"]["rounds"] == 2, s
        seen.append((s["design"]["boot"], s["design"]["round"], name, s["boot_id"]))
seen.sort()
assert [(b, r, n) for b, r, n, _ in seen] == [(1, 1, "off"), (2, 1, "on"), (3, 2, "off"),
                                              (4, 2, "on")], seen
assert len({x[3] for x in seen}) == 4, "a boot id each"
assert len({json.load(open(f))["sitting"]["design"]["id"]
            for f in glob.glob(f"{res}/*/*/vm-4cpu-tcg/*.json")}) == 1
EOF
check "  the design is said before the boots" \
	grep -qE "^kernel-matrix: design [0-9TZ]+-[0-9a-f]{6}: 2 rounds of 2 boots \(1 kernel x 2 settings\), order alternate$" "$TMP/err"
check "  and compare takes each boot as a sitting" bash -c \
	"scripts/compare '$RES/off' '$RES/on' --column migrated | grep -q '^   sitting: the boot, 2 against 2$'"

# --- a kernel without SMP (nosmp): refused by the guest, nothing stored
rm -rf "${RES:?}"/*
run_bounded 300 $M --accel tcg --results "$RES" --append nosmp "$KERNEL"
check "a guest with 1 CPU of 4 cannot run the experiment (exit $rc, want 4)" test "$rc" -eq 4
check "the message names the problem" grep -q "1 CPUs online, 4 asked for" "$TMP/err"
check "nothing stored" no_results

# --- a --setup line that fails: the user's command failed (exit 1, as a --run's
# would), named, not "the guest cannot run the experiment" (4: something missing)
rm -rf "${RES:?}"/*
run_bounded 300 $M --accel tcg --results "$RES" --append lpj=4000000 --setup 'true' \
	--setup 'echo x > /no/such/file' --run 'migrate -d 0.2' "$KERNEL"
check "a --setup line that fails in the guest: exit $rc, want 1 (a command failed)" test "$rc" -eq 1 ||
	diag "$TMP/err"
check "  one line naming it, its number and its status; nothing run, nothing stored" \
	bash -c "grep -q \"^kernel-matrix: .*: --setup line 2 ('echo x > /no/such/file') exited 1 in the guest: nothing was run\" '$TMP/err' &&
		! grep -q 'cannot run the experiment' '$TMP/err' && [ -z \"\$(find '$RES' -name '*.json')\" ]" ||
	diag "$TMP/err"

# --- a results disk that fills: exit 3 (a file operation failed), naming the
# file; room for one of the boot's two results (about 12 KB each) stores neither
mkdir -p "$TMP/full"
if mount -t tmpfs -o size=32k rtsched-full "$TMP/full" 2>/dev/null; then
	tap_cleanup="umount '$TMP/full' 2>/dev/null; $tap_cleanup"
	dd if=/dev/zero of="$TMP/full/fill" bs=4k count=4 2>/dev/null
	run_bounded 300 $M --accel tcg --append lpj=4000000 --results "$TMP/full/r" --run 'migrate -d 0.2' \
		--run 'migrate -d 0.2' "$KERNEL"
	check "a results disk with room for one of two results: exit $rc, want 3, in one line naming the result it could not store" \
		bash -c "[ $rc -eq 3 ] && tail -1 '$TMP/err' | grep -q '^kernel-matrix: $TMP/full/r/.*\.json: No space left on device$'" ||
		diag "$TMP/err"
	check "  neither stored (a boot's results are stored whole or not at all)" \
		test -z "$(find "$TMP/full/r" -type f)" || find "$TMP/full/r" | diag
	umount "$TMP/full"
else
	skip "cannot mount a tmpfs for a full disk"
fi
run_bounded 60 env RTSCHED_CACHE=/proc/rtsched-cache $M --results "$RES" --run 'migrate -d 0.2' "$KERNEL"
check "a cache that cannot be made: exit $rc, want 3, one line naming it" \
	bash -c "[ $rc -eq 3 ] && tail -1 '$TMP/err' | grep -q '^kernel-matrix: /proc/rtsched-cache' && ! grep -q Traceback '$TMP/err'" ||
	diag "$TMP/err"

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
	# one line, besides the notes that a package is being fetched, and followed
	[ "$rc" -eq "$want" ] &&
		[ "$(grep -vc -e 'with apt-get download$' -e ' is a metapackage for ' "$TMP/err")" -eq 1 ] &&
		tail -1 "$TMP/err" | grep -q -- "$pat" &&
		no_results
	ok $? "$(printf '%q ' "${@:2}")-> exit $want, '$pat'" || diag "$TMP/err"
}
bad 2 "invalid kernel '/no/such/vmlinuz': no such file" $M --results "$RES" /no/such/vmlinuz
bad 2 "not a bootable x86_64 or arm64 kernel image" $M --results "$RES" "$TMP/text"
bad 2 "invalid kernel 'vmlinuz-6'" $M --results "$RES" vmlinuz-6
bad 2 "give at least one KERNEL" $M --results "$RES"
bad 2 "invalid --cpus '0'" $M --cpus 0 "$KERNEL"
bad 2 "invalid --cpus '65'" $M --cpus 65 "$KERNEL"
bad 2 "a guest needs at least 256 MiB" $M --memory 64 "$KERNEL"
bad 2 "invalid --accel 'xen'" $M --accel xen "$KERNEL"
bad 2 "expected a migrate, pi_stress or spin command line" $M --run 'rm -rf /' "$KERNEL"
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
bad 2 "invalid --sittings '0': expected a whole number from 1 to 1000" $M --sittings 0 "$KERNEL"
bad 2 "invalid --order 'random': expected alternate or shuffle" $M --order random "$KERNEL"
bad 2 "--seed is the seed of --order shuffle: give both, or neither" $M --seed 3 "$KERNEL"
bad 2 "invalid --setting 'a b=true': expected NAME=SHELL LINE" $M --setting 'a b=true' "$KERNEL"
bad 2 "invalid --setting 'on=': expected one non-empty shell line after on=" $M --setting 'on=' "$KERNEL"
bad 2 "a setting on was given already" $M --setting 'on=true' --setting 'on=false' "$KERNEL"
bad 2 "invalid --topology 'sockets=2,nodes=3': nodes must be 1 or one per socket" $M --topology sockets=2,nodes=3 "$KERNEL"
bad 2 "invalid --topology: 2s2c1t1n makes 4 virtual CPUs; accepted: a product of 1 to 64, and --cpus 8 must be it" $M --cpus 8 --topology sockets=2,cores=2 "$KERNEL"
bad 2 "the guest would get ' as written" $M --run "migrate -m 'x" "$KERNEL"
bad 4 "no static x86_64 benchmark $TMP/migrate: run make static$" $M --bin "$TMP" "$KERNEL"
bad 4 "no busybox at /no/busybox" $M --busybox /no/busybox "$KERNEL"
mkdir -p "$TMP/empty"
# (the image itself: a package name needs apt-cache, from PATH too)
image=$(find "${RTSCHED_CACHE:-$HOME/.cache/rtsched}/packages" -path '*-amd64/boot/vmlinuz-*' | head -1)
bad 4 "qemu-system-x86_64 not found: install QEMU (Debian: apt-get install qemu-system-x86)" \
	env PATH="$TMP/empty" /usr/bin/python3 $M "$image"
bad 4 "cannot fetch package linux-image-no-such-kernel" $M linux-image-no-such-kernel
