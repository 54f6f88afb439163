"""Real Debian packages for the tests: downloaded with `apt-get download`
into build/cache/debs (kept between runs, never committed) and unpacked with
`dpkg-deb -x`, as a cross build's root filesystem is assembled. The foreign
architectures (arm64, armhf) are added by scripts/install-system-packages.

Outside CI a machine without apt, network or the foreign architectures
skips these tests; in CI (CI=true) that fails them."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "build" / "cache" / "debs"


def _unavailable(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"Debian packages unavailable: {why}")
    pytest.skip(f"Debian packages unavailable: {why}")


def cached(spec: str) -> Path | None:
    """The cached .deb of `name:arch`, if any (apt names it name_version_arch.deb)."""
    name, _, arch = spec.partition(":")
    found = sorted(CACHE.glob(f"{name}_*_{arch}.deb"))
    return found[-1] if found else None


def download(specs: list[str]) -> list[Path]:
    """The .deb of each `name:arch`, downloaded once."""
    if shutil.which("apt-get") is None or shutil.which("dpkg-deb") is None:
        _unavailable("apt-get or dpkg-deb is not installed")
    CACHE.mkdir(parents=True, exist_ok=True)
    missing = [s for s in specs if cached(s) is None]
    if missing:
        proc = subprocess.run(
            ["apt-get", "download", *missing], cwd=CACHE, capture_output=True, text=True, timeout=600, check=False
        )
        if proc.returncode != 0:
            _unavailable(f"apt-get download {' '.join(missing)}: {proc.stderr.strip()[-300:]}")
    debs = []
    for spec in specs:
        deb = cached(spec)
        if deb is None:
            _unavailable(f"{spec} was not downloaded")
        debs.append(deb)
    return debs


def unpack(specs: list[str], into: Path) -> Path:
    """The packages unpacked into one directory, as dpkg would lay them out (no scripts run)."""
    into.mkdir(parents=True, exist_ok=True)
    for deb in download(specs):
        subprocess.run(["dpkg-deb", "-x", str(deb), str(into)], check=True, timeout=300)
    return into
