"""`portkit audit kconfig` end to end: real Debian kernel configs (verdicts
written from reading those files), the running kernel's config, gzip and xz,
the agent's `kconfig` command, the interface (text table, JSON, SARIF,
--select, --baseline, suppression), the rules page, and bad input (one line,
exit 2; problem lines one warning each)."""

from __future__ import annotations

import gzip
import json
import lzma
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_portkit, validate_sarif
from debian_kconfigs import debian_configs
from portkit.commands.audit.kconfig.reader import KernelConfig
from portkit.core.errors import EnvironmentProblem
from terminal import run_on_terminal


def audit(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run_portkit("audit", "kconfig", *args, cwd=cwd)


def audit_json(*args: str | Path, cwd: Path | None = None) -> tuple[int, dict]:
    proc = audit(*args, "--format", "json", "--fail-on", "never", cwd=cwd)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def checks(document: dict) -> dict[str, dict]:
    return {c["rule"]: c for c in document["checks"]}


def line_of(path: Path, text: str) -> int:
    """The 1-based line of `text` in an .xz config, read without portkit."""
    lines = lzma.decompress(path.read_bytes()).decode().splitlines()
    return lines.index(text) + 1


# Real Debian configs. Each expectation below was read from the file with
# `xzgrep -n` (linux-config-6.1, Debian 12).


def test_debian_amd64_stock_fails_preempt_rt_and_rt_passes() -> None:
    folder = debian_configs("amd64")
    _, stock = audit_json(folder / "config.amd64_none_amd64.xz")
    _, rt = audit_json(folder / "config.amd64_rt_amd64.xz")
    assert stock["kernel"]["arch"] == "x86_64" and stock["kernel"]["version"].startswith("6.1.")
    assert stock["config"]["compression"] == "xz" and stock["problems"] == []
    assert (checks(stock)["PKK101"]["status"], checks(stock)["PKK101"]["actual"]) == ("fail", "is not found")
    assert checks(stock)["PKK101"]["result"] == "FAIL: is not found" and checks(stock)["PKK101"]["line"] == 0
    rt_line = line_of(folder / "config.amd64_rt_amd64.xz", "CONFIG_PREEMPT_RT=y")
    assert (checks(rt)["PKK101"]["status"], checks(rt)["PKK101"]["line"]) == ("ok", rt_line)
    # x86-64 runs i386 programs through IA32_EMULATION; the arm64 rows are skipped there.
    assert checks(stock)["PKK202"]["status"] == "ok"
    assert checks(stock)["PKK205"]["result"] == "SKIP: arm64 only"
    # Debian keeps the lockup detector; the guide wants it off.
    lockup = line_of(folder / "config.amd64_none_amd64.xz", "CONFIG_LOCKUP_DETECTOR=y")
    finding = next(f for f in stock["findings"] if f["rule"] == "PKK114")
    assert finding["location"]["line"] == lockup and finding["severity"] == "warning"
    assert "PKK101" in {f["rule"] for f in stock["findings"]} and "PKK101" not in {f["rule"] for f in rt["findings"]}


def test_debian_arm64_has_the_compat_vdso_and_its_rt_flavour_preempt_rt() -> None:
    folder = debian_configs("arm64")
    _, stock = audit_json(folder / "config.arm64_none_arm64.xz")
    _, rt = audit_json(folder / "config.arm64_rt_arm64.xz")
    found = checks(stock)
    assert stock["kernel"]["arch"] == "arm64" and stock["kernel"]["bits"] == 64
    vdso_line = line_of(folder / "config.arm64_none_arm64.xz", "CONFIG_COMPAT_VDSO=y")
    assert (found["PKK205"]["status"], found["PKK205"]["line"]) == ("ok", vdso_line)
    for rule in ("PKK201", "PKK206", "PKK207", "PKK208", "PKK209", "PKK210", "PKK403", "PKK404", "PKK405"):
        assert found[rule]["status"] == "ok", found[rule]
    assert found["PKK403"]["actual"] == "48" and found["PKK210"]["actual"] == "ARM64_4K_PAGES"
    assert found["PKK101"]["status"] == "fail" and checks(rt)["PKK101"]["status"] == "ok"
    assert found["PKK202"]["result"] == "SKIP: x86_64 only" and found["PKK401"]["result"] == "SKIP: arm only"
    # Debian's default governor is schedutil and its tick NO_HZ_FULL: named in the actual column.
    assert found["PKK103"]["actual"] == "CPU_FREQ_DEFAULT_GOV_SCHEDUTIL" and found["PKK110"]["actual"] == "NO_HZ_FULL"


def test_debian_armhf_lpae_and_rt_flavours() -> None:
    folder = debian_configs("armhf")
    _, armmp = audit_json(folder / "config.armhf_none_armmp.xz")
    _, lpae = audit_json(folder / "config.armhf_none_armmp-lpae.xz")
    _, rt = audit_json(folder / "config.armhf_rt_armmp.xz")
    assert armmp["kernel"]["arch"] == "arm" and armmp["kernel"]["bits"] == 32
    lpae_line = line_of(folder / "config.armhf_none_armmp.xz", "# CONFIG_ARM_LPAE is not set")
    assert (checks(armmp)["PKK401"]["status"], checks(armmp)["PKK401"]["line"]) == ("fail", lpae_line)
    assert checks(armmp)["PKK401"]["result"] == "NOTE: is not set"
    assert checks(lpae)["PKK401"]["status"] == "ok"
    assert checks(rt)["PKK101"]["status"] == "ok" and checks(armmp)["PKK101"]["status"] == "fail"
    # A 32-bit kernel: COMPAT rows do not apply, the y2038 ones do; kuser helpers and the vDSO are there.
    assert checks(armmp)["PKK201"]["result"] == "SKIP: arm64 only"
    for rule in ("PKK206", "PKK211", "PKK301", "PKK302", "PKK402"):
        assert checks(armmp)[rule]["status"] == "ok", checks(armmp)[rule]
    # Debian's armmp kernels leave cpuidle out.
    assert (checks(armmp)["PKK107"]["status"], checks(armmp)["PKK107"]["actual"]) == ("fail", "is not set")


def test_text_is_a_table_of_every_rule_checked(tmp_path: Path) -> None:
    config = debian_configs("arm64") / "config.arm64_none_arm64.xz"
    proc = audit(config, "--fail-on", "error")
    assert proc.returncode == 1 and proc.stderr == ""
    lines = proc.stdout.splitlines()
    header = next(n for n, line in enumerate(lines) if line.startswith("rule "))
    assert lines[header].split() == ["rule", "option", "desired", "actual", "result", "reason"]
    rows = [line for line in lines[header + 1 :] if line.startswith("PKK")]
    _, document = audit_json(config)
    assert len(rows) == document["summary"]["checked"] == sum(c["status"] != "skip" for c in document["checks"])
    assert any(row.split()[:2] == ["PKK205", "CONFIG_COMPAT_VDSO"] and " OK " in row for row in rows)
    failures = audit(config, "--show", "failures").stdout
    assert all(" OK " not in line for line in failures.splitlines() if line.startswith("PKK"))
    everything = table_rows(audit(config, "--show", "all").stdout)
    assert everything["PKK202"]["result"] == "skipped" and everything["PKK202"]["reason"] == "x86_64 only"
    assert all(row["result"] != "skipped" for row in table_rows(proc.stdout).values())


def table_rows(text: str) -> dict[str, dict[str, str]]:
    """The piped table's rows by rule: each cell cut at its header's column."""
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith("rule "))
    names = header.split()
    starts = [header.index(f"{name}") for name in names]
    rows = {}
    for line in lines[lines.index(header) + 1 :]:
        if not line.startswith("PKK"):
            break
        bounds = zip(starts, [*starts[1:], None], strict=True)
        rows[line.split()[0]] = {name: line[a:b].strip() for name, (a, b) in zip(names, bounds, strict=True)}
    return rows


