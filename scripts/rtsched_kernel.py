# SPDX-License-Identifier: GPL-2.0-only
"""What the kernel scripts share: the cache, the commit edit, the configuration.

The cache holds everything large (fetched packages, the unpacked source, the
built images) outside the repository: $RTSCHED_CACHE, else
$XDG_CACHE_HOME/rtsched, else ~/.cache/rtsched.
"""

import hashlib
import os
import re
import shutil
import subprocess

from rtsched_proc import run_child

HERE = os.path.dirname(os.path.realpath(__file__))
CONFIG_FRAGMENT = os.path.join(HERE, "kernel", "rtsched-guest.config")
# merged after it for a PREEMPT_RT kernel (kernel-variant --rt)
CONFIG_FRAGMENT_RT = os.path.join(HERE, "kernel", "rtsched-guest-rt.config")

VARIANTS = ("stock", "pre-43fa5460")

# what building a guest kernel needs
BUILD_TOOLS = ("make", "gcc", "bc", "bison", "flex", "perl")
BUILD_HEADERS = {"/usr/include/libelf.h": "libelf-dev",
                 "/usr/include/openssl/ssl.h": "libssl-dev"}
BUILD_FREE_GIB = 8


class KernelError(Exception):
    """One line saying what is wrong and what to do."""


class Missing(KernelError):
    """Something needed is not there (exit 4)."""


def check_build_tools(extra=()):
    """Missing, naming what to install, unless the tools and headers of a
    kernel build (and the EXTRA tools) are here."""
    missing = [t for t in BUILD_TOOLS + tuple(extra) if not shutil.which(t)]
    missing += [pkg for path, pkg in BUILD_HEADERS.items() if not os.path.exists(path)]
    if missing:
        raise Missing(f"missing build tools: {' '.join(missing)} (Debian: apt-get install "
                      "build-essential bc bison flex libelf-dev libssl-dev)")


def check_build_disk(path):
    """Missing unless PATH (made if need be) has the disk a kernel build takes."""
    os.makedirs(path, exist_ok=True)
    free = shutil.disk_usage(path).free / 2**30
    if free < BUILD_FREE_GIB:
        raise Missing(f"not enough disk in {path}: {free:.1f} GiB free, a kernel build needs "
                      f"{BUILD_FREE_GIB} GiB (set RTSCHED_CACHE to another place)")


def cache_dir(*parts):
    """PARTS under the cache: $RTSCHED_CACHE, else $XDG_CACHE_HOME/rtsched,
    else ~/.cache/rtsched; an absolute path, a relative setting taken from
    the current folder, so that a build command run in a clone, or a guest,
    gets a path that names the same place."""
    base = os.environ.get("RTSCHED_CACHE")
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
        base = os.path.join(xdg, "rtsched")
    return os.path.join(os.path.abspath(base), *parts)


# Where Debian 12's packages that a plain bookworm lacks come from: the 6.12
# kernels (images, source, headers) are in bookworm-security only
ORIGINS = ((re.compile(r"linux-(source|image|headers)-6\.12"), "bookworm-security",
            "http://deb.debian.org/debian-security"),)


