"""`portkit cpu` and `portkit vdso` end to end: the host drives the real
agents (native, the i686 build natively, the cross builds under qemu-user) and
its text and JSON say what the agent measured."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import BUILD


def portkit(*args: str, expect: int = 0) -> str:
    proc = subprocess.run([sys.executable, "-m", "portkit", *args], capture_output=True, text=True, timeout=600)
    assert proc.returncode == expect, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    assert "Traceback" not in proc.stderr
    return proc.stdout


def agent(triple: str) -> str:
    return str(BUILD / triple / "portkit-target")


def test_cpu_text_names_the_cpu_and_its_features(host_agent: Path) -> None:
    out = portkit("cpu", "--agent", str(host_agent))
    cpuinfo = Path("/proc/cpuinfo").read_text()
    assert "x86_64 (LP64)" in out.splitlines()[0]
    for flag in ("sse4_2", "pclmulqdq"):
        assert (f" {flag} " in cpuinfo) == (f" {flag} " in out.split("\nabsent (")[0])
    assert all(not line.endswith(" ") for line in out.splitlines())


def test_cpu_json_is_the_agents_document_plus_the_target(host_agent: Path) -> None:
    document = json.loads(portkit("cpu", "--agent", str(host_agent), "--format", "json"))
    assert document["schema"] == "portkit.cpu/1"
    assert document["target"] == "local"
    assert "sse2" in document["features"]


def test_cpu_has_under_qemu_tells_the_cpus_apart(cross_agent) -> None:
    cross_agent("aarch64-linux-gnu")  # fails or skips when the agent is missing
    a53 = ["cpu", "--agent", agent("aarch64-linux-gnu"), "--has", "crc32,pmull,sha3"]
    out = portkit(*a53, "--target", "qemu-aarch64:cortex-a53", expect=1)
    assert "missing: sha3" in out
    out = portkit(*a53, "--target", "qemu-aarch64:max")
    assert "all present" in out


def test_vdso_list_shows_the_vdso_and_its_versions(host_agent: Path) -> None:
    out = portkit("vdso", "--agent", str(host_agent))
    assert "linux-vdso.so.1" in out
    assert any(line.split()[:2] == ["__vdso_clock_gettime", "LINUX_2.6"] for line in out.splitlines())


def test_vdso_of_a_32_bit_process_is_the_compat_one(cross_agent) -> None:
    cross_agent("i686-linux-gnu")
    out = portkit("vdso", "--agent", agent("i686-linux-gnu"))
    assert "a 32-bit process on a 64-bit kernel" in out
    assert "__kernel_vsyscall" in out
    assert "__vdso_clock_gettime64" in out


def test_vdso_verify_passes_here(host_agent: Path) -> None:
    out = portkit("vdso", "verify", "--agent", str(host_agent), "--iterations", "2000")
    assert "vDSO agrees with the kernel" in out
    assert " fail " not in out


def test_no_vdso_under_qemu_is_said_plainly(cross_agent) -> None:
    cross_agent("aarch64-linux-gnu")
    out = portkit("vdso", "--target", "qemu-aarch64", "--agent", agent("aarch64-linux-gnu"))
    assert "No vDSO: every gettimeofday is a system call" in out
    assert "ns per gettimeofday system call" in out
    portkit("vdso", "--require", "--target", "qemu-aarch64", "--agent", agent("aarch64-linux-gnu"), expect=1)
    out = portkit("vdso", "verify", "--target", "qemu-arm", "--agent", agent("arm-linux-gnueabihf"), expect=3)
    assert "no vDSO, so nothing was verified" in out
    assert "CROSS_COMPILE_COMPAT" in out or "qemu-user" in out


def test_vdso_image_of_garbage_is_one_line_exit_2(host_agent: Path, tmp_path: Path) -> None:
    junk = tmp_path / "vdso.so"
    junk.write_bytes(b"\x7fELF" + b"\x00" * 20)
    proc = subprocess.run(
        [sys.executable, "-m", "portkit", "vdso", "--agent", str(host_agent), "--image", str(junk)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert str(junk) in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_names_that_look_like_markup_are_printed_as_they_are(host_agent: Path, tmp_path: Path) -> None:
    image = tmp_path / "[bold]vdso.so"
    image.write_bytes((Path(__file__).parent / "data" / "vdso" / "x86_64.so").read_bytes())
    out = " ".join(portkit("vdso", "--agent", str(host_agent), "--image", str(image)).split())  # unwrap
    assert f"file {image}" in out
    header = tmp_path / "[abi].h"
    header.write_text("struct bar { int i; long j; };\n")
    out = " ".join(portkit("layout", str(header)).split())
    assert f"({header}:1)" in out