WORDS = {"error": "FAIL", "warning": "WARN", "note": "NOTE"}  # a failed check's result, by its severity


def test_the_result_column_says_only_the_result() -> None:
    config = debian_configs("arm64") / "config.arm64_none_arm64.xz"
    rows = table_rows(audit(config, "--show", "all").stdout)
    _, document = audit_json(config)
    expected = {
        c["rule"]: {"ok": "OK", "skip": "skipped"}.get(c["status"]) or WORDS[c["severity"]] for c in document["checks"]
    }
    assert {rule: row["result"] for rule, row in rows.items()} == expected
    assert (rows["PKK101"]["actual"], rows["PKK101"]["result"]) == ("is not found", "FAIL")
    assert (rows["PKK110"]["actual"], rows["PKK110"]["result"]) == ("NO_HZ_FULL", "NOTE")
    # The JSON keeps its result strings: the text table shows their first word.
    assert checks(document)["PKK101"]["result"] == "FAIL: is not found"


def test_a_hidden_failure_is_marked_in_the_result_column(tmp_path: Path) -> None:
    config = tmp_path / "c"
    config.write_text(
        "# Linux/arm64 6.1.0 Kernel Configuration\nCONFIG_ARM64=y\n# portkit: ignore PKK114\nCONFIG_LOCKUP_DETECTOR=y\n"
    )
    rows = table_rows(audit(config, "--select", "PKK114").stdout)
    assert (rows["PKK114"]["actual"], rows["PKK114"]["result"]) == ("y", "WARN (hidden)")


