"""`portkit crc32c` (host, which runs the agent on --target) and `portkit-target crc32c`
(agent: native, i686, and the aarch64, armhf and mips64el builds under qemu-user) against a
peer: the checksums of the `crc32c` and `google-crc32c` PyPI packages. Also stdin, --check
(good, tampered, malformed lists), unreadable files, names printed verbatim, and the
--bench JSON (shape only, never timings)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import google_crc32c
import pytest

import crc32c as peer
from conftest import BUILD, ROOT, run
from terminal import run_on_terminal

SCHEMA = "portkit.crc32c/1"
SCHEMA_BENCH = "portkit.crc32c-bench/1"

HOST = [sys.executable, "-m", "portkit", "crc32c"]

AGENTS = {
    "native": None,
    "i686": ("i686-linux-gnu", None),
    "aarch64": ("aarch64-linux-gnu", "max"),
    "armhf": ("arm-linux-gnueabihf", None),
    "mips64el": ("mips64el-linux-gnuabi64", None),
    "mips": ("mips-linux-gnu", None),  # big-endian: the byte-at-a-time tables must not care
}


def truth(data: bytes) -> int:
    value = peer.crc32c(data)
    assert value == google_crc32c.value(data)  # the two peers agree
    return value


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("crc")
    rng = random.Random(4)
    contents = {
        "empty": b"",
        "one": b"\xa5",
        "vector": b"123456789",
        "big": rng.randbytes((1 << 20) + 3),
        "binary": (BUILD / "host" / "portkit-target").read_bytes()
        if (BUILD / "host" / "portkit-target").exists()
        else Path(sys.executable).resolve().read_bytes(),
        "with space": bytes(range(256)) * 17,
    }
    paths = {}
    for name, data in contents.items():
        paths[name] = root / name
        paths[name].write_bytes(data)
    return paths


@pytest.fixture(params=list(AGENTS), ids=list(AGENTS))
def agent(request: pytest.FixtureRequest, host_agent: Path, cross_agent: Callable) -> list[str]:
    spec = AGENTS[request.param]
    prefix = [str(host_agent)] if spec is None else cross_agent(*spec)
    return [*prefix, "crc32c"]


def host_on(target: str, cross_agent: Callable) -> list[str]:
    """`portkit crc32c` running the agent on a qemu target, with the agent built in build/."""
    triple = {"qemu-aarch64": "aarch64-linux-gnu", "qemu-arm": "arm-linux-gnueabihf"}[target.split(":")[0]]
    return [*HOST, "--target", target, "--agent", cross_agent(triple)[-1]]


@pytest.fixture(params=["host", "host-qemu-aarch64", "agent-native", "agent-aarch64"])
def sums(request: pytest.FixtureRequest, host_agent: Path, cross_agent: Callable) -> list[str]:
    """The commands that must behave alike for sums and --check."""
    if request.param == "host":
        return HOST
    if request.param == "host-qemu-aarch64":
        return host_on("qemu-aarch64:cortex-a53", cross_agent)
    if request.param == "agent-native":
        return [str(host_agent), "crc32c"]
    return [*cross_agent("aarch64-linux-gnu", "cortex-a53"), "crc32c"]


def json_flag(cmd: list[str]) -> str:
    return "--format=json" if cmd[: len(HOST)] == HOST else "--json"


def expected_lines(paths: list[Path]) -> str:
    return "".join(f"{truth(p.read_bytes()):08x}  {p}\n" for p in paths)


def sh(
    cmd: list[str], *args: str, expect: int, stdin: bytes | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([*cmd, *args], input=stdin, capture_output=True, timeout=300, cwd=cwd)
    out = subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode())
    assert out.returncode == expect, f"exit {out.returncode}\nstdout:{out.stdout}\nstderr:{out.stderr}"
    assert "Traceback" not in out.stderr
    return out


# ---------------------------------------------------------------- sums


def test_agent_sums_match_the_peer(agent: list[str], files: dict[str, Path]) -> None:
    paths = list(files.values())
    assert run(agent, *map(str, paths)).stdout == expected_lines(paths)


def test_agent_json_matches_the_peer(agent: list[str], files: dict[str, Path]) -> None:
    paths = list(files.values())
    document = json.loads(run(agent, "--json", *map(str, paths)).stdout)
    assert document["schema"] == SCHEMA
    assert document["implementation"]
    assert document["errors"] == [] and document["check"] is None
    assert document["files"] == [
        {"path": str(p), "crc32c": f"0x{truth(p.read_bytes()):08x}", "bytes": p.stat().st_size} for p in paths
    ]


@pytest.mark.parametrize("target, arch", [("local", "x86_64"), ("qemu-aarch64", "aarch64"), ("qemu-arm", "arm")])
def test_host_sums_match_the_peer(target: str, arch: str, files: dict[str, Path], cross_agent: Callable) -> None:
    host = HOST if target == "local" else host_on(target, cross_agent)
    paths = list(files.values())
    assert sh(host, *map(str, paths), expect=0).stdout == expected_lines(paths)
    document = json.loads(sh(host, "--format", "json", *map(str, paths), expect=0).stdout)
    assert document["schema"] == SCHEMA
    assert document["target"] == target and document["agent"]["arch"] == arch
    assert [f["crc32c"] for f in document["files"]] == [f"0x{truth(p.read_bytes()):08x}" for p in paths]
    assert [f["bytes"] for f in document["files"]] == [p.stat().st_size for p in paths]


def test_stdin(sums: list[str], files: dict[str, Path]) -> None:
    data = files["big"].read_bytes()
    want = f"{truth(data):08x}  -\n"
    assert sh(sums, expect=0, stdin=data).stdout == want
    assert sh(sums, "-", expect=0, stdin=data).stdout == want


def test_the_check_value_of_rfc3720(sums: list[str], files: dict[str, Path]) -> None:
    assert sh(sums, str(files["vector"]), expect=0).stdout.startswith("e3069283  ")


def test_missing_file_and_directory_are_one_line_each_and_the_rest_goes_on(
    sums: list[str], files: dict[str, Path], tmp_path: Path
) -> None:
    missing = tmp_path / "no-such-file"
    args = [str(files["one"]), str(missing), str(tmp_path), str(files["vector"])]
    proc = sh(sums, *args, expect=2)
    assert proc.stdout == expected_lines([files["one"], files["vector"]])
    errors = proc.stderr.splitlines()
    assert len(errors) == 2
    assert errors[0].endswith(f": {missing}: No such file or directory")
    assert errors[1].endswith(f": {tmp_path}: Is a directory")


def test_json_lists_the_unreadable_files(sums: list[str], files: dict[str, Path], tmp_path: Path) -> None:
    missing = tmp_path / "gone"
    document = json.loads(sh(sums, json_flag(sums), str(files["one"]), str(missing), expect=2).stdout)
    assert [f["path"] for f in document["files"]] == [str(files["one"])]
    assert document["errors"] == [{"path": str(missing), "line": None, "message": "No such file or directory"}]


# ---------------------------------------------------------------- --check


def test_check_good_list(sums: list[str], files: dict[str, Path], tmp_path: Path) -> None:
    listing = tmp_path / "good.crc"
    listing.write_text(expected_lines(list(files.values())))
    proc = sh(sums, "--check", str(listing), expect=0)
    assert proc.stdout == "".join(f"{p}: OK\n" for p in files.values())
    assert proc.stderr == ""


def test_check_list_from_sha256sum_style_binary_marks_and_crlf(
    sums: list[str], files: dict[str, Path], tmp_path: Path
) -> None:
    p = files["vector"]
    listing = tmp_path / "crlf.crc"
    listing.write_bytes(f"E3069283 *{p}\r\n\n".encode())
    assert sh(sums, "-c", str(listing), expect=0).stdout == f"{p}: OK\n"


def test_check_tampered_list_fails_with_exit_1(sums: list[str], files: dict[str, Path], tmp_path: Path) -> None:
    lines = expected_lines(list(files.values())).splitlines(keepends=True)
    crc, rest = lines[1][:8], lines[1][8:]
    lines[1] = f"{int(crc, 16) ^ 1:08x}{rest}"
    listing = tmp_path / "tampered.crc"
    listing.write_text("".join(lines))
    proc = sh(sums, "--check", str(listing), expect=1)
    verdicts = [line.rsplit(": ", 1)[1] for line in proc.stdout.splitlines()]
    assert verdicts == ["OK", "FAILED"] + ["OK"] * (len(files) - 2)
    assert proc.stderr.endswith(f"{listing}: 1 of {len(files)} computed checksums did not match\n")
    assert "WARNING" not in proc.stderr and "portkit crc32c" not in proc.stderr
    document = json.loads(sh(sums, json_flag(sums), "--check", str(listing), expect=1).stdout)
    assert document["check"] == {
        "list": str(listing),
        "ok": len(files) - 1,
        "failed": 1,
        "unreadable": 0,
        "malformed": 0,
    }
    bad = document["files"][1]
    assert bad["ok"] is False and bad["expected"] == f"0x{int(crc, 16) ^ 1:08x}" and bad["crc32c"] == f"0x{crc}"


def test_check_malformed_and_unreadable_lines_exit_2(sums: list[str], files: dict[str, Path], tmp_path: Path) -> None:
    good = expected_lines([files["one"]])
    listing = tmp_path / "malformed.crc"
    listing.write_text(f"{good}not a checksum line\ne30692  short\n00000000  {tmp_path / 'gone'}\n")
    proc = sh(sums, "--check", str(listing), expect=2)
    assert proc.stdout == f"{files['one']}: OK\n{tmp_path / 'gone'}: FAILED open or read\n"
    errors = proc.stderr.splitlines()
    assert len(errors) == 2
    assert errors[0].endswith(f": {tmp_path / 'gone'}: No such file or directory")
    assert errors[1].endswith(f": {listing}: 2 lines are improperly formatted (lines 2 and 3)")
    document = json.loads(sh(sums, json_flag(sums), "--check", str(listing), expect=2).stdout)
    assert document["check"]["malformed"] == 2 and document["check"]["unreadable"] == 1
    assert [e["line"] for e in document["errors"]] == [2, 3, None]


def test_check_reports_every_entry_and_exits_2(sums: list[str], files: dict[str, Path], tmp_path: Path) -> None:
    """A missing file, a good one, a malformed line and a mismatch: nothing computed is lost."""
    gone, good, bad = tmp_path / "gone", files["vector"], files["one"]
    listing = tmp_path / "mixed.crc"
    listing.write_text(f"00000000  {gone}\n{expected_lines([good])}not a line\n00000000  {bad}\n")
    proc = sh(sums, "--check", str(listing), expect=2)
    assert proc.stdout == f"{gone}: FAILED open or read\n{good}: OK\n{bad}: FAILED\n"
    errors = proc.stderr.splitlines()
    assert len(errors) == 3
    assert errors[0].endswith(f": {gone}: No such file or directory")
    assert errors[1].endswith(f": {listing}: 1 line is improperly formatted (line 3)")
    assert errors[2].endswith(f": {listing}: 1 of 2 computed checksums did not match")
    document = json.loads(sh(sums, json_flag(sums), "--check", str(listing), expect=2).stdout)
    assert document["check"] == {"list": str(listing), "ok": 1, "failed": 1, "unreadable": 1, "malformed": 1}
    assert [(f["path"], f["ok"]) for f in document["files"]] == [(str(good), True), (str(bad), False)]


def test_names_are_printed_verbatim(sums: list[str], tmp_path: Path) -> None:
    """Not read as rich markup, not mangled by the JSON's byte escapes, not taken for options."""
    names = ["naïve [bold]x[red].txt", "-x", "--json"]
    for name in names:
        (tmp_path / name).write_bytes(b"123456789")
    proc = sh(sums, "--", *names, expect=0, cwd=tmp_path)
    assert proc.stdout == "".join(f"e3069283  {name}\n" for name in names)
    (tmp_path / "names.crc").write_text(proc.stdout)
    proc = sh(sums, "--check", "names.crc", expect=0, cwd=tmp_path)
    assert proc.stdout == "".join(f"{name}: OK\n" for name in names)


