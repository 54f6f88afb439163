"""portkit audit rootfs as a newcomer runs it: on a small image made of
this machine's own programs, on the directory above an image, on a
terminal (progress, 80 columns) and in a pipe; counts in words."""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from conftest import run_portkit
from terminal import run_on_terminal

HOST_PROGRAM = Path(shutil.which("true") or "/bin/true").resolve()


def audit(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run_portkit("audit", "rootfs", *args, cwd=cwd, timeout=120)


@pytest.fixture
def one_program(tmp_path: Path) -> Path:
    """An image of one entry in bin/: this machine's `true`, its libraries absent."""
    root = tmp_path / "rootfs"
    (root / "bin").mkdir(parents=True)
    shutil.copy(HOST_PROGRAM, root / "bin" / "true")
    return root


def test_one_of_each_is_counted_in_the_singular(one_program: Path) -> None:
    proc = audit("rootfs", "--fail-on", "never", cwd=one_program.parent)
    assert proc.returncode == 0, proc.stderr
    head = proc.stdout.split("\n\n", 1)[0]
    assert "rootfs (directory, 2 entries)" in head
    assert "inferred from 1 of 1 program in bin/" in head
    assert "files         1 ELF file, 1 audited" in head


def test_the_directory_above_an_image_is_named_for_what_it_is(one_program: Path) -> None:
    above = one_program.parent
    proc = audit(above, "--format", "json", "--fail-on", "never")
    assert proc.returncode == 0
    assert proc.stderr == (
        f"portkit: warning: {above}: no bin/, sbin/, usr/bin/ or lib/ at its top, read as the board's / "
        f"(is it the image's root? {above}/rootfs looks like one)\n"
    )
    assert audit(one_program, "--format", "json", "--fail-on", "never").stderr == ""
    archive = above / "image.tar"
    with tarfile.open(archive, "w") as tar:
        tar.add(one_program, arcname="rootfs")
    proc = audit(archive, "--format", "json", "--fail-on", "never")
    assert proc.returncode == 0 and proc.stderr.endswith("(is it the image's root? its rootfs/ looks like one)\n")


def test_a_directory_without_programs_asks_whether_it_is_the_root(tmp_path: Path) -> None:
    proc = audit(tmp_path)
    assert proc.returncode == 2
    assert proc.stderr == (
        f"portkit: error: {tmp_path}: no ELF file of a known ABI in it, nothing to audit (is it the image's root?)\n"
    )


def test_progress_on_a_terminal_only_and_never_with_quiet(one_program: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.txt"
    screen = run_on_terminal(["audit", "rootfs", str(one_program), "-o", str(report), "--fail-on", "never"])
    assert screen.returncode == 0
    assert "audit rootfs: reading" in screen.raw and "audit rootfs: resolving  2 entries, 1 ELF file" in screen.raw
    assert screen.lines == [""]  # the line is gone once the report is written
    quiet = run_on_terminal(["audit", "rootfs", str(one_program), "-o", str(report), "--fail-on", "never", "-q"])
    assert quiet.returncode == 0 and quiet.raw == ""
    piped = audit(one_program, "-o", report, "--fail-on", "never")
    assert piped.returncode == 0 and piped.stderr == ""


def test_the_text_fits_an_80_column_terminal_and_long_paths_fold_at_slashes(tmp_path: Path) -> None:
    root = tmp_path / "rootfs"
    deep = "usr/lib/vendor-with-a-long-name/plugins/audio/codec-loader-long-name"
    (root / "bin").mkdir(parents=True)
    (root / deep).parent.mkdir(parents=True)
    shutil.copy(HOST_PROGRAM, root / "bin" / "true")
    shutil.copy(HOST_PROGRAM, root / deep)
    screen = run_on_terminal(["audit", "rootfs", "rootfs", "--fail-on", "never", "-q"], cwd=tmp_path)
    lines = [line.rstrip() for line in screen.lines]
    assert screen.returncode == 0 and max(len(line) for line in lines) <= 80, lines
    header = next(line for line in lines if line.startswith("file "))
    rows = lines[lines.index(header) + 1 : lines.index("", lines.index(header))]
    assert "".join(row[: header.index("findings")].strip() for row in rows) == "bin/true" + deep
    piped = audit(root, "--fail-on", "never").stdout.splitlines()
    assert any(line.startswith(deep + " ") for line in piped)  # whole in a pipe


def test_json_and_sarif_are_untouched_by_progress(one_program: Path, tmp_path: Path) -> None:
    out = tmp_path / "a.json"
    screen = run_on_terminal(["audit", "rootfs", str(one_program), "--format", "json", "-o", str(out)])
    assert screen.returncode == 1
    assert json.loads(out.read_text())["schema"] == "portkit.audit-rootfs/1"
