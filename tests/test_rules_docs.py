"""The rules pages in docs/ are what tools/gen_rules_doc.py makes from the
rules, and it has a page for every command that reports findings."""

from __future__ import annotations

import argparse
import subprocess
import sys

from conftest import ROOT, load_tool


def findings_commands(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()) -> list[str]:
    """The commands and modes whose parser has --list-rules."""
    found = [" ".join(words)] if "--list-rules" in parser._option_string_actions else []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += findings_commands(sub, (*words, name))
    return found


def test_every_findings_command_has_its_rules_page() -> None:
    from portkit.cli import build_parser

    gen = load_tool("gen_rules_doc")
    assert sorted(page.command for page in gen.PAGES) == sorted(findings_commands(build_parser([])))
    assert len({page.path for page in gen.PAGES}) == len(gen.PAGES)


def test_the_rules_pages_are_generated_from_the_rules() -> None:
    proc = subprocess.run(
        [sys.executable, ROOT / "tools" / "gen_rules_doc.py", "--check"], capture_output=True, text=True, cwd=ROOT
    )
    assert proc.returncode == 0, proc.stderr


def test_a_stale_page_is_named(tmp_path) -> None:
    gen = load_tool("gen_rules_doc")
    for page in gen.PAGES:
        (tmp_path / page.path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / page.path).write_text(page.text())
    (tmp_path / gen.PAGES[1].path).write_text(gen.PAGES[1].text().replace("PKK101", "PKK999", 1))
    (tmp_path / gen.PAGES[2].path).unlink()
    assert gen.stale(tmp_path) == [gen.PAGES[1].path, gen.PAGES[2].path]
    assert gen.stale(ROOT) == []
