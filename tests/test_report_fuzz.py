"""What `portkit report` reads and writes, fuzzed (hypothesis): any JSON a
user may give as a result or a baseline is read or refused in one line,
never a traceback; names of any characters come out of every escape as
text; the Markdown fits the comment limit whatever the input."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from portkit.commands.report.baseline import read_baseline
from portkit.commands.report.command import _limits
from portkit.commands.report.escape import HIDDEN, esc, md_code, md_prose, md_text, visible
from portkit.commands.report.inputs import AREA_OF_SCHEMA, read_saved
from portkit.commands.report.judge import judge_areas
from portkit.commands.report.markdown import render, size
from portkit.commands.report.model import Settings
from portkit.core.errors import BadInput

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
SCHEMAS = [*AREA_OF_SCHEMA, "portkit.report/1", "portkit.scan/2", "portkit.crc32c/1", None]
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)
FIELDS = ["findings", "rules", "incomplete", "records", "abis", "features", "present", "warnings", "threads", "runs"]


@FUZZ
@given(
    schema=st.sampled_from(SCHEMAS),
    fields=st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=5),
    sarif=st.booleans(),
)
def test_any_document_is_read_or_refused_in_one_line(
    tmp_path: Path, schema: str | None, fields: dict, sarif: bool
) -> None:
    document = dict(fields)
    if schema is not None:
        document["schema"] = schema
    if sarif:
        document.update(version="2.1.0", runs=fields.get("runs", [{"tool": {"driver": {"name": "portkit"}}}]))
    path = tmp_path / "result.json"
    path.write_text(json.dumps(document))
    try:
        sources = read_saved(path)
    except BadInput as err:
        assert "\n" not in str(err) and str(err).startswith(str(path))
        return
    judge_areas(sources, Settings())  # what was accepted can be judged


@FUZZ
@given(
    fields=st.dictionaries(st.sampled_from(["schema", "areas", "items", "verdict"]), JSON, max_size=4),
    tag=st.booleans(),
)
def test_any_baseline_is_read_or_refused_in_one_line(tmp_path: Path, fields: dict, tag: bool) -> None:
    if tag:
        fields["schema"] = "portkit.report/1"
    path = tmp_path / "old.json"
    path.write_text(json.dumps(fields))
    try:
        read_baseline(str(path))
    except BadInput as err:
        assert str(err).startswith(f"--baseline {path}: ") and "\n" not in str(err)


@FUZZ
@given(st.text(max_size=40))
def test_limits_are_read_or_refused(text: str) -> None:
    import argparse

    try:
        limits = _limits(text)
    except argparse.ArgumentTypeError as err:
        assert "\n" not in str(err)
        return
    assert limits and all(0 < value < 1e9 for value in limits.values())


@FUZZ
@given(st.text())
def test_html_escaping_gives_back_the_text_with_hidden_characters_shown(text: str) -> None:
    escaped = esc(text)
    assert not re.search(r"[<>\"']", escaped) and not HIDDEN.search(escaped)
    assert html.unescape(escaped) == visible(text)


@FUZZ
@given(st.text())
def test_a_markdown_code_span_holds_exactly_the_name(text: str) -> None:
    span = md_code(text)
    fence = re.match(r"`+", span).group()
    inner = span[len(fence) : -len(fence)]
    assert span.endswith(fence) and fence not in inner  # nothing inside can close it early
    shown = " ".join(visible(text).split()).replace("|", "\\|")
    assert inner.strip(" ") == shown.strip(" ") or inner == f" {shown} "
    assert "\n" not in span and not HIDDEN.search(span)


@FUZZ
@given(st.text())
def test_markdown_prose_has_no_markup_left(text: str) -> None:
    prose = md_text(text)
    assert not re.search(r"[<>]", prose) and "\n" not in prose and not HIDDEN.search(prose)
    assert not re.search(r"(?<!\\)[`*_\[\]|]", prose)


@FUZZ
@given(
    messages=st.lists(st.text(min_size=1, max_size=300), min_size=1, max_size=400),
    limit=st.integers(2_000, 60_000),
)
def test_the_markdown_fits_its_limit_whatever_the_findings(messages: list[str], limit: int) -> None:
    items = [
        {
            "key": str(i),
            "source": 0,
            "severity": "error",
            "group": m[:10],
            "title": m[:20],
            "where": m,
            "message": m,
            "fix": m,
            "decides": True,
        }
        for i, m in enumerate(messages)
    ]
    area = {
        "area": "code",
        "title": "Code",
        "question": "",
        "verdict": "not_ready",
        "why": messages[0],
        "to_measure": "",
        "sources": [{"label": "x"}],
        "decisive": [],
        "counts": {},
        "items": items,
    }
    document = {"verdict": "not_ready", "summary": messages[0], "areas": [area], "settings": {"fail_on": "warning"}}
    assert size(render(document, limit)) <= limit


@FUZZ
@given(st.text())
def test_markdown_prose_with_code_has_no_markup_outside_its_spans(text: str) -> None:
    from test_report_hostile import _without_code_spans

    prose = _without_code_spans(md_prose(text))
    assert not re.search(r"[<>]", prose) and "\n" not in prose and not HIDDEN.search(prose)
