"""`portkit cpu` as a user meets it: -o naming a directory, an 80-column
terminal. The agent's own document is tested in test_agent_cpu.py."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from terminal import run_on_terminal


def test_output_to_a_directory_is_one_line(host_agent: Path, tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "portkit", "cpu", "--agent", str(host_agent), "-o", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert proc.stderr == f"portkit: error: -o {tmp_path}: is a directory (give a file name)\n"
    assert list(tmp_path.iterdir()) == []


def test_features_fold_on_an_80_column_terminal(cross_agent: Callable) -> None:
    """The longest lists (58 absent AArch64 features) fold under their field, every name whole."""
    agent = cross_agent("aarch64-linux-gnu")[-1]
    argv = ["cpu", "--target", "qemu-aarch64:cortex-a53", "--agent", agent, "--has", "crc32,pmull,sha3"]
    screen = run_on_terminal(argv, columns=80)
    assert screen.returncode == 1, screen.raw
    assert all(len(line) <= 80 for line in screen.lines), "\n".join(screen.lines)
    assert "…" not in screen.raw
    words = " ".join(screen.lines).split()
    assert {"sveebf16", "smef64f64", "crc32", "pmull"} <= set(words)
    assert screen.lines[-2].split() == ["--has", "crc32,pmull,sha3", "missing:", "sha3"]
