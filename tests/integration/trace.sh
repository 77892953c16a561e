# SPDX-License-Identifier: GPL-2.0-only
# Every lock step writes a trace_marker line that trace-cmd and KernelShark
# show next to the scheduler's events.
. "$(dirname "$0")/tap.bash"
require_rt

trace=$(mktemp "$TMP/trace.XXXXXX")
dir=/sys/kernel/tracing
# the markers are read back from the top instance: only these checks need
# it writable and on (a trace-cmd record leaves tracing_on at 0); the rest
# of this file uses private instances
if [ ! -w "$dir/trace_marker" ]; then
	skip "no writable trace_marker at $dir: the lock-step markers"
elif [ "$(cat $dir/tracing_on)" != 1 ]; then
	skip "tracing is off in the top instance: the lock-step markers cannot be read back"
else
	./migrate -q -m lockstep -L 3 >/dev/null 2>&1 &
	pid=$!
	wait $pid
	ok $? "lockstep -L 3 runs"
	cat "$dir/trace" >"$trace"
	# the threads' tids follow the process id; a marker line starts with comm-tid
	mine() { grep -E -- "-($(seq -s '|' $((pid + 1)) $((pid + 64)))) +\[" "$trace"; }
	for step in "taking lock" "took lock" "unlock lock"; do
		n=$(mine | grep -c "tracing_mark_write: thread [0-9]* iter [0-9]*, $step [0-9]")
		ok $(( n > 0 ? 0 : 1 )) "'$step' markers from this run: $n"
	done
	n=$(mine | grep -c "tracing_mark_write: thread 0 iter 2, unlock lock $((NCPUS - 1))")
	check "thread 0's last step, iter 2 unlock lock $((NCPUS - 1)), is marked" test "$n" -eq 1

	./migrate -q -d 0.3 -t 2 -l 1 >/dev/null 2>&1 &
	pid=$!
	wait $pid
	cat "$dir/trace" >"$trace"
	# this run's threads' sleeps, not an earlier run's
	n=$(mine | grep -c "tracing_mark_write: thread [0-9]* iter [0-9]* sleeping")
	ok $(( n > 0 ? 0 : 1 )) "contention marks its sleeps: $n from this run"
fi

# --trace: the scheduler's events of the run, analysed
instances() { ls "$dir/instances" 2>/dev/null | grep -c '^rtsched-'; }
mkdir "$dir/instances/rtsched-999999999" 2>/dev/null	# as a killed run leaves it
j=$TMP/t.json
run_bounded 60 ./migrate -q -d 1 --trace --json "$j"
ok $rc "--trace runs (exit $rc)"
check "  prints the events it read" grep -qE '^trace: [1-9][0-9]* events \(sched_switch [0-9]+, sched_waking' "$TMP/out"
check "  and lost none" test "$(grep -c 'LOST' "$TMP/out")" -eq 0
check "  the migrations by cause, one row per thread" test "$(sed -n '/^Migrations  traced/,/^$/p' "$TMP/out" | grep -cE '^ +[0-9]+:')" -eq $((2 * NCPUS))
check "  and by distance, one row per thread" test "$(sed -n '/^Migrations by distance/,/^$/p' "$TMP/out" | grep -cE '^ +[0-9]+:')" -eq $((2 * NCPUS))
check "  the preemptions and waits, one row per thread" test "$(sed -n '/^Preempted/,/^$/p' "$TMP/out" | grep -cE '^ +[0-9]+:')" -eq $((2 * NCPUS))
check "  the placement waits, one row per thread" test "$(sed -n '/^Placement   waited/,/^$/p' "$TMP/out" | grep -cE '^ +[0-9]+:')" -eq $((2 * NCPUS))
check "  and one row per CPU" test "$(sed -n '/^CPU  /,/^$/p' "$TMP/out" | grep -cE '^ *[0-9]+:')" -eq $NCPUS
# what the threads waited is what the CPUs ran lower while they did, part by part;
# the limits' time, at most what the threads waited on the CPUs they held
check "  placement: the threads' waits add up to the CPUs' figures" /usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
ok = True
for r in d["runs"]:
    t, c = r["trace"]["threads"], r["trace"]["cpus"]
    for a, b in (("wait_ns", "lower_ns"), ("unseen_ns", "unseen_ns")):
        x, y = sum(p["placement"][a] for p in t), sum(p[b] for p in c)
        print("#", a, x, b, y)
        ok &= x == y
    # a CPU the kernel limit holds counts its time once, however many wait on it
    for a in ("throttled_ns", "fair_server_ns", "throttled_or_fair_server_ns"):
        x, y = sum(p["placement"][a] for p in t), sum(p[a] for p in c)
        print("#", a, x, y)
        ok &= y <= x and (y > 0) == (x > 0)
    ok &= all(p["placement"]["spans_ns"]["count"] > 0 or p["placement"]["wait_ns"] == 0 for p in t)
