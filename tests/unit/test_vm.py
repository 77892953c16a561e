#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The kernel matrix's pieces without a guest: the initramfs builder, the
guest's result framing (its shell, run by busybox here) and the decoder,
the QEMU command line, the kernel image check (TAP)."""

import base64
import hashlib
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(TOP, "scripts"))
import rtsched_vm as vm  # noqa: E402
from taplib import done, ok, raises  # noqa: E402

BUSYBOX = "/bin/busybox"

with tempfile.TemporaryDirectory() as d:
    # --- the initramfs builder
    prog = os.path.join(d, "migrate")
    with open(prog, "wb") as f:
        f.write(b"\x7fELF fake program")
    os.chmod(prog, 0o755)
    initrd = os.path.join(d, "initrd.gz")
    vm.build_initramfs(initrd, BUSYBOX, [prog], ["migrate -d 2", "migrate -d 2 -p"], 4, 30)
    ok(os.path.exists(initrd) and not [f for f in os.listdir(d) if ".tmp-" in f],
       "the initramfs is written whole, no temporary file left")
    listing = subprocess.run(f"zcat {initrd} | cpio -t -v --quiet", shell=True,
                             capture_output=True, text=True).stdout.splitlines()
    names = {line.split()[-1]: line for line in listing}
    for want in ("init", "bin/busybox", "bin/migrate", "rtsched/config", "rtsched/commands",
                 "proc", "sys", "dev", "tmp", "out"):
        ok(want in names, f"the initramfs holds /{want}")
    ok(names.get("init", "").startswith("-rwxr-xr-x"), "/init is executable")
    ok(all(line.split()[2:4] in (["root", "root"], ["0", "0"]) for line in listing),
       "every file is owned by root")
    ex = os.path.join(d, "x")
    os.mkdir(ex)
    subprocess.run(f"zcat {initrd} | cpio -i -d --quiet", shell=True, cwd=ex, check=True)
    ok(open(os.path.join(ex, "rtsched", "commands")).read() == "migrate -d 2\nmigrate -d 2 -p\n",
       "the commands, one per line, in order")
    ok(open(os.path.join(ex, "rtsched", "config")).read() == "CPUS=4\nCOMMAND_TIMEOUT=30\n",
       "the CPUs the guest must see and the command timeout")
    ok(open(os.path.join(ex, "bin", "busybox"), "rb").read() == open(BUSYBOX, "rb").read(),
       "busybox copied whole")
    ok(open(os.path.join(ex, "init")).read() == open(vm.INIT).read(), "/init is init.sh")
    # a kernel's configuration, the setup and the background lines
    cfg = os.path.join(d, "config-6.12.1")
    with open(cfg, "w") as f:
        f.write("# CONFIG_RT_GROUP_SCHED is not set\n")
    initrd3 = os.path.join(d, "initrd3.gz")
    vm.build_initramfs(initrd3, BUSYBOX, [], ["migrate -d 1"], 4, 30,
                       {"boot/config-6.12.1": cfg}, ["mount -t cgroup2 none /sys/fs/cgroup"],
                       ["taskset -c 1 sh -c 'while :; do :; done'"])
    ex3 = os.path.join(d, "x3")
    os.mkdir(ex3)
    subprocess.run(f"zcat {initrd3} | cpio -i -d --quiet", shell=True, cwd=ex3, check=True)
    ok(open(os.path.join(ex3, "boot", "config-6.12.1")).read() == open(cfg).read(),
       "the kernel's configuration goes in as /boot/config-RELEASE")
    ok(open(os.path.join(ex3, "rtsched", "setup")).read() == "mount -t cgroup2 none /sys/fs/cgroup\n",
       "the setup lines, one per line")
    ok(open(os.path.join(ex3, "rtsched", "background")).read() ==
       "taskset -c 1 sh -c 'while :; do :; done'\n", "the background lines, one per line")
    # an image's release from its boot header, and its configuration beside it
    img = os.path.join(d, "boot", "vmlinuz-6.12.1")
    os.makedirs(os.path.dirname(img))
    hdr = bytearray(0x400)
    hdr[0x202:0x206] = b"HdrS"
    hdr[0x20E:0x210] = (0x100).to_bytes(2, "little")
    hdr[0x300:0x300 + 30] = b"6.12.1 (someone@host) #1 SMP\0"
    with open(img, "wb") as f:
        f.write(hdr)
    with open(os.path.join(d, "boot", "config-6.12.1"), "w") as f:
        f.write("CONFIG_SMP=y\n")
    ok(vm.image_release(img) == "6.12.1", f"the image's release from its header: {vm.image_release(img)}")
    ok(vm.image_config(img) == os.path.join(d, "boot", "config-6.12.1"),
       "its configuration: config-RELEASE beside it")
    ok(vm.image_release(cfg) is None and vm.image_config(os.path.join(d, "nothing")) is None,
       "no header, no release; nothing beside, no configuration")
    raises(lambda: vm.build_initramfs(initrd + "2", BUSYBOX, [], ["migrate\n-d 1"], 4),
           vm.VmError, "one non-empty line", "a command with a newline is refused")
    raises(lambda: vm.build_initramfs(initrd + "2", BUSYBOX, [], ["  "], 4),
           vm.VmError, "one non-empty line", "an empty command is refused")
    ok(not os.path.exists(initrd + "2"), "no initramfs written for a refused command")
    ok(vm.shell_split("migrate  -m contention\t-d 1") == ["migrate", "-m", "contention", "-d", "1"],
       "a command splits on blanks, as the guest's init splits it")
    for line, what in (("migrate -m 'contention' -d 1", "quotes"), ('migrate -m "a b"', "double quotes"),
                       ("migrate -c 0\\,1", "a backslash"), ("migrate -c *", "a glob")):
        raises(lambda: vm.shell_split(line), vm.VmError, "as written (it splits on blanks only)",
               f"{what}, which the guest would not read as a shell does, are refused")

    # --- the framing: the guest's own shell code, run by busybox sh here
    data = os.path.join(d, "data")
    payload = os.path.join(d, "1.json")
    blob = bytes(range(256)) * 40 + b'{"a": 1}\n'
    with open(payload, "wb") as f:
        f.write(blob)
    env = dict(os.environ, RTSCHED_DATA=data, RTSCHED_ROOT=d)
    r = subprocess.run([BUSYBOX, "sh", "-c", f". {vm.INIT} --functions; send_file {payload}; "
                        "echo 'RTSCHED-STATUS 1 0' >> $RTSCHED_DATA; "
                        "echo 'RTSCHED-DONE 1' >> $RTSCHED_DATA"], env=env)
    text = open(data).read()
    got = vm.decode_frames(text)
    ok(r.returncode == 0 and got["files"].get("1.json") == blob,
       f"a {len(blob)}-byte file framed by the guest's shell decodes to the same bytes")
    ok(got["status"] == {1: 0} and got["done"] and got["error"] is None,
       "status and end of run read back")
    # --- a --setup line that reads standard input does not swallow the
    # lines after it (cat >/dev/null took them, silently), nor a background line
    os.makedirs(os.path.join(d, "rtsched"), exist_ok=True)
    marks = os.path.join(d, "marks")
    with open(os.path.join(d, "rtsched", "setup"), "w") as f:
        f.write(f"echo one >>{marks}\ncat >/dev/null\necho two >>{marks}\n"
                f"read x; echo three >>{marks}\n")
    r = subprocess.run([BUSYBOX, "sh", "-c", f". {vm.INIT} --functions; setup_lines"],
                       env=env, capture_output=True, text=True, timeout=30)
    ok(r.returncode == 0 and os.path.exists(marks)
       and open(marks).read().split() == ["one", "two", "three"],
       f"--setup lines that read stdin leave the next lines to run "
       f"({open(marks).read().split() if os.path.exists(marks) else None})")
    # --- a --setup line that fails: its number and status to the host, nothing after it
    with open(os.path.join(d, "rtsched", "setup"), "w") as f:
        f.write(f"true\n\nexit 7\necho after >>{marks}\n")
    before = open(marks).read()
    subprocess.run([BUSYBOX, "sh", "-c", f". {vm.INIT} --functions; setup_lines"],
                   env=env, capture_output=True, text=True, timeout=30)
    last = open(data).read().splitlines()[-1]
    ok(last == "RTSCHED-SETUP-FAILED 2 7" and open(marks).read() == before,
       f"a failing --setup line: its number (blank lines not counted) and status sent, "
       f"the lines after it not run ({last!r})")
    got = vm.decode_frames("RTSCHED-SETUP-FAILED 2 7\n")
    ok(got["setup_failed"] == (2, 7) and got["error"] is None,
       "  read back by the host as the user's line failing, not a guest that cannot run")
    raises(lambda: vm.decode_frames("RTSCHED-SETUP-FAILED two 7\n"), vm.FrameError,
           "damaged setup line", "  a damaged one is caught")
    os.unlink(os.path.join(d, "rtsched", "setup"))

    head = text.splitlines()[0].split()
    ok(head[:3] == ["RTSCHED-FILE-BEGIN", "1.json", str(len(blob))]
       and head[3] == hashlib.sha256(blob).hexdigest(), "the frame names the size and sha256")

    lines = text.splitlines()
    b64 = lines[1]
    flipped = "B" if b64[10] != "B" else "C"
    damaged = "\n".join([lines[0], b64[:10] + flipped + b64[11:]] + lines[2:])
    raises(lambda: vm.decode_frames(damaged), vm.FrameError, "sha256 differs",
           "one changed character is caught")
    end = next(i for i, x in enumerate(lines) if x.startswith("RTSCHED-FILE-END"))
    raises(lambda: vm.decode_frames("\n".join(lines[:end])), vm.FrameError, "cut short",
           "a frame without its end is caught")
    raises(lambda: vm.decode_frames("\n".join(lines[:1] + lines[2:])), vm.FrameError,
           "were sent", "a missing line is caught")
    raises(lambda: vm.decode_frames("\n".join([lines[0], "!!!!"] + lines[end:])), vm.FrameError,
           "not base64", "garbage in a frame is caught")
    raises(lambda: vm.decode_frames("[    1.0] a kernel message\n"), vm.FrameError,
           "unexpected line", "a stray line on the data port is caught")
    raises(lambda: vm.decode_frames("RTSCHED-STATUS one 0\n"), vm.FrameError,
           "damaged status", "a damaged status line is caught")
    small = base64.b64encode(b"{}").decode()
    two = (f"RTSCHED-FILE-BEGIN 1.json 2 {hashlib.sha256(b'{}').hexdigest()}\n{small}\n"
           "RTSCHED-FILE-END 1.json\nRTSCHED-STATUS 1 0\nRTSCHED-STATUS 2 124\n")
    got = vm.decode_frames(two)
    ok(got["status"] == {1: 0, 2: 124} and not got["done"],
       "a guest that stopped early: statuses so far, not done")
    got = vm.decode_frames("RTSCHED-ERROR 1 CPUs online, 4 asked for\n")
    ok(got["error"] == "1 CPUs online, 4 asked for" and not got["files"],
       "the guest's reason for refusing is read back")

    # the guest's checks, run by busybox against a /proc without SMP
    r = subprocess.run([BUSYBOX, "sh", "-c", f". {vm.INIT} --functions; CPUS=64; "
                        "[ \"$(nproc)\" -eq \"$CPUS\" ] || fail \"$(nproc) CPUs online\""],
                       env=env, capture_output=True, text=True)
    ok("RTSCHED-ERROR" in open(data).read().splitlines()[-1] and "error:" in r.stdout,
       "fail() prints the reason and sends it on the data port")

    # --- the QEMU command line
    cmd = vm.qemu_command("/k", "/i", 4, 1024, "tcg", "/d", "nosmp")
    joined = " ".join(cmd)
    ok("-smp 4" in joined and "-m 1024" in joined and "-accel tcg,thread=multi" in joined,
       "4 CPUs, 1024 MiB, multi-threaded TCG")
    ok("-no-reboot" in cmd and "panic=-1" in joined and "file:/d" in cmd,
       "a panic powers the guest off; the data port is a file")
    ok(cmd[cmd.index("-append") + 1].endswith(" nosmp"), "extra kernel arguments appended")
    ok("tsc=unstable" in cmd[cmd.index("-append") + 1], "under TCG the TSC is unstable from boot")
    kcmd = vm.qemu_command("/k", "/i", 2, 512, "kvm", "/d")
    tcmd = vm.qemu_command("/k", "/i", 2, 512, "tcg", "/d", "tsc=reliable")
    ok("tsc=unstable" not in " ".join(kcmd) and "tsc=unstable" not in " ".join(tcmd),
       "not under KVM, nor when the arguments say tsc= themselves")
    ok("-accel kvm" in " ".join(vm.qemu_command("/k", "/i", 2, 512, "kvm", "/d")),
       "kvm when asked")
    acmd = vm.qemu_command("/k", "/i", 2, 512, "tcg", "/d", arch="arm64")
    joined = " ".join(acmd)
    ok(acmd[0] == "qemu-system-aarch64" and "-M virt,gic-version=3" in joined
       and "console=ttyAMA0" in joined, "arm64: QEMU's virt machine, a GICv3, the PL011 console")
    ok("file:/d" not in joined and acmd.count("-serial") == 1 and "tsc=" not in joined,
       "arm64: one serial port (the data shares it), no TSC argument")

    # --- an arm64 Image: its magic, its release from the banner inside it
    aimg = os.path.join(d, "Image")
    body = bytearray(0x2000)
    body[0x38:0x3C] = b"ARM\x64"
    body[0x1000:0x1000 + 44] = b"Linux version 6.1.0-57-arm64 (x@y) #1 SMP\0"
    with open(aimg, "wb") as f:
        f.write(body)
    ok(vm.image_arch(aimg) == "arm64" and vm.image_release(aimg) == "6.1.0-57-arm64",
       f"an arm64 Image: its magic, its release {vm.image_release(aimg)}")
    ok(vm.image_arch(img) == "x86_64" and vm.image_arch(cfg) is None,
       "a bzImage header is x86_64; a text file no kernel")

    # --- frames on the console (arm64): taken out of what else it printed
    doc = b'{"a": 1}\n'
    frame = (f"RTSCHED-FILE-BEGIN 1.json {len(doc)} {hashlib.sha256(doc).hexdigest()}\n"
             f"{base64.b64encode(doc).decode()}\nRTSCHED-FILE-END 1.json\n")
    console = ("[    9.1] sched: RT throttling activated\nTask  vol\nRTSCHED-RUN-END 1 0\n"
               + frame + "RTSCHED-STATUS 1 0\nrtsched-guest: done\nRTSCHED-DONE 1\n")
    got = vm.decode_frames(vm.frames_in_console(console))
    ok(got["files"] == {"1.json": doc} and got["status"] == {1: 0} and got["done"],
       "frames on the console: the file, the status, the end, the rest left out")
    damaged = console.replace("RTSCHED-FILE-END", "[   10.2] a kernel line\nRTSCHED-FILE-END")
    raises(lambda: vm.decode_frames(vm.frames_in_console(damaged)), vm.FrameError, "damaged",
           "a kernel line inside a frame damages it: refused, never kept")

    # --- a guest's layout: sockets, cores, threads, a node per socket
    topo = vm.parse_topology("sockets=2,cores=2,threads=2,nodes=2")
    ok(vm.topology_cpus(topo) == 8 and vm.topology_name(topo) == "2s2c2t2n",
       "2 sockets of 2 cores of 2 threads: 8 CPUs, 2s2c2t2n")
    joined = " ".join(vm.qemu_command("/k", "/i", 8, 1000, "tcg", "/d", topology=topo))
    ok("-smp 8,sockets=2,cores=2,threads=2" in joined
       and "memory-backend-ram,id=mem0,size=500M" in joined
       and "-numa cpu,node-id=1,socket-id=1" in joined
       and "-numa dist,src=0,dst=1,val=21" in joined, "-smp and -numa: a node per socket")
    ok(vm.parse_topology("sockets=4") == {"sockets": 4, "cores": 1, "threads": 1, "nodes": 1},
       "cores, threads and nodes default to 1")
    for bad, why in (("cores=2", "sockets= is needed"), ("sockets=2,nodes=3", "one per socket"),
                     ("sockets=0", "N from 1 to 999"), ("sockets=2,dies=2", "KEY one of"),
                     ("sockets=2,sockets=2", "given twice")):
        try:
            vm.parse_topology(bad)
            ok(False, f"--topology {bad} refused")
        except vm.VmError as e:
            ok(why in str(e) and str(e).startswith(f"invalid --topology '{bad}'"),
               f"--topology {bad} refused: {e}")

    # --- the boots of an interleaved design
    plan = vm.design_order(2, [None], 3, "alternate")
    ok([(r, k) for r, k, _ in plan] == [(1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1)],
       "alternate: each round every kernel in the order given, A B A B A B")
    plan = vm.design_order(2, ["off", "on"], 2, "alternate")
    ok([(k, x) for _, k, x in plan] == [(0, "off"), (0, "on"), (1, "off"), (1, "on")] * 2,
       "settings: each kernel under each setting once a round")
    a = vm.design_order(3, ["off", "on"], 20, "shuffle", 7)
    ok(a == vm.design_order(3, ["off", "on"], 20, "shuffle", 7)
       and a != vm.design_order(3, ["off", "on"], 20, "shuffle", 8),
       "shuffle: the order is the seed's, another seed another order")
    rounds = [sorted((k, x) for r, k, x in a if r == n) for n in range(1, 21)]
    ok(all(b == sorted((k, x) for k in range(3) for x in ("off", "on")) for b in rounds)
       and len({tuple((k, x) for r, k, x in a if r == n) for n in range(1, 21)}) > 1,
       "  randomized blocks: every round boots each once, in orders that differ")

    # --- a guest that never powers off is killed at the limit
    rc, console, secs, killed = vm.boot(["sleep", "30"], 1.0)
    ok(rc is None and "did not power off" in killed and secs < 10,
       f"a command that never ends is killed ({secs:.1f} s)")
    rc, console, secs, killed = vm.boot(["sh", "-c", "echo booting; sleep 30"], 30,
                                        ready_marker="rtsched-guest: kernel ", ready_timeout=1)
    ok(rc is None and "did not start its init" in killed and console == "booting",
       "a guest that never starts its init is killed at the boot timeout")
    rc, console, secs, killed = vm.boot(["sh", "-c", "echo rtsched-guest: kernel x; exit 3"], 30)
    ok(rc == 3 and killed is None, "a guest's exit status is kept")

    # --- two kernel-matrix runs storing into one folder in the same second
    # keep both results: a name taken is never replaced (one of two was lost)
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.SourceFileLoader(
        "kernel_matrix", os.path.join(os.path.dirname(__file__), "..", "..", "scripts",
                                      "kernel-matrix"))
    spec = importlib.util.spec_from_loader("kernel_matrix", loader)
    km = importlib.util.module_from_spec(spec)
    loader.exec_module(km)
    ref = os.path.join(os.path.dirname(__file__), "..", "..", "results", "reference",
                       "commit-43fa5460fe60-after-pi.json")
    with open(ref, "rb") as f:
        files = {"1.json": f.read()}
    with tempfile.TemporaryDirectory() as tmp:
        res = os.path.join(tmp, "results")
        paths = []
        for k in range(3):
            stage = os.path.join(tmp, f"stage{k}")
            os.mkdir(stage)
            paths += km.store(files, {"accel": "tcg", "vcpus": 4}, res, "tcg", 4, stage)
        kept = sorted(os.path.join(d, n) for d, _, ns in os.walk(res) for n in ns)
        ok(len(set(paths)) == 3 and sorted(paths) == kept,
           f"three stores of one result in one second keep three files ({len(kept)})")
        ok(not any(".tmp." in p for p in os.listdir(os.path.dirname(kept[0]))),
           "  and leave no private folder")

done()
