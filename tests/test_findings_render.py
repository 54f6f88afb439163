"""Findings as text, JSON and SARIF, and the rules page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import validate_sarif
from findings_samples import MODELS, RULES, SCHEMA, finding, run_sample
from portkit import __version__
from portkit.findings.model import Finding, Rule, Severity
from portkit.findings.report import rules_markdown


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def text_of(tmp_path: Path, findings: list[Finding], *options: str) -> str:
    return run_sample(findings, "--fail-on", "never", *options, output=tmp_path / "out.txt")[1]


# text


def test_text_names_the_place_quotes_the_line_and_marks_the_columns(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text("int f(void *p) {\n    return (int)p;\n}\n")
    out = text_of(tmp_path, [finding(line=2, column=12, end_column=18)])
    assert out == (
        "a.c:2:12: warning [PK101] cast of `void *` (8 bytes on LP64 (aarch64)) to `int` (4 bytes)\n"
        "    2 |     return (int)p;\n"
        "      |            ^~~~~~\n"
        "  fix: declare it `intptr_t`\n"
        "\n"
        "1 finding (1 warning) in 1 file\n"
    )


def caret_under(out: str) -> str:
    """What the caret line marks in the source line above it."""
    lines = out.splitlines()
    source, caret = lines[1], lines[2]
    start = caret.index("^")
    return source[start : start + len(caret.rstrip()) - start]


@pytest.mark.parametrize(
    ("line", "column", "end", "marked"),
    [
        (b"\treturn (int)p;", 9, 15, "(int)p"),  # a tab before the column
        (b"\t \t  x = (int)p;", 10, 16, "(int)p"),  # tabs and blanks mixed
        (b"x = 1;\tl = (long)p;", 12, 19, "(long)p"),  # a tab stop not at the start
        ("/* größe */ l = (long)p;".encode(), 19, 26, "(long)p"),  # UTF-8: columns are bytes
        ("/* größe */ l = (long)p;".encode("latin-1"), 17, 24, "(long)p"),  # a Latin-1 file
        (b's = "\x1b[31m"; l = (long)p;', 18, 25, "(long)p"),  # a control character shows as ?
        (b"l = (long)p;", 5, 5, "("),  # no range: one caret
        (b"l = (long)p;", 5, 99, "(long)p;"),  # past the end: up to the end
    ],
)
def test_the_caret_lines_up(tmp_path: Path, line: bytes, column: int, end: int, marked: str) -> None:
    (tmp_path / "a.c").write_bytes(line + b"\n")
    out = text_of(tmp_path, [finding(line=1, column=column, end_column=end)])
    assert "\t" not in out
    assert "\x1b" not in out
    assert caret_under(out) == marked


def test_wide_characters_take_two_columns(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text("/* 長さ */ l = (long)p;\n")
    out = text_of(tmp_path, [finding(line=1, column=18, end_column=25)])
    source, caret = out.splitlines()[1:3]
    assert caret.index("^") == len(source) - len("(long)p;") + 2  # two wide characters: two more cells


def on_terminal(tmp_path: Path, findings: list[Finding], width: int) -> str:
    """The text as a terminal `width` columns wide gets it."""
    from portkit.core.output import render_text
    from portkit.findings.sources import SourceFiles
    from portkit.findings.text import render_findings
    from portkit.findings.triage import triage

    sources = SourceFiles()
    result = triage(findings, RULES, select=None, ignore=None, baseline=None, sources=sources, cwd=tmp_path)
    return render_text(render_findings(result, sources, width), width)


LONG = (
    "x = f(alpha, beta, gamma, delta, epsilon, zeta, eta, theta, iota, kappa, lambda, mu, nu, xi, omicron, "
    "pi, rho, sigma, tau, upsilon, phi, chi, psi, omega);"
)


def quoted(out: str) -> tuple[str, str]:
    """The quoted source line and the caret line under it."""
    lines = out.splitlines()
    at = next(n for n, line in enumerate(lines) if line.startswith("    1 | "))
    return lines[at], lines[at + 1]


@pytest.mark.parametrize(
    ("marked", "head", "tail"),
    [
        ("f(alpha", "", "..."),  # near the start: the line's start, cut at the end
        ("omega", "...", ""),  # near the end: the line's end
        ("omicron", "...", "..."),  # in the middle: around the caret
        ("beta, gamma, delta, epsilon, zeta, eta, theta, iota, kappa, lambda", "...", "..."),  # wider than the room
    ],
)
def test_on_a_terminal_a_long_line_is_shown_around_the_caret(tmp_path: Path, marked: str, head: str, tail: str) -> None:
    """A quoted line wider than the terminal would wrap and leave the caret
    under another column; it is cut, clang-style, to the part around the caret."""
    (tmp_path / "a.c").write_text(f"    {LONG}\n")
    column = 5 + LONG.index(marked)
    out = on_terminal(tmp_path, [finding(line=1, column=column, end_column=column + len(marked))], 60)
    assert all(len(line) <= 60 for line in out.splitlines())
    source, caret = quoted(out)
    assert source.startswith("    1 | " + head) and source.endswith(tail)
    start = caret.index("^")
    shown = source[start : len(caret)]
    assert marked.startswith(shown) and len(shown) >= min(len(marked), 60 - 8 - 6)


def test_on_a_terminal_wide_characters_are_cut_whole(tmp_path: Path) -> None:
    line = "/* " + "長さ" * 20 + " */ l = (long)p;"
    (tmp_path / "a.c").write_text(line + "\n")
    column = len(line[: line.index("(long)")].encode()) + 1
    out = on_terminal(tmp_path, [finding(line=1, column=column, end_column=column + 7)], 50)
    source, caret = quoted(out)
    assert source.endswith("(long)p;") and "..." in source
    wide = source.count("長") + source.count("さ")
    assert caret.index("^") == len(source) - len("(long)p;") + wide  # each wide character takes two cells
    assert len(source) + wide <= 50


def test_in_a_file_a_long_line_is_whole(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text(f"{LONG}\n")
    out = text_of(tmp_path, [finding(line=1, column=LONG.index("iota") + 1, end_column=LONG.index("iota") + 5)])
    assert out.splitlines()[1] == f"    1 | {LONG}"
    assert caret_under(out) == "iota"


def test_a_range_over_lines_gets_one_caret(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text("struct s {\n  long x;\n};\n")
    out = text_of(tmp_path, [finding(line=1, column=1, end_column=2, end_line=3)])
    assert out.splitlines()[2] == "      | ^"


def test_without_a_column_or_a_line_there_is_no_caret(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text("long x;\n")
    out = text_of(tmp_path, [finding(line=1, column=0), finding(path="vmlinux", line=0, column=0, message="no vDSO")])
    assert out.splitlines()[:6] == [
        "a.c:1: warning [PK101] cast of `void *` (8 bytes on LP64 (aarch64)) to `int` (4 bytes)",
        "    1 | long x;",
        "  fix: declare it `intptr_t`",
        "",
        "vmlinux: warning [PK101] no vDSO",
        "  fix: declare it `intptr_t`",
    ]


def test_names_are_printed_verbatim(tmp_path: Path) -> None:
    out = text_of(tmp_path, [finding(path="include/[abi].h", message="[bold]struct x[/bold] changes")])
    assert out.startswith("include/[abi].h:1:1: warning [PK101] [bold]struct x[/bold] changes\n")
    assert "\x1b" not in out


def test_the_findings_come_in_file_order(tmp_path: Path) -> None:
    unordered = [finding("PK102", "b.c", 1, 1), finding("PK102", "a.c", 9, 1), finding("PK101", "a.c", 9, 1),
                 finding("PK101", "a.c", 2, 7), finding("PK101", "a.c", 2, 3)]  # fmt: skip
    heads = [line for line in text_of(tmp_path, unordered).splitlines() if ": warning [" in line]
    assert [h.split(" warning ")[0] + h.split(" ")[2] for h in heads] == [
        "a.c:2:3:[PK101]",
        "a.c:2:7:[PK101]",
        "a.c:9:1:[PK101]",
        "a.c:9:1:[PK102]",
        "b.c:1:1:[PK102]",
    ]


@pytest.mark.parametrize(
    ("severities", "hidden", "line"),
    [
        ([], "", "no findings"),
        ([Severity.ERROR], "", "1 finding (1 error) in 1 file"),
        (
            [Severity.ERROR, Severity.ERROR, Severity.WARNING, Severity.NOTE, Severity.NOTE],
            "",
            "5 findings (2 errors, 1 warning, 2 notes) in 1 file",
        ),
        ([Severity.NOTE], "suppressed", "1 finding (1 note) in 1 file; 1 suppressed"),
        ([], "suppressed", "no findings; 1 suppressed"),
    ],
)
def test_the_summary_line(tmp_path: Path, severities: list[Severity], hidden: str, line: str) -> None:
    findings = [finding(line=n + 1, severity=s) for n, s in enumerate(severities)]
    if hidden:
        (tmp_path / "b.c").write_text("x; // portkit: ignore\n")
        findings.append(finding(path="b.c", line=1))
    assert text_of(tmp_path, findings).splitlines()[-1] == line


def test_the_summary_counts_files_and_the_baseline(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text("x;\ny;\n")
    run_sample([finding(line=1)], "--format", "json", output=tmp_path / "base.json")
    findings = [finding(line=1), finding(line=2), finding(path="b.c"), finding("PK201", "c.c", severity=Severity.ERROR)]
    last = text_of(tmp_path, findings, "--baseline", "base.json").splitlines()[-1]
    assert last == "3 findings (1 error, 2 warnings) in 3 files; 1 in the baseline"


# JSON


def test_the_json_document(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text("int x = (int)p; // portkit: ignore PK102\n")
    findings = [finding(line=1, column=9, end_column=15), finding("PK102", line=1), finding("PK201", "b.c", 3, 2)]
    extra = {"models": list(MODELS), "files": 2}
    code, out = run_sample(findings, "--format", "json", "--select", "PK1,PK2", output=tmp_path / "o", extra=extra)
    document = json.loads(out)
    assert code == 1
    assert list(document) == ["schema", "models", "files", "findings", "counts", "suppressed", "baselined", "rules"]
    assert document["schema"] == SCHEMA
    assert document["counts"] == {"error": 0, "warning": 2, "note": 0}
    assert (document["suppressed"], document["baselined"]) == (1, 0)
    assert document["rules"] == [
        {"id": r.id, "name": r.name, "severity": r.severity.label, "family": r.family, "summary": r.summary}
        for r in RULES[:3]
    ]
    first = document["findings"][0]
    assert Finding.from_json(first) == findings[0]
    assert list(first) == ["rule", "severity", "location", "message", "fix", "models", "fingerprint"]
    assert len(first["fingerprint"]) == 64
    assert document["findings"][1]["location"]["path"] == "b.c"


def test_the_commands_fields_may_not_shadow_the_findings(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="may not be named counts, findings"):
        run_sample([], "--format", "json", output=tmp_path / "o", extra={"findings": [], "counts": 1})


# SARIF


def sarif_of(tmp_path: Path, findings: list[Finding], *options: str) -> dict:
    _, out = run_sample(findings, "--format", "sarif", "--fail-on", "never", *options, output=tmp_path / "o.sarif")
    document = json.loads(out)
    validate_sarif(document)
    return document


def test_sarif_without_results_is_valid(tmp_path: Path) -> None:
    run = sarif_of(tmp_path, [])["runs"][0]
    assert run["results"] == []
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == [r.id for r in RULES]


def test_sarif_with_no_rules_is_valid(tmp_path: Path) -> None:
    assert sarif_of(tmp_path, [], "--select", "PK3", "--ignore", "PK301")["runs"][0]["tool"]["driver"]["rules"] == []


@pytest.mark.parametrize("severity", list(Severity))
def test_sarif_of_each_severity(tmp_path: Path, severity: Severity) -> None:
    (tmp_path / "a.c").write_text("int x = (int)p;\n")
    result = sarif_of(tmp_path, [finding(line=1, column=9, end_column=15, severity=severity)])["runs"][0]["results"][0]
    assert result["level"] == severity.label


def region_fields(region: dict) -> tuple:
    text = region["snippet"]["text"] if "snippet" in region else None
    return (region["startLine"], region.get("startColumn"), region["endLine"], region.get("endColumn"), text)


def test_sarif_document(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "my file.c").write_text("/* größe */\tlong n = (long)p;\n")
    (tmp_path / "a.c").write_text("struct s {\n  long x;\n};\n// portkit: ignore\nint y = (int)q;\n")
    findings = [
        finding("PK201", "./src/my file.c", 1, 24, 31, severity=Severity.ERROR),
        finding("PK102", "a.c", 1, 8, 2, end_line=3),
        finding("PK101", "a.c", 2, 0),
        finding("PK101", "a.c", 5, 9, 15),  # suppressed
        finding("PK301", "/outside/x.c", 7, 3, 9, severity=Severity.NOTE),
        finding("PK301", "vmlinux", 0, 0, 0, severity=Severity.NOTE),
    ]
    document = sarif_of(tmp_path, findings, "--select", "PK1,PK2,PK3")
    json_doc = json.loads(run_sample(findings, "--format", "json", output=tmp_path / "o.json")[1])
    assert (document["version"], document["$schema"]) == (
        "2.1.0",
        "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
    )
    (run,) = document["runs"]
    driver = run["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("portkit", __version__)
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": tmp_path.as_uri() + "/"}}
    assert run["columnKind"] == "unicodeCodePoints"
    assert run["properties"] == {"suppressed": 1, "baselined": 0}
    results = run["results"]
    assert [driver["rules"][r["ruleIndex"]]["id"] for r in results] == [r["ruleId"] for r in results]
    assert [r["partialFingerprints"]["portkitLineHash/v1"] for r in results] == [
        f["fingerprint"] for f in json_doc["findings"]
    ]
    assert all("fixes" not in r for r in results)
    locations = [r["locations"][0]["physicalLocation"] for r in results]
    by_uri = {(p["artifactLocation"]["uri"], p.get("region", {}).get("startLine")): p for p in locations}
    # Relative to the working directory, percent-encoded; outside it, an absolute file URI.
    assert sorted(by_uri) == [
        ("a.c", 1),
        ("a.c", 2),
        ("file:///outside/x.c", 7),
        ("src/my%20file.c", 1),
        ("vmlinux", None),
    ]
    assert by_uri["src/my%20file.c", 1]["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
    assert "uriBaseId" not in by_uri["file:///outside/x.c", 7]["artifactLocation"]
    # (startLine, startColumn, endLine, endColumn, snippet): byte columns 24..31 are characters
    # 22..29 after two two-byte characters; a snippet is the text the region covers; a file
    # that cannot be read keeps clang's columns and has no text.
    assert {key: region_fields(p["region"]) for key, p in by_uri.items() if "region" in p} == {
        ("src/my%20file.c", 1): (1, 22, 1, 29, "(long)p"),
        ("a.c", 1): (1, 8, 3, 2, "s {\n  long x;\n}"),
        ("a.c", 2): (2, None, 2, None, "  long x;"),
        ("file:///outside/x.c", 7): (7, 3, 7, 9, None),
    }
    assert by_uri["src/my%20file.c", 1]["contextRegion"]["snippet"] == {"text": "/* größe */\tlong n = (long)p;"}
    assert "contextRegion" not in by_uri["file:///outside/x.c", 7]
    assert "region" not in by_uri["vmlinux", None]
    first = results[0]
    assert first["message"]["text"] == f"{findings[1].message}\nFix: {findings[1].fix}"
    assert first["properties"] == {"fix": findings[1].fix, "models": list(MODELS)}


def test_a_location_past_the_end_of_its_file_has_no_text(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text("x = (long)p;\n")
    stale = [finding(line=9, column=1), finding(line=1, column=5, end_column=3, end_line=10**9)]
    regions = [r["locations"][0]["physicalLocation"]["region"] for r in sarif_of(tmp_path, stale)["runs"][0]["results"]]
    assert [region_fields(r) for r in regions] == [(1, 5, 10**9, 3, None), (9, 1, 9, 2, None)]
    assert text_of(tmp_path, stale).splitlines()[1:4] == [
        "    1 | x = (long)p;",
        "      |     ^",
        "  fix: declare it `intptr_t`",
    ]


def test_sarif_rules_carry_their_help(tmp_path: Path) -> None:
    (descriptor,) = sarif_of(tmp_path, [], "--select", "PK201")["runs"][0]["tool"]["driver"]["rules"]
    rule = RULES[2]
    assert descriptor["id"] == "PK201"
    assert descriptor["name"] == "long-in-wire-struct"
    assert descriptor["shortDescription"] == {"text": rule.summary}
    assert descriptor["fullDescription"] == {"text": rule.why}
    assert descriptor["defaultConfiguration"] == {"level": "error"}
    assert descriptor["properties"] == {"tags": ["Wire formats"]}
    for part in (rule.why, rule.wrong, rule.right, rule.fix):
        assert part in descriptor["help"]["text"]
        assert part in descriptor["help"]["markdown"]
    assert "## Use instead\n\n```c\nintptr_t n = (intptr_t)p;\n```" in descriptor["help"]["markdown"]


# the rules page


def test_the_rules_page() -> None:
    page = rules_markdown(RULES, "portkit sample rules", "What `portkit sample` reports.")
    assert page.startswith("# portkit sample rules\n\nWhat `portkit sample` reports.\n\n## Pointers and integers\n")
    assert "| [PK101](#pk101-pointer-to-narrower-int) | `pointer-to-narrower-int` | warning |" in page
    section = page[page.index("## PK201 long-in-wire-struct") :].split("\n## ")[0]
    assert section == (
        "## PK201 long-in-wire-struct\n\n"
        "Family: Wire formats. Default severity: error.\n\n"
        "### What it does\n\nWhat long-in-wire-struct finds.\n\n"
        "### Why is this bad?\n\nWhy long-in-wire-struct matters on LP64.\n\n"
        "### Example\n\n```c\nlong n = (long)p;\n```\n\n"
        "### Use instead\n\n```c\nintptr_t n = (intptr_t)p;\n```\n\n"
        "### Fix\n\nUse `intptr_t`.\n"
    )
    assert page.endswith("Use `intptr_t`.\n")


def test_a_code_example_with_backticks_keeps_its_fence() -> None:
    rule = Rule("PK1", "r", Severity.NOTE, "F", "s", "w", 'char *s = "```";', "ok", "f")
    assert '````c\nchar *s = "```";\n````' in rules_markdown([rule], "t", "i")
