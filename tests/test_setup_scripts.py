"""The set-up scripts that `make demo` and `make test` share (scripts/), each
run from a copy in a directory of the test's own, laid out as a fresh clone:
nothing a demo or an earlier test left in this clone's build/ is there."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

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
