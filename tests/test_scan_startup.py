"""What `portkit scan` does before its first file: libclang loading on a thread
while the command is imported, and nothing imported that the run does not use."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from conftest import run_portkit
from portkit.cparse.libclang import matched_debian_libclang, unloaded_choice

CAST = "long keep(void *p) { return (int) p; }\n"


def test_an_unloadable_libclang_is_one_line_and_exit_3(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text(CAST)
    env = {"LIBCLANG_LIBRARY_PATH": str(tmp_path / "nowhere"), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    proc = run_portkit("scan", "--no-cache", "a.c", cwd=tmp_path, env=env)
    assert proc.returncode == 3
    assert proc.stderr.startswith("portkit: error: cannot load libclang: ") and proc.stderr.count("\n") == 1


def test_a_plain_scan_leaves_the_fixing_code_unimported(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text(CAST)
    script = (
        "import sys\n"
        "from portkit.cli import main\n"
        "code = main(['scan', '--no-cache', '--format', 'json', '-o', 'out.json', 'a.c'])\n"
        "print(code, 'portkit.commands.scan.fix' in sys.modules, 'portkit.commands.audit.command' in sys.modules)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.stdout.split() == ["1", "False", "False"], proc.stderr
    assert [f["rule"] for f in json.loads((tmp_path / "out.json").read_text())["findings"]] == ["PK101"]


def test_loading_early_then_using_it(tmp_path: Path) -> None:
    script = (
        "from portkit.cparse.libclang import cindex, load_early\n"
        "wait = load_early()\n"
        "ci = cindex()\n"
        "wait()\n"
        "again = load_early()\n"
        "again()\n"
        "print(ci._portkit_loaded, ci.Index.create() is not None)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.stdout.split() == ["True", "True"], proc.stderr


def test_help_and_list_rules_still_exit_cleanly(tmp_path: Path) -> None:
    for args in (["scan", "--help"], ["scan", "--list-rules"], ["scan", "--no-such-option"]):
        proc = run_portkit(*args, cwd=tmp_path)
        assert "Traceback" not in proc.stderr and proc.returncode in (0, 2), (args, proc.stderr)


def test_the_command_process_imports_no_rule_and_loads_no_libclang(tmp_path: Path) -> None:
    """The rules and the walk are imported by the workers' parent (a host
    forked as portkit starts), libclang loaded there: the command's own
    process reads the input and writes the report only."""
    (tmp_path / "a.c").write_text(CAST)
    script = (
        "import sys\n"
        "from portkit.cli import main\n"
        "code = main(['scan', '--no-cache', '--format', 'json', '-o', 'out.json', 'a.c'])\n"
        "names = ('portkit.commands.scan.rules', 'portkit.commands.scan.engine', 'portkit.cparse.walk')\n"
        "loaded = getattr(sys.modules.get('clang.cindex'), 'Config', None)\n"
        "print(code, *(n in sys.modules for n in names), bool(loaded and loaded.loaded))\n"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    first = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert first.stdout.split()[0] == "1", first.stderr  # the first run keeps the rules' data and the models
    proc = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert proc.stdout.split() == ["1", "False", "False", "False", "False"], proc.stderr
    assert [f["rule"] for f in json.loads((tmp_path / "out.json").read_text())["findings"]] == ["PK101"]


def test_the_builtin_headers_named_without_loading_libclang_are_the_loaded_ones() -> None:
    script = (
        "from portkit.cparse.libclang import chosen_builtin_headers, cindex, loaded_builtin_headers, library_file\n"
        "named, library = chosen_builtin_headers(), library_file()\n"
        "ci = cindex()\n"
        "print(named == loaded_builtin_headers(ci), library == library_file(), named is not None)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert proc.stdout.split() == ["True", "True", "True"], proc.stderr


def test_output_piped_to_a_reader_that_stops_early(tmp_path: Path) -> None:
    """The program leaves with os._exit once its output is flushed: a reader
    that went away is still no traceback, and the exit code stands."""
    (tmp_path / "a.c").write_text("".join(f"long keep{n}(void *p) {{ return (int) p; }}\n" for n in range(200)))
    shell = f"{sys.executable} -m portkit scan --no-cache a.c | head -1; echo ${{PIPESTATUS[0]}}"
    proc = subprocess.run(["bash", "-c", shell], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert "Traceback" not in proc.stderr and proc.stdout.splitlines()[-1] == "1", proc.stderr


def test_bindings_another_thread_is_importing_count_as_not_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    """scan's two model probes run on two threads: one may find the other's
    clang.cindex half imported (no Config yet); that is no choice made."""
    monkeypatch.delenv("LIBCLANG_LIBRARY_PATH", raising=False)
    monkeypatch.setitem(sys.modules, "clang.cindex", types.ModuleType("clang.cindex"))
    assert unloaded_choice() == matched_debian_libclang() is not None


def test_what_the_command_and_its_host_both_need_is_there_before_the_fork(tmp_path: Path) -> None:
    """scan's jobs, models and cache, and libclang when the command reads a
    compile database with it, are loaded once, before the host is forked,
    which inherits them; without a database the command loads no libclang."""
    (tmp_path / "a.c").write_text(CAST)
    entry = {"directory": str(tmp_path), "file": "a.c", "arguments": ["cc", "-c", "a.c"]}
    (tmp_path / "compile_commands.json").write_text(json.dumps([entry]))
    script = (
        "import sys\n"
        "from portkit.core import workers\n"
        "seen = []\n"
        "init = workers.Host.__init__\n"
        "def recording(self, prepare):\n"
        "    config = getattr(sys.modules.get('clang.cindex'), 'Config', None)\n"
        "    seen.append((bool(config and config.loaded), 'portkit.commands.scan.cache' in sys.modules))\n"
        "    init(self, prepare)\n"
        "workers.Host.__init__ = recording\n"
        "from portkit.cli import main\n"
        "code = main(['scan', '--no-cache', '--format', 'json', '-o', 'out.json', *sys.argv[1:]])\n"
        "print(code, *seen[0])\n"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    for args, loaded in ((["-p", "."], "True"), (["a.c"], "False")):
        proc = subprocess.run(
            [sys.executable, "-c", script, *args], cwd=tmp_path, capture_output=True, text=True, env=env
        )
        assert proc.stdout.split() == ["1", loaded, "True"], (args, proc.stderr)
        assert [f["rule"] for f in json.loads((tmp_path / "out.json").read_text())["findings"]] == ["PK101"]