sys.exit(0 if ok else 1)' "$j"
# the trace and /proc count the same migrations: both follow set_task_cpu(); a
# migration at the very instant of a counter reading may fall either side
check "  traced migrations agree with /proc (within 1 per thread)" /usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
m = [t["migrations"] for r in d["runs"] for t in r["trace"]["threads"]]
print("# traced/proc:", [(x["traced"], x["proc"]) for x in m])
sys.exit(0 if m and all(abs(x["traced"] - x["proc"]) <= 1 for x in m) else 1)' "$j"
check "  causes add up to the traced migrations" /usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if all(t["migrations"]["at_wakeup"] + t["migrations"]["runnable"] + t["migrations"]["other"] == t["migrations"]["traced"] and t["migrations"]["lower_rt"] + t["migrations"]["equal_rt"] <= t["migrations"]["at_wakeup"] for r in d["runs"] for t in r["trace"]["threads"]) else 1)' "$j"
check "  the distances add up to the traced migrations; the machine's topology in the result" /usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
topo = d["system"]["topology"]
print("#", topo["cpus"][:2], [t["migrations"]["by_distance"] for t in d["runs"][0]["trace"]["threads"]])
ok = len(topo["cpus"]) == d["system"]["nr_cpus"] and all(
    sum(t["migrations"]["by_distance"].values()) == t["migrations"]["traced"]
    for r in d["runs"] for t in r["trace"]["threads"])
sys.exit(0 if ok else 1)' "$j"
check "  the placement waits by distance, one row per thread, adding up to each thread's wait" bash -c "
	test \$(sed -n '/^Placement by distance/,/^\$/p' '$TMP/out' | grep -cE '^ +[0-9]+:') -eq $((2 * NCPUS)) &&
	/usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
