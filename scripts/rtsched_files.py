# SPDX-License-Identifier: GPL-2.0-only
"""Outputs whole or absent: a file written under a private name and linked
into place (never over an existing one, never through a planted link),
the folders outputs go to checked before any work, and the debris of a
killed run swept.
"""

import errno
import fcntl
import os
import stat
import tempfile

from rtsched_results import ResultError


def check_output(path, opt):
    """Refuse, before any work, an output file that exists (a link even if
    dangling) or whose folder cannot take it: a ResultError (exit 2)."""
    if os.path.lexists(path):
        raise ResultError(f"{opt} {path!r}: the file exists; choose another name")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ResultError(f"{opt} {path!r}: no folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ResultError(f"{opt} {path!r}: cannot write in {folder}")


def check_output_dir(path, opt):
    """Create the folder PATH for outputs now, before any work, or raise a
    ResultError (exit 2) saying why it cannot be."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise ResultError(f"invalid {opt} {path!r}: {e.strerror}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise ResultError(f"invalid {opt} {path!r}: cannot write in it")


class PrivateDir:
    """A folder of this process's own (mode 0700) beside a file to write,
    held by its descriptor: a name in it (path()) is reached through the
    descriptor, so that another user who may write the folder around it can
    neither plant a link there nor swap the folder for one of theirs."""

    def __init__(self, beside):
        parent = os.path.dirname(beside) or "."
        self.name = tempfile.mkdtemp(prefix=f"{os.path.basename(beside)}.tmp.", dir=parent)
        try:
            self.fd = os.open(self.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError:
            self.fd = -1
        st = os.fstat(self.fd) if self.fd >= 0 else None
        if not st or st.st_uid != os.geteuid() or st.st_mode & 0o7777 != 0o700:
            self.close()
            raise OSError(errno.EPERM, "another folder was put in place of this one", self.name)

    def path(self, name):
        return f"/proc/self/fd/{self.fd}/{name}"

    def link(self, name, dest):
        """Give DEST the file NAME (FileExistsError if DEST exists, a link even)."""
        os.link(name, dest, src_dir_fd=self.fd, follow_symlinks=False)

    def link_free(self, name, dest):
        """Give the file NAME the name DEST, or, where DEST is taken (another
        run stored its result there in the same second), DEST with -2, -3...
        before its extension: never over a file. Returns the name given."""
        stem, ext = os.path.splitext(dest)
        for k in range(1, 1000):
            path = dest if k == 1 else f"{stem}-{k}{ext}"
            try:
                self.link(name, path)
                return path
            except FileExistsError:
                continue
        raise FileExistsError(errno.EEXIST, "a thousand results of this name", dest)

    def replace(self, name, dest):
        """DEST becomes the file NAME, replacing what is there (a link itself, not its target)."""
        os.replace(name, dest, src_dir_fd=self.fd)

    def close(self):
        if self.fd >= 0:
            for n in os.listdir(self.fd):
                try:
                    os.unlink(n, dir_fd=self.fd)
                except OSError:
                    pass
            os.close(self.fd)
            self.fd = -1
        try:
            os.rmdir(self.name)
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# The temporary of a program's output PATH: PATH.tmp.rtsched (src/lib/outfile.h)
PROGRAM_TEMP = ".tmp.rtsched"


def sweep_temporaries(path):
    """Remove what a killed run left beside PATH: a program's PATH.tmp.rtsched,
    and PATH.tmp.XXXXXX files and private folders (the scripts' own), of
    this user and that no live process locks (the programs lock theirs while
    they run). Returns how many went."""
    folder, base = os.path.split(path)
    folder = folder or "."
    gone = 0
    for name in os.listdir(folder):
        if not (name == base + PROGRAM_TEMP or
                (name.startswith(f"{base}.tmp.") and len(name) == len(base) + 11)):
            continue
        full = os.path.join(folder, name)
        try:
            st = os.lstat(full)
            if st.st_uid != os.geteuid() or not (stat.S_ISREG(st.st_mode)
                                                  or stat.S_ISDIR(st.st_mode)):
                continue
            is_dir = stat.S_ISDIR(st.st_mode)
            fd = os.open(full, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK
                         | (os.O_DIRECTORY if is_dir else 0))
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            # still the file locked, not one a new run named so meanwhile
            held, now = os.fstat(fd), os.lstat(full)
            if (held.st_ino, held.st_dev) != (now.st_ino, now.st_dev):
                continue
            if is_dir:
                for n in os.listdir(fd):
                    os.unlink(n, dir_fd=fd)
                os.rmdir(full)
            else:
                os.unlink(full)
            gone += 1
        except OSError:
            pass
        finally:
            os.close(fd)
    return gone


def write_new(path, write):
    """Write PATH whole or not at all and never over an existing file: WRITE
    fills a file (mode 0666 less the umask) in a private folder beside it,
    which is then linked to PATH (FileExistsError if PATH appeared meanwhile)."""
    with PrivateDir(path) as d:
        name = os.path.basename(path)
        os.close(os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666, dir_fd=d.fd))
        write(d.path(name))
        d.link(name, path)


def write_replacing(path, text):
    """PATH gets TEXT whole, replacing what was there; a link planted at PATH
    is replaced, never written through."""
    with PrivateDir(path) as d:
        name = os.path.basename(path)
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666, dir_fd=d.fd)
        with open(fd, "w", encoding="utf-8") as f:
            f.write(text)
        d.replace(name, path)
