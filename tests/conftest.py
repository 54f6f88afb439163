"""Shared fixtures: where the built agents are and how to run them.

`make test` builds the host agent into build/host and the cross agents into
build/<triple>. In CI (CI=true) a missing agent or emulator fails the test
instead of skipping it: a missing tool must never pass as a green run.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType

import pytest

from portkit.core.arches import ARCHES

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"

# A test run that a shell without job control started in the background
# (`make test &` in a script) inherits Ctrl-C ignored, and so would every
# portkit the tests start: the tests that press Ctrl-C need it delivered.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# triple -> qemu-user program for every cross-built agent (None: i686 runs natively on this x86-64 machine)
EMULATORS: dict[str, str | None] = {
    arch.triple: None if arch.name == "i686" else arch.qemu for arch in ARCHES if arch.name != "x86_64"
}


def run_portkit(
    *args: str | Path,
    cwd: Path | None = None,
    timeout: float = 300,
    env: dict[str, str] | None = None,
    prefix: Sequence[str] = (),
) -> subprocess.CompletedProcess[str]:
    """`python -m portkit ARGS` as a user runs it (after `prefix`, e.g. setpriv):
    its exit code, stdout and stderr; env adds to this process's environment."""
    return subprocess.run(
        [*prefix, sys.executable, "-m", "portkit", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def load_tool(name: str) -> ModuleType:
    """tools/NAME.py, a developer's tool outside the installed package."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # as an import would: dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _missing(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{what} is missing; `make cross` and .ci/run must provide it")
    pytest.skip(f"{what} is missing (run `make cross`)")


@pytest.fixture(scope="session")
def host_agent() -> Path:
    path = BUILD / "host" / "portkit-target"
    if not path.exists():
        _missing(str(path))
    return path


@pytest.fixture(scope="session")
def cross_agent() -> Callable[[str, str | None], list[str]]:
    """Returns the command prefix that runs the agent built for a triple,
    e.g. ["qemu-aarch64", "-cpu", "max", "build/aarch64-linux-gnu/portkit-target"]."""

    def command(triple: str, cpu: str | None = None) -> list[str]:
        path = BUILD / triple / "portkit-target"
        if not path.exists():
            _missing(str(path))
        emulator = EMULATORS[triple]
        if emulator is None:
            return [str(path)]
        if shutil.which(emulator) is None:
            _missing(emulator)
        return [emulator, *(["-cpu", cpu] if cpu else []), str(path)]

    return command


def run(
    cmd: Sequence[str | os.PathLike[str]], *args: str, check_exit: int | None = 0
) -> subprocess.CompletedProcess[str]:
    """Runs a command, asserting its exit code when check_exit is not None."""
    proc = subprocess.run([*map(str, cmd), *args], capture_output=True, text=True, timeout=300)
    if check_exit is not None:
        assert proc.returncode == check_exit, f"exit {proc.returncode}\nstdout:{proc.stdout}\nstderr:{proc.stderr}"
    return proc


def run_json(cmd: Sequence[str | os.PathLike[str]], *args: str, check_exit: int | None = 0) -> dict:
    """Runs an agent command with --json and returns the parsed document."""
    proc = run(cmd, *args, "--json", check_exit=check_exit)
    return json.loads(proc.stdout)


SARIF_SCHEMA = ROOT / "tests" / "data" / "sarif" / "sarif-schema-2.1.0.json"


def validate_sarif(sarif: dict) -> None:
    """Asserts a document is valid SARIF 2.1.0 by the official schema (a copy in tests/data/sarif)."""
    import jsonschema

    schema = json.loads(SARIF_SCHEMA.read_text())
    validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(sarif)]
    assert errors == []


@pytest.fixture(scope="session")
def report_results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each area's result as the commands write it, made once for portkit report's tests (tests/report_samples.py)."""
    from report_samples import save_results

    return save_results(tmp_path_factory.mktemp("report-results"))
