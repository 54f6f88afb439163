"""`portkit-target cpu` against ground truth from real tools, never from our own tables:

- this machine: the kernel's /proc/cpuinfo ("flags", "vendor_id", "model name") and
  the auxiliary vector as glibc's loader prints it (LD_SHOW_AUXV=1);
- aarch64, armhf, mips64el under qemu-user: LD_SHOW_AUXV=1 from that target's own
  dynamic loader, decoded with the bit layout of the installed kernel headers
  (/usr/<triple>/include/asm/hwcap.h);
- i686, natively: /proc/cpuinfo again, from a 32-bit process.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EMULATORS, run, run_json

SCHEMA = "portkit.cpu/1"
WRAP_COLUMN = 78

# triple -> (sysroot, its dynamic loader relative to the sysroot)
LOADERS = {
    "aarch64-linux-gnu": ("/usr/aarch64-linux-gnu", "lib/ld-linux-aarch64.so.1"),
    "arm-linux-gnueabihf": ("/usr/arm-linux-gnueabihf", "lib/ld-linux-armhf.so.3"),
    "mips64el-linux-gnuabi64": ("/usr/mips64el-linux-gnuabi64", "lib64/ld.so.1"),
}


def _require(path: Path | str | None, what: str) -> None:
    if path and Path(path).exists():
        return
    if os.environ.get("CI"):
        pytest.fail(f"{what} is missing")
    pytest.skip(f"{what} is missing")


# ---------------------------------------------------------------- ground truth


def cpuinfo_field(key: str) -> str | None:
    """The first `key : value` of /proc/cpuinfo, as the kernel prints it."""
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        name, sep, value = line.partition(":")
        if sep and name.strip() == key:
            return value.strip()
    return None


def kernel_flags() -> set[str]:
    flags = cpuinfo_field("flags")
    if flags is None:
        pytest.skip("no x86 'flags' line in /proc/cpuinfo")
    return set(flags.split())


def glibc_auxv(triple: str | None, cpu: str | None = None) -> dict[str, str]:
    """AT_* -> value text as glibc's dynamic loader prints it with LD_SHOW_AUXV=1.

    For a cross triple, that triple's own loader runs under qemu-user (-E sets the
    variable for the guest only); for None, a dynamically linked program of this host.
    """
    if triple is None:
        command = [shutil.which("true") or "/bin/true"]
        env = {**os.environ, "LD_SHOW_AUXV": "1"}
    else:
        sysroot, loader = LOADERS[triple]
        _require(Path(sysroot) / loader, f"the {triple} dynamic loader")
        emulator = EMULATORS[triple]
        assert emulator is not None
        _require(shutil.which(emulator), emulator)
        cpu_args = ["-cpu", cpu] if cpu else []
        command = [emulator, *cpu_args, "-E", "LD_SHOW_AUXV=1", "-L", sysroot, f"{sysroot}/{loader}", "--version"]
        env = {key: value for key, value in os.environ.items() if key != "LD_SHOW_AUXV"}
    proc = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, check=False)
    auxv: dict[str, str] = {}
    for line in proc.stdout.splitlines():
        match = re.match(r"(AT_[A-Z0-9_]+):\s*(.*)$", line)
        if match:
            auxv.setdefault(match[1], match[2].strip())
    assert "AT_HWCAP" in auxv, f"no AT_HWCAP in LD_SHOW_AUXV output of {command}:\n{proc.stdout}{proc.stderr}"
    return auxv


def header_bits(triple: str) -> dict[tuple[int, int], str]:
    """(word, bit) -> kernel feature name, from the real <asm/hwcap.h> of a triple.

    The kernel's printed names are the macro names lower-cased without underscores
    (HWCAP_FAST_MULT -> fastmult, HWCAP2_SME_I16I64 -> smei16i64); MIPS ASE names
    keep a hyphen (HWCAP_LOONGSON_MMI -> loongson-mmi, HWCAP_MIPS_R6 -> r6).
    """
    text = Path(f"/usr/{triple}/include/asm/hwcap.h").read_text()
    bits: dict[tuple[int, int], str] = {}
    for macro, bit in re.findall(r"#define\s+(HWCAP2?_\w+)\s+\(\s*1U?L?\s*<<\s*(\d+)\s*\)", text):
        word = 2 if macro.startswith("HWCAP2_") else 1
        stem = macro.split("_", 1)[1]
        if triple.startswith("mips"):
            name = stem.lower().removeprefix("mips_").replace("_", "-")
        else:
            name = stem.lower().replace("_", "")
        bits[(word, int(bit))] = name
    assert bits, f"no HWCAP bits parsed from /usr/{triple}/include/asm/hwcap.h"
    return bits


def decode(triple: str, hwcap: int, hwcap2: int) -> set[str]:
    """The names a set of hwcap words means, unnamed bits as hwcap_bitN/hwcap2_bitN."""
    bits = header_bits(triple)
    names = set()
    for word, value in ((1, hwcap), (2, hwcap2)):
        prefix = "hwcap" if word == 1 else "hwcap2"
        for bit in range(64):
            if value >> bit & 1:
                names.add(bits.get((word, bit), f"{prefix}_bit{bit}"))
    return names


def glibc_words(triple: str, auxv: dict[str, str]) -> tuple[int, int]:
    """AT_HWCAP and AT_HWCAP2 as numbers. glibc prints hex for most targets and the
    kernel's names for 32-bit ARM; names are mapped back through the header."""

    def number(key: str, word: int) -> int:
        text = auxv.get(key, "0").strip()
        if re.fullmatch(r"(0x)?[0-9a-fA-F]+", text):
            return int(text, 16)
        by_name = {name: bit for (w, bit), name in header_bits(triple).items() if w == word}
        return sum(1 << by_name[name] for name in text.split())

    return number("AT_HWCAP", 1), number("AT_HWCAP2", 2)