def test_on_an_80_column_terminal_every_rule_and_reason_reads_whole() -> None:
    config = debian_configs("arm64") / "config.arm64_none_arm64.xz"
    _, document = audit_json(config)
    screen = run_on_terminal(["audit", "kconfig", str(config), "--show", "all"], columns=80)
    assert screen.returncode == 1
    lines = [line.rstrip() for line in screen.lines]
    assert max(len(line) for line in lines) <= 80, [line for line in lines if len(line) > 80]
    text = " ".join(" ".join(lines).split())
    for check in document["checks"]:
        row = next(line for line in lines if line.startswith(check["rule"] + " "))
        word = row.split()[1]
        assert word in ("OK", "FAIL", "WARN", "NOTE", "skipped") and check["option"] in row, row
        why = check["result"].removeprefix("SKIP: ") if check["status"] == "skip" else check["reason"]
        assert " ".join(why.split()) in text, why
    assert_folded_under_the_third_column(lines)


def test_list_rules_fits_an_80_column_terminal() -> None:
    document = json.loads(audit("--list-rules", "--format", "json").stdout)
    screen = run_on_terminal(["audit", "kconfig", "--list-rules"], columns=80)
    lines = [line.rstrip() for line in screen.lines]
    assert screen.returncode == 0 and max(len(line) for line in lines) <= 80
    text = " ".join(" ".join(lines).split())
    for rule in document["rules"]:
        assert any(line.startswith(f"{rule['id']} ") and rule["option"] in line for line in lines), rule["id"]
        assert " ".join(rule["summary"].split()) in text
    assert_folded_under_the_third_column(lines)


def assert_folded_under_the_third_column(lines: list[str]) -> None:
    """A narrow table's lines: each rule's row, then its reason under the third column, never at the margin."""
    header = next(n for n, line in enumerate(lines) if line.startswith("rule "))
    third = lines[header].index(lines[header].split()[2])
    for line in lines[header + 1 :]:
        if not line:
            break
        assert line.startswith("PKK") or len(line) - len(line.lstrip()) == third, line


# The running kernel and compressed files.


def test_the_running_kernels_config() -> None:
    release = os.uname().release
    candidates = [Path("/proc/config.gz"), Path(f"/boot/config-{release}")]
    existing = [p for p in candidates if p.exists()]
    proc = audit("--format", "json", "--fail-on", "never")
    if not existing:
        assert proc.returncode == 3 and "config" in proc.stderr and "Traceback" not in proc.stderr
        return
    assert proc.returncode == 0, proc.stderr
    document = json.loads(proc.stdout)
    assert document["config"]["path"] == str(existing[0]) and document["config"]["source"] == "running"
    assert document["config"]["release"] == release
    assert release.startswith(document["kernel"]["version"])
    machine = {"x86_64": "x86_64", "aarch64": "arm64"}.get(os.uname().machine)
    if machine:
        assert document["kernel"]["arch"] == machine


def test_running_config_candidates_in_order(tmp_path: Path) -> None:
    from portkit.commands.audit.kconfig.sources import read_running_config

    second = tmp_path / "config-6.1.0"
    second.write_text("CONFIG_ARM64=y\nCONFIG_COMPAT=y\n")
    config = read_running_config([tmp_path / "missing.gz", second])
    assert isinstance(config, KernelConfig) and config.path == str(second) and config.get("COMPAT").value == "y"
    with pytest.raises(EnvironmentProblem, match="none of"):
        read_running_config([tmp_path / "a", tmp_path / "b"])


def test_gzip_xz_and_plain_read_the_same(tmp_path: Path) -> None:
    text = lzma.decompress((debian_configs("arm64") / "config.arm64_rt_arm64.xz").read_bytes())
    (tmp_path / "config").write_bytes(text)
    (tmp_path / "config.gz").write_bytes(gzip.compress(text))
    (tmp_path / "config.xz").write_bytes(lzma.compress(text))
    (tmp_path / "named.txt").write_bytes(gzip.compress(text))  # told apart by content, not name
    results = {}
    for name in ("config", "config.gz", "config.xz", "named.txt"):
        _, document = audit_json(tmp_path / name)
        results[name] = [(c["rule"], c["result"], c["line"]) for c in document["checks"]]
        expected = {"config": None, "config.gz": "gzip", "config.xz": "xz", "named.txt": "gzip"}[name]
        assert document["config"]["compression"] == expected
    assert results["config"] == results["config.gz"] == results["config.xz"] == results["named.txt"]


