"""`portkit scan`'s cache and --changed-since: a rescan reuses what has not
changed and never gives a stale result (an edited header, a header that
appears earlier on the search path, other flags), and a pull request sees
the findings of the files it changed and of the files that include them."""

from __future__ import annotations

import contextlib
import json
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import run_portkit

CAST = "long keep(void *p) { return (int) p; }\n"  # PK101 where it is expanded
CLEAN = "long keep(void *p) { return (long) p; }\n"


def scan(*args: str | Path, cwd: Path) -> tuple[int, dict, str]:
    proc = run_portkit("scan", "--format", "json", *args, cwd=cwd)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, json.loads(proc.stdout), proc.stderr


def found(document: dict) -> list[tuple[str, int, str]]:
    return [(f["location"]["path"], f["location"]["line"], f["rule"]) for f in document["findings"]]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "keep.h").write_text(CLEAN)
    (tmp_path / "main.c").write_text('#include "keep.h"\nint main(void) { return 0; }\n')
    (tmp_path / "other.c").write_text('#include <stdio.h>\nvoid show(long n) { printf("%ld\\n", n); }\n')
    return tmp_path


def test_a_rescan_reuses_every_unit_and_finds_the_same(project: Path) -> None:
    args = ("--cache", "cache", "-I", "include", "main.c", "other.c")
    _, first, _ = scan(*args, cwd=project)
    _, again, _ = scan(*args, cwd=project)
    assert first["cache"] == {"directory": "cache", "reused": 0, "stored": 2}
    assert again["cache"] == {"directory": "cache", "reused": 2, "stored": 0}
    assert found(first) == found(again) == []
    assert (project / "cache" / "CACHEDIR.TAG").is_file()


def test_a_kept_result_keeps_what_the_scan_told(tmp_path: Path) -> None:
    """A finding in a macro body names the macro and its uses, and a header
    taken from the build machine is named, on a rescan from the cache too."""
    (tmp_path / "span.c").write_text(
        "#include <simde/hedley.h>\n#define KEEP(p) ((int) (p))\n"
        "int a(void *p) { return KEEP(p); }\nint b(void *p) { return KEEP(p); }\n"
    )
    _, first, _ = scan("--cache", "cache", "span.c", cwd=tmp_path)
    _, again, _ = scan("--cache", "cache", "span.c", cwd=tmp_path)
    assert again["cache"]["reused"] == 1
    assert first["findings"] == again["findings"]
    assert "(in macro KEEP, expanded 2 times (first at span.c:3))" in again["findings"][0]["message"]
    assert first["build_machine_headers"] == again["build_machine_headers"] == ["/usr/include/simde/hedley.h"]


def test_an_edited_header_changes_the_finding(project: Path) -> None:
    args = ("--cache", "cache", "-I", "include", "main.c", "other.c")
    scan(*args, cwd=project)
    (project / "include" / "keep.h").write_text(CAST)
    code, document, _ = scan(*args, cwd=project)
    assert (code, found(document)) == (1, [("include/keep.h", 1, "PK101")])
    assert document["cache"]["reused"] == 1  # other.c does not include it
    (project / "include" / "keep.h").write_text(CLEAN)
    code, document, _ = scan(*args, cwd=project)
    assert (code, found(document)) == (0, [])


def test_a_header_added_earlier_on_the_search_path_is_read(project: Path) -> None:
    """ "keep.h" is looked for beside main.c before -I include: a file put
    there later is the one the compiler reads, so the kept result is stale."""
    args = ("--cache", "cache", "-I", "include", "main.c")
    scan(*args, cwd=project)
    (project / "keep.h").write_text(CAST)
    code, document, _ = scan(*args, cwd=project)
    assert (code, found(document), document["cache"]["reused"]) == (1, [("keep.h", 1, "PK101")], 0)


def test_other_flags_and_other_models_are_other_entries(project: Path) -> None:
    (project / "flag.c").write_text("#ifdef CUT\nint cut(void *p) { return (int) p; }\n#endif\n")
    assert found(scan("--cache", "cache", "flag.c", cwd=project)[1]) == []
    _, document, _ = scan("--cache", "cache", "-DCUT", "flag.c", cwd=project)
    assert (found(document), document["cache"]["reused"]) == ([("flag.c", 2, "PK101")], 0)
    _, document, _ = scan("--cache", "cache", "-DCUT", "--to", "LLP64", "flag.c", cwd=project)
    assert document["cache"]["reused"] == 0
    _, document, _ = scan("--cache", "cache", "-DCUT", "--select", "PK2", "flag.c", cwd=project)
    assert (found(document), document["cache"]["reused"]) == ([], 0)


def test_an_edited_source_is_scanned_again(project: Path) -> None:
    scan("--cache", "cache", "other.c", cwd=project)
    (project / "other.c").write_text('#include <stdio.h>\nvoid show(long n) { printf("%d\\n", n); }\n')
    _, document, _ = scan("--cache", "cache", "other.c", cwd=project)
    assert (found(document), document["cache"]["reused"]) == ([("other.c", 2, "PK201")], 0)