def test_agent_check_json_keeps_the_order_of_the_list(agent: list[str], files: dict[str, Path], tmp_path: Path) -> None:
    """files[] and errors[] are separate arrays; list_line restores the verdicts' order."""
    gone = tmp_path / "gone"
    listing = tmp_path / "order.crc"
    listing.write_text(f"00000000  {gone}\nnot a line\n{expected_lines([files['vector']])}")
    document = json.loads(run(agent, "--json", "--check", str(listing), check_exit=2).stdout)
    assert [(f["path"], f["list_line"]) for f in document["files"]] == [(str(files["vector"]), 3)]
    assert [(e["path"], e["line"], e.get("list_line")) for e in document["errors"]] == [
        (str(gone), None, 1),
        (str(listing), 2, None),
    ]


def test_check_list_without_any_entry_is_bad_input(sums: list[str], tmp_path: Path) -> None:
    listing = tmp_path / "empty.crc"
    listing.write_text("")
    proc = sh(sums, "--check", str(listing), expect=2)
    assert proc.stderr.strip().endswith("no properly formatted CRC32C lines found")


def test_check_a_file_that_is_no_list_is_one_line(sums: list[str]) -> None:
    """README.md given to --check by mistake: one line saying so, not one per line of it."""
    proc = sh(sums, "--check", "README.md", expect=2, cwd=ROOT)
    assert proc.stdout == ""
    assert proc.stderr.splitlines()[0].endswith(": README.md: no properly formatted CRC32C lines found")
    assert len(proc.stderr.splitlines()) == 1
    document = json.loads(sh(sums, json_flag(sums), "--check", "README.md", expect=2, cwd=ROOT).stdout)
    lines = len((ROOT / "README.md").read_text().splitlines())
    # Only an empty line is no entry (as in sha256sum --check); one of spaces is malformed.
    blank = sum(line == "" for line in (ROOT / "README.md").read_text().splitlines())
    assert document["check"]["malformed"] == lines - blank  # each line is still in the document
    assert document["errors"][-1] == {
        "path": "README.md",
        "line": None,
        "message": "no properly formatted CRC32C lines found",
    }


