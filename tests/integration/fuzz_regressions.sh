# SPDX-License-Identifier: GPL-2.0-only
# Every fuzz harness, built without libFuzzer, over its seeds and the inputs
# kept from fuzzing (tests/fuzz/regressions/NAME/): none may crash.
. "$(dirname "$0")/tap.bash"

bins=$(ls tests/fuzz/replay_* | grep -v '\.')
for bin in $bins; do
	name=${bin#tests/fuzz/replay_}
	inputs=$(ls tests/fuzz/seeds/"$name"/* tests/fuzz/regressions/"$name"/* 2>/dev/null)
	if [ -z "$inputs" ]; then
		skip "$name: no inputs kept"
		continue
	fi
	# shellcheck disable=SC2086 # one argument per file
	timeout -s KILL 60 "$bin" $inputs >"$TMP/out" 2>&1
	rc=$?
	n=$(echo "$inputs" | wc -l)
	ok $(( rc == 0 && $(grep -c '^ok ' "$TMP/out") == n ? 0 : 1 )) "fuzz_$name: $n inputs replayed without a crash (exit $rc)"
	[ "$rc" -ne 0 ] && diag "$TMP/out"
done
check "every harness has a replay program" test "$(echo "$bins" | wc -w)" -eq "$(ls tests/fuzz/fuzz_*.c | wc -l)"