def cpu_doc(command: list[str], *args: str, check_exit: int | None = 0) -> dict:
    return run_json(command, "cpu", *args, check_exit=check_exit)


# ------------------------------------------------------------------ host agent


@pytest.fixture(scope="module")
def host_doc(host_agent: Path) -> dict:
    return cpu_doc([str(host_agent)])


def test_host_json_schema(host_doc: dict) -> None:
    assert host_doc["schema"] == SCHEMA
    assert host_doc["agent"]["arch"] == host_doc["arch"] == os.uname().machine
    assert host_doc["agent"]["data_model"] == "LP64"
    assert host_doc["source"] == "cpuid"
    for key in ("platform", "vendor", "model"):
        assert host_doc[key] is None or isinstance(host_doc[key], str)
    for key in ("hwcap", "hwcap2"):
        assert re.fullmatch(r"0x[0-9a-f]+", host_doc[key])
    features, absent = host_doc["features"], host_doc["absent"]
    assert all(isinstance(name, str) and name for name in features + absent)
    assert len(set(features)) == len(features) and len(set(absent)) == len(absent)
    assert not set(features) & set(absent)


def test_host_features_equal_kernel_flags(host_doc: dict) -> None:
    flags = kernel_flags()
    known = set(host_doc["features"]) | set(host_doc["absent"])
    assert set(host_doc["features"]) == known & flags
    assert not set(host_doc["absent"]) & flags
    # The names the CRC32C dispatcher asks for are all in the table.
    assert {"sse4_2", "pclmulqdq", "avx2", "avx512f", "avx512vl", "vpclmulqdq"} <= known


def test_host_identity_equals_kernel(host_doc: dict) -> None:
    assert host_doc["vendor"] == cpuinfo_field("vendor_id")
    assert host_doc["model"] == cpuinfo_field("model name")


def test_host_raw_auxv_equals_glibc(host_doc: dict) -> None:
    auxv = glibc_auxv(None)
    assert int(host_doc["hwcap"], 16) == int(auxv["AT_HWCAP"], 16)
    assert int(host_doc["hwcap2"], 16) == int(auxv.get("AT_HWCAP2", "0"), 16)
    assert host_doc["platform"] == auxv.get("AT_PLATFORM")


