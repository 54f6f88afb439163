"""Hostile names through every section of the report: a finding's message,
a file, a struct, a CPU model, a load, a study's directory and a cyclictest
file's name can hold markup, quotes, ampersands, bidi overrides and
terminal escapes. Every format must show them as text: HTML escaped (and no
script could run: none is allowed), Markdown in code spans, JUnit valid,
the terminal without the escape."""

from __future__ import annotations

import base64
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from browser import Browser, require_chromium
from portkit.cli import main
from portkit.commands.report.escape import visible
from report_samples import HOSTILE, hostile_results
from test_report import junit_errors

SHOWN = visible(HOSTILE)  # how every output spells it
RAW = ("\u202e", "\u202c", "\x1b")  # characters no output may hold as they are
TAGS = {
    "html",
    "head",
    "meta",
    "title",
    "style",
    "body",
    "header",
    "h1",
    "h2",
    "h3",
    "p",
    "nav",
    "a",
    "span",
    "b",
    "main",
    "section",
    "ol",
    "ul",
    "li",
    "code",
    "br",
    "details",
    "summary",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "div",
    "small",
    "figure",
    "img",
    "figcaption",
    "footer",
}
ATTRIBUTES = {
    "charset",
    "name",
    "content",
    "http-equiv",
    "lang",
    "class",
    "href",
    "id",
    "aria-label",
    "title",
    "src",
    "alt",
    "open",
}


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory, report_results: dict[str, Path]) -> dict[str, str]:
    where = tmp_path_factory.mktemp("hostile")
    inputs = hostile_results(report_results, where / "inputs")
    files = {fmt: where / f"report.{fmt}" for fmt in ("html", "markdown", "json", "junit")}
    code = main(
        [
            "report",
            *map(str, inputs),
            "--max-latency-us",
            f"{HOSTILE}=5,100",
            *(x for fmt, path in files.items() for x in (f"--{fmt}", str(path))),
            "-o",
            str(where / "report.txt"),
        ]
    )
    assert code == 1
    texts = {fmt: path.read_text() for fmt, path in files.items()}
    texts["text"] = (where / "report.txt").read_text()
    texts["html_path"] = str(files["html"])
    return texts


class Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str | None]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes += attrs

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_every_area_holds_the_hostile_name(outputs: dict[str, str]) -> None:
    document = json.loads(outputs["json"])
    for area in document["areas"]:
        assert area["sources"], area["area"]
        assert any(HOSTILE in text for text in _strings(area)), area["area"]  # the JSON keeps the data as it was


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def test_html_shows_it_as_text_and_nothing_of_it_as_markup(outputs: dict[str, str]) -> None:
    page = outputs["html"]
    assert not any(raw in page for raw in RAW)
    parsed = Page()
    parsed.feed(page)
    assert set(parsed.tags) <= TAGS
    assert {name for name, _ in parsed.attributes} <= ATTRIBUTES
    for name, value in parsed.attributes:
        if name == "href":
            assert value is not None and value.startswith("#")
        if name == "src":
            assert value is not None and value.startswith("data:image/svg+xml;base64,")
    text = "".join(parsed.text)
    assert text.count(SHOWN) >= 20  # in each area, in titles, paths, messages and fixes
    # every section held it: the area's text between its heading and the next
    for area in ("code", "layouts", "image", "kernel", "target", "latency"):
        start = page.index(f'id="{area}"')
        end = min(
            (
                page.index(f'id="{a}"', start + 1)
                for a in ("layouts", "image", "kernel", "target", "latency", "not-given")
                if f'id="{a}"' in page[start + 1 :]
            ),
            default=len(page),
        )
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#x27;quoted&#x27;" in page[start:end], area


def test_the_plots_are_svg_with_the_names_as_text(outputs: dict[str, str]) -> None:
    pictures = re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', outputs["html"])
    assert len(pictures) >= 3  # the overview, a histogram, a box plot
    for data in pictures:
        svg = ET.fromstring(base64.b64decode(data))
        names = {element.tag.rpartition("}")[2] for element in svg.iter()}
        assert not names & {"script", "foreignObject", "iframe"}
        assert not any(k.lower().startswith("on") for element in svg.iter() for k in element.attrib)


def test_markdown_keeps_it_in_code_spans(outputs: dict[str, str]) -> None:
    text = outputs["markdown"]
    assert not any(raw in text for raw in RAW)
    prose = _without_code_spans(text)
    assert "<script" not in prose and "alert(" not in prose
    assert not re.search(r"(?<!\\)@mention", prose)
    for table in re.findall(r"((?:^\|.*\n)+)", text, flags=re.M):
        rows = table.splitlines()
        cells = {len(re.findall(r"(?<!\\)\|", row)) for row in rows}
        assert len(cells) == 1, rows  # no name broke a row into more cells
    assert SHOWN.replace("|", "\\|") in text


def _without_code_spans(text: str) -> str:
    """The Markdown outside its code spans (a span opens and closes with runs of backticks of one length)."""
    out, index = [], 0
    while True:
        opening = re.compile(r"`+").search(text, index)
        if opening is None:
            return "".join(out) + text[index:]
        fence = opening.group()
        closing = re.compile(rf"(?<!`){fence}(?!`)").search(text, opening.end())
        if closing is None:
            return "".join(out) + text[index:]
        out.append(text[index : opening.start()])
        index = closing.end()


def test_junit_is_valid_and_shows_it(outputs: dict[str, str]) -> None:
    assert junit_errors(outputs["junit"]) == []
    assert not any(raw in outputs["junit"] for raw in RAW)
    text = "".join(ET.fromstring(outputs["junit"].encode()).itertext())
    assert SHOWN in text


def test_the_terminal_gets_no_escape_sequence(outputs: dict[str, str]) -> None:
    assert not any(raw in outputs["text"] for raw in RAW) and SHOWN in outputs["text"]


def test_in_a_browser_no_script_runs_and_no_request_leaves(outputs: dict[str, str]) -> None:
    require_chromium()
    with Browser() as browser:
        load = browser.load(Path(outputs["html_path"]))
        assert load.console == []
        assert [url for url in load.requests if not url.startswith(("file:", "data:"))] == []
        assert browser.evaluate("document.scripts.length") == 0
        assert browser.evaluate("document.body.innerText.includes('<script>alert(\"x\")</script>')") is True