def test_many_malformed_lines_are_counted_in_one_line(sums: list[str], files: dict[str, Path], tmp_path: Path) -> None:
    listing = tmp_path / "mostly-junk.crc"
    listing.write_text(expected_lines([files["vector"]]) + "junk\n" * 100)
    proc = sh(sums, "--check", str(listing), expect=2)
    assert proc.stdout == f"{files['vector']}: OK\n"
    assert len(proc.stderr.splitlines()) == 1
    assert proc.stderr.endswith(f": {listing}: 100 lines are improperly formatted (lines 2, 3, 4 and 97 more)\n")


def test_a_line_holding_a_nul_byte_is_malformed_and_the_rest_is_checked(
    sums: list[str], files: dict[str, Path], tmp_path: Path
) -> None:
    """No file name holds a NUL byte: the line names no file (not the name cut at the NUL)."""
    vector = files["vector"]
    listing = tmp_path / "nul.crc"
    listing.write_bytes(f"e3069283  {vector}\0tail\ne3069283  {vector}\n".encode())
    proc = sh(sums, "--check", str(listing), expect=2)
    assert proc.stdout == f"{vector}: OK\n"
    assert len(proc.stderr.splitlines()) == 1
    assert proc.stderr.rstrip().endswith(f"{listing}: 1 line is improperly formatted (line 1)")
    document = json.loads(sh(sums, json_flag(sums), "--check", str(listing), expect=2).stdout)
    assert document["check"] == {"list": str(listing), "ok": 1, "failed": 0, "unreadable": 0, "malformed": 1}
    assert document["errors"] == [{"path": str(listing), "line": 1, "message": "improperly formatted CRC32C line"}]


