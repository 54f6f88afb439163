"""`--target vm:`: Debian's own kernels booted under qemu-system (TCG here),
each command one boot. Few boots, as each takes 5-30 s under TCG; the
kernels are fetched once into build/cache/portkit (XDG_CACHE_HOME), never
outside the clone. Ground truth: Debian's own kernel configs (the package
linux-config-6.1, fetched separately), readelf on the vDSO the VM sent back,
google-crc32c on the files it read, and the kernels' own uname."""

from __future__ import annotations

import json
import lzma
import os
import shutil
import subprocess
from pathlib import Path

import google_crc32c
import pytest

from conftest import BUILD, ROOT, run_portkit
from debian_kconfigs import debian_configs

CACHE = BUILD / "cache"  # portkit's cache is then build/cache/portkit
ENV = {"XDG_CACHE_HOME": str(CACHE)}


def _needs(*programs: str) -> None:
    for program in programs:
        if shutil.which(program) is None:
            if os.environ.get("CI"):
                pytest.fail(f"{program} is missing (scripts/install-system-packages installs it)")
            pytest.skip(f"{program} is missing")


def _debian_has(arch: str) -> None:
    arches = subprocess.run(["dpkg", "--print-foreign-architectures"], capture_output=True, text=True).stdout.split()
    if arch not in arches and not os.environ.get("CI"):
        pytest.skip(f"apt has no {arch} packages here (scripts/install-system-packages adds them)")


def _config(arch: str, flavour: str) -> dict[str, str]:
    """Debian's own config of a flavour (linux-config-6.1), as NAME -> value."""
    text = lzma.decompress((debian_configs(arch) / f"config.{flavour}.xz").read_bytes()).decode()
    return dict(line.split("=", 1) for line in text.splitlines() if line.startswith("CONFIG_"))


def vm(*args: str | Path, cwd: Path | None = None) -> dict:
    proc = run_portkit(*args, "--format", "json", env=ENV, cwd=cwd, timeout=900)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_a_32_bit_agent_on_debians_arm64_kernel_meets_the_compat_vdso(tmp_path: Path) -> None:
    """The compat-vDSO field report on a real kernel: Debian's arm64 kernel
    is built with CROSS_COMPILE_COMPAT (CONFIG_COMPAT_VDSO=y), so an armhf
    program sees an ELF32 ARM vDSO, which the VM sends back with --dump."""
    _needs("qemu-system-aarch64")
    assert _config("arm64", "arm64_none_arm64")["CONFIG_COMPAT_VDSO"] == "y"
    dump = tmp_path / "vdso32.so"
    document = vm("vdso", "--target", "vm:linux-image-arm64", "--agent-arch", "armhf", "--dump", dump)
    process = document["process"]
    assert (process["arch"], process["kernel_machine"], document["compat"]) == ("arm", "aarch64", True)
    assert document["emulated"] is True and document["vm"]["accelerator"] in ("tcg", "kvm")
    release = document["vm"]["kernel"].split()[0].removeprefix("linux-image-")
    assert process["kernel_release"] == release == document["vm"]["release"]
    exported = {s["name"] for s in document["symbols"] if s["type"] == "FUNC"}
    readelf = subprocess.run(["readelf", "-hW", "--dyn-syms", str(dump)], capture_output=True, text=True).stdout
    assert "ELF32" in readelf and "Machine:                           ARM" in readelf
    assert exported == {line.split()[-1].split("@")[0] for line in readelf.splitlines() if " FUNC " in line}
    assert {"__vdso_gettimeofday", "__vdso_clock_gettime64"} <= exported