# The agent's `kconfig` command and --target.


def test_the_agent_sends_the_file_as_it_is(host_agent: Path, tmp_path: Path) -> None:
    data = gzip.compress(b"CONFIG_ARM64=y\n# CONFIG_COMPAT is not set\n") + b"\0\xff"
    (tmp_path / "config.gz").write_bytes(data)
    proc = subprocess.run([host_agent, "kconfig", "--json", "--path", tmp_path / "config.gz"], capture_output=True)
    document = json.loads(proc.stdout)
    assert proc.returncode == 0 and document["schema"] == "portkit.kconfig/1"
    assert bytes.fromhex(document["hex"]) == data and document["bytes"] == len(data)
    raw = subprocess.run([host_agent, "kconfig", "--path", tmp_path / "config.gz"], capture_output=True)
    assert raw.stdout == data
    missing = subprocess.run([host_agent, "kconfig", "--path", tmp_path / "none"], capture_output=True, text=True)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "No such file" in missing.stderr


def test_target_reads_the_running_kernel_through_the_agent(host_agent: Path, cross_agent) -> None:
    if not Path("/proc/config.gz").exists():
        pytest.skip("this kernel has no /proc/config.gz")
    _, direct = audit_json()
    _, local = audit_json("--agent", host_agent)
    assert local["config"]["source"] == "target" and local["config"]["path"] == "local:/proc/config.gz"
    assert [c["result"] for c in local["checks"]] == [c["result"] for c in direct["checks"]]
    # Under qemu-user the emulated agent reads the same kernel's file.
    emulated = cross_agent("aarch64-linux-gnu")
    _, arm = audit_json("--target", "qemu-aarch64", "--agent", emulated[-1])
    assert [c["result"] for c in arm["checks"]] == [c["result"] for c in direct["checks"]]
    assert audit(Path("/proc/config.gz"), "--target", "qemu-aarch64").returncode == 2


# The interface: findings options, SARIF, suppression, old names.

SMALL = """#
# Automatically generated file; DO NOT EDIT.
# Linux/arm64 5.10.0 Kernel Configuration
#
CONFIG_ARM64=y
CONFIG_64BIT=y
CONFIG_COMPAT=y
# CONFIG_COMPAT_VDSO is not set
CONFIG_CC_IS_GCC=y
# portkit: ignore PKK114 -- the watchdog stays on this board
CONFIG_LOCKUP_DETECTOR=y
CONFIG_PREEMPT_RT_FULL=y
CONFIG_ARM64_16K_PAGES=y
"""


def test_findings_lines_old_names_and_suppression(tmp_path: Path) -> None:
    (tmp_path / "small.config").write_text(SMALL)
    _, document = audit_json("small.config", cwd=tmp_path)
    found = checks(document)
    assert found["PKK101"]["result"] == "OK (as PREEMPT_RT_FULL)" and found["PKK101"]["line"] == 12
    vdso = next(f for f in document["findings"] if f["rule"] == "PKK205")
    assert vdso["location"] == {"path": "small.config", "line": 8, "column": 0, "end_line": 8, "end_column": 0}
    assert "CC_IS_CLANG is not found" in vdso["message"] and "CROSS_COMPILE_COMPAT" in vdso["fix"]
    assert found["PKK210"]["actual"] == "ARM64_16K_PAGES" and found["PKK210"]["line"] == 13
    assert "PKK114" not in {f["rule"] for f in document["findings"]} and document["suppressed"] == 1
    text = audit("small.config", "--fail-on", "never", cwd=tmp_path).stdout
    assert "(hidden)" in text and "1 suppressed" in text


