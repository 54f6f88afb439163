"""`portkit-target vdso` (list, verify, bench) on real vDSOs, with readelf as ground truth:

- this machine, x86-64: the kernel's 64-bit vDSO (linux-vdso.so.1, __vdso_* names);
- the i686 agent, natively: the kernel's compat vDSO given to a 32-bit process on a
  64-bit kernel (linux-gate.so.1: __vdso_clock_gettime64, __kernel_vsyscall), "compat": true;
- aarch64, armhf, mips64el under qemu-user, which maps no vDSO: the field report's
  situation (every gettimeofday a system call), reported, never a crash;
- --image on the images in tests/data/vdso, compared with `readelf -W --dyn-syms`, and on
  damaged copies of them (hypothesis): exit 0 or 2, never a signal, at most one stderr line.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT, run, run_json

DATA = ROOT / "tests" / "data" / "vdso"
IMAGES = sorted(DATA.glob("*.so"))
IMAGES_BYTES = {p.name: p.read_bytes() for p in IMAGES}
NO_VDSO = "No vDSO: every gettimeofday is a system call"
QEMU_TRIPLES = ["aarch64-linux-gnu", "arm-linux-gnueabihf", "mips64el-linux-gnuabi64", "mips-linux-gnu"]
STATUSES = {"pass", "fail", "unsupported", "absent"}
# Small runs: the tests check shape and sense, bench/ measures.
FEW = ("--iterations", "2000")
QUICK_BENCH = ("--calls", "20000", "--repeat", "3")


def _require_tool(name: str) -> str:
    path = shutil.which(name)
    if path:
        return path
    if os.environ.get("CI"):
        pytest.fail(f"{name} is missing")
    pytest.skip(f"{name} is missing")


def one_error_line(proc: subprocess.CompletedProcess[str], *needles: str) -> str:
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("portkit-target vdso: "), lines[0]
    for needle in needles:
        assert needle in lines[0]
    return lines[0]


# ---------------------------------------------------------------- ground truth


def readelf_symbols(path: Path) -> list[tuple[str, int, int]]:
    """(Name column, value, size) of the defined non-local symbols, as readelf prints them."""
    out = subprocess.run(
        [_require_tool("readelf"), "-W", "--dyn-syms", str(path)], capture_output=True, text=True, check=True
    ).stdout
    rows = []
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 8 or not fields[0].rstrip(":").isdigit():
            continue
        _, value, size, _type, bind, _vis, ndx, name = fields[:8]
        if ndx != "UND" and bind != "LOCAL":
            rows.append((name, int(value, 16), int(size, 0)))
    return rows


def readelf_style(symbol: dict) -> str:
    """Our symbol as readelf names it: name@@VERSION, name@VERSION (hidden), or a bare
    version-marker name (readelf leaves the version off the absolute marker symbols)."""
    version = symbol["version"]
    if version is None or (symbol["absolute"] and version == symbol["name"]):
        return symbol["name"]
    return f"{symbol['name']}{'@' if symbol['hidden'] else '@@'}{version}"


def symbol_versions(doc: dict) -> set[tuple[str, str | None]]:
    return {(s["name"], s["version"]) for s in doc["symbols"]}


# ---------------------------------------------------------------- this machine (x86-64)


def test_host_list_json_has_the_x86_64_vdso(host_agent):
    doc = run_json([host_agent, "vdso"])
    assert doc["schema"] == "portkit.vdso/2"
    assert doc["source"] == "live" and doc["present"] is True and doc["compat"] is False
    assert doc["soname"] == "linux-vdso.so.1"
    assert (doc["elf_class"], doc["byte_order"], doc["machine"], doc["e_machine"]) == (64, "little", "x86_64", 62)
    assert doc["size"] >= 4096 and int(doc["base"], 16) != 0
    assert ("__vdso_clock_gettime", "LINUX_2.6") in symbol_versions(doc)
    assert ("__vdso_gettimeofday", "LINUX_2.6") in symbol_versions(doc)
    for symbol in doc["symbols"]:
        if not symbol["absolute"]:
            assert int(symbol["address"], 16) == int(doc["base"], 16) + int(symbol["value"], 16)
    assert doc["no_vdso"] is None


def test_host_list_text(host_agent):
    out = run([host_agent, "vdso"]).stdout
    assert "linux-vdso.so.1" in out
    assert "__vdso_clock_gettime@@LINUX_2.6" in out
    assert "ELF64 little-endian x86_64" in out
    assert NO_VDSO not in out


def test_host_require_passes(host_agent):
    run([host_agent, "vdso", "list", "--require"], check_exit=0)


def test_host_dump_is_what_readelf_reads(host_agent, tmp_path):
    dump = tmp_path / "vdso.so"
    live = run_json([host_agent, "vdso", "--dump", str(dump)])
    assert live["dumped_to"] == str(dump)
    assert dump.stat().st_size == live["size"]
    image = run_json([host_agent, "vdso", "--image", str(dump)])
    assert image["source"] == "image" and image["base"] == "0x0"
    assert [readelf_style(s) for s in image["symbols"]] == [readelf_style(s) for s in live["symbols"]]
    assert [(readelf_style(s), int(s["value"], 16), s["size"]) for s in image["symbols"]] == readelf_symbols(dump)


def test_host_verify_passes(host_agent):
    doc = run_json([host_agent, "vdso", "verify", *FEW], check_exit=0)
    assert doc["schema"] == "portkit.vdso-verify/2"
    assert doc["ok"] is True and doc["present"] is True and doc["iterations"] == 2000
    assert {c["status"] for c in doc["checks"]} <= STATUSES - {"fail"}
    by_key = {(c["function"], c["clock"]): c for c in doc["checks"]}
    for clock in ("REALTIME", "MONOTONIC", "MONOTONIC_RAW", "BOOTTIME", "TAI", "MONOTONIC_COARSE"):
        check = by_key[("clock_gettime", clock)]
        assert check["status"] == "pass" and check["symbol"] == "__vdso_clock_gettime"
        assert check["samples"] == 2000 and check["violations"] == 0
        assert by_key[("clock_getres", clock)]["status"] == "pass"
    assert by_key[("clock_getres", "MONOTONIC_COARSE")]["resolution_ns"] > 1  # a tick
    assert by_key[("gettimeofday", None)]["status"] == "pass"
    assert by_key[("time", None)]["status"] == "pass"
    assert not any(c["function"].endswith("64") for c in doc["checks"])  # no time64 ABI on x86-64
    assert doc["summary"]["fail"] == 0
    assert doc["summary"]["pass"] == sum(c["status"] == "pass" for c in doc["checks"])


def test_host_verify_text_and_one_clock(host_agent):
    out = run([host_agent, "vdso", "verify", *FEW, "--clock", "clock_monotonic_coarse"]).stdout
    rows = [line.split() for line in out.splitlines() if line.startswith("  clock_")]
    assert [(r[0], r[1], r[2]) for r in rows] == [
        ("clock_gettime", "MONOTONIC_COARSE", "pass"),
        ("clock_getres", "MONOTONIC_COARSE", "pass"),
    ]
    assert "result: 2 pass, 0 fail" in out


def test_host_bench_json_is_sane(host_agent):
    doc = run_json([host_agent, "vdso", "bench", *QUICK_BENCH])
    assert doc["schema"] == "portkit.vdso-bench/2"
    assert (doc["calls"], doc["repeat"], doc["present"]) == (20000, 3, True)
    names = [f["name"] for f in doc["functions"]]
    assert names == ["gettimeofday", "clock_gettime"]
    for fn in doc["functions"]:
        for path in ("libc", "vdso", "syscall"):
            assert len(fn[path]["repeats_ns"]) == 3
            assert all(ns > 0 for ns in fn[path]["repeats_ns"])
            assert min(fn[path]["repeats_ns"]) <= fn[path]["ns_per_call"] <= max(fn[path]["repeats_ns"])
        assert fn["syscall"]["ns_per_call"] > fn["vdso"]["ns_per_call"]
        assert fn["speedup"] == pytest.approx(fn["syscall"]["ns_per_call"] / fn["vdso"]["ns_per_call"])
    gtod = doc["functions"][0]
    assert gtod["vdso"]["symbol"] == "__vdso_gettimeofday"
    loop = doc["gettimeofday_loop"]
    assert loop["calls"] == 20000
    assert loop["vdso_total_us"] == pytest.approx(gtod["vdso"]["ns_per_call"] * 20000 / 1000)
    assert loop["syscall_total_us"] > loop["vdso_total_us"]
    assert loop["ratio"] == pytest.approx(gtod["speedup"])


def test_host_bench_text(host_agent):
    out = run([host_agent, "vdso", "bench", "--calls", "10000", "--repeat", "1"]).stdout
    assert "gettimeofday" in out and "clock_gettime(MONOTONIC)" in out
    assert "10000 gettimeofday calls (the compat-vDSO field report's loop has 500000): " in out
    assert "us with the vDSO" in out


# ---------------------------------------------------------------- i686 natively: the compat vDSO


def test_i686_compat_vdso_list(cross_agent):
    agent = cross_agent("i686-linux-gnu")
    doc = run_json(agent, "vdso")
    assert doc["present"] is True and doc["compat"] is True
    assert doc["process"]["arch"] == "i686" and doc["process"]["kernel_machine"] == "x86_64"
    assert (doc["soname"], doc["elf_class"], doc["machine"]) == ("linux-gate.so.1", 32, "i386")
    versions = symbol_versions(doc)
    assert ("__vdso_clock_gettime64", "LINUX_2.6") in versions
    assert ("__kernel_vsyscall", "LINUX_2.5") in versions
    assert ("__kernel_sigreturn", "LINUX_2.5") in versions
    out = run(agent, "vdso").stdout
    assert "compat: 32-bit process on a 64-bit kernel" in out
    assert "__kernel_vsyscall@@LINUX_2.5" in out


def test_i686_verify_checks_both_abis(cross_agent):
    doc = run_json(cross_agent("i686-linux-gnu"), "vdso", "verify", *FEW, check_exit=0)
    assert doc["ok"] is True and doc["compat"] is True
    by_key = {(c["function"], c["clock"]): c for c in doc["checks"]}
    for function, symbol in (("clock_gettime", "__vdso_clock_gettime"), ("clock_gettime64", "__vdso_clock_gettime64")):
        check = by_key[(function, "MONOTONIC")]
        assert (check["status"], check["symbol"], check["samples"]) == ("pass", symbol, 2000)
    assert by_key[("gettimeofday", None)]["status"] == "pass"
    # The kernel's 32-bit x86 vDSO has no clock_getres_time64 entry: absent, not failed.
    assert by_key[("clock_getres_time64", "MONOTONIC")]["status"] in {"absent", "pass"}


def test_i686_bench_uses_the_time64_entry(cross_agent):
    doc = run_json(cross_agent("i686-linux-gnu"), "vdso", "bench", *QUICK_BENCH)
    clock = doc["functions"][1]
    assert clock["vdso"]["symbol"] == "__vdso_clock_gettime64"
    assert clock["syscall"]["syscall"] == "clock_gettime64"
    for fn in doc["functions"]:
        assert fn["syscall"]["ns_per_call"] > fn["vdso"]["ns_per_call"]


# ---------------------------------------------------------------- qemu-user: no vDSO at all


@pytest.mark.parametrize("triple", QEMU_TRIPLES)
def test_qemu_list_says_there_is_no_vdso(cross_agent, triple):
    agent = cross_agent(triple)
    out = run(agent, "vdso", check_exit=0).stdout
    assert NO_VDSO in out
    assert "qemu-user" in out and "vdso=0" in out
    assert "500000 calls, as in the compat-vDSO field report, take" in out
    doc = run_json(agent, "vdso")
    assert doc["present"] is False and doc["symbols"] == [] and doc["soname"] is None
    report = doc["no_vdso"]
    assert report["message"] == NO_VDSO
    assert report["syscall_ns_per_call"] > 0 and report["gettimeofday_loop"]["calls"] == 500000
    assert report["gettimeofday_loop"]["syscall_total_us"] == pytest.approx(report["syscall_ns_per_call"] * 500)
    assert report["hints"]


@pytest.mark.parametrize("triple", QEMU_TRIPLES)
def test_qemu_require_fails(cross_agent, triple):
    proc = run(cross_agent(triple), "vdso", "--require", check_exit=1)
    assert NO_VDSO in proc.stdout


@pytest.mark.parametrize("triple", QEMU_TRIPLES)
def test_qemu_verify_has_nothing_to_verify(cross_agent, triple):
    """No vDSO is no disagreement with the kernel (exit 1): verify cannot run at all (exit 3)."""
    nothing = "this process has no vDSO, so there is nothing to verify"
    proc = run([*cross_agent(triple), "vdso", "verify", "--json"], check_exit=3)
    doc = json.loads(proc.stdout)
    assert doc["ok"] is False and doc["present"] is False
    checks = [(c["function"], c["status"], c["syscall"], c["detail"]) for c in doc["checks"]]
    assert checks == [("vdso", "absent", None, nothing)]
    assert doc["summary"] == {"pass": 0, "fail": 0, "unsupported": 0, "absent": 1}
    assert doc["no_vdso"]["hints"]
    assert proc.stderr == f"portkit-target vdso: {nothing}\n"
    proc = run(cross_agent(triple), "vdso", "verify", check_exit=3)
    assert NO_VDSO in proc.stdout and "result: 0 pass, 0 fail, 0 unsupported, 1 absent" in proc.stdout
    assert proc.stderr == f"portkit-target vdso: {nothing}\n"


@pytest.mark.parametrize("triple", QEMU_TRIPLES)
def test_qemu_bench_has_an_empty_vdso_column(cross_agent, triple):
    agent = cross_agent(triple)
    doc = run_json(agent, "vdso", "bench", "--calls", "5000", "--repeat", "3")
    for fn in doc["functions"]:
        assert fn["vdso"] is None and fn["speedup"] is None and fn["libc_uses_vdso"] is False
        assert fn["syscall"]["ns_per_call"] > 0 and len(fn["syscall"]["repeats_ns"]) == 3
    assert doc["gettimeofday_loop"]["vdso_total_us"] is None and doc["gettimeofday_loop"]["syscall_total_us"] > 0
    out = run(agent, "vdso", "bench", "--calls", "2000", "--repeat", "1").stdout
    assert "there is no vDSO, so the vDSO column is empty" in out


# ---------------------------------------------------------------- --image


@pytest.mark.parametrize("image", IMAGES, ids=lambda p: p.name)
def test_image_matches_readelf(host_agent, image):
    doc = run_json([host_agent, "vdso", "--image", str(image)])
    assert doc["source"] == "image" and doc["image_path"] == str(image) and doc["present"] is True
    ours = [(readelf_style(s), int(s["value"], 16), s["size"]) for s in doc["symbols"]]
    assert ours == readelf_symbols(image)


def test_image_kinds(host_agent):
    kinds = {
        p.name: run_json([host_agent, "vdso", "--image", str(p)])
        for p in IMAGES
        if p.name in {"synthetic-aarch64.so", "synthetic-mips-be.so", "i686.so"}
    }
    aarch64 = kinds["synthetic-aarch64.so"]
    assert (aarch64["machine"], aarch64["elf_class"]) == ("aarch64", 64)
    assert ("__kernel_clock_gettime", "LINUX_2.6.39") in symbol_versions(aarch64)
    mips = kinds["synthetic-mips-be.so"]
    assert (mips["byte_order"], mips["elf_class"]) == ("big", 32)
    hidden = [s for s in mips["symbols"] if s["hidden"]]
    assert [(s["name"], s["version"]) for s in hidden] == [("__vdso_gettimeofday", "LINUX_2.5")]
    assert kinds["i686.so"]["soname"] == "linux-gate.so.1"


def test_image_truncated(host_agent, tmp_path):
    truncated = tmp_path / "truncated.so"
    truncated.write_bytes((DATA / "x86_64.so").read_bytes()[:100])
    proc = run([host_agent, "vdso", "--image", str(truncated)], check_exit=2)
    assert proc.stdout == ""
    one_error_line(proc, str(truncated), "beyond end of image")


def test_image_not_elf(host_agent):
    script = DATA / "make-synthetic.sh"
    proc = run([host_agent, "vdso", "--image", str(script)], check_exit=2)
    one_error_line(proc, str(script), "not an ELF file")


@pytest.mark.parametrize("name", ["missing.so", "empty.so", "."])
def test_image_unreadable(host_agent, tmp_path, name):
    (tmp_path / "empty.so").write_bytes(b"")
    path = tmp_path / name
    proc = run([host_agent, "vdso", "--image", str(path)], check_exit=2)
    one_error_line(proc, str(path))


@st.composite
def damaged_images(draw):
    """A real image with some bytes changed (mostly in the headers and tables) and
    perhaps cut short."""
    data = bytearray(IMAGES_BYTES[draw(st.sampled_from(sorted(IMAGES_BYTES)))])
    hot = min(len(data), 2048)
    for _ in range(draw(st.integers(0, 12))):
        offset = draw(st.one_of(st.integers(0, hot - 1), st.integers(0, len(data) - 1)))
        data[offset] = draw(st.integers(0, 255))
    if draw(st.booleans()):
        data = data[: draw(st.integers(0, len(data)))]
    return bytes(data)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(image=damaged_images())
def test_damaged_images_never_crash(host_agent, image):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "damaged.so"
        path.write_bytes(image)
        proc = run([host_agent, "vdso", "--image", str(path), "--json"], check_exit=None)
    assert proc.returncode in (0, 2), f"exit {proc.returncode}: {proc.stderr}"
    assert len(proc.stderr.splitlines()) <= 1
    if proc.returncode == 0:
        doc = json.loads(proc.stdout)
        assert doc["schema"] == "portkit.vdso/2" and doc["present"] is True
    else:
        assert proc.stdout == ""
        one_error_line(proc, str(path))


# ---------------------------------------------------------------- usage


@pytest.mark.parametrize(
    "args",
    [
        ["--bogus"],
        ["-x"],
        ["list", "extra"],
        ["frobnicate"],
        ["--image"],
        ["--image", "a.so", "--dump", "b.so"],
        ["verify", "--clock", "NOPE"],
        ["verify", "--clock", "12"],
        ["verify", "--clock"],
        ["verify", "--iterations", "0"],
        ["verify", "--iterations", "-5"],
        ["verify", "--iterations", "many"],
        ["verify", "extra"],
        ["bench", "--calls", "0"],
        ["bench", "--calls", "-1"],
        ["bench", "--calls", "1e6"],
        ["bench", "--calls", "99999999999999999999"],
        ["bench", "--calls", "100000000", "--repeat", "1000"],
        ["bench", "--repeat", "0"],
        ["bench", "--repeat", "x"],
        ["bench", "--calls"],
        ["bench", "--json", "now"],
    ],
    ids=" ".join,
)
def test_bad_usage_is_one_line_and_exit_2(host_agent, args):
    proc = run([host_agent, "vdso", *args], check_exit=2)
    assert proc.stdout == ""
    one_error_line(proc)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--bogus"], "unknown option '--bogus' (try --help)"),
        (["list", "-x"], "unknown option '-x' (try --help)"),
        (["verify", "--json", "-jx"], "unknown option '-j' (try --help)"),
        (["--image"], "option '--image' needs a value (try --help)"),
        (["verify", "--clock"], "option '--clock' needs a value (try --help)"),
        (["bench", "--cal"], "option '--cal' needs a value (try --help)"),
        (["list", "--require=yes"], "option '--require' takes no value (try --help)"),
        (["list", "extra"], "unexpected argument 'extra' (try --help)"),
        (["verify", "extra"], "unexpected argument 'extra' (try --help)"),
        (["bench", "--json", "now"], "unexpected argument 'now' (try --help)"),
        (["verify", "--iterations", "0"], "--iterations '0': expected a whole number from 1 to 100000000"),
        (["bench", "--calls", "1e6"], "--calls '1e6': expected a whole number from 1 to 100000000"),
        (["bench", "--repeat", "x"], "--repeat 'x': expected a whole number from 1 to 1000"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else "",
)
def test_bad_usage_wording(host_agent, args, line):
    proc = run([host_agent, "vdso", *args], check_exit=2)
    assert proc.stderr == f"portkit-target vdso: {line}\n"


def test_host_dump_failure_names_its_step_and_leaves_no_temporary_file(host_agent, tmp_path):
    taken = tmp_path / "taken"
    taken.mkdir()
    proc = run([host_agent, "vdso", "--dump", str(taken)], check_exit=2)
    assert proc.stdout == ""
    assert proc.stderr == f"portkit-target vdso: --dump {taken}: is a directory (give a file name)\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]
    nowhere = tmp_path / "missing" / "vdso.so"
    proc = run([host_agent, "vdso", "--dump", str(nowhere)], check_exit=2)
    one_error_line(proc, f"--dump {nowhere}: cannot create a temporary file beside it: No such file or directory")


def test_kernel_rejected_clock_says_so(host_agent):
    proc = run([host_agent, "vdso", "verify", "--clock", "12"], check_exit=2)
    one_error_line(proc, "clock id 12 is not supported by this kernel")


@pytest.mark.parametrize("mode", [[], ["list"], ["verify"], ["bench"]], ids=lambda m: " ".join(m) or "default")
def test_help_has_an_example(host_agent, mode):
    out = run([host_agent, "vdso", *mode, "--help"]).stdout
    assert out.startswith("usage: portkit-target vdso")
    assert "example" in out