def test_host_text_output(host_agent: Path, host_doc: dict) -> None:
    text = run([host_agent], "cpu").stdout
    lines = text.splitlines()
    assert lines[0].startswith(f"cpu: {host_doc['arch']} (LP64) ")
    assert host_doc["model"] in lines[0] and f"({host_doc['vendor']})" in lines[0]
    assert all(len(line) <= WRAP_COLUMN for line in lines), "lines wrap at 78 columns"
    sections = {line.split(":")[0]: i for i, line in enumerate(lines) if not line.startswith(" ")}
    assert list(sections)[:3] == ["cpu", "source", "features"]
    assert sections["features"] < sections["absent"] < sections["hwcap"]
    listed = " ".join(lines[sections["features"] : sections["absent"]]).removeprefix("features:").split()
    assert listed == host_doc["features"]
    assert f"hwcap: {host_doc['hwcap']}" in text


def test_has_present_exits_0(host_agent: Path) -> None:
    expected = 0 if "sse4_2" in kernel_flags() else 1
    proc = run([host_agent], "cpu", "--has", "sse4_2", check_exit=expected)
    assert "sse4_2" in proc.stdout


def test_has_absent_exits_1_and_names_it(host_agent: Path, host_doc: dict) -> None:
    if not host_doc["absent"]:
        pytest.skip("this CPU has every feature of the table")
    missing = host_doc["absent"][0]
    proc = run([host_agent], "cpu", "--has", f"{host_doc['features'][0]},{missing}", check_exit=1)
    assert re.search(rf"^absent: .*\b{missing}\b", proc.stdout, re.M)


def test_has_in_json_lists_wanted_and_missing(host_agent: Path, host_doc: dict) -> None:
    wanted = [host_doc["features"][0], *host_doc["absent"][:1]]
    doc = cpu_doc([str(host_agent)], "--has", ",".join(wanted), check_exit=1 if host_doc["absent"] else 0)
    assert doc["wanted"] == wanted
    assert doc["missing"] == host_doc["absent"][:1]


@pytest.mark.parametrize("name", ["nonsense", "neon", "crc32", "SSE4_2"])
def test_has_unknown_name_exits_2_naming_it(host_agent: Path, name: str) -> None:
    proc = run([host_agent], "cpu", "--has", f"sse2,{name}", check_exit=2)
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1
    assert f"'{name}'" in proc.stderr


@pytest.mark.parametrize("args", [["--bogus"], ["extra"], ["--has"], ["--has", ","], ["--json=1"], ["-x"]])
def test_bad_usage_is_one_line_and_exit_2(host_agent: Path, args: list[str]) -> None:
    proc = run([host_agent], "cpu", *args, check_exit=2)
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1
    assert proc.stderr.startswith("portkit-target cpu: ")


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--bogus"], "unknown option '--bogus' (try --help)"),
        (["-x"], "unknown option '-x' (try --help)"),
        (["--json", "-jx"], "unknown option '-j' (try --help)"),
        (["--has"], "option '--has' needs a value (try --help)"),
        (["--json=1"], "option '--json' takes no value (try --help)"),
        (["extra"], "unexpected argument 'extra' (try --help)"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else "",
)
def test_bad_usage_wording(host_agent: Path, args: list[str], line: str) -> None:
    proc = run([host_agent], "cpu", *args, check_exit=2)
    assert proc.stderr == f"portkit-target cpu: {line}\n"


