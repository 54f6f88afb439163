"""A large unit's rules shared between the worker and children forked beside
it (engine._check: the rules at home and clang's diagnostics beside the
walk, then half of the target's rules beside the other half) find what they
find in one process: every fixture of the labelled corpus scanned both ways."""

from __future__ import annotations

import pytest

from portkit.commands.scan import engine
from portkit.commands.scan.engine import ScanJob, scan_unit
from portkit.commands.scan.models import probe_pair, resolve_abi
from portkit.commands.scan.rules import CHECKS, RULES
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
    monkeypatch.setattr(engine, "HOME_BESIDE_BYTES", 0)
    monkeypatch.setattr(engine, "spare_workers", lambda: 1)  # a scan's last file, the other worker done
    monkeypatch.setattr(engine, "Beside", Recorded)
    shared = scan_unit(job)
    # the rules at home and the diagnostics in one child, half the target's rules in another; each came back
    assert len(answers) == 2 and None not in answers
    assert sorted(map(repr, shared.findings)) == sorted(map(repr, alone.findings))
    assert shared.expansions == alone.expansions
    assert shared.errors == alone.errors and shared.incomplete == alone.incomplete
    assert sorted(map(repr, shared.included)) == sorted(map(repr, alone.included))


@pytest.mark.parametrize("fx", [f for f in fixtures() if f.family in ("8-arch", "7-calls")], ids=str)
def test_a_share_whose_child_died_is_done_in_the_worker(fx: Fixture, monkeypatch: pytest.MonkeyPatch) -> None:
    source, target = fx.models
    pair = probe_pair(resolve_abi(source, "--from"), resolve_abi(target, "--to"), None)
    job = ScanJob(fx.path, fx.path.read_text(), fx.cflags, pair, None, frozenset(rule.id for rule in RULES))
    alone = scan_unit(job)

    class Died(engine.Beside):
        def result(self):  # type: ignore[no-untyped-def]
            super().result()
            return None

    monkeypatch.setattr(engine, "SPLIT_NODES", 0)
    monkeypatch.setattr(engine, "HOME_BESIDE_BYTES", 0)
    monkeypatch.setattr(engine, "spare_workers", lambda: 1)
    monkeypatch.setattr(engine, "Beside", Died)
    again = scan_unit(job)
    assert sorted(map(repr, again.findings)) == sorted(map(repr, alone.findings))
    assert again.expansions == alone.expansions and again.errors == alone.errors


def test_checks_that_share_work_with_the_conversions_stay_with_them() -> None:
    """PK703 reads the variadic functions' va_arg reads that PK702, a check of
    conversions, works out, and PK103 reads casts as PK102 and PK702 do:
    forked apart, the child would ask again what the worker knows."""
    by_id = {check.rule.id: check for check in CHECKS}
    beside = {c.rule.id for c in engine._beside_conversions(list(by_id.values()))}
    assert not {"PK702", "PK703", "PK101", "PK103"} & beside
    assert {"PK601", "PK402", "PK403", "PK401"} <= beside
    # without PK702 (a unit that never names va_arg) nothing holds PK703 back
    alone = engine._beside_conversions([c for c in by_id.values() if c.rule.id != "PK702"])
    assert "PK703" in {c.rule.id for c in alone}


def test_no_child_for_the_rules_while_every_worker_has_a_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """While files wait for a worker, both CPUs have one: a child would only
    add to the CPU time the other worker needs (and ask again what this one
    knows)."""
    fx = next(f for f in fixtures() if f.family == "6-loops")
    source, target = fx.models
    pair = probe_pair(resolve_abi(source, "--from"), resolve_abi(target, "--to"), None)
    job = ScanJob(fx.path, fx.path.read_text(), fx.cflags, pair, None, frozenset(rule.id for rule in RULES))
    forked: list[object] = []

    class Counted(engine.Beside):
        def __init__(self, work):  # type: ignore[no-untyped-def]
            forked.append(work)
            super().__init__(work)

    monkeypatch.setattr(engine, "SPLIT_NODES", 0)
    monkeypatch.setattr(engine, "HOME_BESIDE_BYTES", 0)
    monkeypatch.setattr(engine, "Beside", Counted)
    monkeypatch.setattr(engine, "spare_workers", lambda: 0)
    scan_unit(job)
    assert forked == []
    forked.clear()
    monkeypatch.setattr(engine, "spare_workers", lambda: 1)
    scan_unit(job)
    assert len(forked) == 2
