"""`portkit scan` on files it cannot check completely: an #include that is not
found (normal before ./configure) stops clang's checks there, and a parse
error leaves what clang could not read unchecked, so such a file must not
pass as clean: it is named in the text, JSON and SARIF, and the exit status
is 3 (the scan could not do its job) with a line that says what to do,
unless --allow-incomplete. Headers the target's sysroot lacks are taken from
the build machine's include directories, as a cross compiler does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import validate_sarif
from test_scan import scan, scan_json

NEEDS_CONFIG = '#include "config.h"\n#include <stdio.h>\nvoid show(long n) { printf("%d\\n", n); }\n'
CLEAN = "int x;\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "a.c").write_text(NEEDS_CONFIG)
    (tmp_path / "b.c").write_text(CLEAN)
    (tmp_path / "c.c").write_text(CLEAN)
    return tmp_path


def test_the_text_names_the_incomplete_file_and_the_scan_cannot_pass(project: Path) -> None:
    proc = scan(".", cwd=project)
    assert proc.returncode == 3, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == (
        "scanned 2 of 3 files completely for ILP32 (arm) -> LP64 (aarch64); "
        "1 incomplete: a.c (config.h not found; PK701 not checked)"
    )
    assert lines[-1] == "no findings; 1 file not checked completely"
    assert proc.stderr.splitlines() == [
        "portkit: warning: a.c:1: 'config.h' file not found",
        "portkit: error: scan: 1 of 3 files could not be read to the end (a.c: config.h not found), so not all "
        "of it was checked: run the project's configure and pass -p BUILD_DIR (its compile_commands.json), "
        "or -I DIR for headers outside the target's sysroot; --allow-incomplete reports what was checked and "
        "exits by --fail-on",
    ]


def test_what_was_found_before_it_stopped_is_still_shown(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text('#include "config.h"\nint cut(void *p) { return (int) p; }\n')
    proc = scan("a.c", cwd=tmp_path)
    assert proc.returncode == 3
    assert proc.stdout.splitlines()[-1] == "1 finding (1 error) in 1 file; 1 file not checked completely"


@pytest.mark.parametrize("fail_on", ["error", "note", "never"])
def test_fail_on_does_not_let_an_incomplete_scan_pass(project: Path, fail_on: str) -> None:
    assert scan(".", "--fail-on", fail_on, cwd=project).returncode == 3


@pytest.mark.parametrize(("fail_on", "code"), [("error", 1), ("warning", 1), ("never", 0)])
def test_allow_incomplete_leaves_the_exit_status_to_the_findings(tmp_path: Path, fail_on: str, code: int) -> None:
    (tmp_path / "a.c").write_text('#include "config.h"\nint cut(void *p) { return (int) p; }\n')
    proc = scan("a.c", "--allow-incomplete", "--fail-on", fail_on, cwd=tmp_path)
    assert proc.returncode == code
    assert "portkit: error:" not in proc.stderr
    assert proc.stdout.splitlines()[-1] == "1 finding (1 error) in 1 file; 1 file not checked completely"


def test_allow_incomplete_with_nothing_found_passes(project: Path) -> None:
    assert scan(".", "--allow-incomplete", cwd=project).returncode == 0


def test_with_a_compile_database_the_way_out_is_an_include_directory(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text(NEEDS_CONFIG)
    entry = {"directory": str(tmp_path), "file": "a.c", "arguments": ["cc", "-c", "a.c"]}
    (tmp_path / "compile_commands.json").write_text(json.dumps([entry]))
    proc = scan("-p", tmp_path, cwd=tmp_path)
    assert proc.returncode == 3
    last = proc.stderr.splitlines()[-1]
    assert "-I DIR for headers outside the target's sysroot" in last
    assert "configure" not in last


def test_a_parse_error_makes_the_file_incomplete(tmp_path: Path) -> None:
    """clang goes on past an error, but the declaration it could not read is not checked."""
    (tmp_path / "a.c").write_text(
        "int ok;\nstatic int broken(void) { return 1 +; }\nint cut(void *p) { return (int) p; }\n"
    )
    code, document = scan_json("a.c", cwd=tmp_path)
    assert code == 3
    assert document["incomplete"] == [{"path": "a.c", "line": 2, "reason": "expected expression"}]
    assert [f["rule"] for f in document["findings"]] == ["PK101"]  # what it could read is still checked
    proc = scan("a.c", cwd=tmp_path)
    assert "pass the build's -D and -I, or -p BUILD_DIR with its compile_commands.json" in proc.stderr


def test_a_complete_scan_still_passes(tmp_path: Path) -> None:
    (tmp_path / "b.c").write_text(CLEAN)
    proc = scan("b.c", cwd=tmp_path)
    assert proc.returncode == 0
    assert proc.stdout == "scanned 1 of 1 file for ILP32 (arm) -> LP64 (aarch64)\n\nno findings\n"


def test_json_lists_each_incomplete_file_with_its_reason(project: Path) -> None:
    code, document = scan_json(".", cwd=project)
    assert code == 3
    assert (document["inputs"], document["scanned"]) == (3, 3)
    assert document["incomplete"] == [{"path": "a.c", "line": 1, "reason": "config.h not found; PK701 not checked"}]
    assert document["schema"] == "portkit.scan/1"  # a key added, none changed


def test_sarif_marks_the_run_unsuccessful(project: Path) -> None:
    proc = scan(".", "--format", "sarif", cwd=project)
    document = json.loads(proc.stdout)
    validate_sarif(document)
    (invocation,) = document["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    (notification,) = invocation["toolExecutionNotifications"]
    assert notification["level"] == "error"
    assert notification["message"]["text"] == "a.c was not checked completely: config.h not found; PK701 not checked"
    physical = notification["locations"][0]["physicalLocation"]
    assert physical["artifactLocation"] == {"uri": "a.c", "uriBaseId": "%SRCROOT%"}
    assert physical["region"]["startLine"] == 1


def test_sarif_of_a_complete_scan_is_successful(tmp_path: Path) -> None:
    (tmp_path / "b.c").write_text(CLEAN)
    document = json.loads(scan("b.c", "--format", "sarif", cwd=tmp_path).stdout)
    assert document["runs"][0]["invocations"] == [{"executionSuccessful": True}]


def test_clangs_checks_after_the_missing_include_are_what_is_lost(tmp_path: Path) -> None:
    """The reason it matters: the same printf is found once the header is there."""
    (tmp_path / "a.c").write_text(NEEDS_CONFIG)
    _, without = scan_json("a.c", cwd=tmp_path)
    (tmp_path / "config.h").write_text("#define HAVE_CONFIG 1\n")
    _, complete = scan_json("a.c", cwd=tmp_path)
    assert without["findings"] == [] and without["incomplete"]
    assert [f["rule"] for f in complete["findings"]] == ["PK201"] and complete["incomplete"] == []


def test_no_implicit_declaration_is_reported_where_a_header_is_missing(tmp_path: Path) -> None:
    """memmove's header was there; only the library's was missing. What looks
    undeclared in such a file may be the missing header's doing."""
    body = "void copy(char *d, const char *s) { char *q = memmove(d, s, 4); (void) q; }\n"
    (tmp_path / "y.c").write_text("#include <portkit-absent-yaml.h>\n" + body)
    (tmp_path / "z.c").write_text(body)  # no header missing: a real implicit declaration
    _, document = scan_json(".", cwd=tmp_path)
    assert [(f["location"]["path"], f["rule"]) for f in document["findings"]] == [("z.c", "PK701")]
    assert document["incomplete"] == [
        {"path": "y.c", "line": 1, "reason": "portkit-absent-yaml.h not found; PK701 not checked"}
    ]


