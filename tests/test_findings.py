"""Which findings a command shows: --select/--ignore, suppression comments,
--baseline, and the exit code of --fail-on."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from findings_samples import RULES, SCHEMA, finding, rule, run_sample, sample_parser
from portkit.core.errors import BadInput
from portkit.findings.baseline import read_baseline
from portkit.findings.model import Finding, Rule, Severity
from portkit.findings.suppression import EVERY_RULE, _ignored_after, suppressions_in

ALL = [finding("PK101", line=1), finding("PK102", line=2), finding("PK201", line=3), finding("PK301", line=4)]


def shown_rules(tmp_path: Path, *options: str, findings: list[Finding] = ALL) -> list[str]:
    _, out = run_sample(findings, "--format", "json", "--fail-on", "never", *options, output=tmp_path / "out.json")
    return [f["rule"] for f in json.loads(out)["findings"]]


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # findings' paths are relative to the working directory


# --select / --ignore


@pytest.mark.parametrize(
    ("options", "rules"),
    [
        ((), ["PK101", "PK102", "PK201", "PK301"]),
        (("--select", "PK101"), ["PK101"]),
        (("--select", "PK1"), ["PK101", "PK102"]),  # a prefix is a family
        (("--select", "pk201,PK301"), ["PK201", "PK301"]),
        (("--select", "PK201", "--select", "PK101"), ["PK101", "PK201"]),
        (("--select", "PK", "--ignore", "PK1"), ["PK201", "PK301"]),
        (("--ignore", "PK101, PK3"), ["PK102", "PK201"]),
        (("--select", "PK1", "--ignore", "PK102"), ["PK101"]),
    ],
)
def test_select_and_ignore_take_ids_and_prefixes(tmp_path: Path, options: tuple[str, ...], rules: list[str]) -> None:
    assert shown_rules(tmp_path, *options) == rules


def test_the_document_lists_the_rules_that_ran(tmp_path: Path) -> None:
    _, out = run_sample(ALL, "--format", "json", "--select", "PK1", output=tmp_path / "out.json")
    assert [r["id"] for r in json.loads(out)["rules"]] == ["PK101", "PK102"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            ("--select", "PK999,PK101,PK7"),
            "--select: no rule matches PK999 or PK7; the families are PK1, PK2, PK3 (--list-rules lists every rule)",
        ),
        (
            ("--ignore", "XY1"),
            "--ignore: no rule matches XY1; the families are PK1, PK2, PK3 (--list-rules lists every rule)",
        ),
    ],
)
def test_an_unknown_rule_is_one_line_naming_it(tmp_path: Path, options: tuple[str, ...], message: str) -> None:
    with pytest.raises(BadInput) as caught:
        run_sample(ALL, *options, output=tmp_path / "out")
    assert str(caught.value) == message
    assert not (tmp_path / "out").exists()


def test_help_lists_the_findings_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        sample_parser(ALL).parse_args(["sample", "--help"])
    help_text = capsys.readouterr().out
    for option in ("--format {text,json,sarif}", "--fail-on {note,warning,error,never}", "--baseline FILE",
                   "--select ID[,ID...]", "--ignore ID[,ID...]", "examples:"):  # fmt: skip
        assert option in help_text


def select_help(capsys: pytest.CaptureFixture[str], rules: tuple[Rule, ...]) -> str:
    with pytest.raises(SystemExit):
        sample_parser([], rules).parse_args(["sample", "--help"])
    help_text = " ".join(capsys.readouterr().out.split("findings:")[1].split())  # the options' part, unwrapped
    return help_text[help_text.index("--select ID[,ID...]") : help_text.index("--ignore ID")]


def test_the_select_help_names_the_commands_own_family(capsys: pytest.CaptureFixture[str]) -> None:
    """audit rootfs's rules are PKR1xx...: its help must not offer scan's PK1."""
    assert "(PK1: every PK1xx rule)" in select_help(capsys, RULES)
    image_rules = (rule("PKR101", "foreign-architecture", Severity.ERROR, "Architecture"), *RULES[1:])
    assert "(PKR1: every PKR1xx rule)" in select_help(capsys, image_rules)
    assert "PK1" not in select_help(capsys, ())


def test_a_family_of_another_command_is_refused_naming_this_ones(tmp_path: Path) -> None:
    image_rules = [rule("PKR101", "a", Severity.ERROR, "Architecture"), rule("PKR201", "b", Severity.NOTE, "Loading")]
    with pytest.raises(BadInput) as caught:
        run_sample([], "--select", "PK1", output=tmp_path / "out", rules=image_rules)
    assert (
        str(caught.value)
        == "--select: no rule matches PK1; the families are PKR1, PKR2 (--list-rules lists every rule)"
    )


def test_a_malformed_rule_id_is_a_usage_error() -> None:
    with pytest.raises(BadInput, match=r"--select: 'PK-1' is not a rule id or prefix \(letters, then digits"):
        sample_parser(ALL).parse_args(["sample", "--select", "PK101,PK-1"])


# suppression comments


def suppressed(tmp_path: Path, source: str, line: int, rule: str = "PK101") -> bool:
    (tmp_path / "a.c").write_text(source)
    _, out = run_sample([finding(rule, line=line)], "--format", "json", output=tmp_path / "out.json")
    document = json.loads(out)
    assert len(document["findings"]) + document["suppressed"] == 1
    return document["suppressed"] == 1


@pytest.mark.parametrize(
    ("source", "line"),
    [
        ("int x = (int)p; /* portkit: ignore PK101 */\n", 1),
        ("int x = (int)p; // portkit: ignore PK101\n", 1),
        ("// portkit: ignore PK101\nint x = (int)p;\n", 2),  # the line above
        ("int x = (int)p; // portkit: ignore PK301, PK101\n", 1),  # one of several ids
        ("int x = (int)p; // portkit: ignore PK301 PK101 -- pointers fit: 32-bit only\n", 1),
        ("int x = (int)p; // portkit: ignore\n", 1),  # every rule
        ("int x = (int)p; // portkit: ignore -- the reason\n", 1),
        ("int x = (int)p; /* PORTKIT: Ignore pk101 */\n", 1),
        ("int x = (int)p; /*portkit:ignore PK101*/\n", 1),
        ("int x = (int)p; /* é */ /* PortKit: ignore PK101 */\n", 1),  # not ASCII: the whole search
        ("int x = (int)p; /* portkit: ignore PK301 */ /* portkit: ignore PK101 */\n", 1),
        # Words, not C: the marker inside a string literal counts too (see suppression.py).
        ('puts("portkit: ignore PK101"); int x = (int)p;\n', 1),
        ("#define X 1 \\\r\n/* portkit: ignore PK101 */\r\nint x = (int)p;\r\n", 3),  # CRLF lines
    ],
)
def test_a_comment_suppresses(tmp_path: Path, source: str, line: int) -> None:
    assert suppressed(tmp_path, source, line)


@pytest.mark.parametrize(
    ("source", "line"),
    [
        ("// portkit: ignore PK101\n\nint x = (int)p;\n", 3),  # two lines above
        ("int x = (int)p; // portkit: ignore PK102\n", 1),  # another rule
        ("int x = (int)p; // portkit: ignore PK10\n", 1),  # ids are whole, not prefixes
        ("int x = (int)p; // portkit ignore PK101\n", 1),
        ("int x = (int)p;\n// portkit: ignore PK101\n", 1),  # the line below
        ("int x = (int)p; // portkit: ignored PK101\n", 1),
        # A misspelt id hides nothing rather than every rule.
        ("int x = (int)p; // portkit: ignore PK-101\n", 1),
        ("int x = (int)p; // portkit: ignore PK101PK102\n", 1),
        ("int x = (int)p; // portkit: ignore PK101-PK102\n", 1),
    ],
)
def test_no_comment_suppresses(tmp_path: Path, source: str, line: int) -> None:
    assert not suppressed(tmp_path, source, line)


def test_a_latin1_file_is_read_and_its_comments_count(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_bytes("int x = (int)p; /* Größe */ // portkit: ignore PK101\n".encode("latin-1"))
    _, out = run_sample([finding(line=1)], "--format", "json", output=tmp_path / "out.json")
    assert json.loads(out)["suppressed"] == 1


def permission_denied(path: Path) -> bytes:
    raise PermissionError(13, "Permission denied", str(path))


@pytest.mark.parametrize("make", ["missing", "directory", "binary", "empty", "unreadable"])
def test_a_file_that_cannot_be_read_still_shows_its_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make: str
) -> None:
    target = tmp_path / "a.c"
    if make == "directory":
        target.mkdir()
    elif make == "binary":
        target.write_bytes(b"\x7fELF\0\0\0// portkit: ignore\n")
    elif make == "empty":
        target.write_bytes(b"")
    elif make == "unreadable":  # as chmod 0 would be to anyone but root
        target.write_text("// portkit: ignore\n")
        monkeypatch.setattr(Path, "read_bytes", permission_denied)
    code, out = run_sample([finding(line=1)], output=tmp_path / "out.txt")
    assert code == 1
    assert out.startswith("a.c:1:1: warning [PK101] ")
    assert out.endswith("1 finding (1 warning) in 1 file\n")


def test_each_file_is_read_once_per_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a.c").write_text("int x;\n" * 10)
    reads: list[Path] = []
    original = Path.read_bytes

    def counting(self: Path) -> bytes:
        reads.append(self)
        return original(self)

    monkeypatch.setattr(Path, "read_bytes", counting)
    run_sample([finding(line=n) for n in range(1, 11)], "--format", "sarif", output=tmp_path / "out")
    assert reads == [Path("a.c")]


@given(st.text(), st.text(alphabet=st.characters(exclude_characters="\r\n"), max_size=30))
def test_any_text_gives_suppressions_and_a_comment_in_it_is_found(before: str, after: str) -> None:
    lines = [*before.split("\n"), f"x; // portkit: ignore PK101, PK301 {after}"]
    found = suppressions_in(lines)  # never raises
    assert {"PK101", "PK301"} <= found[len(lines)] or found[len(lines)] == EVERY_RULE


PIECES = [
    "portkit:",
    "PortKit:",
    " ",
    "\t",
    "\x0b",
    "\r",
    "ignore",
    "IGNORE",
    "ignored",
    "PK101",
    "pk301",
    ",",
    "x",
    "-",
    "é",
]


@given(st.lists(st.lists(st.sampled_from(PIECES), max_size=8).map("".join), max_size=12))
def test_suppressions_are_those_each_line_writes(lines: list[str]) -> None:
    """The whole text searched at once finds what a search of each line alone finds."""
    marker = re.compile(r"portkit:\s*ignore\b", re.IGNORECASE)
    by_line: dict[int, frozenset[str]] = {}
    for number, line in enumerate(lines, start=1):
        for found in marker.finditer(line):
            by_line[number] = by_line.get(number, frozenset()) | _ignored_after(line, found.end())
    assert suppressions_in(lines) == by_line


@given(st.lists(st.lists(st.sampled_from(PIECES), max_size=6).map("".join), max_size=10), st.integers(-1, 12))
def test_suppressions_near_a_line_are_the_files_on_it_and_the_line_above(lines: list[str], number: int) -> None:
    from portkit.findings.sources import SourceFile

    whole = suppressions_in(lines)
    near = SourceFile(lines, "utf-8").suppressions_near(number)
    assert near == {n: ids for n, ids in whole.items() if n in (number - 1, number)}


# --baseline


def write_baseline(tmp_path: Path, findings: list[Finding]) -> Path:
    path = tmp_path / "baseline.json"
    run_sample(findings, "--format", "json", output=path)
    return path


SOURCE = "int a = (int)p;\nlong b = (long)q;\nint c = (int)p;\n"


def test_the_baseline_hides_known_findings_after_lines_move(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text(SOURCE)
    known = [finding(line=1, column=9), finding("PK102", line=2, column=10), finding(line=3, column=9)]
    baseline = write_baseline(tmp_path, known)
    # Lines added above, the first line reindented, and one new finding on a new line.
    (tmp_path / "a.c").write_text("#include <stdint.h>\n\n\tint a = (int)p;\nlong b = (long)q;\nint c = (int)p;\n"
                                  "int d = (int)r;\n")  # fmt: skip
    now = [
        finding(line=3, column=10),
        finding("PK102", line=4, column=10),
        finding(line=5, column=9),
        finding(line=6, column=9),
    ]
    _, out = run_sample(now, "--format", "json", "--baseline", str(baseline), output=tmp_path / "out.json")
    document = json.loads(out)
    assert [(f["rule"], f["location"]["line"]) for f in document["findings"]] == [("PK101", 6)]
    assert document["baselined"] == 3


def test_identical_lines_are_told_apart_by_their_order(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text(SOURCE)
    baseline = write_baseline(tmp_path, [finding(line=1, column=9), finding(line=3, column=9)])
    document = json.loads(baseline.read_text())
    assert len({f["fingerprint"] for f in document["findings"]}) == 2
    # A third identical line is one more than the baseline knows.
    (tmp_path / "a.c").write_text(SOURCE + "int c = (int)p;\n")
    again = [finding(line=1, column=9), finding(line=3, column=9), finding(line=4, column=9)]
    _, out = run_sample(again, "--format", "json", "--baseline", str(baseline), output=tmp_path / "out.json")
    assert [f["location"]["line"] for f in json.loads(out)["findings"]] == [4]


def test_fingerprints_count_suppressed_findings_so_lifting_a_suppression_moves_none(tmp_path: Path) -> None:
    # Two identical lines, the first suppressed: the baseline holds the second
    # only, as the second of its text. Once the comment goes, the first shows
    # and the second is still known.
    (tmp_path / "a.c").write_text("// portkit: ignore PK101\nint c = (int)p;\nint c = (int)p;\n")
    both = [finding(line=2, column=9), finding(line=3, column=9)]
    baseline = write_baseline(tmp_path, both)
    assert len(json.loads(baseline.read_text())["findings"]) == 1
    (tmp_path / "a.c").write_text("\nint c = (int)p;\nint c = (int)p;\n")
    _, out = run_sample(both, "--format", "json", "--baseline", str(baseline), output=tmp_path / "out.json")
    document = json.loads(out)
    assert [f["location"]["line"] for f in document["findings"]] == [2]
    assert (document["suppressed"], document["baselined"]) == (0, 1)


def test_the_fingerprint_is_one_for_every_spelling_of_the_path(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text(SOURCE)
    baseline = write_baseline(tmp_path, [finding(path="a.c")])
    spelled = finding(path=str(tmp_path / "." / "a.c"))
    _, out = run_sample([spelled], "--format", "json", "--baseline", str(baseline), output=tmp_path / "out.json")
    assert json.loads(out)["baselined"] == 1


def test_findings_without_a_source_line_are_told_apart_by_message(tmp_path: Path) -> None:
    image = [finding(path="vmlinux", line=0, column=0, message=m) for m in ("no vDSO", "no compat vDSO")]
    baseline = write_baseline(tmp_path, image[:1])
    _, out = run_sample(image, "--format", "json", "--baseline", str(baseline), output=tmp_path / "out.json")
    assert [f["message"] for f in json.loads(out)["findings"]] == ["no compat vDSO"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "--baseline base.json: No such file or directory"),
        (b"{", "--baseline base.json: not JSON (Expecting property name enclosed in double quotes at line 1 column 2)"),
        (b'{"schema": "portkit.sample/1", "findings": [\xff]}', "--baseline base.json: not JSON (not UTF-8 text)"),
        (b"[" * 100_000 + b"]" * 100_000, "--baseline base.json: not JSON portkit can read (RecursionError)"),
        (b"[]", '--baseline base.json: not a portkit document (no "schema": "portkit.<kind>/<major>")'),
        (b'{"schema": "sarif", "findings": []}', '--baseline base.json: not a portkit document (no "schema": '),
        (b'{"schema": "portkit.layout/1", "records": []}', "--baseline base.json: a portkit.layout/1 document without"),
        (b'{"schema": "portkit.sample/1", "findings": [{}]}', "--baseline base.json: a portkit.sample/1 document with"),
        (b'{"schema": "portkit.audit/1", "findings": []}', "--baseline base.json: a portkit.audit/1 document; this"),
        (b'{"schema": "portkit.sample/2", "findings": []}', "--baseline base.json: a portkit.sample/2 document; this"),
    ],
)
def test_a_baseline_that_is_no_findings_document_is_one_line(
    tmp_path: Path, content: bytes | None, message: str
) -> None:
    if content is not None:
        (tmp_path / "base.json").write_bytes(content)
    with pytest.raises(BadInput) as caught:
        run_sample(ALL, "--baseline", "base.json", output=tmp_path / "out")
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_a_sarif_document_is_no_baseline(tmp_path: Path) -> None:
    sarif = tmp_path / "out.sarif"
    run_sample(ALL, "--format", "sarif", output=sarif)
    with pytest.raises(BadInput, match="not a portkit document"):
        read_baseline(str(sarif))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)
documents = st.fixed_dictionaries(
    {"schema": st.one_of(st.just(SCHEMA), json_values), "findings": st.one_of(json_values, st.lists(json_values))}
)


@given(st.one_of(json_values, documents))
def test_any_json_is_a_baseline_or_one_line_of_bad_input(
    tmp_path_factory: pytest.TempPathFactory, data: object
) -> None:
    path = tmp_path_factory.mktemp("baseline") / "base.json"
    path.write_text(json.dumps(data))
    try:
        baseline = read_baseline(str(path))
    except BadInput as err:
        assert "\n" not in str(err)
    else:
        assert isinstance(data, dict)
        assert baseline.fingerprints == {f["fingerprint"] for f in data["findings"]}


# --fail-on


@pytest.mark.parametrize(
    ("fail_on", "severities", "code"),
    [
        ("warning", [], 0),
        ("warning", [Severity.NOTE], 0),
        ("warning", [Severity.NOTE, Severity.WARNING], 1),
        ("note", [Severity.NOTE], 1),
        ("error", [Severity.WARNING, Severity.NOTE], 0),
        ("error", [Severity.ERROR], 1),
        ("never", [Severity.ERROR], 0),
    ],
)
def test_fail_on(tmp_path: Path, fail_on: str, severities: list[Severity], code: int) -> None:
    findings = [finding(line=n, severity=s) for n, s in enumerate(severities, start=1)]
    assert run_sample(findings, "--fail-on", fail_on, output=tmp_path / "out")[0] == code


def test_fail_on_defaults_to_warning_and_counts_only_what_is_shown(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text("int x = (int)p; // portkit: ignore PK101\n")
    assert run_sample([finding(line=1)], output=tmp_path / "out")[0] == 0
    assert run_sample([finding(line=1, severity=Severity.ERROR)], "--ignore", "PK1", output=tmp_path / "out")[0] == 0
    assert run_sample([finding("PK201", line=2)], output=tmp_path / "out")[0] == 1


def test_rules_and_findings_must_agree(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="a finding of PK999, which is not among the command's rules"):
        run_sample([finding("PK999")], output=tmp_path / "out", rules=RULES)


@pytest.mark.parametrize(
    ("mode", "families"), [("rootfs", "PKR1, PKR2, PKR3, PKR4, PKR5, PKR6"), ("kconfig", "PKK1, PKK2, PKK3, PKK4")]
)
def test_the_audits_refuse_scans_families_naming_their_own(tmp_path: Path, mode: str, families: str) -> None:
    """--select PK1 was offered by the audits' help, then refused as "unknown rule PK1"."""
    import subprocess
    import sys

    def audit(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "portkit", "audit", mode, *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=120)

    assert "PK1" not in audit("--help").stdout
    proc = audit(str(tmp_path / "missing"), "--select", "PK1")
    assert proc.returncode == 2
    assert proc.stderr == (
        f"portkit: error: --select: no rule matches PK1; the families are {families} (--list-rules lists every rule)\n"
    )


