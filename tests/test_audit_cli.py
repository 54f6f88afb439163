"""`portkit audit` as a newcomer meets it: its help, and every way of giving
it a wrong input or output, each one `portkit: error:` line and exit 2."""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_portkit

SETPRIV = ("setpriv", "--bounding-set=-dac_override,-dac_read_search", "--inh-caps=-dac_override,-dac_read_search")


def portkit(*args: str | Path, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    return run_portkit(*args, prefix=prefix, timeout=120)


def without_read_permission() -> tuple[str, ...]:
    """A prefix that takes root's power to read any file (a mode-0 file is then unreadable)."""
    if os.geteuid() != 0:
        return ()
    if shutil.which("setpriv") is None:
        pytest.skip("root reads any file, and setpriv is missing")
    return SETPRIV


def test_audit_help_tells_what_it_does_its_modes_and_examples() -> None:
    proc = portkit("audit", "--help")
    assert proc.returncode == 0
    description, _, rest = proc.stdout.partition("options:")
    words = " ".join(description.split())
    assert "root filesystem" in words and "kernel configuration" in words
    assert "--fail-on" in words
    assert "rootfs" in rest and "kconfig" in rest and "examples:" in rest
    for developer_word in ("command.py", "registers", "parser", "package beside"):
        assert developer_word not in proc.stdout


@pytest.mark.parametrize("mode", ["audit", "audit rootfs", "audit kconfig"])
def test_help_fits_an_80_column_terminal(mode: str) -> None:
    proc = portkit(*mode.split(), "--help")
    assert proc.returncode == 0 and max(len(line) for line in proc.stdout.splitlines()) <= 80


@pytest.fixture
def places(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "dir").mkdir()
    (tmp_path / "notes.txt").write_text("not an image\n")
    (tmp_path / "image" / "bin").mkdir(parents=True)
    config = tmp_path / "config.gz"
    config.write_bytes(gzip.compress(b"# Linux/x86 6.1.0 Kernel Configuration\nCONFIG_X86_64=y\n"))
    locked = tmp_path / "locked.config"
    locked.write_text("CONFIG_X86_64=y\n")
    locked.chmod(0)
    return {"tmp": tmp_path, "config": config}


# (arguments, the error line after `portkit: error: `); {tmp} is the test's directory.
BAD = [
    (["audit", "rootfs", "{tmp}/image", "-o", "{tmp}/dir"], "-o {tmp}/dir: is a directory (give a file name)"),
    (["audit", "rootfs", "{tmp}/image", "-o", "{tmp}/none/x.txt"], "-o {tmp}/none/x.txt: {tmp}/none does not exist"),
    (["audit", "rootfs", "{tmp}/image", "-o", "/proc/x.txt"], "-o /proc/x.txt: cannot write there ("),
    (["audit", "rootfs", "{tmp}/missing"], "{tmp}/missing: No such file or directory"),
    (["audit", "rootfs", "{tmp}/notes.txt"], "{tmp}/notes.txt: not a directory or a tar archive portkit can read"),
    (["audit", "rootfs", sys.executable], f"{sys.executable}: an ELF file, not a directory or a tar archive"),
    (["audit", "rootfs", "{tmp}/image", "--kconfig", "{tmp}/missing"], "--kconfig {tmp}/missing: No such file"),
    (["audit", "rootfs", "{tmp}/image", "--kconfig", "{tmp}/dir"], "--kconfig {tmp}/dir: is a directory"),
    (
        ["audit", "rootfs", "{tmp}/image", "--kconfig", "{tmp}/locked.config"],
        "--kconfig {tmp}/locked.config: Permission",
    ),
    (["audit", "rootfs"], "audit rootfs: which image?"),
    (["audit", "kconfig", "{config}", "-o", "{tmp}/dir"], "-o {tmp}/dir: is a directory (give a file name)"),
    (["audit", "kconfig", "{config}", "-o", "/proc/x.txt"], "-o /proc/x.txt: cannot write there ("),
    (["audit", "kconfig", "{tmp}/missing"], "{tmp}/missing: No such file or directory"),
    (["audit", "kconfig", "{tmp}/dir"], "{tmp}/dir: is a directory, not a kernel config"),
    (["audit", "kconfig", "{tmp}/locked.config"], "{tmp}/locked.config: Permission denied"),
    (["audit", "kconfig", "{config}", "--target", "qemu-aarch64"], "audit kconfig: a CONFIG file or --target"),
]


@pytest.mark.parametrize(("argv", "message"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_a_bad_input_or_output_is_one_error_line(places: dict[str, Path], argv: list[str], message: str) -> None:
    args = [a.format(**places) for a in argv]
    prefix = without_read_permission() if "locked" in " ".join(args) else ()
    proc = portkit(*args, prefix=prefix)
    assert proc.returncode == 2 and proc.stdout == "", proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.startswith(f"portkit: error: {message.format(**places)}"), proc.stderr
    assert not proc.stderr.startswith("portkit: error: portkit")
