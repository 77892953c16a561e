#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""A stopped script stops what it started (run_child): a kernel build's
sub-makes, a child deaf to SIGTERM, a child past its time; nothing is left
running (TAP)."""

import os
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(TOP, "scripts"))
import rtsched_kernel as rk  # noqa: E402
from rtsched_proc import run_child  # noqa: E402
from taplib import done, ok, raises  # noqa: E402


def alive(pid):
    """PID runs (a zombie does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def pids_in(path, n, bound=20):
    """The N pids the children wrote to PATH (waited for, at most BOUND s)."""
    end = time.monotonic() + bound
    while time.monotonic() < end:
        try:
            with open(path) as f:
                pids = [int(w) for w in f.read().split()]
            if len(pids) >= n:
                return pids
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    return []


def left(pids, bound=5):
    """Those of PIDS still running BOUND s on (they may take a moment to die)."""
    end = time.monotonic() + bound
    while time.monotonic() < end and any(alive(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


def stop_script(code, pidfile, n, d):
    """Run CODE as a script under run_main, SIGTERM it once its children
    wrote N pids to PIDFILE: (its exit status, seconds it took to exit after
    the signal, the pids, its stderr)."""
    script = os.path.join(d, "script.py")
    with open(script, "w") as f:
        f.write("import subprocess, sys\n"
                f"sys.path.insert(0, {os.path.join(TOP, 'scripts')!r})\n"
                "import rtsched_kernel as rk\n"
                "from rtsched_proc import run_child, run_main\n"
                f"def main():\n    {code}\n    return 0\n"
                "run_main(main, 'script')\n")
    p = subprocess.Popen([sys.executable, script], stderr=subprocess.PIPE, text=True)
    pids = pids_in(pidfile, n)
    t0 = time.monotonic()
    p.send_signal(signal.SIGTERM)
    try:
        _, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
    return p.returncode, time.monotonic() - t0, pids, err.strip()


with tempfile.TemporaryDirectory() as d:
    # --- a kernel build's shape: make, a sub-make, two recipes at once. Each
    # recipe writes its make's pid and its own (then it is the sleep).
    # subprocess.run killed only the top make: the sub-make built on.
    pidfile = os.path.join(d, "pids")
    os.makedirs(os.path.join(d, "sub"))
    with open(os.path.join(d, "Makefile"), "w") as f:
        f.write("all:\n\t$(MAKE) -C sub\n")
    with open(os.path.join(d, "sub", "Makefile"), "w") as f:
        f.write("all: a b\n"
                f"a:\n\techo $$PPID $$$$ >>{pidfile}; exec sleep 61\n"
                f"b:\n\techo $$PPID $$$$ >>{pidfile}; exec sleep 62\n")
    rc, secs, pids, err = stop_script(
        f"rk.run(['nice', '-n', '19', 'make', '-s', '-C', {d!r}, '-j2'])", pidfile, 4, d)
    ok(len(pids) == 4, f"the build's two recipes ran, under the sub-make ({pids})")
    ok(rc == 143 and err == "script: stopped by SIGTERM",
       f"the script stopped by SIGTERM during the build: exit 143 (got {rc}: {err!r})")
    ok(secs < 10, f"  promptly: make stops on SIGTERM ({secs:.1f} s)")
    ok(pids and not left(pids), f"  nothing of the build runs on: no sub-make, no recipe "
       f"(left: {left(pids, 0)})")

    # --- a child deaf to SIGTERM, its own child too: killed after the grace
    os.unlink(pidfile)
    code = (f"run_child(['sh', '-c', 'trap \"\" TERM; sleep 300 & echo $$ $! >{pidfile}; wait'], "
            "grace=1)")
    rc, secs, pids, err = stop_script(code, pidfile, 2, d)
    ok(len(pids) == 2, f"a child that ignores SIGTERM, and its child, ran ({pids})")
    ok(rc == 143, f"the script stopped: exit 143 (got {rc}: {err!r})")
    ok(1 <= secs < 10, f"  after the child's grace of 1 s ({secs:.1f} s)")
    ok(pids and not left(pids), f"  both killed (left: {left(pids, 0)})")

    # --- past its time
    t0 = time.monotonic()
    r = run_child(["sleep", "30"], timeout=0.5, grace=5)
    ok(r.ended == "SIGTERM" and r.returncode == -signal.SIGTERM and time.monotonic() - t0 < 5,
       f"a child past its time is told to stop (ended {r.ended}, status {r.returncode})")
    os.unlink(pidfile)
    t0 = time.monotonic()
    r = run_child(["sh", "-c", f"trap '' TERM; sleep 300 & echo $! >{pidfile}; wait"],
                  timeout=0.5, grace=0.5)
    pids = pids_in(pidfile, 1, 1)
    ok(r.ended == "SIGKILL" and r.returncode == -signal.SIGKILL and time.monotonic() - t0 < 5,
       f"  one deaf to it killed after the grace (ended {r.ended}, status {r.returncode})")
    ok(pids and not left(pids), f"  with what it started (left: {left(pids, 0)})")

    # --- to its end, leaving a process of its own behind: it goes too (bisect's
    # step commands left five sleep 300 running), with a grace for SIGTERM
    os.unlink(pidfile)
    t0 = time.monotonic()
    r = run_child(["sh", "-c", f"sleep 300 & echo $! >{pidfile}; exit 0"])
    pids = pids_in(pidfile, 1, 1)
    ok(r.returncode == 0 and r.ended is None, f"a child that left a process behind ended (exit {r.returncode})")
    ok(pids and not left(pids), f"  what it left was stopped (left: {left(pids, 0)})")
    os.unlink(pidfile)
    r = run_child(["sh", "-c", f"(trap '' TERM; sleep 300) & echo $! >{pidfile}; exit 0"], grace=0.5)
    pids = pids_in(pidfile, 1, 1)
    ok(pids and not left(pids) and time.monotonic() - t0 < 10,
       f"  one deaf to SIGTERM killed after the grace (left: {left(pids, 0)})")

    # --- to its end: the status and the output as subprocess gives them
    r = run_child(["sh", "-c", "echo out; echo err >&2; exit 3"], stdout=subprocess.PIPE,
                  stderr=subprocess.PIPE, text=True)
    ok((r.returncode, r.stdout, r.stderr, r.ended) == (3, "out\n", "err\n", None),
       f"a child run to its end: its status and output ({r.returncode}, {r.stdout!r}, "
       f"{r.stderr!r}, ended {r.ended})")
    r = run_child([sys.executable, "-c", "import os; print(os.getsid(0))"],
                  stdout=subprocess.PIPE, text=True)
    ok(r.stdout.strip() != str(os.getsid(0)), "  in a session of its own")
    raises(lambda: rk.run(["sh", "-c", "echo one; echo the last line; exit 2"]), rk.KernelError,
           "sh -c echo one; echo the last line; exit 2 ... failed (exit 2): the last line",
           "rk.run: a failed command named, with its last line")
done()
