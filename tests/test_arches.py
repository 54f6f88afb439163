"""The one table of architectures against the tools that name them: Debian's
dpkg-architecture (the Debian name, the multiarch tuple and the GNU triple),
the qemu-user programs installed, this machine's uname -m; and every list of
architectures elsewhere in the tree is the table's."""

from __future__ import annotations

import platform
import re
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT
from portkit.commands.audit.rootfs.abi import ABIS as ROOTFS_ABIS
from portkit.core.abis import ABIS
from portkit.core.agents import host_arch
from portkit.core.arches import ARCHES, ARCHITECTURES, arch_of_uname, cross_triples

DEBIAN = [arch for arch in ARCHITECTURES if arch.debian != "arm64be"]  # the one Debian does not have


def dpkg_architecture(debian: str, variable: str) -> str:
    proc = subprocess.run(["dpkg-architecture", "-a", debian, f"-q{variable}"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


@pytest.mark.parametrize("arch", DEBIAN, ids=lambda a: a.debian)
def test_the_debian_columns_are_dpkgs(arch) -> None:
    if shutil.which("dpkg-architecture") is None:
        pytest.skip("dpkg-architecture is missing (dpkg-dev)")
    assert dpkg_architecture(arch.debian, "DEB_HOST_MULTIARCH") == arch.multiarch
    assert dpkg_architecture(arch.debian, "DEB_HOST_GNU_TYPE") == arch.triple


def test_the_qemu_column_names_installed_emulators() -> None:
    if shutil.which("qemu-aarch64") is None:
        pytest.skip("qemu-user is missing")
    for arch in ARCHITECTURES:
        assert arch.qemu == "" or shutil.which(arch.qemu), arch.qemu


def test_this_machines_uname_finds_its_agent() -> None:
    assert host_arch() == arch_of_uname(platform.machine())
    if platform.machine() in ("x86_64", "aarch64"):
        assert host_arch() is not None and host_arch().name == platform.machine()
    assert arch_of_uname("mips64", "little").name == "mips64el" and arch_of_uname("mips64", "big") is None
    assert arch_of_uname("armv7l").name == "arm" and arch_of_uname("sparc64") is None


def test_every_list_of_architectures_is_the_tables() -> None:
    names = {arch.debian for arch in ARCHITECTURES}
    assert {abi.name for abi in ROOTFS_ABIS} == names
    assert {abi.name for abi in ABIS if "linux" in abi.triple} <= {arch.name for arch in ARCHITECTURES}
    # the Makefile's cross agents, and those pip install builds (cmake/agents.cmake)
    made = subprocess.run([sys.executable, ROOT / "src/portkit/core/arches.py"], capture_output=True, text=True)
    assert made.stdout.split() == cross_triples()
    cmake = re.search(r"set\(PK_AGENT_TRIPLES\s+([^)]*)\)", (ROOT / "cmake/agents.cmake").read_text())
    assert cmake is not None and sorted(cmake.group(1).split()) == sorted(cross_triples())
    assert {arch.name for arch in ARCHES} == {"x86_64", "i686", "aarch64", "arm", "mips64el", "mips"}
