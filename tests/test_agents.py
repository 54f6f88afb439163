"""Agents that come with the install: `pip install .` puts every
architecture's agent in the package, an installed portkit runs every target
from any directory, `portkit agents` lists them (checked against readelf),
and a build without a cross compiler says which agent is missing and why."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BUILD, ROOT, run_portkit
from portkit.core import agents
from portkit.core.arches import ARCHES, find_arch
from portkit.core.errors import EnvironmentProblem
from terminal import run_on_terminal

INSTALLED = Path(sys.executable).parent / "portkit"  # the console script pip installed


def installed_env() -> dict[str, str]:
    """The environment of a user of the installed portkit: no PYTHONPATH into a clone."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", agents.AGENT_DIR_VARIABLE)}


def installed(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    if not INSTALLED.exists():
        pytest.skip(f"{INSTALLED} is missing (make install)")
    return subprocess.run(
        [str(INSTALLED), *args], capture_output=True, text=True, cwd=cwd, env=installed_env(), timeout=300
    )


@pytest.mark.parametrize(
    ("target", "extra", "arch"),
    [
        ("local", (), "x86_64"),
        ("local", ("--agent-arch", "i686"), "i686"),
        ("qemu-aarch64", (), "aarch64"),
        ("qemu-arm", (), "arm"),
        ("qemu-mips64el", (), "mips64el"),
        ("qemu-mips", (), "mips"),
    ],
)
def test_an_installed_portkit_runs_every_target_outside_the_source_tree(
    tmp_path: Path, target: str, extra: tuple[str, ...], arch: str
) -> None:
    proc = installed("cpu", "--target", target, *extra, "--format", "json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["agent"]["arch"] == arch


def test_portkit_agents_lists_each_architectures_agent_as_readelf_sees_it(tmp_path: Path) -> None:
    proc = installed("agents", "--format", "json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    document = json.loads(proc.stdout)
    assert document["schema"] == "portkit.agents/1"
    assert [row["arch"] for row in document["agents"]] == [a.name for a in ARCHES]
    for row in document["agents"]:
        agent = row["agent"]
        assert agent is not None, f"no {row['arch']} agent: {row['missing']}"
        assert agent["origin"] == "installed" and "site-packages/portkit/agents" in agent["path"]
        path = Path(agent["path"])
        assert agent["bytes"] == path.stat().st_size
        header = subprocess.run(["readelf", "-h", str(path)], capture_output=True, text=True, check=True).stdout
        machine = next(line.split(":", 1)[1].strip() for line in header.splitlines() if "Machine:" in line)
        expected = {
            "x86_64": "Advanced Micro Devices X86-64",
            "i686": "Intel 80386",
            "aarch64": "AArch64",
            "arm": "ARM",
            "mips64el": "MIPS R3000",
            "mips": "MIPS R3000",
        }
        assert machine == expected[row["arch"]]
        assert ("ELF64" in header) == (find_arch(row["arch"]).data_model == "LP64")


def test_portkit_agents_fits_an_80_column_terminal(tmp_path: Path) -> None:
    screen = run_on_terminal(["agents"], columns=80, cwd=tmp_path)
    assert screen.returncode == 0
    assert all(len(line) <= 80 for line in screen.lines), "\n".join(screen.lines)


def test_portkit_agent_dir_comes_first(tmp_path: Path) -> None:
    source = BUILD / "aarch64-linux-gnu" / "portkit-target"
    if not source.exists():
        pytest.skip(f"{source} is missing (make cross)")
    (tmp_path / "aarch64-linux-gnu").mkdir()
    shutil.copy2(source, tmp_path / "aarch64-linux-gnu" / "portkit-target")
    proc = run_portkit("agents", "--format", "json", env={agents.AGENT_DIR_VARIABLE: str(tmp_path)})
    row = next(r for r in json.loads(proc.stdout)["agents"] if r["arch"] == "aarch64")
    assert row["agent"] == {
        "path": str(tmp_path / "aarch64-linux-gnu" / "portkit-target"),
        "bytes": source.stat().st_size,
        "origin": "PORTKIT_AGENT_DIR",
    }
    ran = run_portkit("cpu", "--target", "qemu-aarch64", env={agents.AGENT_DIR_VARIABLE: str(tmp_path)})
    assert ran.returncode == 0, ran.stderr


def test_a_build_without_a_cross_compiler_says_which_agent_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The package's CMake build (configured as pip's scikit-build-core does)
    on a PATH without aarch64-linux-gnu-gcc: a warning, and the manifest the
    installed portkit reads says what was missing; the error names it."""
    path = tmp_path / "bin"
    path.mkdir()
    for program in Path("/usr/bin").iterdir():
        if not program.name.startswith("aarch64-linux-gnu-"):
            (path / program.name).symlink_to(program)
    build = tmp_path / "build"
    proc = subprocess.run(
        [
            "cmake", "-S", ROOT, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
            f"-DSKBUILD_SCRIPTS_DIR={tmp_path / 'scripts'}", f"-DSKBUILD_PLATLIB_DIR={tmp_path / 'platlib'}",
        ],
        capture_output=True, text=True, env={**os.environ, "PATH": str(path)}, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    said = " ".join(proc.stderr.split())  # CMake folds its warnings
    assert "no aarch64-linux-gnu agent in this install: aarch64-linux-gnu-gcc was not found" in said
    manifest = json.loads((build / "agents-manifest.json").read_text())
    assert manifest["missing"] == {"aarch64-linux-gnu": "aarch64-linux-gnu-gcc was not found when portkit was built"}
    assert "arm-linux-gnueabihf" in manifest["built"] and "aarch64-linux-gnu" not in manifest["built"]

    monkeypatch.setattr(agents, "_manifest", lambda: manifest)
    monkeypatch.setattr(agents, "places", lambda: [agents.Place(tmp_path / "nowhere", agents.INSTALLED)])
    with pytest.raises(EnvironmentProblem) as raised:
        agents.find_agent(find_arch("aarch64"))
    assert str(raised.value) == (
        "no aarch64 agent: this portkit was built without it (aarch64-linux-gnu-gcc was not found when portkit "
        "was built)"
    )
    assert raised.value.hint is not None and "install gcc-aarch64-linux-gnu and reinstall portkit" in raised.value.hint


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--agent-arch", "sparc"), "--agent-arch sparc: unknown architecture"),
        (("--target", "qemu-aarch64", "--agent-arch", "armhf"), "qemu-aarch64 runs aarch64 programs only"),
        (("--agent", "x", "--agent-arch", "i686"), "--agent PATH and --agent-arch ARCH: one names the agent"),
    ],
)
def test_agent_arch_mistakes_are_one_line(args: tuple[str, ...], message: str) -> None:
    proc = run_portkit("cpu", *args)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and message in proc.stderr, proc.stderr


def test_host_commands_refuse_agent_arch(tmp_path: Path) -> None:
    proc = run_portkit("agents", "--agent-arch", "i686")
    assert proc.returncode == 2 and "runs on this host" in proc.stderr
