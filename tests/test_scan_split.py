"""A large unit's rules shared between the worker and a child forked beside
it (engine._check) find what they find in one process: every fixture of the
labelled corpus scanned both ways."""

from __future__ import annotations

import pytest

from portkit.commands.scan import engine
from portkit.commands.scan.engine import ScanJob, scan_unit
from portkit.commands.scan.models import probe_pair, resolve_abi
from portkit.commands.scan.rules import RULES
from scan_corpus import Fixture, fixtures


@pytest.mark.parametrize("fx", fixtures(), ids=str)
def test_shared_rules_find_what_one_process_finds(fx: Fixture, monkeypatch: pytest.MonkeyPatch) -> None:
    source, target = fx.models
    pair = probe_pair(resolve_abi(source, "--from"), resolve_abi(target, "--to"), None)
    job = ScanJob(fx.path, fx.path.read_text(), fx.cflags, pair, None, frozenset(rule.id for rule in RULES))
    alone = scan_unit(job)
    answers: list[object] = []

    class Recorded(engine.Beside):
        def result(self):  # type: ignore[no-untyped-def]
            answers.append(super().result())
            return answers[-1]

    monkeypatch.setattr(engine, "SPLIT_NODES", 0)
    monkeypatch.setattr(engine, "Beside", Recorded)
    shared = scan_unit(job)
    assert len(answers) == 1 and answers[0] is not None  # the child's share came back: no fallback here
    assert sorted(map(repr, shared.findings)) == sorted(map(repr, alone.findings))
    assert shared.expansions == alone.expansions
    assert shared.errors == alone.errors and shared.incomplete == alone.incomplete
    assert sorted(map(repr, shared.included)) == sorted(map(repr, alone.included))
