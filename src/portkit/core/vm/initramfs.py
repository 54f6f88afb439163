"""The VM's only filesystem: an initramfs (cpio "newc", uncompressed, which
every kernel unpacks) holding a static busybox, portkit's init, the agents,
the kernel's config and the files the first agent run reads. No root
filesystem and no modules: everything the agent reads (/proc, /sys, the
vDSO, tracefs) is the kernel's own.

The init (a busybox sh script) mounts what the agent reads, says it is ready
on the console, then serves the host's requests (core.vm.console) until told
to power off."""

from __future__ import annotations

import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath

AGENTS = PurePosixPath("/portkit/agents")  # /portkit/agents/<arch>/portkit-target
RUNS = "/run/portkit"  # one set of files per agent run, named by its id
CONFIG = PurePosixPath("/boot/portkit-config")  # linked to /boot/config-$(uname -r) at boot, where agents look


@dataclass(frozen=True)
class Entry:
    path: PurePosixPath  # absolute, as in the VM
    data: bytes = b""
    mode: int = stat.S_IFREG | 0o644

    @staticmethod
    def program(path: PurePosixPath | str, data: bytes) -> Entry:
        return Entry(PurePosixPath(path), data, stat.S_IFREG | 0o755)


def newc(entries: Iterable[Entry]) -> bytes:
    """A cpio archive in the kernel's "newc" format (Documentation/
    driver-api/early-userspace/buffer-format.rst), each file's parent
    directories made first."""
    out = bytearray()
    made: set[PurePosixPath] = set()
    ino = 1

    def add(name: bytes, mode: int, data: bytes) -> None:
        nonlocal ino
        # c_ino mode uid gid nlink mtime filesize devmajor devminor rdevmajor rdevminor namesize check
        fields = (ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name), 0)
        out.extend(b"070701" + "".join(f"{value:08x}" for value in fields).encode() + name)
        out.extend(b"\0" * (-len(out) % 4))
        out.extend(data)
        out.extend(b"\0" * (-len(out) % 4))
        ino += 1

    for entry in entries:
        for parent in reversed(entry.path.parents):
            if parent != PurePosixPath("/") and parent not in made:
                made.add(parent)
                add(_name(parent), stat.S_IFDIR | 0o755, b"")
        if stat.S_ISDIR(entry.mode):
            if entry.path in made or entry.path == PurePosixPath("/"):
                continue
            made.add(entry.path)
        add(_name(entry.path), entry.mode, entry.data)
    add(b"TRAILER!!!\0", 0, b"")
    return bytes(out)


def _name(path: PurePosixPath) -> bytes:
    """A member's name: relative to the root, NUL-terminated, the bytes the path was made of."""
    return str(path.relative_to("/")).encode("utf-8", "surrogateescape") + b"\0"


def init_script(marker: str, agents: dict[str, str]) -> bytes:
    """portkit's /init. marker starts every line it writes for the host (a
    token of this boot, so that nothing else on the console is taken for
    one); agents maps an architecture to its agent's path in the VM.

    Requests arrive one per line on the console: `a ID B64` appends to run
    ID's script (base64, so any argument survives a line), `w ID B64PATH`
    names a file to send back after it, `r ID` runs it, `k ID SIG` signals
    it, `q` powers off. Replies: `p ID PID` started, `e ID TEXT` a stderr
    line, `F ID B64PATH` + `f ID B64` a file sent back (gzip), `M ID
    B64PATH` a file not written, `o ID B64` its stdout (gzip), `x ID STATUS`
    ended."""
    lines = [
        "#!/bin/busybox sh",
        "# Written by portkit (core/vm/initramfs.py): serves the host over the console.",
        # no tmpfs on /tmp: the initramfs is already in memory, and a mount there would hide
        # the files given from the host's /tmp (a clone or a CI workspace under /tmp)
        "/bin/busybox mkdir -p /usr/bin /usr/sbin /sbin /proc /sys /dev /tmp /run",
        "/bin/busybox --install -s",
        "mount -t proc proc /proc",
        "mount -t sysfs sysfs /sys",
        "mount -t devtmpfs devtmpfs /dev 2>/dev/null",  # already there with CONFIG_DEVTMPFS_MOUNT
        "mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null",
        "mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null",  # the preemption mode of a PREEMPT_DYNAMIC kernel
        f'[ -f {CONFIG} ] && ln -s {CONFIG.name} "/boot/config-$(uname -r)"',
        "echo 1 > /proc/sys/kernel/printk",  # from here on only emergencies share the console
        "stty -echo -icrnl -ixon -isig 2>/dev/null",
        f"T={marker}",
        f"R={RUNS}",
        "mkdir -p $R",
        "run() {",
        "  id=$1 d=$R/$1",
        "  base64 -d $d.b64 > $d.sh 2>/dev/null",
        "  if [ -f $d.w ]; then",  # where the run writes files, as here
        '    while read -r p; do mkdir -p "$(dirname "$(echo "$p" | base64 -d)")"; done < $d.w',
        "  fi",
        "  mkfifo $d.err",
        '  sed "s/^/$T $id e /" < $d.err &',
        "  s=$!",
        "  sh $d.sh > $d.out 2> $d.err < /dev/null &",
        "  a=$!",
        "  echo $a > $d.pid",
        '  echo "$T $id p $a"',
        "  wait $a",
        "  rc=$?",
        "  wait $s",
        "  if [ -f $d.w ]; then",
        "    while read -r p; do",
        '      f=$(echo "$p" | base64 -d)',
        '      if [ -f "$f" ]; then',
        '        echo "$T $id F $p"',
        '        gzip -c "$f" | base64 | sed "s/^/$T $id f /"',
        "      else",
        '        echo "$T $id M $p"',
        "      fi",
        "    done < $d.w",
        "  fi",
        '  gzip -c $d.out | base64 | sed "s/^/$T $id o /"',
        '  echo "$T $id x $rc"',
        "  rm -f $d.*",
        "}",
        f'echo "$T 0 ready $(uname -r) {" ".join(sorted(agents))}"',
        "while IFS= read -r line; do",
        "  set -- $line",
        '  case "$1" in',
        '    a) echo "$3" >> $R/$2.b64 ;;',
        '    w) echo "$3" >> $R/$2.w ;;',
        "    r) run $2 & ;;",
        "    k) [ -f $R/$2.pid ] && kill -$3 $(cat $R/$2.pid) 2>/dev/null ;;",
        "    q) break ;;",
        "  esac",
        "done",
        "sync",
        "poweroff -f",
        "reboot -f",  # where the machine has no power-off, -no-reboot ends qemu
    ]
    return ("\n".join(lines) + "\n").encode()