@given(st.text(alphabet="ab\n", max_size=200), st.integers(1, 9), st.integers(0, 30), st.integers(0, 30))
def test_a_files_lines_are_those_split_makes(text: str, block: int, start: int, stop: int) -> None:
    """sources.TextLines cuts a line out when asked, through counts of line
    ends per block of characters: the lines str.split makes, wherever the
    blocks end (small blocks here, so that lines cross them)."""
    from portkit.findings.sources import TextLines

    class Small(TextLines):
        BLOCK = block

    lines, split = Small(text), text.split("\n")
    assert len(lines) == len(split)
    assert list(lines) == split
    assert lines[-1] == split[-1]
    assert lines[start:stop] == split[start:stop]
    with pytest.raises(IndexError):
        lines[len(split)]


def test_a_text_the_command_read_is_not_read_again(tmp_path: Path) -> None:
    """SourceFiles takes the ASCII texts a command already read as they are
    (a file gone since still has its lines); one that is not ASCII, whose
    codec is not known, is read from its file."""
    from portkit.findings.sources import SourceFiles

    (tmp_path / "b.c").write_bytes(b"/* caf\xe9 */\nint b;\n")
    sources = SourceFiles(texts_read={str(tmp_path / "a.c"): "int a;\nlong b;\n", str(tmp_path / "b.c"): "x\xe9"})
    kept = sources.get(str(tmp_path / "a.c"))
    assert kept is not None and kept.line(2) == "long b;" and kept.codec == "utf-8"
    read = sources.get(str(tmp_path / "b.c"))
    assert read is not None and read.line(2) == "int b;" and read.codec == "latin-1"
