"""Real Debian kernel configs for the tests: the package linux-config-6.1 of
amd64, arm64 and armhf (each holds the stock, cloud or lpae and rt flavours
as config.ARCH_FEATURESET_FLAVOUR.xz), fetched and unpacked once by
debian_packages (build/cache/debs). Nothing of them is committed."""

from __future__ import annotations

from pathlib import Path

from conftest import BUILD
from debian_packages import unpack

PACKAGE = "linux-config-6.1"  # Debian 12's kernel; the configs inside are named by arch and flavour
ARCHES = ("amd64", "arm64", "armhf")
UNPACKED = BUILD / "test-cache" / "linux-config"


def debian_configs(arch: str) -> Path:
    """The directory holding config.<arch>_*.xz, downloading the package on first use."""
    folder = UNPACKED / arch / "usr" / "src" / PACKAGE
    if not list(folder.glob("config.*.xz")):
        unpack([f"{PACKAGE}:{arch}"], UNPACKED / arch)
    return folder