# The option errors come from one helper (native/common/pk_options.c): every
# command words them alike, naming the option as it was written.
@pytest.mark.parametrize(
    ("command", "args", "line"),
    [
        (["cpu"], ["--nope"], "unknown option '--nope' (try --help)"),
        (["vdso", "verify"], ["--nope"], "unknown option '--nope' (try --help)"),
        (["crc32c"], ["--nope"], "unknown option '--nope' (try --help)"),
        (["cpu"], ["-q"], "unknown option '-q' (try --help)"),
        (["vdso", "bench"], ["-q"], "unknown option '-q' (try --help)"),
        (["crc32c"], ["-q"], "unknown option '-q' (try --help)"),
        (["cpu"], ["--has"], "option '--has' needs a value (try --help)"),
        (["vdso", "bench"], ["--calls"], "option '--calls' needs a value (try --help)"),
        (["crc32c"], ["--check"], "option '--check' needs a value (try --help)"),
        (["crc32c"], ["-c"], "option '-c' needs a value (try --help)"),
        (["cpu"], ["--json=yes"], "option '--json' takes no value (try --help)"),
        (["vdso"], ["--json=yes"], "option '--json' takes no value (try --help)"),
        (["crc32c"], ["--json=yes", "f"], "option '--json' takes no value (try --help)"),
        (["cpu"], ["extra"], "unexpected argument 'extra' (try --help)"),
        (["vdso", "list"], ["extra"], "unexpected argument 'extra' (try --help)"),
        (["crc32c"], ["--bench", "extra"], "unexpected argument 'extra' (try --help)"),
        (["crc32c"], ["--check", "list", "extra"], "unexpected argument 'extra' (try --help)"),
        (["vdso", "bench"], ["--repeat", "0"], "--repeat '0': expected a whole number from 1 to 1000"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else "",
)
def test_every_command_words_usage_errors_alike(
    host_agent: Path, command: list[str], args: list[str], line: str
) -> None:
    proc = run([host_agent], *command, *args, check_exit=2)
    assert proc.stdout == ""
    assert proc.stderr == f"portkit-target {command[0]}: {line}\n"


def test_help_shows_an_example(host_agent: Path) -> None:
    proc = run([host_agent], "cpu", "--help")
    assert "example: portkit-target cpu" in proc.stdout


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=st.lists(st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E)), max_size=4))
def test_has_never_crashes(host_agent: Path, names: list[str]) -> None:
    proc = run([host_agent], "cpu", "--has", ",".join(names), check_exit=None)
    assert proc.returncode in (0, 1, 2), proc.stderr
    if proc.returncode == 2:
        assert len(proc.stderr.strip().splitlines()) == 1


# ------------------------------------------------------ cross agents, qemu-user


def check_against_glibc(triple: str, doc: dict, auxv: dict[str, str]) -> None:
    """Raw words, decoded names and absent names all agree with glibc + the header."""
    hwcap, hwcap2 = glibc_words(triple, auxv)
    assert doc["source"] == "hwcap"
    assert (int(doc["hwcap"], 16), int(doc["hwcap2"], 16)) == (hwcap, hwcap2)
    assert set(doc["features"]) == decode(triple, hwcap, hwcap2)
    assert set(doc["absent"]) == set(header_bits(triple).values()) - set(doc["features"])
    assert doc["platform"] == auxv.get("AT_PLATFORM")


@pytest.fixture(scope="module")
def aarch64_docs(cross_agent) -> dict[str, dict]:
    return {cpu: cpu_doc(cross_agent("aarch64-linux-gnu", cpu)) for cpu in ("max", "cortex-a53")}


@pytest.mark.parametrize("cpu", ["max", "cortex-a53"])
def test_aarch64_equals_glibc(aarch64_docs: dict[str, dict], cpu: str) -> None:
    doc = aarch64_docs[cpu]
    assert doc["arch"] == "aarch64" and doc["agent"]["data_model"] == "LP64"
    check_against_glibc("aarch64-linux-gnu", doc, glibc_auxv("aarch64-linux-gnu", cpu))


def test_aarch64_cpus_differ_exactly_by_their_hwcap_bits(aarch64_docs: dict[str, dict]) -> None:
    big, small = aarch64_docs["max"], aarch64_docs["cortex-a53"]
    words = {cpu: (int(doc["hwcap"], 16), int(doc["hwcap2"], 16)) for cpu, doc in aarch64_docs.items()}
    (big1, big2), (small1, small2) = words["max"], words["cortex-a53"]
    gained = decode("aarch64-linux-gnu", big1 & ~small1, big2 & ~small2)
    lost = decode("aarch64-linux-gnu", small1 & ~big1, small2 & ~big2)
    assert gained and set(big["features"]) - set(small["features"]) == gained
    assert set(small["features"]) - set(big["features"]) == lost
    # The FreeBSD ARMv8 CRC32C review's question, answered: a Cortex-A53 (Raspberry Pi 3) has CRC32.
    assert {"crc32", "pmull", "aes"} <= set(small["features"])
    assert {"atomics", "sha3", "sve"} <= set(small["absent"]) & set(big["features"])


