"""The set-up scripts that `make demo` and `make test` share (scripts/), each
run from a copy in a directory of the test's own, laid out as a fresh clone:
nothing a demo or an earlier test left in this clone's build/ is there. apt and
dpkg are fakes on PATH where a test must not change the machine."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from debian_kconfigs import PACKAGE
from debian_packages import download

SCRIPTS = ROOT / "scripts"


def fresh_clone(tmp_path: Path, *scripts: str) -> Path:
    """A directory with only scripts/ of a clone (the named ones): no build/ yet."""
    clone = tmp_path / "clone"
    (clone / "scripts").mkdir(parents=True)
    for name in scripts:
        shutil.copy2(SCRIPTS / name, clone / "scripts" / name)
    return clone


def test_debian_kconfig_on_a_fresh_clone(tmp_path: Path) -> None:
    """The demo fetches Debian's kernel configs before any test has made build/test-cache."""
    clone = fresh_clone(tmp_path, "fetch-debian-kconfig")
    (deb,) = download([f"{PACKAGE}:arm64"])  # this clone's cache, so nothing is fetched twice
    (clone / "build" / "cache" / "debs").mkdir(parents=True)
    (clone / "build" / "cache" / "debs" / deb.name).symlink_to(deb)
    proc = subprocess.run(
        [clone / "scripts" / "fetch-debian-kconfig", "arm64"], capture_output=True, text=True, timeout=300, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"build/test-cache/linux-config/arm64/usr/src/{PACKAGE}\n"
    assert (clone / proc.stdout.strip() / "config.arm64_none_arm64.xz").is_file()


# ---------------------------------------------------------------- install-system-packages

# dpkg and dpkg-query write a line at a time (dpkg's architectures are separate
# writes), as the real ones do; a reader that stops early kills them with SIGPIPE.
FAKE_DPKG = """#!/bin/bash
case "$1" in
  --print-architecture) echo "$FAKE_NATIVE" ;;
  --print-foreign-architectures) for a in $FAKE_FOREIGN; do echo "$a"; sleep 0.05; done ;;
  *) echo "dpkg $*" >> "$FAKE_LOG" ;;
esac
"""
FAKE_DPKG_QUERY = """#!/bin/bash
shift 2  # -W -f=FORMAT
status=0
for pkg; do
  if [[ " $FAKE_MISSING " == *" $pkg "* ]]; then
    echo "dpkg-query: no packages found matching $pkg" >&2; status=1
  else
    printf '%s install ok installed\\n' "$pkg"
  fi
done
exit $status
"""
FAKE_APT_GET = """#!/bin/bash
echo "apt-get $*" >> "$FAKE_LOG"
"""
FAKE_SUDO = """#!/bin/bash
exec "$@"
"""


def install_system_packages(
    tmp_path: Path, foreign: str = "arm64 armhf mips64el", missing: str = "", native: str = "amd64"
) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """scripts/install-system-packages with the fakes; its output and what it asked of apt and dpkg."""
    clone = fresh_clone(tmp_path, "install-system-packages", "step")
    fakes = tmp_path / "fakes"
    fakes.mkdir()
    for name, text in [
        ("dpkg", FAKE_DPKG),
        ("dpkg-query", FAKE_DPKG_QUERY),
        ("apt-get", FAKE_APT_GET),
        ("sudo", FAKE_SUDO),
    ]:
        (fakes / name).write_text(text)
        (fakes / name).chmod(0o755)
    log = tmp_path / "asked"
    log.touch()
    env = {
        **os.environ,
        "PATH": f"{fakes}:{os.environ['PATH']}",
        "FAKE_LOG": str(log),
        "FAKE_FOREIGN": foreign,
        "FAKE_MISSING": missing,
        "FAKE_NATIVE": native,
    }
    proc = subprocess.run(
        [clone / "scripts" / "install-system-packages"], capture_output=True, text=True, env=env, timeout=120
    )
    return proc, log.read_text().splitlines()


@pytest.mark.parametrize(("native", "foreign"), [("amd64", "arm64 armhf mips64el"), ("arm64", "armhf mips64el")])
def test_nothing_missing_fetches_and_prints_nothing(tmp_path: Path, native: str, foreign: str) -> None:
    proc, asked = install_system_packages(tmp_path, native=native, foreign=foreign)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    assert asked == []


def test_a_missing_architecture_is_added_and_its_lists_fetched(tmp_path: Path) -> None:
    proc, asked = install_system_packages(tmp_path, foreign="armhf mips64el")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == "adding the Debian architecture arm64 (package lists only)"
    assert asked == ["dpkg --add-architecture arm64", "apt-get update"]


def test_a_missing_package_is_installed(tmp_path: Path) -> None:
    proc, asked = install_system_packages(tmp_path, missing="rt-tests")
    assert proc.returncode == 0, proc.stderr
    assert "installing 1 Debian packages: rt-tests" in proc.stdout.splitlines()
    assert asked == ["apt-get update", "apt-get install -y --no-install-recommends rt-tests"]


# ---------------------------------------------------------------- the demo's board and the README


def test_the_demo_board_starts_in_the_clone(tmp_path: Path, host_agent: Path) -> None:
    """throwaway-sshd DIR HOME: the board's commands start in HOME (the demo passes the
    clone), so the agent's path on the board is the relative one the demo shows, resolved
    there and not in the directory portkit runs in."""
    clone = tmp_path / "clone"
    (clone / "build" / "demo" / "board").mkdir(parents=True)
    shutil.copy2(host_agent, clone / "build" / "demo" / "board" / "portkit-target")
    ssh_dir = tmp_path / "ssh"
    started = subprocess.run(
        [SCRIPTS / "throwaway-sshd", ssh_dir, clone], capture_output=True, text=True, timeout=60, check=False
    )
    if started.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail(f"no sshd for the tests: {started.stderr.strip()}")
        pytest.skip(f"no sshd for the tests: {started.stderr.strip()}")
    try:
        config = started.stdout.strip()
        pwd = subprocess.run(["ssh", "-F", config, "portkit-board", "pwd"], capture_output=True, text=True, timeout=60)
        assert pwd.stdout == f"{clone}\n", pwd.stderr
        agent = "build/demo/board/portkit-target"
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "portkit",
                "cpu",
                "--target",
                "ssh:portkit-board",
                "--agent",
                agent,
                "--format",
                "json",
            ],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path,
            env={**os.environ, "PORTKIT_SSH": f"ssh -F {config}"},
        )
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["target"] == "ssh:portkit-board"
    finally:
        os.kill(int((ssh_dir / "sshd.pid").read_text()), signal.SIGTERM)


def test_the_readme_commands_name_no_path_of_one_machine() -> None:
    """The README's example commands work in any clone: no absolute path in them but the
    system's own (a checkout's path, written where the example was made, works nowhere else)."""
    system = ("/proc/", "/sys/", "/dev/", "/etc/", "/usr/", "/lib/", "/boot/")
    commands = [line for line in (ROOT / "README.md").read_text().splitlines() if line.startswith("$ ")]
    assert commands
    absolute = [
        (path, line)
        for line in commands
        for path in re.findall(r"(?:^|[\s='\"])(/[^\s'\"]*)", line[2:])
        if path != "/" and not path.startswith(system)  # "/" is this system's root, in any clone
    ]
    assert absolute == []
