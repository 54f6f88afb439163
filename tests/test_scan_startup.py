"""What `portkit scan` does before its first file: libclang loading on a thread
while the command is imported, and nothing imported that the run does not use."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import run_portkit

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