def test_check_list_itself_missing(sums: list[str], tmp_path: Path) -> None:
    proc = sh(sums, "--check", str(tmp_path / "nope.crc"), expect=2)
    assert len(proc.stderr.splitlines()) == 1
    assert "No such file or directory" in proc.stderr


# ---------------------------------------------------------------- --bench


def _check_bench(document: dict, sizes: list[int]) -> None:
    assert document["schema"] == SCHEMA_BENCH
    assert document["sizes"] == sizes
    names = document["implementations"]
    assert "portable" in names
    assert document["selected"] in names
    assert document["implementation"].split(" ")[0] == document["selected"]
    cells = {(r["implementation"], r["size"]) for r in document["results"]}
    assert cells == {(name, size) for name in names for size in sizes}
    for result in document["results"]:
        assert result["ns_per_call"] > 0 and result["gb_per_s"] > 0 and result["calls"] >= 1
        assert len(result["repeats"]) >= 3


@pytest.mark.parametrize("name", ["native", "aarch64"])
def test_agent_bench_json(name: str, host_agent: Path, cross_agent: Callable) -> None:
    cmd = [str(host_agent)] if name == "native" else cross_agent("aarch64-linux-gnu", "max")
    document = json.loads(run(cmd, "crc32c", "--bench", "--sizes", "64,4k", "--seconds", "0.01", "--json").stdout)
    _check_bench(document, [64, 4096])
    if name == "aarch64":
        assert {"arm64_crc", "arm64_pmull", "arm64_pmull_eor3"} <= set(document["implementations"])
        assert document["selected"] == "arm64_pmull_eor3"