def test_no_finding_follows_from_a_function_the_missing_header_declares(tmp_path: Path) -> None:
    """Without its header, table_rows() returns an int to clang, and int * 4096
    into a size_t looks like PK602: it is the header's absence, not the code."""
    body = "#include <stddef.h>\nsize_t table_bytes(void) { return table_rows() * 4096; }\n"
    (tmp_path / "y.c").write_text("#include <portkit-absent-table.h>\n" + body)
    (tmp_path / "z.c").write_text(body)  # nothing missing: the implicit int is the code's own
    _, document = scan_json(".", "--allow-incomplete", cwd=tmp_path)
    assert [(f["location"]["path"], f["rule"]) for f in document["findings"]] == [("z.c", "PK602")]


def test_a_header_the_sysroot_lacks_is_taken_from_the_build_machine(tmp_path: Path) -> None:
    """simde (a Debian package portkit's tests install) lives in /usr/include
    only, as zlib.h or oniguruma.h do: a cross compiler finds it there."""
    (tmp_path / "a.c").write_text("#include <simde/hedley.h>\nint cut(void *p) { return (int) p; }\n")
    code, document = scan_json("a.c", cwd=tmp_path)
    assert document["incomplete"] == [] and [f["rule"] for f in document["findings"]] == ["PK101"]
    assert document["build_machine_headers"] == ["/usr/include/simde/hedley.h"]
    assert code == 1
    text = scan("a.c", cwd=tmp_path).stdout.splitlines()
    assert text[1] == "headers the target's sysroot lacks, taken from this machine: /usr/include/simde/hedley.h"


