"""Board farms: lava/portkit.yaml validates against Debian's lava-common
schemas, lava/flatten.awk reads JSON as Python's json does (on mawk and on
busybox's awk, what a small board has), and lava/portkit-lava reports the
agent's own measurements as lava-test-case calls."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import BUILD, ROOT
from debian_packages import unpack

LAVA = ROOT / "lava"
SYSTEM_PYTHON = "/usr/bin/python3"  # Debian's, where lava-common's modules are


def _lava_common() -> None:
    proc = subprocess.run([SYSTEM_PYTHON, "-c", "import lava_common"], capture_output=True, check=False)
    if proc.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail("lava-common is missing (scripts/install-system-packages installs it)")
        pytest.skip("lava-common is missing")


def test_the_test_definition_is_valid_for_lava() -> None:
    _lava_common()
    check = (
        "import sys, yaml\n"
        "from lava_common.schemas.test.testdef import validate\n"
        "validate(yaml.safe_load(open(sys.argv[1])))\n"
    )
    proc = subprocess.run([SYSTEM_PYTHON, "-c", check, LAVA / "portkit.yaml"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    broken = LAVA / "portkit.yaml"  # the same schema refuses a definition without its format line
    text = broken.read_text().replace("format: Lava-Test Test Definition 1.0", "format: something else")
    proc = subprocess.run([SYSTEM_PYTHON, "-c", check, "/dev/stdin"], input=text, capture_output=True, text=True)
    assert proc.returncode != 0 and "format" in proc.stderr


def test_the_example_job_is_valid_for_lava() -> None:
    _lava_common()
    check = (
        "import sys, yaml\n"
        "from lava_common.schemas import validate\n"
        "validate(yaml.safe_load(open(sys.argv[1])), strict=True)\n"
    )
    for job in sorted(LAVA.glob("job-*.yaml")):
        proc = subprocess.run([SYSTEM_PYTHON, "-c", check, job], capture_output=True, text=True)
        assert proc.returncode == 0, f"{job}: {proc.stderr}"


@pytest.fixture(scope="module")
def awks(tmp_path_factory: pytest.TempPathFactory) -> list[list[str]]:
    """The system's awk (mawk on Debian) and busybox's, the one a small board has."""
    found = [[shutil.which("awk") or "awk"]]
    root = unpack(["busybox-static:amd64"], tmp_path_factory.mktemp("busybox"))
    found.append([str(root / "bin" / "busybox"), "awk"])
    return found


def flattened(document: object) -> list[tuple[str, str]]:
    """What flatten.awk must print, from Python's own reading of the document:
    keys and strings as JSON writes them between their quotes."""
    out: list[tuple[str, str]] = []

    def walk(path: str, value: object) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                written = json.dumps(key)[1:-1]
                walk(f"{path}.{written}" if path else written, item)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(f"{path}.{index}" if path else str(index), item)
        else:
            out.append((path, json.dumps(value)[1:-1] if isinstance(value, str) else json.dumps(value)))

    walk("", document)
    return out


def run_awk(awk: list[str], text: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*awk, "-f", str(LAVA / "flatten.awk")], input=text, capture_output=True, text=True)


KEYS = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x2FF, blacklist_characters="."), min_size=1)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.characters(min_codepoint=1, max_codepoint=0x2FF), max_size=20)
)
DOCUMENTS = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=25,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=st.dictionaries(KEYS, DOCUMENTS, min_size=1, max_size=5), compact=st.booleans())
def test_flatten_reads_json_as_python_does(awks: list[list[str]], document: dict, compact: bool) -> None:
    # the agent writes ASCII (each other byte as \\u00XX), compactly; indented JSON reads the same
    text = json.dumps(document, separators=(",", ":")) if compact else json.dumps(document, indent=1)
    expected = flattened(document)
    for awk in awks:
        proc = run_awk(awk, text)
        assert proc.returncode == 0, proc.stderr
        got = [tuple(line.split("\t", 1)) for line in proc.stdout.splitlines()]
        assert got == expected, awk


@pytest.mark.parametrize("text", ['{"a":', '{"a" 1}', "[1,2", '{"a":1}}', "", '{"a":[1,]x}'])
def test_flatten_refuses_what_is_not_json(awks: list[list[str]], text: str) -> None:
    for awk in awks:
        proc = run_awk(awk, text)
        assert proc.returncode == 2 and "not a JSON document" in proc.stderr, (awk, proc.stdout)


def test_the_agents_measurements_become_lava_test_cases(tmp_path: Path) -> None:
    """Each lava-test-case carries the value of the agent's own document (read back with Python's json)."""
    agent = BUILD / "host" / "portkit-target"
    if not agent.exists():
        pytest.skip(f"{agent} is missing (make native)")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "calls"
    fake = bin_dir / "lava-test-case"  # LAVA's own is a shell script that writes to the test shell's log
    fake.write_text(f'#!/bin/sh\nprintf "%s\\n" "$*" >> {calls}\n')
    fake.chmod(0o755)
    keep = tmp_path / "documents"
    env = {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "AGENT": str(agent),
        "BENCH_CALLS": "20000",
        "CRC32C_SIZES": "4k",
        "CPU_HAS": "sse2",
        "KEEP": str(keep),
    }
    measurements = ["cpu", "vdso", "vdso-verify", "vdso-bench", "crc32c-bench", "rt-sysinfo"]
    proc = subprocess.run([LAVA / "portkit-lava", *measurements], env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    cases = {line.split()[0]: line.split()[1:] for line in calls.read_text().splitlines()}
    assert cases["portkit-agent"] == ["--result", "pass"]
    cpu = json.loads((keep / "cpu.json").read_text())
    features = str(len(cpu["features"]))
    assert cases["cpu-features"] == ["--result", "pass", "--measurement", features, "--units", "features"]
    vdso = json.loads((keep / "vdso.json").read_text())
    assert cases["vdso-present"][:2] == ["--result", "pass"] and cases["vdso-present"][3] == str(len(vdso["symbols"]))
    assert cases["vdso-verify"] == ["--result", "pass"]
    bench = json.loads((keep / "vdso-bench.json").read_text())
    gettimeofday = next(f for f in bench["functions"] if f["name"] == "gettimeofday")
    assert float(cases["vdso-bench-gettimeofday-vdso"][3]) == gettimeofday["vdso"]["ns_per_call"]
    assert cases["vdso-bench-gettimeofday-syscall"][-1] == "ns"
    crc = json.loads((keep / "crc32c-bench.json").read_text())
    for result in crc["results"]:
        case = cases[f"crc32c-{result['implementation']}-{result['size']}"]
        assert float(case[3]) == result["gb_per_s"] and case[5] == "GB/s"
    sysinfo = json.loads((keep / "rt-sysinfo.json").read_text())
    assert cases["rt-preempt-rt"] == ["--result", "pass" if sysinfo["preemption"]["model"] == "rt" else "fail"]
    assert cases["rt-hz"][3] == str(sysinfo["hz"])


def test_no_agent_is_one_failed_case(tmp_path: Path) -> None:
    env = {**os.environ, "AGENT": str(tmp_path / "nowhere"), "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([LAVA / "portkit-lava", "cpu"], env=env, capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout == "lava-test-case portkit-agent fail\n"
    assert "no agent that runs here" in proc.stderr


def test_lava_dispatcher_validates_the_job_on_the_qemu_device_type(tmp_path: Path) -> None:
    """Debian's lava-dispatcher (fetched, not installed) builds and checks the
    job's whole pipeline against the qemu device dictionary lava-server renders."""
    _lava_common()
    proc = subprocess.run(
        [LAVA / "run-local", tmp_path], capture_output=True, text=True, timeout=900, env={**os.environ}
    )
    if proc.returncode == 3 and not os.environ.get("CI"):
        pytest.skip(proc.stderr.strip())
    assert proc.returncode == 0, proc.stderr
    assert '"case": "validate", "definition": "lava", "result": "pass"' in proc.stdout
    job = (tmp_path / "job.yaml").read_text()
    assert f"repository: {ROOT}" in job and "file:///var/cache" not in job
    device = (tmp_path / "device.yaml").read_text()
    assert "qemu-system-aarch64" in device and "-cpu cortex-a72" in device