p = [t[\"placement\"] for r in d[\"runs\"] for t in r[\"trace\"][\"threads\"]]
print(\"#\", [(x[\"wait_ns\"], x[\"by_distance_ns\"]) for x in p][:3])
sys.exit(0 if p and all(sum(x[\"by_distance_ns\"].values()) == x[\"wait_ns\"] for x in p) else 1)' '$j'"
check "  no rtsched trace instance is left behind" test "$(instances)" -eq 0
check "  and one left by a killed run was removed" test ! -e "$dir/instances/rtsched-999999999"

# every run sweeps, traced or not: a stale instance (nobody holds it) goes
mkdir "$dir/instances/rtsched-999999999-0badcafe" 2>/dev/null
run_bounded 30 ./migrate -q -d 0.2
check "a run without --trace removes an instance nobody holds" \
	test ! -e "$dir/instances/rtsched-999999999-0badcafe"

# a run in another PID namespace, whose PIDs say nothing here, leaves a live
# instance alone: the owner holds a lock on it
if unshare -p -f --mount-proc true 2>/dev/null; then
	./migrate -q -d 3 --trace >"$TMP/host.out" 2>&1 </dev/null &
	host=$!
	for _ in $(seq 50); do [ "$(instances)" -gt 0 ] && break; sleep 0.1; done
	run_bounded 30 unshare -p -f --mount-proc ./migrate -q -d 0.3 --trace
	check "a --trace run in another PID namespace: exit 4 (got $rc), tracefs cannot see its threads" \
		bash -c "[ $rc -eq 4 ] && grep -q '^migrate: --trace: this process is in a PID namespace of its own' '$TMP/err'"
	run_bounded 30 unshare -p -f --mount-proc ./migrate -q -d 0.3
	check "  without --trace it runs there (exit $rc), sweeping the instances nobody holds" test "$rc" -eq 0
	timeout 20 tail --pid="$host" -f /dev/null
	wait "$host"
	rc=$?
	check "  and the run here keeps its instance: exit 0 (got $rc), its trace tables" \
		bash -c "[ $rc -eq 0 ] && grep -q '^Preempted' '$TMP/host.out'" || diag "$TMP/host.out"
else
	ok 1 "unshare -p works here (as root)"
fi

# the buffers are where the run is: a CPU outside it gets a page or so
if [ "$NCPUS" -ge 2 ]; then
	./migrate -c 0 -t 2 -d 2 --trace >"$TMP/cpu0.out" 2>&1 </dev/null &
	pid=$!
	# the header comes once the instance is set up
	for _ in $(seq 50); do grep -q '^kernel ' "$TMP/cpu0.out" && break; sleep 0.1; done
	inst=$(ls -d "$dir"/instances/rtsched-* 2>/dev/null | head -1)
	kb0=$(cat "$inst/per_cpu/cpu0/buffer_size_kb" 2>/dev/null)
	kb1=$(cat "$inst/per_cpu/cpu1/buffer_size_kb" 2>/dev/null)
	wait "$pid"
	check "-c 0 --trace: CPU 0's buffer is sized for the run (${kb0:-none} KiB), CPU 1's is not (${kb1:-none} KiB)" \
		bash -c "[ -n '$kb0' ] && [ -n '$kb1' ] && [ '$kb0' -gt 64 ] && [ '$kb1' -le 16 ]"
fi

# PI boosts: in paired mode with PI, high blocks on each owner's lock
run_bounded 60 ./migrate -q -m paired -L 20 -p --trace --json "$TMP/pb.json"
ok $rc "paired -p --trace runs"
check "  every lock owner received PI boosts, the highest thread none" /usr/bin/python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))["runs"][0]["trace"]["threads"]
print("# boosts:", [x["pi_boosts"] for x in t])
sys.exit(0 if all(x["pi_boosts"] > 0 for x in t[:-1]) and t[-1]["pi_boosts"] == 0 else 1)' "$TMP/pb.json"

# --trace-out: trace-cmd's trace.dat, which trace-cmd report reads
run_bounded 60 ./migrate -q -d 0.5 -t 3 --trace-out "$TMP/ev.dat" --json "$TMP/ev.json"
ok $rc "--trace-out runs"
cp "$TMP/out" "$TMP/ev.out"
check "  the file is a trace.dat" test "$(head -c 10 "$TMP/ev.dat" | tail -c 7)" = tracing
if command -v trace-cmd >/dev/null; then
	trace-cmd report -i "$TMP/ev.dat" >"$TMP/ev.report" 2>"$TMP/ev.report.err"
	rrc=$?
	check "  trace-cmd report reads it (exit $rrc)" test "$rrc" -eq 0 -a -s "$TMP/ev.report" ||
		diag "$TMP/ev.report.err"
	n=$(grep -c ' sched_switch: ' "$TMP/ev.report")
	check "  it holds every sched_switch the analysis read ($n)" test "$n" -ge \
		"$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["runs"][0]["trace"]["by_event"]["sched_switch"])' "$TMP/ev.json")"
	check "  and the lock steps' markers" grep -q 'tracing_mark_write: thread 2 iter [0-9]*, took lock' "$TMP/ev.report"
	check "  and a window marker per thread" test "$(grep -c 'tracing_mark_write: rtsched window: run 0 row' "$TMP/ev.report")" -eq 3
else
	ok 1 "trace-cmd is installed (scripts/install-deps)"
fi

# analyse FILE: the same tables as --trace printed, from the file alone
run_bounded 60 ./analyse "$TMP/ev.dat"
ok $rc "analyse of the --trace-out file (exit $rc)"
tables() { sed -n '/^Migrations/,$p' "$1"; }
check "  prints the tables --trace printed" diff <(tables "$TMP/ev.out") <(tables "$TMP/out")
check "  says where its rows come from" grep -q '^1 run of 3 threads, from the run.s window markers' "$TMP/out"
# every event of the file, as trace-cmd reads it: the pages read in place,
# and a compressed copy read through libtracecmd, give the same
want=$(trace-cmd report -i "$TMP/ev.dat" 2>/dev/null | grep -cE ' sched_(switch|waking|wakeup|migrate_task|pi_setprio):')
check "  reads every scheduler event trace-cmd report shows ($want)" \
	grep -q ", $want scheduler events over " "$TMP/out"
if trace-cmd convert -i "$TMP/ev.dat" -o "$TMP/ev-zstd.dat" --compression any >/dev/null 2>&1; then
	./analyse "$TMP/ev-zstd.dat" >"$TMP/zstd.out" 2>&1
	check "  a compressed copy (trace-cmd convert): the same events and tables" bash -c \
		"grep -q ', $want scheduler events over ' '$TMP/zstd.out' && diff <(sed -n '/^Migrations/,\$p' '$TMP/zstd.out') <(sed -n '/^Migrations/,\$p' '$TMP/out')"
else
	ok 1 "  trace-cmd convert --compression made a compressed copy"
fi
run_bounded 60 ./analyse --name 'migrate*' --prio 1-3 --json "$TMP/an.json" "$TMP/ev.dat"
ok $rc "analyse --name --prio (exit $rc)"
check "  chose the 3 threads, lowest priority first" /usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print("# tasks:", d["tasks"])
sys.exit(0 if d["schema"] == "rtsched-analysis/1" and [t["rt_priority"] for t in d["tasks"]] == [1, 2, 3] and d["runs"][0]["trace"]["threads"][0]["migrations"]["proc"] is None else 1)' "$TMP/an.json"
check "  and no /proc column it cannot know" bash -c "sed -n '/^Migrations/,/^\$/p' '$TMP/out' | grep -qE '^ +0: +[0-9]+ +- '"
run_bounded 30 ./analyse --pid 1 "$TMP/ev.dat"
check "analyse --pid of no task of the trace: exit 2 (got $rc), one line" \
	bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$TMP/err') -eq 1 ] && grep -q 'no task of the trace matches the choice (--pid 1)$' '$TMP/err'"
run_bounded 30 ./analyse "$TMP/ev.json"
check "analyse of a file that is not a trace.dat: exit 2 (got $rc), one line" \
	bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$TMP/err') -eq 1 ] && grep -q 'is not a trace.dat' '$TMP/err'"
# a damaged page inside a CPU's data (its header says more than a page
# holds; libtraceevent's kbuffer trusts it and read past the page): one
# line, exit 2, never a crash (trace-cmd report crashes on it)
if damaged=$(trace-cmd dump --flyrecord -i "$TMP/ev.dat" 2>/dev/null | /usr/bin/python3 -c '
import re, sys
cpus = [tuple(map(int, m.groups())) for m in
        re.finditer(r"^\s*\d+\s+(\d+)\s+(\d+)\s+\[id, data offset and size\]", sys.stdin.read(), re.M)]
off, size = max(cpus, key=lambda c: c[1])
assert size >= 3 * 4096
print(off + size // 4096 // 2 * 4096)'); then
	cp "$TMP/ev.dat" "$TMP/damaged.dat"
	/usr/bin/python3 -c 'import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(int(sys.argv[2]))
    f.write(b"\xff" * 4096)' "$TMP/damaged.dat" "$damaged"
	run_bounded 30 ./analyse "$TMP/damaged.dat"
	check "analyse of a trace.dat with a damaged page: exit 2 (got $rc), one line" \
		bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$TMP/err') -eq 1 ] && grep -q 'damaged.dat is damaged: a page of its events says more than the page holds' '$TMP/err' && ! [ -s '$TMP/out' ]"
else
	ok 1 "trace-cmd dump --flyrecord gives the CPUs' data of the --trace-out file"
fi
run_bounded 30 ./analyse --events "$TMP/ev.dat"
check "analyse --events: the rtsched-trace/1 text, with the run's 3 threads" \
	bash -c "[ $rc -eq 0 ] && head -1 '$TMP/out' | grep -q '^# rtsched-trace/1' && [ \$(grep -c '^T ' '$TMP/out') -eq 3 ]"
check "  and the spans of placement waiting of its threads, as L lines" \
	bash -c "grep -qE '^L [0-9]+ [0-9]+ [0-9]+$' '$TMP/out'"

# Placement against what is known in advance. pi_stress pins each group to a
# CPU of its own: the groups' threads must wait there while another CPU
# idles, and the measure must not count that, since no thread may use it;
# the same trace read without the threads' affinity (--pid) counts it.
if [ "$NCPUS" -ge 2 ]; then
	run_bounded 60 ./pi_stress -q -g 1 -d 1 --trace --trace-out "$TMP/pin.dat" --json "$TMP/pin.json"
	ok $rc "pi_stress -g 1 --trace (exit $rc)"
	gcpu=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["runs"][0]["groups"][0]["cpu"])' "$TMP/pin.json")
	check "  placement counts only the group's CPU $gcpu: no other CPU is in its threads' affinity" \
		/usr/bin/python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["runs"][0]["trace"]["cpus"]
print("# cpus:", c)
sys.exit(0 if [x["cpu"] for x in c] == [int(sys.argv[2])] else 1)' "$TMP/pin.json" "$gcpu"
	pids=$(./analyse --events "$TMP/pin.dat" | awk '$1 == "T" { print $2 }' | paste -sd,)
	run_bounded 60 ./analyse --pid "$pids" --json "$TMP/nopin.json" "$TMP/pin.dat"
	check "  read without the affinity (--pid $pids), only the CPU each thread waited on counts" \
		/usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["runs"][0]["trace"]
print("# cpus:", d["cpus"])
sys.exit(0 if sum(x["lower_ns"] for x in d["cpus"] if x["cpu"] != int(sys.argv[2])) == 0
         and not any(t["placement"]["affinity_known"] for t in d["threads"]) else 1)' "$TMP/nopin.json" "$gcpu"
	check "  and analyse says so under the Placement table" \
		bash -c "./analyse --pid '$pids' '$TMP/pin.dat' | grep -q \"affinity is not in the trace\""
	run_bounded 60 ./analyse --pid "$pids" --affinity "0-$((NCPUS - 1))" --json "$TMP/anycpu.json" \
		"$TMP/pin.dat"
	check "  read with --affinity 0-$((NCPUS - 1)), the idle CPUs count: the low thread 'waited'" \
		/usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["runs"][0]["trace"]
print("# cpus:", d["cpus"])
sys.exit(0 if sum(x["lower_ns"] for x in d["cpus"] if x["cpu"] != int(sys.argv[2])) > 0 else 1)' "$TMP/anycpu.json" "$gcpu"
	# migrate's threads may use every CPU: the kernel must place the highest
	# one at once, so its waits are wake-up latencies, a small part of the run
	run_bounded 60 ./migrate -q -d 2 -t "$NCPUS" --trace --json "$TMP/free.json"
	check "migrate -t $NCPUS: the highest thread waited for a lower CPU less than 10% of its window" \
		/usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
r = d["runs"][0]
w = r["trace"]["threads"][-1]["placement"]["wait_ns"]
print("# highest thread waited", w, "ns of", r["measured_s"], "s")
sys.exit(0 if w < 0.1 * r["measured_s"] * 1e9 else 1)' "$TMP/free.json"
else
	skip "placement against affinity needs two CPUs (this machine has $NCPUS)"
fi

# A run's events stream from the buffers into the analysis (a page per CPU
# in memory): the process's peak does not grow with the run's events (they
# were kept, 56 bytes each, until the run's end). Measured per extra event,
# not as a flat margin: under AddressSanitizer (make check-asan) the heap is
# the same at both lengths, but the sanitizer's own shadow and metadata grow
# by a few bytes per event read.
peak_events() {	# prints "peak-KiB events" of one run, "-1 -1" if it failed
	/usr/bin/python3 -c 'import re, resource, subprocess, sys
p = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                   timeout=60, text=True)
m = re.search(r"^trace: (\d+) events", p.stdout, re.M)
ok = p.returncode == 0 and m
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if ok else -1,
      m.group(1) if ok else -1)' "$@"
}
read -r short_kib short_ev <<<"$(peak_events ./pi_stress -q -d 1 --trace)"
read -r long_kib long_ev <<<"$(peak_events ./pi_stress -q -d 4 --trace)"
per_event=$(( short_kib > 0 && long_kib > 0 && long_ev > short_ev ?
	((long_kib - short_kib) * 1024) / (long_ev - short_ev) : 999 ))
check "pi_stress --trace: -d 4 keeps no events (peak $long_kib KiB for $long_ev events against $short_kib KiB for $short_ev: $per_event bytes per extra event, under 16)" \
	test "$per_event" -lt 16

# a trace the user recorded (the top instance, extracted as trace-cmd
# extract does) around a --trace run: the window markers go there too, and
# analyse gives the run's tables
top=$dir
events="sched_switch sched_waking sched_wakeup sched_migrate_task sched_pi_setprio"
# top_recording FILE CMD...: the top instance's sched events around CMD (a
# shell line, its stdout in $TMP/own.out), extracted into FILE; its settings restored
top_recording() {
	local clock kb e file=$1
	shift
	clock=$(sed 's/.*\[\(.*\)\].*/\1/' $top/trace_clock)
	kb=$(cat $top/buffer_size_kb)
	echo 4096 >$top/buffer_size_kb
	echo mono >$top/trace_clock
	: >$top/trace
	for e in $events; do echo 1 >$top/events/sched/$e/enable; done
	timeout -s KILL 60 bash -c "$*" >"$TMP/own.out" 2>"$TMP/err" </dev/null
	for e in $events; do echo 0 >$top/events/sched/$e/enable; done
	(cd "$TMP" && trace-cmd extract -o "$file" >/dev/null 2>&1)
	echo "$clock" >$top/trace_clock
	echo "$kb" >$top/buffer_size_kb
}
if command -v trace-cmd >/dev/null && [ "$(cat $top/current_tracer)" = nop ] &&
   ! grep -q 1 $(for e in $events; do echo $top/events/sched/$e/enable; done); then
	top_recording "$TMP/top.dat" ./migrate -q -p -d 1 -t 3 --trace
	run_bounded 60 ./analyse "$TMP/top.dat"
	ok $rc "analyse of the top instance's trace around a --trace run (exit $rc)"
	# the same events in two buffers: the counts agree, the times by a few us
	counts() { sed -n '/^Migrations/,/^$/p' "$1"; sed -n '/^Preempted/,/^$/p' "$1" | awk '/^ +[0-9]+:/ { print $1, $2, $3, $4, $5, $6 }'; }
	check "  the same migrations and preemptions, thread by thread" diff <(counts "$TMP/own.out") <(counts "$TMP/out")
	# two runs, two processes, one recording: each process's markers say run 0
	top_recording "$TMP/two.dat" "./migrate -q -d 0.5 -t 3 --trace && ./migrate -q -d 0.5 -t 3 --trace"
	run_bounded 60 ./analyse "$TMP/two.dat"
	check "analyse of the top instance's trace around two --trace runs (exit $rc, want 0)" \
		test "$rc" -eq 0 || diag "$TMP/err"
	check "  their two runs of 3 threads, from the markers of two processes, each's table" \
		bash -c "grep -q '^2 runs of 3 threads, from the window markers of 2 processes (pids [0-9]*, [0-9]*), one after the other' '$TMP/out' &&
			[ \$(grep -c '^ *2:' '$TMP/out') -ge 2 ]" || diag "$TMP/out"
else
	skip "the top trace instance is in use (a tracer or sched events on): not touched"
	skip "the top trace instance is in use (a tracer or sched events on): not touched"
fi

# a run whose events are several times its buffers loses none: the recorder
# drains them as the run goes
run_bounded 60 ./migrate -q -d 5 -t 4 --trace-buffer 256 --trace-out "$TMP/long.dat" --json "$TMP/long.json"
ok $rc "-d 5 --trace-buffer 256 runs (exit $rc)"
size=$(stat -c %s "$TMP/long.dat" 2>/dev/null || echo 0)
check "  its trace.dat ($size bytes) is over 4 times the buffers ($((256 * NCPUS)) KiB)" \
	test "$size" -gt $((4 * 256 * 1024 * NCPUS))
check "  and it lost no event" bash -c "! grep -q LOST '$TMP/out' && /usr/bin/python3 -c 'import json, sys
sys.exit(0 if json.load(open(sys.argv[1]))[\"runs\"][0][\"trace\"][\"lost\"] == 0 else 1)' '$TMP/long.json'"

# a recorder that stops draining (here: SIGSTOP for 3 s) loses events, and says so
# (the trace-cmd processes of its process group found in /proc: a minimal
# root has no pkill)
cat >"$TMP/stall" <<'EOF2'
#!/bin/sh
# stall PGID: stop the trace-cmd processes of process group PGID for 3 s
pids() { awk -v g="$1" '$2 == "(trace-cmd)" && $5 == g { print $1 }' /proc/[0-9]*/stat 2>/dev/null; }
sleep 0.5
kill -STOP $(pids "$1")
sleep 3
kill -CONT $(pids "$1")
EOF2
cat >"$TMP/stalled-trace-cmd" <<'EOF2'
#!/bin/sh
trace-cmd "$@" &
pid=$!
trap 'kill -INT $pid' INT TERM
chrt -f 99 "$(dirname "$0")/stall" $$ &
wait $pid
wait $pid
EOF2
chmod +x "$TMP/stall"
chmod +x "$TMP/stalled-trace-cmd"
RTSCHED_TRACE_CMD=$TMP/stalled-trace-cmd run_bounded 60 ./migrate -q -d 3 --trace --trace-buffer 64
ok $rc "a stalled recorder: the run still ends (exit $rc)"
check "  and says that it lost events" grep -q '^trace: LOST [0-9]* events: the buffer was too small' "$TMP/out"
check "  the instance is gone" test "$(instances)" -eq 0

# no trace-cmd: exit 4 naming the package, before the run
RTSCHED_TRACE_CMD=$TMP/no-such-trace-cmd run_bounded 30 ./migrate -q -d 0.2 --trace
check "--trace without trace-cmd: exit 4 (got $rc), naming the package, no table" \
	bash -c "[ $rc -eq 4 ] && grep -q 'is not installed (it writes the trace.dat; Debian and Fedora: the trace-cmd package)' '$TMP/err' && [ ! -s '$TMP/out' ]"
check "  the instance is gone" test "$(instances)" -eq 0

# the static programs (a VM guest's: no libtracecmd, no trace-cmd) read the
# instance after each run instead
if [ -x static/migrate ]; then
	run_bounded 60 env PATH=/nonexistent static/migrate -q -d 1 -r 2 --trace --json "$TMP/st.json"
	ok $rc "static/migrate --trace, without trace-cmd in PATH (exit $rc)"
	check "  traced migrations agree with /proc, both runs" /usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
m = [t["migrations"] for r in d["runs"] for t in r["trace"]["threads"]]
print("# traced/proc:", [(x["traced"], x["proc"]) for x in m])
sys.exit(0 if len(d["runs"]) == 2 and m and all(abs(x["traced"] - x["proc"]) <= 1 for x in m) else 1)' "$TMP/st.json"
	check "  the instance is gone" test "$(instances)" -eq 0
	run_bounded 30 static/migrate -q -d 0.2 --trace-out "$TMP/st.dat"
	check "static/migrate --trace-out: exit 4 (got $rc), no trace.dat from this build" \
		bash -c "[ $rc -eq 4 ] && grep -q 'this statically linked build writes no trace.dat' '$TMP/err' && [ ! -e '$TMP/st.dat' ]"
else
	skip "no static/migrate (make static)"
fi

# not root: tracefs is root's
chmod 755 "$TMP"
install -m 755 migrate "$TMP/migrate-copy"
run_bounded 30 setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=+sys_nice --ambient-caps=+sys_nice "$TMP/migrate-copy" -d 0.2 --trace
ok $(( rc == 4 ? 0 : 1 )) "--trace as an ordinary user: exit 4 (got $rc)"
check "  says tracefs needs root" grep -qE '^migrate: --trace: .*(tracefs needs root|not mounted)' "$TMP/err"
check "  and prints no table" test ! -s "$TMP/out"

# scripts/plot --timeline draws the article's two pictures from --trace-out
run_bounded 60 scripts/plot --timeline "$TMP/ev.dat" -o "$TMP/tl.png" --size 900x600 --window 0:200
ok $rc "plot --timeline from --trace-out (exit $rc)"
check "  is a PNG of 900 x 600" /usr/bin/python3 -c 'import struct, sys
b = open(sys.argv[1], "rb").read(24)
sys.exit(0 if b[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", b[16:24]) == (900, 600) else 1)' "$TMP/tl.png"
echo "# rtsched-trace/1" >"$TMP/bad.trace"
printf 'R 0\nS 1 2 3\n' >>"$TMP/bad.trace"
run_bounded 30 scripts/plot --timeline "$TMP/bad.trace" -o "$TMP/bad.png"
ok $(( rc == 2 ? 0 : 1 )) "a broken trace file: exit 2"
check "  one line naming the line" grep -qE "^plot: .*/bad.trace: line 3 is not a trace event: 'S 1 2 3'$" "$TMP/err"
run_bounded 30 scripts/plot --timeline "$TMP/ev.dat" -o "$TMP/r1.png" --run 1
ok $(( rc == 2 ? 0 : 1 )) "a run the file does not have: exit 2"
run_bounded 30 scripts/plot --timeline "$j" -o "$TMP/j.png"
ok $(( rc == 2 ? 0 : 1 )) "a result file is not a trace: exit 2"

# tracefs not mounted: as root, libtracefs mounts it (in a mount namespace of our own)
if unshare -m true 2>/dev/null; then
	run_bounded 60 unshare -m sh -c 'umount /sys/kernel/tracing 2>/dev/null; umount /sys/kernel/debug/tracing 2>/dev/null; ! grep -q " tracefs " /proc/mounts && exec ./migrate -q -d 0.2 --trace'
	ok $rc "--trace with tracefs unmounted: mounted and traced (exit $rc)"
	check "  the events were read" grep -qE '^trace: [1-9][0-9]* events' "$TMP/out"
else
	skip "unshare -m is not allowed here: cannot unmount tracefs for the test"
fi