def test_aarch64_model_comes_from_midr(aarch64_docs: dict[str, dict]) -> None:
    # qemu-user shows the host's /proc/cpuinfo; the MIDR_EL1 read names the core.
    assert aarch64_docs["cortex-a53"]["vendor"] == "ARM"
    assert aarch64_docs["cortex-a53"]["model"].startswith("Cortex-A53 ")
    assert "EPYC" not in str(aarch64_docs["max"]["model"]) and "Intel" not in str(aarch64_docs["max"]["model"])


@pytest.mark.parametrize(("cpu", "has", "exit_code"), [("cortex-a53", "crc32,pmull", 0), ("cortex-a53", "sve", 1)])
def test_aarch64_has(cross_agent, cpu: str, has: str, exit_code: int) -> None:
    run(cross_agent("aarch64-linux-gnu", cpu), "cpu", "--has", has, check_exit=exit_code)


@pytest.mark.parametrize("cpu", ["max", "cortex-a7", "cortex-a9"])
def test_armhf_equals_glibc(cross_agent, cpu: str) -> None:
    triple = "arm-linux-gnueabihf"
    doc = cpu_doc(cross_agent(triple, cpu))
    auxv = glibc_auxv(triple, cpu)
    assert doc["arch"] == "arm" and doc["agent"]["data_model"] == "ILP32"
    check_against_glibc(triple, doc, auxv)
    # glibc prints the names itself on 32-bit ARM: compare with its decoding too.
    glibc_names = set(auxv["AT_HWCAP"].split()) | set(auxv.get("AT_HWCAP2", "").split())
    assert set(doc["features"]) == glibc_names
    # Under qemu-user /proc/cpuinfo is the x86 host's: no model rather than a wrong one.
    assert doc["model"] is None and doc["vendor"] is None


def test_armhf_v8_has_crypto_and_v7_has_not(cross_agent) -> None:
    triple = "arm-linux-gnueabihf"
    v8, v7 = cpu_doc(cross_agent(triple, "max")), cpu_doc(cross_agent(triple, "cortex-a7"))
    assert {"aes", "pmull", "sha1", "sha2", "crc32"} <= set(v8["features"]) & set(v7["absent"])
    assert {"neon", "vfpv4", "idiva"} <= set(v7["features"])


@pytest.mark.parametrize("cpu", [None, "Loongson-3A4000"])
def test_mips64el_equals_glibc(cross_agent, cpu: str | None) -> None:
    triple = "mips64el-linux-gnuabi64"
    doc = cpu_doc(cross_agent(triple, cpu))
    assert doc["arch"] == "mips64el" and doc["agent"]["data_model"] == "LP64"
    check_against_glibc(triple, doc, glibc_auxv(triple, cpu))
    if cpu == "Loongson-3A4000":
        assert {"msa", "loongson-mmi", "loongson-ext"} <= set(doc["features"])


def test_i686_equals_kernel_flags(cross_agent, host_doc: dict) -> None:
    doc = cpu_doc(cross_agent("i686-linux-gnu"))
    assert doc["arch"] == "i686" and doc["agent"]["data_model"] == "ILP32"
    assert doc["source"] == "cpuid"
    flags = kernel_flags()
    known = set(doc["features"]) | set(doc["absent"])
    # Same table as x86_64 minus what exists in 64-bit mode only (fsgsbase); lm stays:
    # it tells a 32-bit userland that the CPU could run 64-bit code.
    assert known == (set(host_doc["features"]) | set(host_doc["absent"])) - {"fsgsbase"}
    assert set(doc["features"]) == known & flags
    # AT_HWCAP of a 32-bit process is the same kernel word as for a 64-bit one.
    assert doc["hwcap"] == host_doc["hwcap"]
    assert doc["vendor"] == cpuinfo_field("vendor_id")
