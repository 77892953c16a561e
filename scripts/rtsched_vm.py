# SPDX-License-Identifier: GPL-2.0-only
"""A kernel in a virtual machine: the guest's initramfs, booting it, its results.

Used by scripts/kernel-matrix. The guest is PID 1 = scripts/kernel/init.sh
under busybox, with the statically linked benchmarks; results come back
framed on a second serial port (see init.sh for the frame).
"""

import base64
import hashlib
import os
import random
import re
import shutil
import subprocess
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.realpath(__file__))
INIT = os.path.join(HERE, "kernel", "init.sh")

# What differs between the guests' architectures: QEMU and its package, the
# machine, the console, the data port (arm64's virt has one serial port in
# QEMU 7.2: the frames share the console), Debian's name, how `file`
# names its executables.
ARCHES = {
    "x86_64": {"qemu": "qemu-system-x86_64", "qemu_package": "qemu-system-x86",
               "machine": [], "console": "ttyS0", "data_port": None,
               "debian": "amd64", "file": "x86-64"},
    "arm64": {"qemu": "qemu-system-aarch64", "qemu_package": "qemu-system-arm",
              "machine": ["-M", "virt,gic-version=3"], "console": "ttyAMA0",
              "data_port": "/dev/console", "debian": "arm64", "file": "ARM aarch64"},
}
QEMU = ARCHES["x86_64"]["qemu"]


def host_arch():
    """This machine's architecture as ARCHES names it (aarch64 is arm64)."""
    m = os.uname().machine
    return "arm64" if m == "aarch64" else m


def image_arch(path):
    """The architecture of the kernel image PATH: x86_64 (a bzImage's 'HdrS'
    setup header), arm64 (an Image's "ARM\\x64" magic at 0x38), or None."""
    try:
        with open(path, "rb") as f:
            head = f.read(0x210)
    except OSError:
        return None
    if len(head) >= 0x206 and head[0x202:0x206] == b"HdrS":
        return "x86_64"
    if len(head) >= 0x40 and head[0x38:0x3C] == b"ARM\x64":
        return "arm64"
    return None


class VmError(Exception):
    """One line saying what went wrong with the guest."""


class FrameError(VmError):
    """The data the guest sent is damaged or cut short."""


def image_release(path):
    """The release of the kernel image PATH, or None: an x86 image's from its
    boot header's kernel_version string ("6.1.0-57-amd64 (debian-kernel@...)
    #1 ..."); an arm64 Image's (uncompressed, with no such header) from the
    banner inside it ("Linux version 6.1.0-57-arm64 (...": the whole image read)."""
    arch = image_arch(path)
    try:
        with open(path, "rb") as f:
            hdr = f.read(0x210)
            if arch == "arm64":
                body = hdr + f.read()
                at = body.find(b"Linux version ")
                text = body[at + len(b"Linux version "):at + 256] if at >= 0 else b""
            elif arch == "x86_64" and len(hdr) >= 0x210:
                off = int.from_bytes(hdr[0x20E:0x210], "little")
                if not off:
                    return None
                f.seek(off + 0x200)
                text = f.read(256)
            else:
                return None
    except OSError:
        return None
    rel = text.split(b"\0")[0].split(b" ")[0].decode("ascii", "replace")
    return rel if re.fullmatch(r"[0-9][0-9A-Za-z.+_-]*", rel) else None


def image_config(path, rel=None):
    """The build configuration of the kernel image PATH, where it is kept
    beside it: config-RELEASE (a Debian package's boot/), config (a
    kernel-variant image), ../../../.config (a build tree's bzImage); or None.
    REL: its release, where the caller has read it already."""
    d = os.path.dirname(os.path.abspath(path))
    rel = rel or image_release(path)
    for c in ([os.path.join(d, f"config-{rel}")] if rel else []) + [
            os.path.join(d, "config"), os.path.join(d, "..", "..", "..", ".config")]:
        if os.path.isfile(c):
            return c
    return None


