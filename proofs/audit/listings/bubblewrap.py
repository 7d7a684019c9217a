"""The sandbox bubblewrap (`bwrap`) makes for a chapter's listings: its namespaces, its user
and the root it sees.

New user, PID, network, mount, IPC, UTS and cgroup namespaces; inside, user 1000 without
capabilities, unable to make user namespaces of its own (so that it can neither mount nor
trace what it could not outside); a new session (no terminal to push input into). The
root is a tmpfs, read-only, holding /usr, the links or folders of /bin, /lib and their
kin, the dynamic linker's cache, /etc/alternatives, and the folders of this Python
(its prefixes, its virtual environment's and the one it was made from), all read-only;
/proc of the new PID namespace; /dev's null, zero, full, random, urandom and tty, on a
read-only /dev; and /tmp, a tmpfs of a given size, the one place it can write.
"""

from __future__ import annotations

import os
import shutil
import sys

UID = "1000"  # the listings' user and group in the sandbox
_SYSTEM = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")  # links into /usr, or not
_SHARED = ("/etc/ld.so.cache", "/etc/alternatives")  # what the dynamic linker reads


def bwrap() -> str | None:
    """bubblewrap's path, None when it is not installed."""
    return shutil.which("bwrap")


def python_installation() -> list[str]:
    """The folders of this Python and its packages outside /usr, each as given and as
    resolved, none inside another."""
    named = {sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix}
    named.add(os.path.dirname(os.path.realpath(sys.executable)))
    folders = {p for n in named for p in (os.path.abspath(n), os.path.realpath(n))}
    folders = {f for f in folders if f != "/" and f != "/usr" and not f.startswith("/usr/")}
    return sorted(f for f in folders if not any(f.startswith(g + "/") for g in folders))


def arguments(disk: int) -> list[str]:
    """bubblewrap's options for a sandbox whose /tmp holds `disk` bytes."""
    out = ["--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL"]
    out += ["--uid", UID, "--gid", UID, "--hostname", "listings"]
    out += ["--die-with-parent", "--new-session", "--as-pid-1"]
    out += ["--ro-bind", "/usr", "/usr"]
    for path in _SYSTEM:
        if os.path.islink(path):
            out += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            out += ["--ro-bind", path, path]
    for path in _SHARED:
        out += ["--ro-bind-try", path, path]
    # /tmp before the Python folders: a virtual environment made under /tmp (a CI job's
    # clone) is bound into it, read-only, rather than hidden by it
    out += ["--size", str(disk), "--tmpfs", "/tmp"]
    for path in python_installation():
        out += ["--ro-bind", path, path]
    out += ["--proc", "/proc", "--dev", "/dev", "--remount-ro", "/dev"]
    out += ["--remount-ro", "/", "--chdir", "/tmp"]
    return out
