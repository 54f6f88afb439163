"""portkit audit rootfs as a newcomer runs it: on a small image made of
this machine's own programs, on the directory above an image, on a
terminal (progress, 80 columns) and in a pipe; counts in words."""

from __future__ import annotations

import json
import os
import re
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


# -- --exclude ------------------------------------------------------------------------------------------


def test_exclude_leaves_paths_out_and_the_summary_names_them(one_program: Path) -> None:
    (one_program / "opt/junk/bin").mkdir(parents=True)
    shutil.copy(HOST_PROGRAM, one_program / "opt/junk/bin/tool")
    (one_program / "bin/tool.debug").write_bytes(HOST_PROGRAM.read_bytes())
    proc = audit(one_program, "--exclude", "opt/junk", "--exclude", "*.debug", "--format", "json", "--fail-on", "never")
    assert proc.returncode == 0, proc.stderr
    document = json.loads(proc.stdout)
    assert document["left_out"]["excluded"] == [
        {"pattern": "opt/junk", "paths": ["opt/junk"]},
        {"pattern": "*.debug", "paths": ["bin/tool.debug"]},
    ]
    assert {f["location"]["path"] for f in document["findings"]} == {"bin/true"}
    assert document["files"]["elf"] == 1
    text = audit(one_program, "--exclude", "opt/junk", "--fail-on", "never").stdout
    assert re.search(r"^left out\s+opt/junk \(--exclude\): opt/junk$", text, re.M), text
    archive = one_program.parent / "image.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(one_program, arcname=".")
    from_tar = json.loads(audit(archive, "--exclude", "opt/junk", "--exclude", "*.debug", "--format", "json",
                                "--fail-on", "never").stdout)  # fmt: skip
    assert from_tar["left_out"] == document["left_out"]


# -- the running system ------------------------------------------------------------------------------------


@pytest.fixture
def system(tmp_path: Path) -> Path:
    """A system root made of this machine's own files: a program in usr/bin,
    its libc and loader where Debian keeps them; a cross toolchain's sysroot
    (usr/aarch64-linux-gnu), a program outside PATH (opt/) and a home
    directory holding another architecture's build."""
    root = tmp_path / "system"
    for directory in ("usr/bin", "usr/lib/x86_64-linux-gnu", "lib64", "usr/aarch64-linux-gnu/lib", "opt/tool",
                      "home/dev/build"):  # fmt: skip
        (root / directory).mkdir(parents=True)
    for name in ("bin", "lib"):
        os.symlink(f"usr/{name}", root / name)
    shutil.copy(HOST_PROGRAM, root / "usr/bin/true")
    shutil.copy(HOST_PROGRAM, root / "opt/tool/tool")
    shutil.copy(Path("/lib/x86_64-linux-gnu/libc.so.6").resolve(), root / "usr/lib/x86_64-linux-gnu/libc.so.6")
    loader = Path("/lib64/ld-linux-x86-64.so.2").resolve()
    shutil.copy(loader, root / "usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2")
    os.symlink("/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", root / "lib64/ld-linux-x86-64.so.2")
    sysroot_libc = Path("/usr/aarch64-linux-gnu/lib/libc.so.6")
    if sysroot_libc.exists():
        shutil.copy(sysroot_libc.resolve(), root / "usr/aarch64-linux-gnu/lib/libc.so.6")
        shutil.copy(sysroot_libc.resolve(), root / "home/dev/build/app")
    return root


def test_the_running_system_is_read_as_its_loader_meets_it(system: Path) -> None:
    """live.py on a system root: only PATH's programs, the loader's
    directories and what they load are read; the rest is named, not read."""
    from portkit.commands.audit.rootfs.audit import Audit, infer_target
    from portkit.commands.audit.rootfs.document import audit_fields
    from portkit.commands.audit.rootfs.image import Exclusions
    from portkit.commands.audit.rootfs.live import live_image
    from portkit.commands.audit.rootfs.rules import RULES

    image = live_image(system, Exclusions())
    target = infer_target(image, None)
    assert target is not None and target.abi.name == "amd64"
    audit = Audit(image, target)
    assert set(audit.files) == {
        "usr/bin/true",
        "usr/lib/x86_64-linux-gnu/libc.so.6",
        "usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
    }
    never_read = ("home/", "opt/", "usr/aarch64-linux-gnu/")
    assert not any(path.startswith(never_read) for path in image.nodes)
    left = audit_fields(audit, [], [], RULES)["left_out"]
    assert left["sysroots"] == ["usr/aarch64-linux-gnu"]
    assert left["not_read"] == ["home/", "opt/"]


def test_auditing_this_machine_names_only_what_its_loader_loads() -> None:
    proc = run_portkit("audit", "rootfs", "/", "--format", "json", "--fail-on", "never", timeout=300)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    document = json.loads(proc.stdout)
    assert document["image"]["kind"] == "running system"
    left = document["left_out"]
    elsewhere = tuple(f"{d}/" for d in left["sysroots"] + left["other_abis"]) + tuple(left["not_read"])
    paths = {f["location"]["path"] for f in document["findings"]}
    assert not [p for p in paths if p.startswith(elsewhere)]
    assert not [f for f in document["findings"] if f["rule"] in ("PKR101", "PKR301")]
    if Path("/usr/aarch64-linux-gnu/lib").is_dir():  # the cross toolchain scripts/install-system-packages installs
        assert "usr/aarch64-linux-gnu" in left["sysroots"]
