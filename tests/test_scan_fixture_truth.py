"""Ground truth for the `portkit scan` corpus (tests/data/scan/), from real
cross compilers and qemu-user and without portkit itself:

- every fixture compiles for both data models of its pair (arm-linux-gnueabihf
  for ILP32, aarch64-linux-gnu for LP64, x86_64-w64-mingw32 for LLP64);
- every runnable fixture, built statically at -O0 and run under qemu-arm and
  qemu-aarch64, prints something different on the two targets exactly when it
  carries `want` labels (the defects show), and the same when it has none (the
  idioms are right);
- the corpus is well-formed: known rule ids only, each rule with positive and
  negative cases, at least 60 files besides ivi-report/.

The labels and helpers are in scan_corpus.py, which the test of `portkit scan`
shares.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

import scan_corpus as corpus
from conftest import _missing

FIXTURES = corpus.fixtures()
RUNNABLE = [fx for fx in FIXTURES if fx.runnable]


@dataclass(frozen=True)
class Outcome:
    build: corpus.Build
    run: corpus.Run | None  # None: not runnable, or the build failed


def _build_and_run(fx: corpus.Fixture, triple: str, out: Path) -> Outcome:
    build = corpus.build(fx, triple, out)
    if build.returncode != 0 or not fx.runnable:
        return Outcome(build, None)
    return Outcome(build, corpus.run(build))


@pytest.fixture(scope="session")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Outcome]:
    """(fixture name, triple) -> what building and running it gave. All of it at
    once in a pool: a compiler or qemu process per job, so threads suffice."""
    missing = corpus.missing_tools(FIXTURES)
    if missing:
        _missing(", ".join(missing))
    out = tmp_path_factory.mktemp("scan-corpus")
    jobs = [(fx, triple) for fx in FIXTURES for triple in fx.triples]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        done = list(pool.map(lambda job: _build_and_run(*job, out), jobs))
    return {(fx.name, triple): outcome for (fx, triple), outcome in zip(jobs, done, strict=True)}


# ---------------------------------------------------------------- the corpus is well-formed


def test_corpus_has_every_family_and_enough_files() -> None:
    names = {fx.family for fx in FIXTURES}
    assert names == {*corpus.FAMILIES.values(), "ivi-report"}
    assert len(corpus.fixtures(field_report=False)) >= 60
    assert len(RUNNABLE) >= 30
    assert any(fx.cxx for fx in FIXTURES)


def test_every_label_names_a_rule() -> None:
    unknown = [
        f"{fx.name}:{line}: {rule}"
        for fx in FIXTURES
        for table in (fx.want, fx.ok)
        for line, rules in table.items()
        for rule in rules
        if rule not in corpus.RULES
    ]
    assert unknown == []


def test_every_rule_has_positive_and_negative_cases() -> None:
    positive = {rule for fx in FIXTURES for rules in fx.want.values() for rule in rules}
    negative = {rule for fx in FIXTURES for rules in fx.ok.values() for rule in rules}
    assert sorted(set(corpus.RULES) - positive) == []
    assert sorted(set(corpus.RULES) - negative) == []


def test_a_line_is_never_both_wanted_and_ok_for_one_rule() -> None:
    both = [
        f"{fx.name}:{line}: {sorted(fx.want[line] & fx.ok[line])}"
        for fx in FIXTURES
        for line in fx.want.keys() & fx.ok.keys()
        if fx.want[line] & fx.ok[line]
    ]
    assert both == []


def test_file_names_say_whether_a_fixture_has_defects() -> None:
    """ok_*.c holds only correct code; every other file (ivi-report/correct.c aside) has a defect."""
    for fx in FIXTURES:
        if fx.path.name.startswith("ok_") or fx.name == "ivi-report/correct.c":
            assert not fx.want, fx.name
        else:
            assert fx.want, fx.name


def test_each_file_exercises_its_own_family() -> None:
    """A fixture sits in the folder of the family it is about (rule PKnxx in 'n-...')."""
    for fx in corpus.fixtures(field_report=False):
        rules = {rule for table in (fx.want, fx.ok) for rules in table.values() for rule in rules}
        assert any(corpus.FAMILIES[rule[2]] == fx.family for rule in rules), fx.name


def test_directives_are_where_they_belong() -> None:
    for fx in FIXTURES:
        if "scan-args" in fx.directive_lines:
            assert fx.directive_lines["scan-args"] == 1, fx.name
        source, target = fx.models
        assert source in corpus.MODELS and target in corpus.MODELS, fx.name
        assert fx.models != corpus.DEFAULT_PAIR or not fx.scan_args, f"{fx.name}: scan-args repeats the default"


def test_labels_are_read_from_comments_only() -> None:
    text = (
        'printf("want: PK101");\n'
        "addr = (int) a; /* want: PK101 */\n"
        "x = y; // want: PK301 ok: PK302\n"
        "z = w; /* ok: PK601 */ /* want: PK602 */\n"
    )
    want, ok = corpus.parse_labels(text)
    assert want == {2: {"PK101"}, 3: {"PK301"}, 4: {"PK602"}}
    assert ok == {3: {"PK302"}, 4: {"PK601"}}


def test_the_field_report_pair() -> None:
    by_name = {fx.name: fx for fx in FIXTURES}
    incorrect, correct = by_name["ivi-report/incorrect.c"], by_name["ivi-report/correct.c"]
    assert incorrect.runnable and correct.runnable
    assert {"PK101", "PK102", "PK201", "PK302", "PK401", "PK402", "PK403", "PK501", "PK502"} <= {
        rule for rules in incorrect.want.values() for rule in rules
    }
    assert not correct.want


def test_the_legacy32_demo_is_labelled_like_the_corpus() -> None:
    demo = corpus.load(corpus.DEMO)
    assert demo.name == "examples/legacy32/src/legacy.c"
    labelled = {rule for rules in demo.want.values() for rule in rules}
    assert labelled <= set(corpus.RULES)
    assert {"PK101", "PK102", "PK201", "PK302", "PK401", "PK402", "PK403", "PK501"} <= labelled
    assert not demo.has_main  # a module: main.c stays the demo's only program


# ---------------------------------------------------------------- ground truth from compilers and qemu


@pytest.mark.parametrize("fx", FIXTURES, ids=str)
def test_fixture_compiles_for_both_models(fx: corpus.Fixture, outcomes: dict[tuple[str, str], Outcome]) -> None:
    for triple in fx.triples:
        build = outcomes[fx.name, triple].build
        assert build.returncode == 0, build.stderr


def test_the_legacy32_demo_compiles_with_its_headers(tmp_path: Path) -> None:
    demo = corpus.load(corpus.DEMO)
    missing = corpus.missing_tools([demo])
    if missing:
        _missing(", ".join(missing))
    for triple in demo.triples:
        build = corpus.build(demo, triple, tmp_path)
        assert build.returncode == 0, build.stderr


@pytest.mark.parametrize("fx", RUNNABLE, ids=str)
def test_outputs_differ_exactly_when_labelled(fx: corpus.Fixture, outcomes: dict[tuple[str, str], Outcome]) -> None:
    runs = []
    for triple in fx.triples:
        outcome = outcomes[fx.name, triple]
        assert outcome.run is not None, outcome.build.stderr
        # a crash is no deterministic result: every fixture runs to its end
        assert outcome.run.returncode == 0, f"{triple}: exit {outcome.run.returncode}\n{outcome.run.stderr}"
        assert outcome.run.stdout, f"{triple}: printed nothing"
        runs.append(outcome.run.stdout)
    source, target = runs
    if fx.want:
        assert source != target, f"labelled, yet both targets print:\n{source}"
    else:
        shown = "".join(f"--- {triple}\n{out}" for triple, out in zip(fx.triples, runs, strict=True))
        assert source == target, f"no labels, yet the targets differ:\n{shown}"
