#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
# PID 1 of the rtsched guest (scripts/kernel-matrix builds it into the
# initramfs as /init, beside busybox and the static benchmarks).
#
# It checks that the kernel can run the experiment, runs each line of
# /rtsched/commands with --json, prints the tables on the console (ttyS0)
# and sends every result, framed, on the second serial port (ttyS1):
#
#   RTSCHED-FILE-BEGIN <name> <bytes> <sha256>
#   <base64 lines>
#   RTSCHED-FILE-END <name>
#
# then, for each command, "RTSCHED-STATUS <n> <exit status>" and at the end
# "RTSCHED-DONE" (or "RTSCHED-ERROR <reason>"), and powers off. A machine
# with one serial port (arm64's virt under QEMU 7.2) sends the frames on
# the console: /rtsched/config says DATA_PORT=/dev/console, and the kernel's
# console messages are held back (all but emergencies) while a frame
# goes, so that none lands inside it; the host takes the frames out of the
# console, and a damaged one still fails its checksum.
# RTSCHED_DATA and RTSCHED_ROOT let the tests run the framing on a host.

PATH=/bin
export PATH
DATA=${RTSCHED_DATA:-/dev/ttyS1}
ROOT=${RTSCHED_ROOT:-}

say() {
	echo "rtsched-guest: $*"
}

# send_file FILE: one framed file on the data port
send_file() {
	name=${1##*/}
	size=$(wc -c < "$1")
	sum=$(sha256sum "$1")
	[ -n "${DATA_PORT:-}" ] && printk=$(cat /proc/sys/kernel/printk) &&
		echo 1 > /proc/sys/kernel/printk
	{
		echo "RTSCHED-FILE-BEGIN $name $((size)) ${sum%% *}"
		base64 "$1"
		echo "RTSCHED-FILE-END $name"
	} >> "$DATA"
	[ -n "${DATA_PORT:-}" ] && echo "${printk%%[!0-9]*}" > /proc/sys/kernel/printk
}

# fail REASON: tell the host why the guest cannot run the experiment
fail() {
	say "error: $*"
	echo "RTSCHED-ERROR $*" >> "$DATA"
	stop
}

stop() {
	sync
	[ $$ -eq 1 ] && poweroff -f
	exit 0
}

setup() {
	/bin/busybox --install -s /bin
	mkdir -p /proc /sys /dev /tmp /out
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev 2>/dev/null
	mount -t tmpfs tmpfs /tmp
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	# the preemption mode of a PREEMPT_DYNAMIC kernel is in debugfs
	mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
	. /rtsched/config
	[ -n "${DATA_PORT:-}" ] && [ -z "${RTSCHED_DATA:-}" ] && DATA=$DATA_PORT
	# online CPUs, not nproc's: isolcpus= leaves isolated ones out of init's affinity
	online=$(grep -c '^processor' /proc/cpuinfo)
	say "kernel $(uname -r), $online CPUs online, $CPUS wanted"
	[ "$online" -eq "$CPUS" ] ||
		fail "$online CPUs online, $CPUS asked for: a kernel without SMP or with NR_CPUS < $CPUS"
	grep -q ' /sys/kernel/tracing tracefs' /proc/mounts ||
		fail "no tracefs: the kernel lacks CONFIG_TRACING (rtsched marks its runs in trace_marker)"
	[ -r /proc/self/sched ] ||
		fail "no /proc/PID/sched: the kernel lacks CONFIG_SCHED_DEBUG (rtsched reads migrations there)"
}

# setup_lines: each line of /rtsched/setup, in order; one that fails stops the
# guest, telling the host its number and status (the user's command failed:
# not a guest that cannot run the experiment).
# Here, in background_start and run_all, each line's standard input is
# /dev/null: a line that reads it would take the lines after it.
setup_lines() {
	local n=0 st
	[ -f "$ROOT/rtsched/setup" ] || return 0
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		n=$((n + 1))
		say "setup: $line"
		sh -c "$line" </dev/null && continue
		st=$?
		say "error: setup line $n '$line' exited $st"
		echo "RTSCHED-SETUP-FAILED $n $st" >> "$DATA"
		stop
	done < "$ROOT/rtsched/setup"
}

# background_start: each line of /rtsched/background, in the background
BACKGROUND_PIDS=""
background_start() {
	[ -f "$ROOT/rtsched/background" ] || return 0
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		say "background: $line"
		sh -c "$line" </dev/null &
		BACKGROUND_PIDS="$BACKGROUND_PIDS $!"
	done < "$ROOT/rtsched/background"
}

background_stop() {
	for p in $BACKGROUND_PIDS; do
		kill -9 "$p" 2>/dev/null
	done
}

run_all() {
	n=0
	while IFS= read -r cmd; do
		[ -n "$cmd" ] || continue
		n=$((n + 1))
		out=$ROOT/out/$n.json
		say "run $n: $cmd"
		echo "RTSCHED-RUN-BEGIN $n"
		# shellcheck disable=SC2086 # the command line is split as a shell would
		timeout -s KILL "$COMMAND_TIMEOUT" $cmd --json "$out" </dev/null
		rc=$?
		echo "RTSCHED-RUN-END $n $rc"
		[ -s "$out" ] && send_file "$out"
		echo "RTSCHED-STATUS $n $rc" >> "$DATA"
	done < "$ROOT/rtsched/commands"
	echo "RTSCHED-DONE $n" >> "$DATA"
}

if [ "${1:-}" = "--functions" ]; then
	return 0 2>/dev/null || exit 0
fi
setup
setup_lines
background_start
run_all
background_stop
stop