def test_select_ignore_baseline_and_sarif(tmp_path: Path) -> None:
    (tmp_path / "small.config").write_text(SMALL)
    _, compat = audit_json("small.config", "--select", "PKK2", cwd=tmp_path)
    assert {c["rule"][:4] for c in compat["checks"]} == {"PKK2"}
    assert audit("small.config", "--select", "PKK9", cwd=tmp_path).returncode == 2
    (tmp_path / "base.json").write_text(audit("small.config", "--format", "json", cwd=tmp_path).stdout)
    _, again = audit_json("small.config", "--baseline", "base.json", cwd=tmp_path)
    assert again["findings"] == [] and again["baselined"] > 0
    proc = audit("small.config", "--format", "sarif", cwd=tmp_path)
    sarif = json.loads(proc.stdout)
    validate_sarif(sarif)
    assert proc.returncode == 1 and {r["ruleId"] for r in sarif["runs"][0]["results"]} >= {"PKK205", "PKK210"}
    assert audit("small.config", "--fail-on", "error", cwd=tmp_path).returncode == 0  # warnings and notes only


def test_list_rules() -> None:
    document = json.loads(audit("--list-rules", "--format", "json").stdout)
    ids = [r["id"] for r in document["rules"]]
    assert ids == sorted(ids) and len(ids) == len(set(ids)) and all(i.startswith("PKK") for i in ids)
    assert all(r["source"] and r["summary"] and r["fix"] and r["option"] for r in document["rules"])


# Bad input.


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("notes.txt", b"just some text\nwith two lines\n", "no CONFIG_ lines, not a kernel config"),
        ("garbage.bin", bytes(range(256)) * 4, "binary data, not a kernel config"),
        ("empty", b"", "empty file, not a kernel config"),
        ("cut.gz", gzip.compress(b"CONFIG_ARM64=y\n" * 500)[:40], "broken gzip data"),
        ("cut.xz", lzma.compress(b"CONFIG_ARM64=y\n" * 500)[:40], "broken xz data"),
        ("dir", None, "is a directory"),
        ("missing", "absent", "No such file or directory"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, name: str, content: bytes | None, reason: str) -> None:
    path = tmp_path / name
    if content is None:
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    proc = audit(path)
    assert proc.returncode == 2 and proc.stdout == "", proc.stderr
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith(f"portkit: error: {path}: ")
    assert reason in proc.stderr


def test_problem_lines_are_one_warning_each_and_the_rest_counts(tmp_path: Path) -> None:
    config = tmp_path / "odd.config"
    config.write_text(
        "# Linux/arm64 6.1.0 Kernel Configuration\n"
        "CONFIG_ARM64=y\n"
        "this line is not kconfig\n"
        "CONFIG_COMPAT=y\n"
        "CONFIG_COMPAT=n\n"
        'CONFIG_BAD="unterminated\n'
        "CONFIG_KUSER_HELPERS=y\n"
    )
    proc = audit(config, "--format", "json", "--fail-on", "never")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    warnings = proc.stderr.splitlines()
    assert [w.split(": ", 3)[2].split(":")[1] for w in warnings] == ["3", "5", "6"], warnings
    assert all(w.startswith(f"portkit: warning: {config}:") for w in warnings)
    document = json.loads(proc.stdout)
    assert len(document["problems"]) == 3 and document["kernel"]["arch"] == "arm64"
    assert checks(document)["PKK201"]["actual"] == "n" and checks(document)["PKK201"]["line"] == 5


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("CONFIG_COMPAT=y\n", "no architecture symbol"),
        ("CONFIG_ARM64=y\nCONFIG_ARM=y\n", "more than one architecture: CONFIG_ARM64 (line 1), CONFIG_ARM (line 2)"),
        ("# Linux/arm 6.1.0 Kernel Configuration\nCONFIG_ARM64=y\n", "the header names Linux/arm but CONFIG_ARM64"),
    ],
)
def test_unknown_or_contradictory_architecture(tmp_path: Path, text: str, problem: str) -> None:
    (tmp_path / "c").write_text(text)
    proc = audit(tmp_path / "c", "--format", "json", "--fail-on", "never")
    assert proc.returncode == 0 and proc.stderr.count("\n") == 1 and problem in proc.stderr, proc.stderr
    document = json.loads(proc.stdout)
    assert document["kernel"]["arch"] is None
    assert checks(document)["PKK201"]["result"] == "SKIP: arm64 only, and the architecture is unknown"


def test_help_shows_examples_and_a_missing_mode_is_one_line() -> None:
    for args in (["audit"], ["audit", "kconfig"]):
        proc = subprocess.run(
            [sys.executable, "-m", "portkit", *args, "--help"], capture_output=True, text=True, timeout=60
        )
        examples = proc.stdout.split("examples:")
        assert proc.returncode == 0 and len(examples) == 2 and f"portkit {' '.join(args)}" in examples[1]
    proc = subprocess.run([sys.executable, "-m", "portkit", "audit"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert proc.stderr.startswith("portkit: error: audit: the following arguments are required: MODE")
