# SPDX-License-Identifier: GPL-2.0-only
# pi_stress's bad input: one line naming the option, the value and what is
# accepted; exit 2; nothing on stdout; no thread started.
. "$(dirname "$0")/tap.bash"

groups=$((NCPUS > 1 ? NCPUS - 1 : 1))
bad_inputs pi_stress <<CASES
-g 0|2|invalid --groups '0': expected an integer from 1 to 1024
-g abc|2|invalid --groups 'abc': expected an integer from 1 to 1024
-g 5000|2|invalid --groups '5000': expected an integer from 1 to 1024
-g $((groups + 1))|2|invalid --groups '$((groups + 1))': .*; accepted: 1 to $groups
-g 65 -u|2|invalid --groups '65': with -u every group shares one CPU; accepted: 1 to 64
-g 65 --spread|2|invalid --groups '65': with --spread the groups share the CPUs \(.*\); accepted: 1 to 64
--spread -u|2|--spread and -u: -u puts every group on one CPU, --spread spreads them over the CPUs; accepted: one of them
--spread=1|2|option '--spread=1' takes no value
-c 0 -g 2|2|invalid --groups '2': one CPU \(0\) holds one group; -u puts more on it; accepted: 1 to 1
-i 0|2|invalid --inversions '0': expected an integer from 1 to 1000000000000
-i 1x|2|invalid --inversions '1x'
-d 0|2|invalid --duration '0': expected a duration from 10ms to 24h
-d 3q|2|invalid --duration '3q'
-d 25h|2|invalid --duration '25h'
-w 5ms|2|invalid --watchdog '5ms': expected a duration from 10ms to 1h
-w 2h|2|invalid --watchdog '2h'
--hold 100ms -w 50ms|2|invalid --watchdog '50ms': a group's pass includes its low's --hold 100ms; accepted: 200ms or more \(twice the hold\), or a shorter --hold
-u -g 12 --hold 100ms -w 1s|2|invalid --watchdog '1s': a group's pass includes its low's --hold 100ms, and the 12 groups on one CPU queue their holds \(1200ms\); accepted: 2400ms or more \(twice that\), or fewer groups, a shorter --hold
--hold 200ms|2|invalid --hold '200ms': expected a duration from 0 to 100ms .*no unit means us
--hold -1|2|invalid --hold '-1'
--hold 6ms --wait-bound 5ms|2|--hold 6ms is not below --wait-bound 5ms: high waits at least for low's hold
--hold 2ms --wait-bound 1ms|2|--hold 2ms is not below --wait-bound 1ms
--wait-bound 5us|2|invalid --wait-bound '5us': expected a duration from 10us to 1h.*no unit means ms
-b 0|2|invalid --base-prio '0': expected an integer from 1 to 96
-b 97|2|invalid --base-prio '97'
-c abc|2|invalid --cpus 'abc': expected a CPU list such as 0-3,6
-c ,|2|invalid --cpus ','
-c 1-0|2|invalid --cpus '1-0': the range 1-0 runs backwards; expected LOW-HIGH
--no-pi=1|2|option '--no-pi=1' takes no value
--uniprocessor=yes|2|option '--uniprocessor=yes' takes no value
-g|2|option '-g' needs a value
--watchdog|2|option '--watchdog' needs a value
--housekeeping 0-x|2|invalid --housekeeping '0-x': expected a CPU list such as 0-3,6
--cross-domain=yes|2|option '--cross-domain=yes' takes no value
-x|2|unknown option '-x'; see pi_stress --help
--bogus|2|unknown option '--bogus'; see pi_stress --help
run|2|unexpected argument 'run': pi_stress takes options only
CASES
