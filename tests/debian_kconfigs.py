"""Real Debian kernel configs for the tests: `apt-get download
linux-config-6.1:ARCH` for amd64, arm64 and armhf (each package holds the
stock, cloud or lpae and rt flavours as config.ARCH_FEATURESET_FLAVOUR.xz),
fetched once into build/test-cache/ and unpacked with dpkg-deb. Nothing of
them is committed. Without apt the tests that need them are skipped, with
the reason; a download that fails is a failure (in CI the foreign
architectures come from scripts/install-system-packages)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import BUILD

PACKAGE = "linux-config-6.1"  # Debian 12's kernel; the configs inside are named by arch and flavour
ARCHES = ("amd64", "arm64", "armhf")
CACHE = BUILD / "test-cache" / "linux-config"


def debian_configs(arch: str) -> Path:
    """The directory holding config.<arch>_*.xz, downloading the package on first use."""
    for tool in ("apt-get", "dpkg-deb"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed: the real Debian kernel configs cannot be fetched")
    unpacked = CACHE / arch
    if not list(unpacked.glob(f"usr/src/{PACKAGE}/config.*.xz")):
        _fetch(arch, unpacked)
    return unpacked / "usr" / "src" / PACKAGE


def _fetch(arch: str, unpacked: Path) -> None:
    downloads = CACHE / "debs"
    downloads.mkdir(parents=True, exist_ok=True)
    debs = list(downloads.glob(f"{PACKAGE}_*_{arch}.deb"))
    if not debs:
        proc = subprocess.run(
            ["apt-get", "download", f"{PACKAGE}:{arch}"], cwd=downloads, capture_output=True, text=True, timeout=600
        )
        debs = list(downloads.glob(f"{PACKAGE}_*_{arch}.deb"))
        if proc.returncode != 0 or not debs:
            pytest.fail(
                f"apt-get download {PACKAGE}:{arch} failed (exit {proc.returncode}): {proc.stderr.strip()[-300:]} "
                f"-- scripts/install-system-packages adds the {arch} architecture"
            )
    subprocess.run(["dpkg-deb", "-x", str(debs[0]), str(unpacked)], check=True, timeout=300)
