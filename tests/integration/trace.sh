# SPDX-License-Identifier: GPL-2.0-only
# Every lock step writes a trace_marker line that trace-cmd and KernelShark
# show next to the scheduler's events.
. "$(dirname "$0")/tap.bash"
require_rt

trace=$(mktemp "$TMP/trace.XXXXXX")
dir=/sys/kernel/tracing
if [ ! -w "$dir/trace_marker" ]; then
	skip "no writable trace_marker at $dir"
	exit 0
fi
if [ "$(cat $dir/tracing_on)" != 1 ]; then
	skip "tracing is off in the top instance: nothing to read the markers back from"
	exit 0
fi

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

run_bounded 20 ./migrate -q -d 0.3 -t 2 -l 1
n=$(grep -c "sleeping" "$dir/trace")
ok $(( n > 0 ? 0 : 1 )) "contention marks its sleeps"