def test_rt_sysinfo_of_debians_preempt_rt_kernel() -> None:
    """The rt flavour says PREEMPT_RT in its own uname and /sys/kernel/realtime,
    has the timerlat tracer, and was booted through the PVH entry of its vmlinux."""
    _needs("qemu-system-x86_64")
    assert _config("amd64", "amd64_rt_amd64")["CONFIG_PREEMPT_RT"] == "y"
    document = vm("rt", "sysinfo", "--target", "vm:linux-image-rt-amd64")
    assert document["preemption"]["model"] == "rt" and "PREEMPT_RT" in document["kernel"]["version"]
    assert document["kernel"]["release"].endswith("-rt-amd64")
    assert document["tracefs"]["timerlat"] is True
    assert document["vm"]["kernel"].startswith("linux-image-") and document["emulated"] is True
    derived = list((CACHE / "portkit" / "vm" / "derived").glob("*/vmlinux"))
    notes = [subprocess.run(["readelf", "-n", str(p)], capture_output=True, text=True).stdout for p in derived]
    assert any("Xen" in n and "0x00000012" in n for n in notes), "no vmlinux with a PVH entry was taken out"
    text = run_portkit("rt", "sysinfo", "--target", "vm:linux-image-rt-amd64", env=ENV, timeout=900).stdout
    assert text.startswith("EMULATED by qemu-system (TCG): the kernel, its configuration and versions are real")


def test_audit_kconfig_reads_the_booted_kernels_own_config() -> None:
    """The agent in the VM reads /boot/config-$(uname -r); every rule comes
    out as it does for Debian's own copy of that config."""
    _needs("qemu-system-aarch64")
    debian = debian_configs("arm64") / "config.arm64_none_arm64.xz"
    booted = run_portkit("audit", "kconfig", "--target", "vm:linux-image-arm64", "--format", "json", env=ENV)
    assert booted.returncode == 1, booted.stderr  # PKK101: not PREEMPT_RT
    own = run_portkit("audit", "kconfig", debian, "--format", "json")
    there, here = json.loads(booted.stdout), json.loads(own.stdout)
    assert there["config"]["path"].endswith(f"/boot/config-{there['config']['release']}")

    def results(doc: dict) -> dict:
        return {row["rule"]: (row["status"], row["actual"]) for row in doc["checks"]}

    assert results(there) == results(here)


def test_a_latency_study_with_its_load_in_one_vm(tmp_path: Path) -> None:
    """rt run's load runs beside the measurement in the same booted kernel;
    the table says the timings are the emulator's."""
    _needs("qemu-system-aarch64")
    out = tmp_path / "study"
    args = ("rt", "run", "--target", "vm:linux-image-arm64", "--loads", "idle,cpu", "--intervals", "1000")
    proc = run_portkit(*args, "--duration", "2", "-o", out, env=ENV, timeout=900)
    assert proc.returncode == 0, proc.stderr
    assert "EMULATED by qemu-system (TCG)" in proc.stdout
    cpu = json.loads((out / "cells" / "cpu-1000us.json").read_text())
    assert cpu["rt"]["threads"][0]["samples"] > 100
    assert cpu["loads"][0]["kind"] == "cpu" and cpu["loads"][0]["agent"]["arch"] == "aarch64"
    study = json.loads((out / "study.json").read_text())
    assert study["sysinfo"]["kernel"]["release"].endswith("-arm64")


def test_files_reach_the_loongson_kernels_agent(tmp_path: Path) -> None:
    """The PREEMPT_RT-on-Loongson field report's CPU family: Debian's
    loongson-3 kernel on qemu's loongson3-virt, its mips64el agent reading
    files given on the command line (copied into the VM at their paths)."""
    _needs("qemu-system-mips64el")
    _debian_has("mips64el")
    files = [ROOT / "examples" / "legacy32" / "include" / name for name in ("wire.h", "ipc.h")]
    relative = [f.relative_to(ROOT) for f in files]
    # and one under /tmp, where a CI workspace often is: the VM's /tmp must not hide it
    in_tmp = tmp_path / "wire copy.h"
    in_tmp.write_bytes(files[0].read_bytes() + b"/* copy */\n")
    document = vm("crc32c", "--target", "vm:linux-image-loongson-3", *relative, in_tmp, cwd=ROOT)
    assert document["agent"]["arch"] == "mips64el"
    assert "loongson-3" in document["vm"]["kernel"]
    sums = {entry["path"]: entry["crc32c"] for entry in document["files"]}
    named = [*zip(map(str, relative), files, strict=True), (str(in_tmp), in_tmp)]
    assert sums == {name: f"0x{google_crc32c.value(f.read_bytes()):08x}" for name, f in named}