def test_a_sysroot_is_the_targets_whole_world(tmp_path: Path) -> None:
    """With --sysroot the build machine's headers are not the target's: not searched."""
    root = tmp_path / "root"
    (root / "usr/include").mkdir(parents=True)
    (tmp_path / "a.c").write_text("#include <simde/hedley.h>\nint x;\n")
    code, document = scan_json("a.c", "--sysroot", root, cwd=tmp_path)
    assert code == 3 and document["build_machine_headers"] == []
    assert document["incomplete"][0]["reason"].startswith("simde/hedley.h not found")


def test_without_pk701_selected_the_reason_does_not_name_it(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text(NEEDS_CONFIG)
    _, document = scan_json("a.c", "--select", "PK2", cwd=tmp_path)
    assert document["incomplete"][0]["reason"] == "config.h not found"


def test_a_header_missing_below_another_names_it_and_points_at_the_units_include(tmp_path: Path) -> None:
    (tmp_path / "config.h").write_text('#include "missing-config.h"\n')
    (tmp_path / "a.c").write_text('#include <stdio.h>\n\n#include "config.h"\nint x;\n')
    _, document = scan_json("a.c", cwd=tmp_path)
    assert document["incomplete"] == [
        {"path": "a.c", "line": 3, "reason": "missing-config.h not found (in config.h:1); PK701 not checked"}
    ]


def test_many_incomplete_files_are_counted_and_json_has_them_all(tmp_path: Path) -> None:
    for name in "abcde":
        (tmp_path / f"{name}.c").write_text(NEEDS_CONFIG)
    proc = scan(".", cwd=tmp_path)
    head = proc.stdout.splitlines()[0]
    assert head.startswith("scanned 0 of 5 files completely for ILP32 (arm) -> LP64 (aarch64); 5 incomplete: a.c (")
    assert head.endswith("c.c (config.h not found; PK701 not checked) and 2 more (--format json lists them all)")
    assert len(scan_json(".", cwd=tmp_path)[1]["incomplete"]) == 5


def test_a_parse_that_crashed_or_timed_out_is_incomplete() -> None:
    from portkit.commands.scan.command import _gather
    from portkit.commands.scan.engine import ScanJob
    from portkit.core.workers import Failed
    from portkit.findings.model import Incomplete

    job = ScanJob(Path("deep.c"), "int x;", (), None, None, frozenset())  # type: ignore[arg-type]
    problems: list[str] = []
    incomplete: list[Incomplete] = []
    findings, scanned, _ = _gather([job], [Failed("was killed by SIGSEGV")], problems, incomplete)
    assert (findings, scanned) == ([], 0)
    assert incomplete == [Incomplete("deep.c", "the parser was killed by SIGSEGV")]
    assert problems == ["deep.c: the parser was killed by SIGSEGV"]
