"""The usual mistakes of a new user, over every command: each is one
`portkit: error:` line naming the input and the reason, exit 2 (bad input) or
3 (the environment), never a traceback and never a file left behind."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_H = "examples/legacy32/include/wire.h"
NUL_LIST = "nul.crc"  # a checklist whose file names hold NUL bytes, made in the test's directory

# (argv, exit code): one mistake each; paths are relative to the clone, or to the
# test's own directory for the files it makes ({tmp}).
MISTAKES: list[tuple[list[str], int]] = [
    # a directory where a file is meant, or a file that cannot be written
    (["cpu", "-o", "examples"], 2),
    (["cpu", "-o", "/proc/nope/cpu.txt"], 2),
    (["vdso", "-o", "examples"], 2),
    (["crc32c", "README.md", "-o", "examples"], 2),
    (["layout", EXAMPLE_H, "-o", "examples"], 2),
    (["scan", "examples/legacy32", "-o", "examples/"], 2),
    (["audit", "kconfig", "-o", "examples"], 2),
    (["rt", "run", "--intervals", "1000", "--duration", "1", "-o", "README.md"], 2),
    (["rt", "run", "--intervals", "1000", "--duration", "1", "-o", "/proc/nope"], 2),
    (["rt", "import", "README.md", "-o", "/proc/imp"], 2),
    # inputs that are missing, a directory, or not what the command reads
    (["vdso", "list", "--image", "README.md"], 2),
    (["vdso", "list", "--image", "no-such-file.so"], 2),
    (["vdso", "list", "--image", "examples"], 2),
    (["crc32c", "--check", "no-such-list"], 2),
    (["crc32c", "--check", "examples"], 2),
    (["crc32c", "--check", "{tmp}/" + NUL_LIST], 2),
    (["layout", "no-such-header.h"], 2),
    (["layout", "README.md"], 2),
    (["scan", "no-such-dir"], 2),
    (["scan", "README.md"], 2),
    (["scan", "examples/legacy32", "--baseline", "README.md"], 2),
    (["audit", "kconfig", "README.md"], 2),
    (["audit", "kconfig", "no-such-config"], 2),
    (["audit", "kconfig", "examples"], 2),
    (["audit", "rootfs", "no-such-image"], 2),
    (["audit", "rootfs", "README.md"], 2),
    (["audit", "rootfs", "examples/legacy32", "--kconfig", "no-such-config"], 2),
    (["rt", "table", "no-such-study"], 2),
    (["rt", "table", "README.md"], 2),
    (["rt", "import", "README.md", "-o", "{tmp}/imported"], 2),
    (["rt", "compare", "no-such-study", "no-such-other"], 2),
    # options out of range or unknown
    (["cpu", "--has", "warpdrive"], 2),
    (["cpu", "--target", "nowhere"], 2),
    (["cpu", "--target", "qemu-aarch64:foo"], 2),
    (["cpu", "--target", "qemu-vax"], 2),
    (["vdso", "bench", "--calls", "0"], 2),
    (["layout", EXAMPLE_H, "--abi", "vax"], 2),
    (["scan", "examples/legacy32", "--from", "ILP16"], 2),
    (["scan", "examples/legacy32", "--fail-on", "sometimes"], 2),
    (["rt", "run", "--cpus", "999", "--duration", "1", "-o", "{tmp}/study"], 2),
    (["rt", "run", "--loads", "nap", "--duration", "1", "-o", "{tmp}/study"], 2),
    (["audit", "rootfs", "examples/legacy32", "--select", "PKX"], 2),
    (["report"], 2),
    (["report", "README.md"], 2),
    (["report", "examples/legacy32"], 2),
    (["report", "--source", "examples/legacy32", "-o", "examples"], 2),
    (["report", "--kconfig", "README.md"], 2),
    (["report", "--rootfs", "no-such-image"], 2),
    (["report", "--source", "examples/legacy32", "--baseline", "README.md"], 2),
    (["report", "--source", "examples/legacy32", "--max-latency-us", "fast"], 2),
    (["report", "--target", "nowhere"], 2),
    # a value with a newline or an escape sequence stays on the one line, inert
    (["layout", "no-such\nheader.h"], 2),
    (["scan", "no\x1b[31mdir"], 2),
    (["cpu", "--has", "sse\n\x1b[2J"], 2),
    (["rt", "run", "--cpus", "0\n1", "--duration", "1", "-o", "{tmp}/study"], 2),
]


def _ids() -> list[str]:
    return [" ".join(argv) for argv, _ in MISTAKES]


@pytest.mark.parametrize(("argv", "code"), MISTAKES, ids=_ids())
def test_a_mistake_is_one_line_and_the_right_exit(tmp_path: Path, argv: list[str], code: int) -> None:
    (tmp_path / NUL_LIST).write_bytes(b"e3069283  a\x00b\n")
    words = [word.replace("{tmp}", str(tmp_path)) for word in argv]
    env = {**os.environ, "PORTKIT_AGENT_DIR": str(ROOT / "build")}
    proc = subprocess.run(
        [sys.executable, "-m", "portkit", *words],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        stdin=subprocess.DEVNULL,
    )
    assert "Traceback" not in proc.stderr
    assert "\x1b" not in proc.stderr, "an escape sequence the user typed never reaches the terminal"
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("portkit: error: "), proc.stderr
    message = lines[0].removeprefix("portkit: error: ")
    assert not message.startswith("portkit") and "portkit-target" not in message, "no doubled prefix, no agent name"
    assert proc.returncode == code, proc.stderr
    leftovers = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all", "--", "examples", "README.md"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert leftovers.stdout == "", "a mistake leaves nothing behind in the tree"
    assert not (tmp_path / "study" / "study.json").exists(), "a refused study writes nothing"


@pytest.mark.parametrize(
    "argv", [["cpu"], ["scan", "examples/legacy32"], ["layout", EXAMPLE_H, "--format", "json"]], ids=" ".join
)
def test_output_that_cannot_be_written_is_one_line_and_exit_3(argv: list[str]) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    env = {**os.environ, "PORTKIT_AGENT_DIR": str(ROOT / "build")}
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "portkit", *argv],
            cwd=ROOT,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            env=env,
            stdin=subprocess.DEVNULL,
        )
    assert proc.stderr.splitlines() == ["portkit: error: standard output could not be written: No space left on device"]
    assert proc.returncode == 3


@pytest.mark.parametrize("command", [["scan"], ["layout"]])
def test_a_named_pipe_for_a_source_is_refused_not_waited_on(tmp_path: Path, command: list[str]) -> None:
    """A source is read more than once (the command, its worker, the report):
    a pipe with no writer left would hang every one of those reads."""
    pipe = tmp_path / "pipe.c"
    os.mkfifo(pipe)
    proc = subprocess.run(
        [sys.executable, "-m", "portkit", *command, str(pipe)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[-1].startswith("portkit: error: ")
    assert f"{pipe}: a pipe or a device, not a regular file" in proc.stderr
