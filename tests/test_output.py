"""core.output and core.fit: files written as a shell's `>` would (umask,
atomically, one line for anything in the way) and text fitted to a terminal."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.text import Text

from portkit.core.errors import BadInput
from portkit.core.fit import Columns, wrap_line
from portkit.core.output import current_umask, output_directory, render_text, write_atomically
from terminal import run_on_terminal


@pytest.fixture
def umask():
    """Sets the umask for one test and puts it back."""
    saved = os.umask(0o022)
    yield lambda mask: os.umask(mask)
    os.umask(saved)


@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_a_new_file_gets_the_mode_the_umask_allows(tmp_path, umask, mask, mode):
    umask(mask)
    assert current_umask() == mask
    write_atomically(tmp_path / "out.sarif", "{}\n")
    assert stat.S_IMODE((tmp_path / "out.sarif").stat().st_mode) == mode
    assert (tmp_path / "out.sarif").read_text() == "{}\n"


def test_a_replaced_file_keeps_its_mode(tmp_path, umask):
    umask(0o022)
    target = tmp_path / "report.txt"
    target.write_text("old\n")
    target.chmod(0o640)
    write_atomically(target, "new\n")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640 and target.read_text() == "new\n"


def test_nothing_is_left_beside_the_file(tmp_path):
    write_atomically(tmp_path / "a.json", "x")
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("dir", "-o {p}/dir: is a directory (give a file name)"),
        ("missing/x.json", "-o {p}/missing/x.json: {p}/missing does not exist"),
        ("file/x.json", "-o {p}/file/x.json: {p}/file is not a directory"),
    ],
)
def test_a_path_in_the_way_is_one_line(tmp_path, name, reason):
    (tmp_path / "dir").mkdir()
    (tmp_path / "file").write_text("")
    with pytest.raises(BadInput) as err:
        write_atomically(tmp_path / name, "x")
    assert str(err.value) == reason.format(p=tmp_path)


def test_an_unwritable_directory_is_one_line(tmp_path):
    with pytest.raises(BadInput, match=r"^--to /proc/x\.png: cannot write there \("):
        write_atomically(Path("/proc/x.png"), "x", option="--to")


def test_an_output_directory_is_made_or_refused_in_one_line(tmp_path):
    assert output_directory(tmp_path / "a" / "b").is_dir()
    (tmp_path / "f").write_text("")
    with pytest.raises(BadInput, match=r": is a file, not a directory$"):
        output_directory(tmp_path / "f")
    with pytest.raises(BadInput, match=r"cannot create the directory \(Not a directory\)$"):
        output_directory(tmp_path / "f" / "sub")
    with pytest.raises(BadInput, match=r"^-o /proc/nope: cannot create the directory \("):
        output_directory(Path("/proc/nope"))


REASON = "the lockup detector runs timer callbacks in hard-interrupt context every few seconds"


def _table() -> Columns:
    rows = [["PKK114", "CONFIG_LOCKUP_DETECTOR", "y", REASON], ["PKK1", "X", "n", "short"]]
    return Columns(["rule", "option", "actual", "reason"], rows, wrap=3)


def test_a_table_is_whole_without_a_width():
    lines = _table().text(None).plain.splitlines()
    assert len(lines) == 3 and lines[1].endswith(REASON)


def test_a_table_folds_its_last_column_under_itself_on_a_narrow_terminal():
    lines = _table().text(72).plain.splitlines()
    assert max(map(len, lines)) <= 72 and len(lines) > 3
    start = lines[0].index("reason")
    assert lines[1].startswith("PKK114") and lines[2][:start].strip() == ""  # a continuation
    folded = " ".join(line[start:].strip() for line in lines[1:-1])
    assert folded == REASON


def test_a_table_too_wide_to_fold_readably_stays_whole():
    assert _table().text(30).plain.splitlines()[1].endswith(REASON)


@settings(max_examples=300, deadline=None)
@given(
    words=st.lists(st.text(alphabet="abcdefghij", min_size=1, max_size=30), min_size=1, max_size=40),
    indent=st.integers(0, 6),
    width=st.integers(20, 120),
)
def test_a_folded_line_keeps_every_word_in_order_within_the_width(words, indent, width):
    line = " " * indent + " ".join(words)
    pieces = [p.plain for p in wrap_line(Text(line), width)]
    assert " ".join(p.strip() for p in pieces).split() == words
    for piece in pieces:
        assert len(piece) <= width or " " not in piece.strip()  # only a single long word overflows
    for piece in pieces[1:]:
        assert piece.startswith(" " * (indent + 2))


def test_render_text_folds_lines_on_a_terminal_and_not_in_a_file():
    long = "warning: " + "word " * 40
    assert render_text([long], None).splitlines() == [long.rstrip()]
    folded = render_text([long, Text("x" * 200, no_wrap=True)], 50).splitlines()
    assert all(len(line) <= 50 for line in folded[:-1]) and folded[-1] == "x" * 200


def test_a_report_fits_an_80_column_terminal():
    screen = run_on_terminal(["layout", "--types", "--abi", "armhf", "--abi", "aarch64"], columns=80)
    assert screen.returncode == 0
    assert max(len(line) for line in screen.lines) <= 80


def _slow_agent(tmp_path: Path) -> Path:
    """An agent that takes three seconds to answer `cpu`."""
    agent = tmp_path / "slow-agent"
    document = '{"schema":"portkit.cpu/1","agent":{"arch":"x86_64"},"features":[]}'
    agent.write_text(f"#!/bin/sh\nsleep 3\necho '{document}'\n")
    agent.chmod(0o755)
    return agent


def test_a_long_agent_run_shows_how_long_it_has_run_on_a_terminal(tmp_path):
    screen = run_on_terminal(["cpu", "--agent", str(_slow_agent(tmp_path)), "--format", "json"])
    assert "cpu on local: 2 s" in screen.raw
    assert screen.lines[0].startswith("{")  # the line is gone before the output


def test_no_progress_line_with_quiet(tmp_path):
    screen = run_on_terminal(["cpu", "--agent", str(_slow_agent(tmp_path)), "--format", "json", "-q"])
    assert "cpu on local" not in screen.raw


def test_a_status_line_on_a_terminal_that_reports_no_width_keeps_its_text():
    import io

    from portkit.core.progress import StatusLine

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

        def fileno(self) -> int:  # a pty whose size was never set reports 0 columns
            raise OSError("no size")

    screen = Terminal()
    StatusLine(screen).show("scan: 1/2 files")
    assert screen.getvalue().endswith("scan: 1/2 files")


def test_a_warning_folds_on_a_terminal_and_stays_whole_in_a_pipe(tmp_path):
    sources = tmp_path / " ".join(["a", "long", "directory", "name"] * 4)
    sources.mkdir()
    (sources / "a.c").write_text('#include "config.h"\nint x;\n')
    screen = run_on_terminal(["scan", sources.name], columns=60, cwd=tmp_path)
    folded = [line for line in screen.lines if line.strip()]
    assert folded[0].startswith("portkit: warning:") and folded[1].startswith("  ")
    assert all(len(line) <= 60 for line in folded)
    piped = subprocess.run([sys.executable, "-m", "portkit", "scan", str(sources)], capture_output=True, text=True)
    assert piped.stderr.splitlines()[0].endswith("'config.h' file not found")