def test_a_damaged_entry_is_scanned_again_and_replaced(project: Path) -> None:
    scan("--cache", "cache", "other.c", cwd=project)
    (entry,) = (project / "cache").glob("*/*.json")
    for damage in ("", "{", '{"schema": "portkit.scan-cache/1"}', json.dumps({**json.loads("{}"), "source": 1})):
        entry.write_text(damage)
        code, document, stderr = scan("--cache", "cache", "other.c", cwd=project)
        assert (code, document["cache"]["reused"], document["cache"]["stored"], stderr) == (0, 0, 1, "")


def test_no_cache_keeps_nothing_and_the_default_is_the_users_cache_dir(project: Path) -> None:
    home = project / "xdg"
    proc = run_portkit(
        "scan", "--no-cache", "--format", "json", "other.c", cwd=project, env={"XDG_CACHE_HOME": str(home)}
    )
    # no findings kept; only the data models' sizes (test_scan_models_cache.py)
    assert "cache" not in json.loads(proc.stdout) and not (home / "portkit" / "scan").exists()
    proc = run_portkit("scan", "--format", "json", "other.c", cwd=project, env={"XDG_CACHE_HOME": str(home)})
    assert json.loads(proc.stdout)["cache"]["directory"] == str(home / "portkit" / "scan")
    assert list((home / "portkit" / "scan").glob("*/*.json"))


def test_the_default_beside_a_compile_database(project: Path) -> None:
    build = project / "build"
    build.mkdir()
    entry = {"directory": str(project), "file": "other.c", "arguments": ["cc", "-c", "other.c"]}
    (build / "compile_commands.json").write_text(json.dumps([entry]))
    _, document, _ = scan("-p", "build", cwd=project)
    assert document["cache"]["directory"] == "build/.portkit-cache"


def test_a_cache_that_cannot_be_made_is_one_line(project: Path) -> None:
    (project / "afile").write_text("")
    proc = run_portkit("scan", "--cache", "afile", "other.c", cwd=project)
    assert (proc.returncode, proc.stderr) == (2, "portkit: error: --cache afile: is a file, not a directory\n")
    proc = run_portkit("scan", "--cache", "afile/sub", "other.c", cwd=project)
    assert proc.returncode == 2 and proc.stderr.startswith("portkit: error: --cache afile/sub: cannot create")
    proc = run_portkit("scan", "--cache", "c", "--no-cache", "other.c", cwd=project)
    assert proc.returncode == 2 and "not allowed with" in proc.stderr


def test_a_default_cache_that_cannot_be_made_is_a_warning(project: Path) -> None:
    (project / "xdg").write_text("")  # a file where the cache directory would go
    proc = run_portkit("scan", "other.c", cwd=project, env={"XDG_CACHE_HOME": str(project / "xdg")})
    assert proc.returncode == 0
    assert "cannot keep the scan cache there; --cache DIR puts it elsewhere" in proc.stderr


# ------------------------------------------------------------------ --changed-since


def git(*args: str, cwd: Path) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=cwd, check=True, capture_output=True
    )


@pytest.fixture
def repository(project: Path) -> Path:
    (project / "include" / "keep.h").write_text(CAST)
    (project / "other.c").write_text('#include <stdio.h>\nvoid show(long n) { printf("%d\\n", n); }\n')
    git("init", "-q", "-b", "main", cwd=project)
    git("add", ".", cwd=project)
    git("commit", "-q", "-m", "start", cwd=project)
    return project


def test_changed_since_shows_only_the_changed_files_findings(repository: Path) -> None:
    args = ("--cache", "cache", "-I", "include", "main.c", "other.c")
    _, everything, _ = scan(*args, cwd=repository)
    assert found(everything) == [("include/keep.h", 1, "PK101"), ("other.c", 2, "PK201")]
    code, document, _ = scan(*args, "--changed-since", "main", cwd=repository)
    assert (code, found(document)) == (0, [])
    assert document["changed_since"] == {"revision": "main", "changed": [], "through_headers": []}
    (repository / "other.c").write_text('#include <stdio.h>\nvoid show(long n) { printf("%d!\\n", n); }\n')
    code, document, _ = scan(*args, "--changed-since", "main", cwd=repository)
    assert (code, found(document)) == (1, [("other.c", 2, "PK201")])
    assert document["changed_since"]["changed"] == ["other.c"]


def test_changed_since_shows_the_sources_that_include_a_changed_header(repository: Path) -> None:
    git("rm", "-q", "--cached", "-r", ".", cwd=repository)
    (repository / "main.c").write_text('#include "keep.h"\nint cut(void *p) { return (int) p; }\n')
    git("add", ".", cwd=repository)
    git("commit", "-q", "-m", "cut", cwd=repository)
    (repository / "include" / "keep.h").write_text(CAST + "/* touched */\n")
    args = ("--cache", "cache", "-I", "include", "main.c", "other.c", "--changed-since", "HEAD")
    _, document, _ = scan(*args, cwd=repository)
    assert found(document) == [("include/keep.h", 1, "PK101"), ("main.c", 2, "PK101")]
    assert document["changed_since"] == {
        "revision": "HEAD",
        "changed": ["include/keep.h"],
        "through_headers": ["main.c"],
    }
    text = run_portkit("scan", *args, cwd=repository).stdout
    assert "findings only in files changed since HEAD: 1 C/C++ file, and 1 file including a changed header" in text