def apt_knows(pkg):
    """Does any of this machine's apt sources have PKG?"""
    return subprocess.run(["apt-cache", "show", pkg], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0


def not_in_sources(pkg):
    """One line: PKG is in none of this machine's apt sources, and, when
    known, the suite it comes from and how to add it."""
    line = f"cannot fetch package {pkg}: it is in none of this machine's apt sources"
    for pattern, suite, uri in ORIGINS:
        if pattern.match(pkg):
            return (f"{line}; it comes from Debian's {suite}: add 'deb {uri} {suite} main' "
                    "to them and run apt-get update")
    return line


def fetch_deb(pkg, member, say=None):
    """Folder in the cache holding MEMBER (e.g. ./boot; or a tuple of them)
    of Debian package PKG.

    Fetched with apt-get download and unpacked into a temporary folder that
    is renamed into place when complete; reused when already there. None if
    the package holds no MEMBER (a metapackage, say). SAY, when given, is
    told before a download.
    """
    members = (member,) if isinstance(member, str) else tuple(member)
    where = cache_dir("packages", pkg)
    if all(os.path.exists(os.path.join(where, m)) for m in members):
        return where
    if not apt_knows(pkg):
        raise Missing(not_in_sources(pkg))
    if say:
        say(f"fetching {pkg} with apt-get download")
    tmp = f"{where}.tmp-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    try:
        r = subprocess.run(["apt-get", "download", pkg], cwd=tmp, capture_output=True, text=True)
        debs = [f for f in os.listdir(tmp) if f.endswith(".deb")]
        if r.returncode or not debs:
            why = [x for x in r.stderr.strip().splitlines() if not x.startswith("W:")]
            raise Missing(f"cannot fetch package {pkg}: {(why or ['no package file'])[-1]}")
        wanted = " ".join(f"'{m}'" for m in members)
        unpack = subprocess.run(f"dpkg-deb --fsys-tarfile '{debs[0]}' | tar -x {wanted}",
                                shell=True, cwd=tmp, capture_output=True)
        if unpack.returncode or not all(os.path.exists(os.path.join(tmp, m)) for m in members):
            return None
        os.unlink(os.path.join(tmp, debs[0]))
        shutil.rmtree(where, ignore_errors=True)
        os.rename(tmp, where)
        return where
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def image_dependency(pkg):
    """The kernel image package a metapackage (linux-image-amd64) depends on."""
    r = subprocess.run(["apt-cache", "depends", pkg], capture_output=True, text=True)
    deps = re.findall(r"^\s+Depends: (linux-image-\S+)$", r.stdout, re.M)
    return deps[0] if len(deps) == 1 else None


def fetch_image(pkg, say=None, members=("./boot",)):
    """(package, folder) of Debian kernel image package PKG, its MEMBERS
    unpacked in the cache (fetch_deb); a metapackage (linux-image-amd64,
    linux-image-rt-amd64) is followed to the versioned package it depends
    on. The folder is None when PKG is no kernel image package."""
    where = fetch_deb(pkg, members, say)
    images = sorted(f for f in os.listdir(os.path.join(where, "boot"))
                    if f.startswith("vmlinuz")) if where else []
    if images:
        return pkg, where
    dep = image_dependency(pkg)
    if dep:
        if say:
            say(f"{pkg} is a metapackage for {dep}")
        return dep, fetch_deb(dep, members, say)
    return pkg, None


# Commit 43fa5460fe60 added, in two places, a condition on the task running
# on the CPU: only a *higher* priority RT task makes the woken task look for
# another CPU. Later kernels kept it as "curr->prio <= p->prio" (or one
# pinned curr). Taking those conditions out again gives the "before": every
# wake-up of an RT task on a CPU running an RT task looks for another CPU.
# Each entry: the function, the exact code expected in it, what replaces it.
PRE_43FA5460_EDITS = (
    ("select_task_rq_rt",
     "\ttest = curr &&\n"
     "\t       unlikely(rt_task(curr)) &&\n"
     "\t       (curr->nr_cpus_allowed < 2 || curr->prio <= p->prio);\n",
     "\t/* rtsched pre-43fa5460: any running RT task, whatever its priority */\n"
     "\ttest = curr &&\n"
     "\t       unlikely(rt_task(curr));\n"),
    ("task_woken_rt",
     "\tbool need_to_push = !task_on_cpu(rq, p) &&\n"
     "\t\t\t    !test_tsk_need_resched(rq->curr) &&\n"
     "\t\t\t    p->nr_cpus_allowed > 1 &&\n"
     "\t\t\t    (dl_task(rq->curr) || rt_task(rq->curr)) &&\n"
     "\t\t\t    (rq->curr->nr_cpus_allowed < 2 ||\n"
     "\t\t\t     rq->curr->prio <= p->prio);\n",
     "\t/* rtsched pre-43fa5460: no condition on the running task */\n"
     "\tbool need_to_push = !task_on_cpu(rq, p) &&\n"
     "\t\t\t    !test_tsk_need_resched(rq->curr) &&\n"
     "\t\t\t    p->nr_cpus_allowed > 1;\n"),
)

RT_C = os.path.join("kernel", "sched", "rt.c")


def _function_body(text, name):
    """(start, end) of the body of the C function NAME defined in TEXT."""
    m = re.search(r"^(?:static\s+)?[\w \*]+\n?\s*\b" + re.escape(name) + r"\([^)]*\)\s*\n\{",
                  text, re.M)
    if not m:
        return None
    depth, i = 0, m.end() - 1
    while i < len(text):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return m.end(), i
        i += 1
    return None


def pre_43fa5460(text, path=RT_C):
    """TEXT of kernel/sched/rt.c with the commit's conditions taken out.

    Refuses (KernelError) unless each function holds exactly the code
    expected, once: another kernel version must be looked at by a person.
    """
    for func, old, new in PRE_43FA5460_EDITS:
        span = _function_body(text, func)
        if span is None:
            raise KernelError(f"{path}: no function {func}(): not a kernel source this script knows "
                              "(it edits Linux 6.1's kernel/sched/rt.c)")
        body = text[span[0]:span[1]]
        if body.count(old) != 1:
            first = old.strip().splitlines()[0]
            raise KernelError(f"{path}: {func}() does not hold the expected code "
                              f"({first!r} ...): another kernel version or already edited; "
                              "refusing to guess")
        text = text[:span[0]] + body.replace(old, new) + text[span[1]:]
    return text


def fragments(rt=False):
    """The configuration fragments of a guest kernel, in the order they merge."""
    return (CONFIG_FRAGMENT,) + ((CONFIG_FRAGMENT_RT,) if rt else ())


def fragment_options(paths=(CONFIG_FRAGMENT,)):
    """{CONFIG_NAME: value} of the fragments, a later one's value winning;
    'n' for '# ... is not set'."""
    opts = {}
    for path in (paths,) if isinstance(paths, str) else paths:
        _read_fragment(path, opts)
    return opts


def _read_fragment(path, opts):
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            m = re.fullmatch(r"# (CONFIG_\w+) is not set", line)
            if m:
                opts[m.group(1)] = "n"
                continue
            if not line or line.startswith("#"):
                continue
            m = re.fullmatch(r"(CONFIG_\w+)=(.*)", line)
            if not m:
                raise KernelError(f"{path}: not a configuration line: {line!r}")
            opts[m.group(1)] = m.group(2)


def config_mismatches(config_text, wanted):
    """The options of WANTED that CONFIG_TEXT (a .config) does not hold."""
    have = {}
    for line in config_text.splitlines():
        m = re.fullmatch(r"(CONFIG_\w+)=(.*)", line)
        if m:
            have[m.group(1)] = m.group(2)
    out = []
    for name, value in wanted.items():
        got = have.get(name, "n")
        if got != value:
            out.append(f"{name}={value} (got {got})")
    return out


def run(cmd, log=None, **kw):
    """Run CMD; its output goes to LOG (a file object) when given. A
    KernelError naming the command (and, without LOG, its last line) when
    it fails. Stopped, it stops whole first (run_child)."""
    r = run_child(cmd, stdout=log or subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if r.returncode:
        tail = "" if log else (r.stdout or "").strip().splitlines()[-1:]
        raise KernelError(f"{' '.join(cmd[:3])} ... failed (exit {r.returncode})"
                          + (f": {tail[0]}" if tail else ""))
    return r.stdout


def configure(tree, log, rt=False, out=None, say=None, refresh=False):
    """Give the kernel source TREE the guests' configuration (PREEMPT_RT with
    RT): x86_64_defconfig + kvm_guest.config + the fragments, built in OUT
    (make O=OUT, the source untouched) when given; its sha256. Done once per
    set of fragments (a stamp beside the .config); REFRESH runs olddefconfig
    again (another revision of the source may know other options). A
    KernelError when an option of the fragments did not take."""
    out = out or tree
    where = [] if out == tree else [f"O={out}"]
    frags = fragments(rt)
    wanted = fragment_options(frags)
    frag_id = hashlib.sha256(b"".join(open(f, "rb").read() for f in frags)).hexdigest()
    stamp = os.path.join(out, ".rtsched-config")
    config = os.path.join(out, ".config")
    if not (os.path.exists(stamp) and open(stamp).read() == frag_id and os.path.exists(config)):
        if say:
            say("configuring: x86_64_defconfig + kvm_guest.config + "
                + " + ".join(os.path.basename(f) for f in frags))
        os.makedirs(out, exist_ok=True)
        run(["make", "-C", tree, *where, "x86_64_defconfig"], log)
        run([os.path.join(tree, "scripts", "kconfig", "merge_config.sh"), "-m", "-O", out,
             config, os.path.join(tree, "kernel", "configs", "kvm_guest.config"), *frags],
            log, cwd=tree)
        run(["make", "-C", tree, *where, "olddefconfig"], log)
        with open(stamp, "w") as f:
            f.write(frag_id)
    elif refresh:
        run(["make", "-C", tree, *where, "olddefconfig"], log)
    text = open(config).read()
    bad = config_mismatches(text, wanted)
    if bad:
        os.unlink(stamp)
        hint = ""
        if rt and any(b.startswith("CONFIG_PREEMPT_RT=") for b in bad):
            hint = (": this source cannot build PREEMPT_RT for x86 (ARCH_SUPPORTS_RT, in "
                    "mainline since 6.12: --source-package linux-source-6.12)")
        raise KernelError("the configuration did not take (a dependency is missing?): "
                          + ", ".join(bad) + hint)
    return hashlib.sha256(text.encode()).hexdigest()
