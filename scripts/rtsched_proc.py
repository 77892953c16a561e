# SPDX-License-Identifier: GPL-2.0-only
"""A script's lifecycle and the processes it starts: run_main (one line
and a documented exit status however it ends), run_child (a child in a
session of its own, stopped with the script).
"""

import os
import signal
import subprocess
import sys
import time


class Stopped(Exception):
    """SIGTERM or SIGHUP, raised where the script is, so that its cleanups run."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def _stop(signum, frame):
    raise Stopped(signum)


def _signal_group(pgid, sig):
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        pass


def _group_left(pgid):
    """Whether a process of group PGID is still there."""
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def _stop_leftovers(pgid, grace):
    """What a child that ended left in its session (a step's sleep in the
    background): SIGTERM, GRACE seconds (5 at most) to go, then SIGKILL."""
    if not _group_left(pgid):
        return
    _signal_group(pgid, signal.SIGTERM)
    deadline = time.monotonic() + min(grace, 5)
    while _group_left(pgid) and time.monotonic() < deadline:
        time.sleep(0.05)
    _signal_group(pgid, signal.SIGKILL)


def run_child(cmd, timeout=None, grace=60, **kw):
    """Run CMD (Popen's KW: stdout, stderr, env, cwd, text) to its end, or
    for TIMEOUT seconds; a CompletedProcess, whose `ended` is None, or how
    it was ended past its time: "SIGTERM", or "SIGKILL" when it was still
    there GRACE seconds after. CMD runs in a session of its own, so that
    nothing it starts outlives it: at its end (what it left in the
    background is stopped, _stop_leftovers), past its time, or when a signal or an
    error stops this script, the whole session is told to stop (SIGTERM:
    make deletes what it had begun and its sub-makes stop, kernel-matrix
    takes its guest down, a benchmark writes its partial result), given
    GRACE seconds, then killed; the stop goes on only after that.
    (subprocess.run kills only its child, with SIGKILL: a kernel build's
    sub-makes went on building after the script had exited.)"""
    p = subprocess.Popen(cmd, start_new_session=True, **kw)
    out = err = ended = None
    try:
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            ended = "SIGTERM"
            _signal_group(p.pid, signal.SIGTERM)
            try:
                out, err = p.communicate(timeout=grace)
            except subprocess.TimeoutExpired:
                ended = "SIGKILL"
                _signal_group(p.pid, signal.SIGKILL)
                out, err = p.communicate()
            _signal_group(p.pid, signal.SIGKILL)  # what it left behind
    except BaseException:
        try:
            _signal_group(p.pid, signal.SIGTERM)
            p.wait(grace)
        except BaseException:
            pass  # a second signal, or the grace over: killed below
        _signal_group(p.pid, signal.SIGKILL)
        p.wait()
        raise
    if ended is None:
        _stop_leftovers(p.pid, grace)  # nothing it started outlives it, at its end either
    r = subprocess.CompletedProcess(cmd, p.returncode, out, err)
    r.ended = ended
    return r


def _debug():
    """With RTSCHED_DEBUG set, where the error being handled came from."""
    if os.environ.get("RTSCHED_DEBUG"):
        import traceback
        traceback.print_exc()


def run_main(main, prog):
    """Run a script's MAIN and exit with its status. Closed standard
    descriptors get /dev/null first (else the first file opened would take
    their place); a closed pipe on stdout, or any other failing file
    operation, ends in one line on stderr and exit 3, never a traceback; an
    input no check foresaw ends in one line and exit 2, never in exit 1 (a
    verdict) by a traceback; SIGINT, SIGTERM and SIGHUP end it through its
    cleanups, exit 128 + N."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            os.open(os.devnull, os.O_RDWR)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _stop)
    try:
        try:
            code = main()
        except SystemExit as e:  # argparse's --help and usage errors: flushed here too
            code = e.code if isinstance(e.code, int) else 0 if e.code is None else 1
            if isinstance(e.code, str):
                print(e.code, file=sys.stderr)
        sys.stdout.flush()
    except (KeyboardInterrupt, Stopped) as e:
        # the cleanups (finally) have run: temporary files, guests
        sig = e.signum if isinstance(e, Stopped) else signal.SIGINT
        print(f"{prog}: stopped by {signal.Signals(sig).name}", file=sys.stderr)
        code = 128 + sig
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print(f"{prog}: writing to standard output: Broken pipe; what it did not print is lost",
              file=sys.stderr)
        code = 3
    except OSError as e:
        _debug()
        where = f"{e.filename}: " if e.filename else ""
        print(f"{prog}: {where}{e.strerror or e}", file=sys.stderr)
        code = 3
    except (MemoryError, RecursionError, ValueError, TypeError, AttributeError, KeyError,
            IndexError, ZeroDivisionError, OverflowError) as e:
        # an input the checks did not foresee: still one line and exit 2, never
        # exit 1 (a verdict) by a traceback; RTSCHED_DEBUG=1 shows where
        _debug()
        print(f"{prog}: cannot read its input ({type(e).__name__}: {str(e)[:200]}); this is "
              "a defect of rtsched: please report it with the input", file=sys.stderr)
        code = 2
    sys.exit(code)