def test_changed_since_mistakes_are_one_line(repository: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    proc = run_portkit("scan", "other.c", "--changed-since", "nosuch", cwd=repository)
    assert (proc.returncode, proc.stderr) == (2, "portkit: error: --changed-since nosuch: git knows no such revision\n")
    outside = tmp_path_factory.mktemp("outside")
    (outside / "a.c").write_text("int a;\n")
    proc = run_portkit("scan", "a.c", "--changed-since", "main", cwd=outside)
    assert proc.returncode == 2 and proc.stderr.endswith("is not in a git repository\n")


# ------------------------------------------------------------------ the entry reader, fuzzed


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(result=JSON)
def test_any_entry_result_reads_or_is_refused(result: object) -> None:
    """A kept result of any shape is read or refused with one of the errors
    lookup() treats as a miss (ValueError, BadInput), never anything else."""
    from portkit.commands.scan.cache import _scanned_from_json
    from portkit.core.errors import BadInput

    with contextlib.suppress(ValueError, BadInput):
        _scanned_from_json(result)  # type: ignore[arg-type]


# The text of a job goes to its worker by the file, not through the pipes


def test_a_job_read_from_its_file_is_sent_without_its_text_and_read_again(tmp_path: Path) -> None:
    from portkit.commands.scan.job import ScanJob, received, sent, stamp

    path = tmp_path / "a.c"
    path.write_text("int a;\n")
    job = ScanJob(path, "int a;\n", (), None, None, frozenset(), stamp(path))  # type: ignore[arg-type]
    assert sent(job).text == ""
    assert received(sent(job)) == job
    own = ScanJob(path, "int b;\n", (), None, None, frozenset())  # type: ignore[arg-type]  # --fix's text
    assert sent(own) == own and received(own) == own


def test_a_file_edited_after_the_command_read_it_is_a_unit_not_checked(tmp_path: Path) -> None:
    from portkit.commands.scan.job import CHANGED, ScanJob, Scanned, received, sent, stamp

    path = tmp_path / "a.c"
    path.write_text("int a;\n")
    job = ScanJob(path, "int a;\n", (), None, None, frozenset(), stamp(path))  # type: ignore[arg-type]
    path.write_text("int a, b;\n")
    outcome = received(sent(job))
    assert isinstance(outcome, Scanned) and outcome.incomplete is not None
    assert outcome.incomplete.reason == CHANGED and not outcome.parsed
    path.unlink()
    assert isinstance(received(sent(job)), Scanned)  # gone: not checked either


def test_clang_reads_the_file_itself_and_a_change_after_it_did_is_a_unit_not_checked(tmp_path: Path) -> None:
    """A job whose text is its file's as read is parsed from the file (not
    handed over as a copy); if the file changes between the worker's reading
    and clang's, what clang parsed is not what the rules read: not checked."""
    from portkit.commands.scan.engine import scan_unit
    from portkit.commands.scan.job import CHANGED, ScanJob, stamp
    from portkit.commands.scan.models import probe_pair, resolve_abi
    from portkit.commands.scan.rules import RULES

    path = tmp_path / "a.c"
    path.write_text(CAST)
    pair = probe_pair(resolve_abi("ILP32", "--from"), resolve_abi("aarch64", "--to"), None)
    job = ScanJob(path, CAST, (), pair, None, frozenset(rule.id for rule in RULES), stamp(path))
    assert [(f.rule, f.location.line) for f in scan_unit(job).findings] == [("PK101", 1)]
    path.write_text(CLEAN)  # a new stamp, as if edited while clang read it
    outcome = scan_unit(job)
    assert outcome.incomplete is not None and outcome.incomplete.reason == CHANGED and outcome.findings == []


def test_a_latin1_file_is_read_as_the_compiler_reads_it(tmp_path: Path) -> None:
    """A file that is not UTF-8 is parsed as its bytes, as the build's
    compiler reads it: a finding after a Latin-1 character on its line has
    that line's own column (re-encoded as UTF-8, it was one to the right)."""
    (tmp_path / "l1.c").write_bytes(b"/* caf\xe9 */ int handle(void *p) { return (int)(long)p; }\n")
    _, document, _ = scan("l1.c", cwd=tmp_path)
    location = document["findings"][0]["location"]
    assert (location["line"], location["column"], location["end_column"]) == (1, 41, 53)  # (int)(long)p


def test_only_a_regular_file_is_read_again_by_the_worker(tmp_path: Path) -> None:
    import os

    from portkit.commands.scan.job import stamp

    (tmp_path / "a.c").write_text("int a;\n")
    os.mkfifo(tmp_path / "pipe.c")
    assert stamp(tmp_path / "a.c") is not None
    assert stamp(tmp_path / "pipe.c") is None  # its text goes to the worker with the job
    assert stamp(tmp_path) is None and stamp(tmp_path / "gone.c") is None
