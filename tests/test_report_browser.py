"""The HTML report as a person meets it, in Debian's headless Chromium: it
renders with no console message and no request leaving the file, every
plot shows, the verdicts are at the top, a phone's width needs no sideways
scrolling, and it prints. The screenshots and the PDF are kept in
build/test-artifacts/report/ to be looked at."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from browser import Browser, require_chromium
from conftest import BUILD
from portkit.cli import main

ARTIFACTS = BUILD / "test-artifacts" / "report"
PHONE = 390  # CSS pixels: a common phone's width


@pytest.fixture(scope="module")
def page(report_results: dict[str, Path]) -> Path:
    """A report of every area, as in the demo: saved results of each command and a study."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    html = ARTIFACTS / "report.html"
    inputs = [path for key, path in report_results.items() if key != "latency-cyclictest" and "sarif" not in key]
    assert main(["report", *map(str, inputs), "--max-latency-us", "1000", "--format", "html", "-o", str(html)]) == 1
    return html


@pytest.fixture(scope="module")
def browser() -> Browser:
    require_chromium()
    with Browser() as opened:
        yield opened


def test_it_renders_alone_with_every_plot(page: Path, browser: Browser) -> None:
    load = browser.load(page, width=1280, height=900)
    assert load.console == []
    assert [url for url in load.requests if not url.startswith(("file:", "data:"))] == []
    assert browser.evaluate("document.querySelector('h1').innerText") == "Not ready"
    assert browser.evaluate("document.querySelectorAll('nav.areas a').length") == 6
    images = browser.evaluate("[...document.images].map(i => [i.complete, i.naturalWidth, i.alt])")
    assert len(images) >= 3 and all(done and width > 0 for done, width, _ in images), images
    # the verdicts are seen first: the six cards end above the fold
    bottom = browser.evaluate("document.querySelector('nav.areas').getBoundingClientRect().bottom")
    assert bottom < 900
    browser.screenshot(ARTIFACTS / "desktop.png")
    browser.screenshot(ARTIFACTS / "desktop-full.png", full_page=True)
    (ARTIFACTS / "load.json").write_text(json.dumps({"seconds": load.seconds, "requests": len(load.requests)}))


def test_a_phone_needs_no_sideways_scrolling(page: Path, browser: Browser) -> None:
    load = browser.load(page, width=PHONE, height=800, mobile=True)
    assert load.console == []
    assert browser.evaluate("document.documentElement.scrollWidth") <= PHONE
    browser.screenshot(ARTIFACTS / "phone.png")


def test_it_prints(page: Path, browser: Browser) -> None:
    browser.load(page, width=1280, height=900)
    pdf = ARTIFACTS / "report.pdf"
    browser.pdf(pdf)
    data = pdf.read_bytes()
    pages = re.search(rb"/Type\s*/Pages\b.*?/Count (\d+)", data, re.S)
    assert data.startswith(b"%PDF-") and pages is not None and int(pages.group(1)) >= 2
