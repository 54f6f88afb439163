"""Inputs a command could not check completely (a parse stopped at a missing
#include): the summary line, the JSON document, SARIF's invocation, and the
exit code, which must not say "clean" for them: 3, the run could not do its
job, whatever --fail-on says, unless --allow-incomplete."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import validate_sarif
from findings_samples import finding, run_sample
from portkit.core.errors import BadInput
from portkit.findings.model import Incomplete

STOPPED = [Incomplete("a.c", "config.h not found", 1)]


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize("options", [(), ("--fail-on", "error"), ("--fail-on", "note"), ("--fail-on", "never")])
def test_an_incomplete_input_ends_the_run_with_exit_3(tmp_path: Path, options: tuple[str, ...]) -> None:
    assert run_sample([], *options, output=tmp_path / "out", incomplete=STOPPED)[0] == 3


@pytest.mark.parametrize(
    ("options", "code"), [((), 1), (("--fail-on", "error"), 0), (("--fail-on", "never"), 0), (("--fail-on", "note"), 1)]
)
def test_allow_incomplete_leaves_the_exit_to_the_findings(tmp_path: Path, options: tuple[str, ...], code: int) -> None:
    found = [finding()]  # a warning
    result = run_sample(found, "--allow-incomplete", *options, output=tmp_path / "out", incomplete=STOPPED)
    assert result[0] == code


def test_only_a_command_that_tracks_them_has_allow_incomplete(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="--allow-incomplete"):
        run_sample([], "--allow-incomplete", output=tmp_path / "out")


def test_without_incomplete_inputs_no_findings_pass(tmp_path: Path) -> None:
    assert run_sample([], output=tmp_path / "out", incomplete=[])[0] == 0


@pytest.mark.parametrize(
    ("incomplete", "line"),
    [
        (STOPPED, "no findings; 1 file not checked completely"),
        (
            [*STOPPED, Incomplete("b.c", "the parser was killed by SIGSEGV")],
            "no findings; 2 files not checked completely",
        ),
        ([], "no findings"),
        (None, "no findings"),
    ],
)
def test_the_summary_line_counts_them(tmp_path: Path, incomplete: list[Incomplete] | None, line: str) -> None:
    _, out = run_sample([], output=tmp_path / "out", incomplete=incomplete)
    assert out.splitlines()[-1] == line


def test_after_the_findings_and_what_is_hidden(tmp_path: Path) -> None:
    (tmp_path / "b.c").write_text("x; // portkit: ignore\n")
    findings = [finding(), finding(path="b.c")]
    _, out = run_sample(findings, output=tmp_path / "out", incomplete=STOPPED)
    assert out.splitlines()[-1] == "1 finding (1 warning) in 1 file; 1 suppressed; 1 file not checked completely"


def test_the_json_document_lists_them(tmp_path: Path) -> None:
    _, out = run_sample([], "--format", "json", output=tmp_path / "out", incomplete=STOPPED)
    document = json.loads(out)
    assert document["incomplete"] == [{"path": "a.c", "line": 1, "reason": "config.h not found"}]
    assert list(document)[-2:] == ["incomplete", "rules"]


def test_a_command_that_does_not_track_them_has_no_such_field(tmp_path: Path) -> None:
    _, out = run_sample([], "--format", "json", output=tmp_path / "out")
    assert "incomplete" not in json.loads(out)


def sarif_run(tmp_path: Path, incomplete: list[Incomplete] | None) -> dict:
    _, out = run_sample([], "--format", "sarif", output=tmp_path / "o.sarif", incomplete=incomplete)
    document = json.loads(out)
    validate_sarif(document)
    return document["runs"][0]


def test_sarif_marks_the_run_unsuccessful_with_a_notification_at_each(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text('#include "config.h"\nint x;\n')
    run = sarif_run(tmp_path, [*STOPPED, Incomplete("b.c", "binary file, not C")])
    assert run["invocations"] == [
        {
            "executionSuccessful": False,
            "toolExecutionNotifications": [
                {
                    "level": "error",
                    "message": {"text": "a.c was not checked completely: config.h not found"},
                    "locations": [
                        {
                            "physicalLocation": {
                                "artifactLocation": {"uri": "a.c", "uriBaseId": "%SRCROOT%"},
                                "region": {"startLine": 1, "endLine": 1, "snippet": {"text": '#include "config.h"'}},
                                "contextRegion": {
                                    "startLine": 1,
                                    "endLine": 1,
                                    "snippet": {"text": '#include "config.h"'},
                                },
                            }
                        }
                    ],
                },
                {
                    "level": "error",
                    "message": {"text": "b.c was not checked completely: binary file, not C"},
                    "locations": [{"physicalLocation": {"artifactLocation": {"uri": "b.c", "uriBaseId": "%SRCROOT%"}}}],
                },
            ],
        }
    ]


def test_sarif_of_a_complete_run_is_successful(tmp_path: Path) -> None:
    assert sarif_run(tmp_path, [])["invocations"] == [{"executionSuccessful": True}]
    assert "invocations" not in sarif_run(tmp_path, None)
