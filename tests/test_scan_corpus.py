"""`portkit scan` against its labelled corpus (tests/data/scan, tests/scan_corpus.py):
every `want` label found, nothing else reported. With test_scan_fixture_truth.py,
which proves that a runnable fixture behaves differently on AArch32 and AArch64
exactly when it carries labels, this is "where the outputs differ, the rule that
explains it fires; where they agree, nothing does"."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

import scan_corpus as corpus

FIXTURES = corpus.fixtures()


@pytest.fixture(scope="module")
def reported() -> dict[Path, set[tuple[int, str]]]:
    """(line, rule) per file, from one scan per model pair over the whole corpus."""
    groups: dict[tuple[str, ...], list[Path]] = defaultdict(list)
    for fx in [*FIXTURES, corpus.load(corpus.DEMO)]:
        groups[fx.scan_args].append(fx.path)
    found: dict[Path, set[tuple[int, str]]] = defaultdict(set)
    for args, paths in groups.items():
        command = [sys.executable, "-m", "portkit", "scan", "--format", "json", "--fail-on", "never", *args]
        proc = subprocess.run(
            [*command, *map(str, paths)],
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
        assert proc.stderr == "", f"the corpus must parse cleanly:\n{proc.stderr}"
        for f in json.loads(proc.stdout)["findings"]:
            found[Path(f["location"]["path"]).resolve()].add((f["location"]["line"], f["rule"]))
    return found


@pytest.mark.parametrize("fx", FIXTURES, ids=str)
def test_scan_finds_exactly_the_labels(fx: corpus.Fixture, reported: dict) -> None:
    mismatch = fx.mismatch(reported.get(fx.path.resolve(), set()))
    assert not mismatch, "\n" + mismatch


def test_the_demo_project(reported: dict) -> None:
    demo = corpus.load(corpus.DEMO)
    mismatch = demo.mismatch(reported.get(demo.path.resolve(), set()))
    assert not mismatch, "\n" + mismatch


def test_recall_and_false_findings_over_the_corpus(reported: dict) -> None:
    """The issue's bar: at least 95% of labelled defects, no finding on correct code."""
    labels = sum(len(fx.expected) for fx in FIXTURES)
    hits = sum(len(fx.expected & reported.get(fx.path.resolve(), set())) for fx in FIXTURES)
    false = sum(len(reported.get(fx.path.resolve(), set()) - fx.expected) for fx in FIXTURES)
    assert hits / labels >= 0.95 and false == 0, f"recall {hits}/{labels}, {false} false findings"