def test_agent_bench_lists_what_the_cpu_has(cross_agent: Callable) -> None:
    """A Cortex-A53 has CRC32 and PMULL but no EOR3 (SHA3)."""
    cmd = cross_agent("aarch64-linux-gnu", "cortex-a53")
    document = json.loads(run(cmd, "crc32c", "--bench", "--sizes", "64", "--seconds", "0.01", "--json").stdout)
    _check_bench(document, [64])
    assert "arm64_pmull_eor3" not in document["implementations"]
    assert document["selected"] == "arm64_pmull"


def test_agent_bench_text_marks_the_selected(host_agent: Path) -> None:
    out = run([host_agent], "crc32c", "--bench", "--sizes", "64,1k", "--seconds", "0.01").stdout
    selected = json.loads(run([host_agent], "crc32c", "--json", "/dev/null").stdout)["implementation"]
    assert f"* {selected.split(' ')[0]} " in out
    assert "64 B" in out and "1 KiB" in out and "ns per call" in out


def test_host_bench_runs_the_agent_on_the_target(cross_agent: Callable) -> None:
    agent = cross_agent("aarch64-linux-gnu")[-1]
    args = ["--bench", "--sizes", "64,4k", "--seconds", "0.01", "--agent", agent]
    document = json.loads(sh(HOST, *args, "--target", "qemu-aarch64:cortex-a53", "--format", "json", expect=0).stdout)
    _check_bench(document, [64, 4096])
    assert document["target"] == "qemu-aarch64:cortex-a53"
    assert document["agent"]["arch"] == "aarch64"
    out = sh(HOST, *args, "--target", "qemu-aarch64:cortex-a53", expect=0).stdout
    assert "* arm64_pmull " in out and "4 KiB" in out