def build_initramfs(dest, busybox, programs, commands, cpus, command_timeout=120, files=None,
                    setup=(), background=(), data_port=None):
    """Write to DEST a gzip'd newc cpio archive: busybox, PROGRAMS, the init.

    PROGRAMS are static executables put in /bin; COMMANDS are the benchmark
    command lines the guest runs, in order; CPUS is how many CPUs the guest
    must see online; FILES maps paths in the guest (boot/config-RELEASE,
    which the benchmarks read the kernel's configuration from) to files
    here; SETUP are shell lines the guest runs first, BACKGROUND shell lines
    it runs beside the benchmarks; DATA_PORT, where the guest has no second
    serial port, the device the frames go to instead (its console). The
    archive is complete when DEST appears.
    """
    for line in commands:
        if not line.strip() or "\n" in line:
            raise VmError(f"invalid benchmark command {line!r}: expected one non-empty line")
    with tempfile.TemporaryDirectory(prefix="rtsched-initramfs-") as root:
        for d in ("bin", "rtsched", "proc", "sys", "dev", "tmp", "out"):
            os.mkdir(os.path.join(root, d))
        shutil.copy2(busybox, os.path.join(root, "bin", "busybox"))
        for prog in programs:
            shutil.copy2(prog, os.path.join(root, "bin", os.path.basename(prog)))
        for where, src in (files or {}).items():
            os.makedirs(os.path.dirname(os.path.join(root, where)), exist_ok=True)
            shutil.copyfile(src, os.path.join(root, where))
        shutil.copyfile(INIT, os.path.join(root, "init"))
        os.chmod(os.path.join(root, "init"), 0o755)
        with open(os.path.join(root, "rtsched", "config"), "w") as f:
            f.write(f"CPUS={int(cpus)}\nCOMMAND_TIMEOUT={int(command_timeout)}\n")
            if data_port:
                f.write(f"DATA_PORT={data_port}\n")
        with open(os.path.join(root, "rtsched", "commands"), "w") as f:
            f.writelines(line.strip() + "\n" for line in commands)
        for name, lines in (("setup", setup), ("background", background)):
            with open(os.path.join(root, "rtsched", name), "w") as f:
                f.writelines(line.strip() + "\n" for line in lines)
        names = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for n in sorted(dirnames) + sorted(filenames):
                names.append(os.path.relpath(os.path.join(dirpath, n), root))
        tmp = f"{dest}.tmp-{os.getpid()}"
        with open(tmp, "wb") as out:
            cpio = subprocess.Popen(["cpio", "--quiet", "-o", "-H", "newc", "-R", "0:0"],
                                    cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            gz = subprocess.Popen(["gzip", "-1", "-n"], stdin=cpio.stdout, stdout=out)
            cpio.stdout.close()
            cpio.stdin.write("".join(n + "\n" for n in names).encode())
            cpio.stdin.close()
            if cpio.wait() or gz.wait():
                os.unlink(tmp)
                raise VmError("cpio or gzip failed building the initramfs")
        os.rename(tmp, dest)


_BEGIN = re.compile(r"RTSCHED-FILE-BEGIN (\S+) (\d+) ([0-9a-f]{64})")
# the data port's lines besides the frames (a console shows none of them)
DATA_LINES = ("RTSCHED-STATUS ", "RTSCHED-SETUP-FAILED ", "RTSCHED-DONE", "RTSCHED-ERROR ")


def frames_in_console(console):
    """What a guest that sends its frames on the console (ARCHES' data_port)
    sent: its frames, each from its BEGIN to its END line with whatever came
    between (a line of the kernel's there damages the frame, which
    decode_frames refuses), and its status lines; the rest of the console
    left out. For decode_frames."""
    out, inside = [], False
    for line in console.splitlines():
        line = line.strip()
        if _BEGIN.fullmatch(line):
            inside = True
        if inside or line.startswith(DATA_LINES):
            out.append(line)
        if line.startswith("RTSCHED-FILE-END"):
            inside = False
    return "\n".join(out) + "\n"


def _two_numbers(line, what):
    """The two numbers of a 'TAG N M' line (a command's or a setup line's
    number and status), or FrameError naming it WHAT."""
    parts = line.split()
    if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
        raise FrameError(f"damaged {what} line {line!r}")
    return int(parts[1]), int(parts[2])


def decode_frames(text):
    """What the guest sent on its data port.

    Returns {"files": {name: bytes}, "status": {n: rc}, "done": bool,
    "error": reason or None, "setup_failed": (line number from 1, status)
    or None}. A frame cut short or whose size or sha256 does
    not match raises FrameError: a damaged result is never kept.
    """
    out = {"files": {}, "status": {}, "done": False, "error": None, "setup_failed": None}
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if not line:
            continue
        m = _BEGIN.fullmatch(line)
        if m:
            name, size, digest = m.group(1), int(m.group(2)), m.group(3)
            body = []
            while i < len(lines) and not lines[i].startswith("RTSCHED-FILE-END"):
                body.append(lines[i].strip())
                i += 1
            if i >= len(lines) or lines[i].strip() != f"RTSCHED-FILE-END {name}":
                raise FrameError(f"result {name}: cut short (no end of frame)")
            i += 1
            try:
                data = base64.b64decode("".join(body), validate=True)
            except ValueError:
                raise FrameError(f"result {name}: damaged (not base64)") from None
            if len(data) != size:
                raise FrameError(f"result {name}: {len(data)} bytes arrived, {size} were sent")
            if hashlib.sha256(data).hexdigest() != digest:
                raise FrameError(f"result {name}: damaged (sha256 differs)")
            out["files"][name] = data
        elif line.startswith("RTSCHED-STATUS "):
            n, rc = _two_numbers(line, "status")
            out["status"][n] = rc
        elif line.startswith("RTSCHED-SETUP-FAILED "):
            out["setup_failed"] = _two_numbers(line, "setup")
        elif line.startswith("RTSCHED-DONE"):
            out["done"] = True
        elif line.startswith("RTSCHED-ERROR "):
            out["error"] = line[len("RTSCHED-ERROR "):]
        else:
            raise FrameError(f"unexpected line on the data port: {line[:60]!r}")
    return out


TOPOLOGY_KEYS = ("sockets", "cores", "threads", "nodes")


def parse_topology(text):
    """A guest's layout from "sockets=2,cores=2,threads=2,nodes=2": a dict of
    the four (cores, threads, nodes default to 1; sockets to what is left),
    or VmError saying what is accepted. Nodes are 1 or one per socket."""
    topo = {}
    for part in text.split(","):
        key, eq, val = part.partition("=")
        if key not in TOPOLOGY_KEYS or not eq or not re.fullmatch(r"[1-9][0-9]{0,2}", val):
            raise VmError(f"invalid --topology {text!r}: expected KEY=N,... with KEY one of "
                          f"{', '.join(TOPOLOGY_KEYS)} and N from 1 to 999")
        if key in topo:
            raise VmError(f"invalid --topology {text!r}: {key} given twice")
        topo[key] = int(val)
    if "sockets" not in topo:
        raise VmError(f"invalid --topology {text!r}: sockets= is needed")
    topo.setdefault("cores", 1)
    topo.setdefault("threads", 1)
    topo.setdefault("nodes", 1)
    if topo["nodes"] not in (1, topo["sockets"]):
        raise VmError(f"invalid --topology {text!r}: nodes must be 1 or one per socket "
                      f"({topo['sockets']})")
    return topo


def topology_cpus(topo):
    """The virtual CPUs a layout has."""
    return topo["sockets"] * topo["cores"] * topo["threads"]


def topology_name(topo):
    """A layout in a directory name: 2s2c2t2n."""
    return "".join(f"{topo[k]}{k[0]}" for k in TOPOLOGY_KEYS)


def topology_args(topo, memory_mib):
    """QEMU's -smp and -numa arguments for a layout: memory split over the
    nodes, each node a socket, the distance between two nodes 21."""
    args = ["-smp", f"{topology_cpus(topo)},sockets={topo['sockets']},cores={topo['cores']},"
                    f"threads={topo['threads']}"]
    nodes = topo["nodes"]
    if nodes == 1:
        return args
    for n in range(nodes):
        size = memory_mib // nodes + (memory_mib % nodes if n == nodes - 1 else 0)
        args += ["-object", f"memory-backend-ram,id=mem{n},size={size}M",
                 "-numa", f"node,nodeid={n},memdev=mem{n}",
                 "-numa", f"cpu,node-id={n},socket-id={n}"]
    for a in range(nodes):
        for b in range(a + 1, nodes):
            args += ["-numa", f"dist,src={a},dst={b},val=21"]
    return args


def qemu_command(kernel, initrd, cpus, memory_mib, accel, data_path, append="", topology=None,
                 arch="x86_64"):
    """The QEMU command line that boots KERNEL with INITRD, console on stdio.

    Under TCG the guest's TSC is marked unstable from boot (tsc=unstable,
    unless APPEND says tsc=): the clocksource watchdog marks it so anyway
    some seconds in, and the static key it then flips in sched_clock_cpu()
    is patched with int3 while other virtual CPUs run, which multi-threaded
    TCG can trip on (an "Oops: int3" there, seen in about one boot in ten of
    Debian's 6.12 here). TOPOLOGY (parse_topology's) gives the guest
    sockets, cores, threads and NUMA nodes; CPUS must be its count. ARCH
    (ARCHES') is the guest's: arm64 boots QEMU's virt machine with a GICv3
    (v2 takes at most 8 CPUs), its data on the console (DATA_PATH unused)."""
    a = ARCHES[arch]
    if arch == "x86_64" and accel != "kvm" and "tsc=" not in append:
        append = f"tsc=unstable {append}"
    cmd = [a["qemu"], "-nodefaults", "-no-reboot", "-display", "none", "-monitor", "none",
           "-m", str(memory_mib)] + a["machine"]
    cmd += topology_args(topology, memory_mib) if topology else ["-smp", str(cpus)]
    cmd += ["-kernel", kernel, "-initrd", initrd,
            "-append", f"console={a['console']} panic=-1 rdinit=/init {append}".strip(),
            "-serial", "stdio"]
    if not a["data_port"]:
        cmd += ["-serial", f"file:{data_path}"]
    if accel == "kvm":
        cmd += ["-accel", "kvm", "-cpu", "host"]
    else:
        cmd += ["-accel", "tcg,thread=multi", "-cpu", "max"]
    return cmd


def boot(cmd, timeout, on_line=None, ready_marker=None, ready_timeout=None):
    """Run the QEMU command CMD; give each console line to ON_LINE.

    Kills the guest after TIMEOUT seconds, or after READY_TIMEOUT seconds if
    READY_MARKER has not been printed by then (a guest that never boots).
    Returns (exit status or None when killed, console text, seconds, why
    killed or None); boot.ready_after is then the seconds to READY_MARKER.
    """
    t0 = time.monotonic()
    boot.ready_after = None
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
    except FileNotFoundError:
        pkg = next((a["qemu_package"] for a in ARCHES.values() if a["qemu"] == cmd[0]),
                   "qemu-system-x86")
        raise VmError(f"{cmd[0]} not found: install QEMU (Debian: apt-get install {pkg})") \
            from None
    console = []
    ready = threading.Event()

    def reader():
        for raw in proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            console.append(line)
            if ready_marker and ready_marker in line and not ready.is_set():
                boot.ready_after = time.monotonic() - t0
                ready.set()
            if on_line:
                on_line(line)

    th = threading.Thread(target=reader, daemon=True)
    th.start()
    killed = None
    try:
        while proc.poll() is None:
            now = time.monotonic() - t0
            if ready_marker and ready_timeout and not ready.is_set() and now > ready_timeout:
                killed = f"the guest did not start its init within {ready_timeout:.0f} s"
            elif now > timeout:
                killed = f"the guest did not power off within {timeout:.0f} s"
            if killed:
                break
            time.sleep(0.1)
    finally:
        # a guest is never left running: not past its time, not when a signal
        # or an error ends the wait
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    th.join(5)
    rc = None if killed else proc.returncode
    return rc, "\n".join(console), time.monotonic() - t0, killed


def design_order(kernels, settings, rounds, order, seed=0):
    """The boots of an interleaved design, as (round, kernel index, setting):
    ROUNDS rounds, each booting every one of KERNELS kernels under every one
    of SETTINGS (names, or [None]) once: in that order (ORDER 'alternate':
    A B A B ...), or each round in its own order drawn from SEED
    ('shuffle', randomized blocks)."""
    block = [(k, s) for k in range(kernels) for s in settings]
    rng = random.Random(seed)
    out = []
    for r in range(1, rounds + 1):
        this = list(block)
        if order == "shuffle":
            rng.shuffle(this)
        out += [(r, k, s) for k, s in this]
    return out


def qemu_version(arch="x86_64"):
    try:
        r = subprocess.run([ARCHES[arch]["qemu"], "--version"], capture_output=True, text=True,
                           timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"version (\S+)", r.stdout)
    return m.group(1) if m else None


# What the guest's init (an unquoted $cmd) would read otherwise than a shell
# command line: it splits on blanks only, keeps quotes and backslashes as
# they are, and expands * ? [ as file names.
NOT_SPLIT_ALIKE = set("'\"\\*?[")


def shell_split(line):
    """The words of a benchmark command line, as the guest's shell splits it."""
    if "\n" in line or "\r" in line:
        raise VmError(f"invalid benchmark command {line!r}: a command is one line")
    odd = sorted(NOT_SPLIT_ALIKE & set(line))
    if odd:
        raise VmError(f"invalid benchmark command {line!r}: the guest would get {' '.join(odd)} "
                      "as written (it splits on blanks only); write the words plainly")
    return line.split()


def guest_run_words(line):
    """The words of a --run line the guest runs (a migrate, pi_stress or
    spin command, which gets its --json from the guest), or a VmError saying
    why the guest would refuse it."""
    words = shell_split(line)
    if not words or words[0] not in ("migrate", "pi_stress", "spin"):
        raise VmError(f"invalid --run {line!r}: expected a migrate, pi_stress or spin command "
                      "line")
    if "--json" in words:
        raise VmError(f"invalid --run {line!r}: leave out --json, the guest adds its own")
    return words
