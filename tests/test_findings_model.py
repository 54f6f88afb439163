"""The findings model: severities, and findings to JSON and back."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from findings_samples import MODELS, finding
from portkit.core.errors import BadInput
from portkit.findings.model import Finding, Location, Severity


def test_severities_are_ordered_and_named_as_sarif_levels() -> None:
    assert Severity.NOTE < Severity.WARNING < Severity.ERROR
    assert [s.label for s in Severity] == ["note", "warning", "error"]
    assert Severity.from_label("warning") is Severity.WARNING
    with pytest.raises(ValueError, match="'fatal' is not a severity"):
        Severity.from_label("fatal")


def test_a_finding_round_trips_through_json() -> None:
    original = finding("PK201", "src/wire.c", 12, 5, 17, severity=Severity.ERROR)
    data = original.to_json()
    assert data == {
        "rule": "PK201",
        "severity": "error",
        "location": {"path": "src/wire.c", "line": 12, "column": 5, "end_line": 12, "end_column": 17},
        "message": original.message,
        "fix": "declare it `intptr_t`",
        "models": list(MODELS),
    }
    assert Finding.from_json(json.loads(json.dumps(data))) == original


def test_reading_a_document_finding_ignores_its_fingerprint() -> None:
    original = finding()
    assert Finding.from_json({**original.to_json(), "fingerprint": "ab" * 32}) == original


def test_an_audit_finding_has_no_models() -> None:
    audit = Finding("PK901", Severity.NOTE, Location("vmlinux", 0, 0, 0, 0), "no compat vDSO", "enable it")
    assert audit.models == ()
    assert Finding.from_json(audit.to_json()) == audit


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"severity": "fatal"}, "'fatal' is not a severity"),
        ({"models": ["ILP32"]}, "models is"),
        ({"rule": 101}, "'rule' missing or not a str"),
        ({"location": {"path": "a.c", "line": -1, "column": 1, "end_line": 1, "end_column": 2}}, "whole numbers"),
        ({"location": {"path": "a.c", "line": True, "column": 1, "end_line": 1, "end_column": 2}}, "whole numbers"),
        ({"location": []}, "location: not a JSON object"),
    ],
)
def test_a_malformed_finding_is_one_line_of_bad_input(change: dict, reason: str) -> None:
    with pytest.raises(BadInput, match=reason) as caught:
        Finding.from_json({**finding().to_json(), **change})
    assert "\n" not in str(caught.value)


text = st.text(max_size=40)
whole = st.integers(min_value=0, max_value=2**31)
locations = st.builds(Location, text, whole, whole, whole, whole)
findings = st.builds(
    Finding,
    rule=st.from_regex(r"PK[0-9]{3}", fullmatch=True),
    severity=st.sampled_from(Severity),
    location=locations,
    message=text,
    fix=text,
    models=st.one_of(st.just(()), st.tuples(text, text)),
)


@given(findings)
def test_any_finding_round_trips(original: Finding) -> None:
    assert Finding.from_json(json.loads(json.dumps(original.to_json()))) == original


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=20,
)


@given(st.one_of(json_values, st.builds(lambda f, k, v: {**f.to_json(), k: v}, findings, text, json_values)))
def test_any_json_is_a_finding_or_one_line_of_bad_input(data: object) -> None:
    try:
        Finding.from_json(data)
    except BadInput as err:
        assert "\n" not in str(err)
