"""The parts of `--target vm:` that need no VM: the initramfs (read back by
GNU cpio), the console protocol (against real gzip and base64 output), the
choice of accelerator, the architecture of real ELF files (against readelf)
and the ssh address forms. The boots are in test_target_vm.py."""

from __future__ import annotations

import base64
import gzip
import os
import shutil
import stat
import subprocess
from pathlib import Path, PurePosixPath

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import BUILD
from portkit.core.arches import ARCHES, arch_of_elf, describe_elf, find_arch
from portkit.core.errors import BadInput
from portkit.core.ssh import split_address
from portkit.core.vm import console, machine
from portkit.core.vm.initramfs import Entry, init_script, newc

NAMES = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="/\0"), min_size=1)
NAMES = NAMES.filter(lambda n: n not in (".", "..") and len(n.encode()) < 60)


def _cpio() -> str:
    found = shutil.which("cpio")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("GNU cpio is missing (scripts/install-system-packages installs it)")
        pytest.skip("GNU cpio is missing")
    return found


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    files=st.dictionaries(
        st.lists(NAMES, min_size=1, max_size=3).map(lambda parts: PurePosixPath("/", *parts)),
        st.tuples(st.binary(max_size=300), st.booleans()),
        min_size=1,
        max_size=6,
    )
)
def test_the_initramfs_is_what_gnu_cpio_reads(tmp_path_factory: pytest.TempPathFactory, files: dict) -> None:
    """Each file comes out of GNU cpio with its bytes and mode, its
    directories made, whatever its name (spaces, UTF-8)."""
    # a path that is also another's directory cannot be a file as well
    paths = {p for p in files if not any(p in other.parents for other in files)}
    entries = [Entry.program(p, files[p][0]) if files[p][1] else Entry(p, files[p][0]) for p in sorted(paths)]
    out = tmp_path_factory.mktemp("cpio")
    proc = subprocess.run(
        [_cpio(), "-idm", "--quiet", "--no-absolute-filenames"], input=newc(entries), cwd=out, capture_output=True
    )
    assert proc.returncode == 0, proc.stderr
    for entry in entries:
        extracted = out / str(entry.path.relative_to("/"))
        assert extracted.read_bytes() == entry.data
        assert stat.S_IMODE(extracted.stat().st_mode) == stat.S_IMODE(entry.mode)