def test_host_bench_local(host_agent: Path) -> None:
    args = ["--bench", "--sizes", "64", "--seconds", "0.01", "--agent", str(host_agent), "--format", "json"]
    _check_bench(json.loads(sh(HOST, *args, expect=0).stdout), [64])


def test_host_bench_under_qemu_says_its_timings_are_emulated(cross_agent: Callable, host_agent: Path) -> None:
    """Like rt run: an emulator's timings say nothing about a board, in the text and in the JSON."""
    agent = cross_agent("aarch64-linux-gnu")[-1]
    args = ["--bench", "--sizes", "64", "--seconds", "0.01"]
    emulated = [*args, "--target", "qemu-aarch64", "--agent", agent]
    out = sh(HOST, *emulated, expect=0).stdout
    assert "EMULATED by qemu-user: these timings mean nothing about a board" in out.splitlines()[1]
    assert json.loads(sh(HOST, *emulated, "--format=json", expect=0).stdout)["emulated"] is True
    local = [*args, "--agent", str(host_agent)]
    assert "EMULATED" not in sh(HOST, *local, expect=0).stdout
    assert json.loads(sh(HOST, *local, "--format=json", expect=0).stdout)["emulated"] is False


def test_host_bench_fits_80_columns_with_many_sizes(host_agent: Path) -> None:
    """Every size and every figure is shown whole: no column cut to an ellipsis."""
    sizes = "64,128,256,512,1k,2k,4k,8k,16k,32k,64k"
    screen = run_on_terminal(["crc32c", "--bench", "--sizes", sizes, "--seconds", "0.01", "--agent", str(host_agent)])
    assert screen.returncode == 0, screen.raw
    assert all(len(line) <= 80 for line in screen.lines), screen.lines
    assert "…" not in screen.raw
    text = " ".join(screen.lines)
    for label in ("64 B", "512 B", "1 KiB", "32 KiB", "64 KiB"):
        assert f" {label} " in f"{text} "
    assert "time per call" in text


def test_host_output_to_a_directory_is_one_line(tmp_path: Path, files: dict[str, Path]) -> None:
    proc = sh(HOST, "-o", str(tmp_path), str(files["vector"]), expect=2)
    assert proc.stderr == f"portkit: error: -o {tmp_path}: is a directory (give a file name)\n"
    assert proc.stdout == ""


# ---------------------------------------------------------------- usage


@pytest.mark.parametrize(
    "args",
    [
        ["--bench", "--sizes", "0"],
        ["--bench", "--sizes", "4x"],
        ["--bench", "--sizes", ""],
        ["--bench", "--seconds", "-1"],
        ["--bench", "--seconds", "abc"],
        ["--sizes", "64"],
        ["--bench", "somefile"],
        ["--no-such-option"],
        ["--check"],
    ],
)
def test_agent_bad_usage_is_one_line_exit_2(host_agent: Path, args: list[str]) -> None:
    proc = run([host_agent], "crc32c", *args, check_exit=2)
    assert proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith("portkit-target crc32c: ")


@pytest.mark.parametrize(
    "args", [["--bench", "x"], ["--sizes", "64"], ["--check", "a", "b"], ["--target", "nowhere", "f"]]
)
def test_host_bad_usage_is_one_line_exit_2(args: list[str]) -> None:
    proc = sh(HOST, *args, expect=2)
    assert len(proc.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    "args, line",
    [
        (["--bench", "x"], "crc32c: --bench takes no files and no --check"),
        (["--check", "a", "b"], "crc32c: --check LIST takes no other files"),
        (["--sizes", "64", "f"], "crc32c: --sizes is a --bench option"),
    ],
)
def test_host_errors_name_the_command_once(args: list[str], line: str) -> None:
    assert sh(HOST, *args, expect=2).stderr == f"portkit: error: {line}\n"


def test_help_has_an_example(host_agent: Path) -> None:
    assert "example:" in run([host_agent], "crc32c", "--help").stdout
    assert "examples:" in sh(HOST, "--help", expect=0).stdout
