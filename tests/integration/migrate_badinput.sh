# SPDX-License-Identifier: GPL-2.0-only
# Bad input: one line on stderr naming the option, the value and what is
# accepted; exit 2; nothing on stdout; no thread started (so no RT needed).
. "$(dirname "$0")/tap.bash"

# args | exit code | a pattern the one stderr line must match
bad_inputs migrate <<'CASES'
-t abc|2|invalid --threads 'abc': expected an integer from 1 to 98
-t 0|2|invalid --threads '0': expected an integer from 1 to 98
-t 99|2|invalid --threads '99': expected an integer from 1 to 98
-t 5x|2|invalid --threads '5x'
-t -3|2|invalid --threads '-3'
-t 0x10|2|invalid --threads '0x10'
-t 1e3|2|invalid --threads '1e3'
-l 0|2|invalid --locks '0': expected an integer from 1 to 1024
-l 1025|2|invalid --locks '1025'
-d 0|2|invalid --duration '0': expected a duration from 10ms to 24h
-d 5q|2|invalid --duration '5q'.*unit us, ms, s, m or h; no unit means s
-d 25h|2|invalid --duration '25h'
-d 1.5.3|2|invalid --duration '1.5.3'
-u 5ns|2|invalid --unit '5ns': expected a duration from 10us to 1s.*no unit means ms
-u 2s|2|invalid --unit '2s'
-L 0 -m lockstep|2|invalid --loops '0': expected an integer from 1 to 100000000
-b 0|2|invalid --base-prio '0': expected an integer from 1 to 98
-b 99|2|invalid --base-prio '99'
-b 90 -t 10|2|10 threads at --base-prio 90 need SCHED_FIFO priorities 90-100, past 99: accepted: --threads up to 9 at this base, or --base-prio up to 89
-t 98 -b 2|2|98 threads at --base-prio 2 need SCHED_FIFO priorities 2-100, past 99
-m foo|2|invalid --mode 'foo': expected lockstep, paired or contention
-m|2|option '-m' needs a value
--threads|2|option '--threads' needs a value
-c abc|2|invalid --cpus 'abc': expected a CPU list such as 0-3,6 \(libnuma: .*\); usable CPUs: 
-c 100000|2|invalid --cpus '100000': expected a CPU list
-c ,|2|invalid --cpus ','
-m lockstep -L 100000000 -u 1s -l 10 -t 10|2|--loops 100000000 with --locks 10, --threads 10 and --unit 1s: a run of --mode lockstep could take longer than 146 years, which no deadline holds
-m paired -L 100000000 -u 1s -l 97|2|--loops 100000000 with --locks 97, --threads 98 and --unit 1s: a run of --mode paired could take longer than 146 years
-c 1-0|2|invalid --cpus '1-0': the range 1-0 runs backwards; expected LOW-HIGH; usable CPUs: 
-c 0-4294967296|2|invalid --cpus '0-4294967296': expected a CPU list such as 0-3,6 \(libnuma: cpu argument 4294967296 out of range\)
--housekeeping abc|2|invalid --housekeeping 'abc': expected a CPU list such as 0-3,6
--housekeeping 100000|2|invalid --housekeeping '100000'
--housekeeping|2|option '--housekeeping' needs a value
--cross-domain=1|2|option '--cross-domain=1' takes no value
-z|2|unknown option '-z'; see migrate --help
--bogus|2|unknown option '--bogus'; see migrate --help
--pi=1|2|option '--pi=1' takes no value
foo|2|unexpected argument 'foo': migrate takes options only
-m lockstep -d 5|2|--duration applies to --mode contention; lockstep runs --loops
-m paired -d 5|2|--duration applies to --mode contention; paired runs --loops
-L 5|2|--loops applies to --mode lockstep and paired; contention runs for --duration
-m paired -t 3 -l 3|2|--mode paired needs one thread per lock plus the highest: --threads 3 with --locks 3 does not fit
-m paired -t 1|2|--mode paired needs one thread per lock plus the highest
CASES

# A value with a newline or a tab in it: still one line, the characters escaped
run_bounded 10 ./migrate -u "$(printf '2\nms')"
check "-u '2<newline>ms': exit 2, one line, the newline shown as \\n" \
	bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$TMP/err') -eq 1 ] && grep -qF \"invalid --unit '2\\nms'\" '$TMP/err'"
run_bounded 10 ./migrate -d "$(printf '1\t')"
check "-d '1<tab>': exit 2, one line, the tab shown as \\x09" \
	bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$TMP/err') -eq 1 ] && grep -qF \"invalid --duration '1\\x09'\" '$TMP/err'"

# A CPU this process may not use: confine the test to the first CPU
if [ "$NCPUS" -ge 2 ]; then
	run_bounded 10 taskset -c 0 ./migrate -c 1
	ok $(( rc == 2 ? 0 : 1 )) "-c 1 under taskset -c 0: exit 2"
	check "  names the CPU and the usable ones" \
		grep -q "invalid --cpus '1': CPU 1 is not usable by this process (affinity or cpuset); usable CPUs: 0$" "$TMP/err"
	run_bounded 10 taskset -c 0 ./migrate --housekeeping 1
	check "--housekeeping 1 under taskset -c 0: exit 2, naming the CPU" bash -c \
		"[ $rc -eq 2 ] && grep -q \"invalid --housekeeping '1': CPU 1 is not usable by this process\" '$TMP/err'"
else
	skip "one CPU: no CPU outside the affinity mask to name"
fi

# An offline CPU is named as offline, not blamed on the affinity or a
# cpuset (it was): the last CPU taken offline for the moment, then back
last=$((NCPUS - 1))
online=/sys/devices/system/cpu/cpu$last/online
if [ "$NCPUS" -ge 2 ] && [ -w "$online" ] && [ "$(id -u)" -eq 0 ]; then
	tap_cleanup="echo 1 >$online; $tap_cleanup"
	if echo 0 >"$online"; then
		run_bounded 10 ./migrate -c "$last"
		echo 1 >"$online"
		check "-c $last with CPU $last offline: exit 2 (got $rc), it says the CPU is offline" \
			bash -c "[ $rc -eq 2 ] && grep -q \"invalid --cpus '$last': CPU $last is offline; usable CPUs: \" '$TMP/err'" ||
			diag "$TMP/err"
	else
		skip "CPU $last cannot be taken offline here"
	fi
	check "  CPU $last is online again" grep -qx 1 "$online"
else
	skip "no CPU this test may take offline (needs root, two CPUs, CPU hotplug)"
fi

# The defaults follow the affinity mask, not the machine: under taskset -c 0,
# 2 x 1 threads and 1 lock. Checked without RT in the header of the parse.
if have_rt; then
	run_bounded 30 taskset -c 0 ./migrate -d 0.2
	check "under taskset -c 0 the default is 2 threads and 1 lock on CPU 0" \
		grep -q 'mode contention, 2 threads (SCHED_FIFO 1-2), 1 locks (no PI), CPUs 0$' "$TMP/out"
else
	skip "no SCHED_FIFO privilege to run the default"
fi