def test_the_init_is_a_busybox_script_with_the_marker() -> None:
    script = init_script("@pk-0123456789ab", {"aarch64": "/portkit/agents/aarch64/portkit-target"}).decode()
    assert script.startswith("#!/bin/busybox sh\n")
    assert "T=@pk-0123456789ab" in script and 'echo "$T 0 ready $(uname -r) aarch64"' in script
    # sh -n: the shell reads it without a syntax error
    proc = subprocess.run(["sh", "-n"], input=script, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@settings(max_examples=200, deadline=None)
@given(
    before=st.text(alphabet=st.characters(blacklist_characters="@\r\n"), max_size=40),
    run=st.integers(0, 10**6),
    kind=st.sampled_from(["p", "e", "F", "f", "M", "o", "x", "ready"]),
    text=st.text(alphabet=st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",)), max_size=80),
)
def test_a_reply_is_found_after_firmware_output_on_its_line(before: str, run: int, kind: str, text: str) -> None:
    marker = console.new_marker()
    line = f"{before}{marker} {run} {kind} {text}\r\n"
    reply = console.parse(line, marker)
    assert reply == console.Reply(run, kind, text)
    assert console.parse(before + "\n", marker) is None  # the same line without a marker is the kernel's


@settings(max_examples=100, deadline=None)
@given(line=st.text(max_size=200))
def test_no_line_without_this_boots_marker_is_a_reply(line: str) -> None:
    assert console.parse(line.replace("@pk-", "@pk_"), console.new_marker()) is None


@settings(max_examples=30, deadline=None)
@given(data=st.binary(max_size=5000))
def test_stdout_arrives_as_real_gzip_and_base64_made_it(data: bytes) -> None:
    """The init sends `gzip -c | base64` (76-character lines); the host gets the bytes back."""
    packed = subprocess.run("gzip -c | base64", shell=True, input=data, capture_output=True, check=True).stdout
    lines = packed.decode().splitlines()
    assert all(len(line) <= 76 for line in lines)
    assert console.decode_gzip(lines) == data


def test_damaged_output_is_told_apart() -> None:
    lines = base64.b64encode(gzip.compress(b'{"schema": "portkit.cpu/1"}' * 20)).decode()
    damaged = [lines[: len(lines) // 2]]  # a line lost on the console
    assert console.decode_gzip(damaged) is None
    assert console.decode_gzip(["not base64!"]) is None


@settings(max_examples=100, deadline=None)
@given(
    script=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=3000),
    returns=st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1), max_size=3),
)
def test_a_request_survives_any_argument_in_short_lines(script: str, returns: list[str]) -> None:
    lines = console.run_request(7, script, returns)
    assert all("\n" not in line and len(line) <= console.CHUNK + 20 for line in lines)
    chunks = [line.split(" ", 2)[2] for line in lines if line.startswith("a 7 ")]
    assert base64.b64decode("".join(chunks)).decode() == script
    paths = [console.decode_text(line.split(" ", 2)[2]) for line in lines if line.startswith("w 7 ")]
    assert paths == returns and lines[-1] == "r 7"


def test_kvm_only_with_hardware_virtualization_and_a_writable_dev_kvm(tmp_path: Path) -> None:
    x86 = machine.MACHINES["x86_64"]
    vmx, plain, kvm = tmp_path / "vmx", tmp_path / "plain", tmp_path / "kvm"
    vmx.write_text("processor\t: 0\nflags\t\t: fpu vme vmx sse2\n")
    plain.write_text("processor\t: 0\nflags\t\t: fpu vme sse2 hypervisor\n")  # a software kvm (kvm_pvm)
    kvm.write_text("")
    assert machine.accelerator(x86, vmx, kvm, host="x86_64") == "kvm"
    assert machine.accelerator(x86, plain, kvm, host="x86_64") == "tcg"
    assert machine.accelerator(x86, vmx, tmp_path / "no-kvm", host="x86_64") == "tcg"
    assert machine.accelerator(machine.MACHINES["aarch64"], vmx, kvm, host="x86_64") == "tcg"  # another arch
    # this machine: /dev/kvm is kvm_pvm, with no vmx or svm among the flags
    flags = Path("/proc/cpuinfo").read_text()
    if " vmx" not in flags and " svm" not in flags:
        assert machine.accelerator(x86) == "tcg"


@pytest.mark.parametrize("arch", [a for a in ARCHES if a.name != "x86_64"], ids=lambda a: a.name)
def test_an_elf_files_architecture_as_readelf_reads_it(arch) -> None:
    agent = BUILD / arch.triple / "portkit-target"
    if not agent.exists():
        pytest.skip(f"{agent} is missing (make cross)")
    header = agent.read_bytes()[:64]
    readelf = subprocess.run(["readelf", "-h", str(agent)], capture_output=True, text=True, check=True).stdout
    fields = dict(line.strip().split(":", 1) for line in readelf.splitlines() if ":" in line)
    bits = 64 if fields["Class"].strip() == "ELF64" else 32
    order = "little" if "little" in fields["Data"] else "big"
    assert describe_elf(header).startswith(f"ELF{bits} {order}-endian ")
    assert arch_of_elf(header) == arch
    assert find_arch(arch.debian) == arch


def test_what_is_not_elf_has_no_architecture() -> None:
    assert arch_of_elf(b"#!/bin/sh\n") is None and describe_elf(b"") == "not an ELF file"
    riscv = b"\x7fELF\x02\x01\x01" + bytes(11) + (243).to_bytes(2, "little") + bytes(44)
    assert arch_of_elf(riscv) is None and describe_elf(riscv) == "ELF64 little-endian RISC-V"


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("ssh:board", ("board", "")),
        ("ssh:root@board:2222", ("root@board", "2222")),
        ("ssh:[::1]:2222", ("::1", "2222")),
        ("ssh:[::1]", ("::1", "")),
        ("ssh:::1", ("::1", "")),
        ("ssh:pi@[fe80::1%eth0]:22", ("pi@fe80::1%eth0", "22")),
        ("ssh:192.168.7.2:22", ("192.168.7.2", "22")),
    ],
)
def test_ssh_addresses_ipv6_literals_among_them(spec: str, expected: tuple[str, str]) -> None:
    assert split_address(spec) == expected


@pytest.mark.parametrize(
    "spec", ["ssh:", "ssh:host:", "ssh:[::1]:", "ssh:[::1]x", "ssh:-oProxyCommand=x", "ssh:@h", "ssh:h:0", "ssh:a b"]
)
def test_malformed_ssh_addresses_are_refused(spec: str) -> None:
    with pytest.raises(BadInput, match=r"ssh:\[USER@\]HOST\[:PORT\]"):
        split_address(spec)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(head=st.binary(max_size=0x600), magic=st.sampled_from([b"", b"ARM\x64", b"HdrS", b"\x7fELF", b"\x1f\x8b"]))
@example(head=b"\x00\x00\x08", magic=b"\x1f\x8b")  # a damaged gzip stream: zlib.error, not OSError
def test_any_file_given_as_a_kernel_is_an_architecture_or_one_refusal(
    tmp_path_factory: pytest.TempPathFactory, head: bytes, magic: bytes
) -> None:
    """Whatever a file holds, vm:PATH names its architecture or refuses it as
    bad input; taking a bzImage's payload out never raises."""
    from portkit.core.vm import kernel as vm_kernel

    data = bytearray(head.ljust(0x600, b"\0"))
    where = {b"ARM\x64": 0x38, b"HdrS": 0x202, b"\x7fELF": 0, b"\x1f\x8b": 0}.get(magic, 0)
    data[where : where + len(magic)] = magic
    path = tmp_path_factory.mktemp("image") / "vmlinuz"
    path.write_bytes(bytes(data))
    try:
        arch = vm_kernel.image_arch(path, "vm:x")
    except BadInput as err:
        assert "is not a kernel image portkit can boot" in str(err)
    else:
        assert arch.name in ("aarch64", "x86_64", "i686", "arm", "mips64el", "mips")
    payload = vm_kernel._bzimage_payload(bytes(data))
    assert payload is None or payload[:4] == b"\x7fELF"
