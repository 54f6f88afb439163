"""`portkit report` end to end, from the real documents of every command
(saved as JSON or SARIF, or the commands run here): each combination of
areas in every format, the verdicts and what decides them, the exit status,
and a new user's mistakes."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

from conftest import BUILD, ROOT, run_portkit
from debian_kconfigs import debian_configs
from portkit.cli import main
from portkit.commands.report.markdown import LIMIT, size
from portkit.commands.report.model import AREA_KEYS
from report_samples import LEGACY, LOADS, measured_cell, scan_document, small_image, write_study
from terminal import run_on_terminal

JUNIT_XSD = ROOT / "tests" / "data" / "junit" / "junit-10.xsd"


def junit_errors(text: str) -> list[str]:
    """What Jenkins' JUnit schema says of a document ([] when it is valid)."""
    schema = etree.XMLSchema(etree.parse(str(JUNIT_XSD)))
    document = etree.fromstring(text.encode())
    schema.validate(document)
    return [str(e) for e in schema.error_log]


@pytest.fixture
def saved(report_results: dict[str, Path]) -> dict[str, Path]:
    """Each area's result as the commands write it (conftest.report_results)."""
    return report_results


def report(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    """`portkit report ARGS` in this process (fast: no interpreter to start): exit status, stdout, stderr."""
    capsys.readouterr()
    code = main(["report", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def inputs_of(saved: dict[str, Path], areas: tuple[str, ...]) -> list[Path]:
    return [path for key, path in saved.items() if key.partition("-")[0] in areas]


COMBINATIONS = (
    [(area,) for area in AREA_KEYS]
    + [tuple(a for a in AREA_KEYS if a != left_out) for left_out in AREA_KEYS]
    + [AREA_KEYS]
)


@pytest.mark.parametrize("areas", COMBINATIONS, ids=lambda areas: "+".join(areas))
def test_each_combination_of_areas_gives_every_format(
    areas: tuple[str, ...], saved: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {fmt: tmp_path / f"report.{fmt}" for fmt in ("html", "markdown", "json", "junit")}
    code, out, err = report(
        capsys, *inputs_of(saved, areas), *(x for fmt, path in files.items() for x in (f"--{fmt}", path))
    )
    assert err == "" and code in (0, 1)
    document = json.loads(files["json"].read_text())
    assert document["schema"] == "portkit.report/1" and document["exit_status"] == code
    measured = {a["area"] for a in document["areas"] if a["verdict"] != "not_measured"}
    assert measured == set(areas)
    for area in document["areas"]:
        assert bool(area["sources"]) == (area["area"] in areas)
        if area["verdict"] == "not_ready":
            assert area["decisive"] and all(group["fix"] for group in area["decisive"])
    assert code == (1 if document["verdict"] != "ready" else 0)
    page = files["html"].read_text()
    assert page.startswith("<!DOCTYPE html>") and "Content-Security-Policy" in page
    assert all(f'id="{a}"' in page for a in areas) and ('id="not-given"' in page) == (len(areas) < 6)
    assert ("data:image/svg+xml;base64," in page) == ("latency" in areas)
    markdown = files["markdown"].read_text()
    assert size(markdown) < LIMIT and markdown.startswith("## ")
    assert junit_errors(files["junit"].read_text()) == []
    for written in files.values():
        assert str(written) in out  # the text on stdout says where each went


def test_a_report_of_the_legacy_project_names_what_decides_each_verdict(
    saved: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = report(capsys, saved["code"], saved["layouts"], "--format", "json")
    document = json.loads(out)
    code_area, layouts = document["areas"][0], document["areas"][1]
    assert code == 1 and document["verdict"] == "not_ready"
    # the field report's incorrect code: two errors lead, each with its rule's fix
    assert [g["group"] for g in code_area["decisive"][:2]] == ["PK101", "PK102"]
    assert code_area["decisive"][0]["fix"].startswith("Keep addresses in intptr_t")
    assert code_area["why"] == "16 findings at or above --fail-on warning (2 errors, 14 warnings)"
    # struct bar is 16 bytes on AArch32 and 32 on AArch64 (the IVI AArch64 porting field report)
    bar = next(r for r in layouts["records"] if r["name"] == "struct bar")
    assert bar["sizes"] == {"arm": 16, "aarch64": 32}
    assert layouts["verdict"] == "not_ready"


def test_fail_on_decides_the_findings_areas_as_in_the_commands(
    saved: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    for fail_on, verdicts in (("error", ["not_ready", "ready"]), ("never", ["ready", "ready"])):
        code, out, _ = report(capsys, saved["code"], saved["layouts"], "--fail-on", fail_on, "--format", "json")
        document = json.loads(out)
        assert [a["verdict"] for a in document["areas"][:2]] == verdicts
        assert code == (0 if fail_on == "never" else 1)


def test_sarif_gives_the_verdicts_json_gives(saved: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    for area in ("code", "image", "kernel"):
        views = []
        for key in (area, f"{area}-sarif"):
            _, out, err = report(capsys, saved[key], "--format", "json")
            assert err == ""
            document = json.loads(out)
            judged = next(a for a in document["areas"] if a["area"] == area)
            views.append((judged["verdict"], judged["why"], sorted(i["key"] for i in judged["items"])))
        assert views[0] == views[1], area


def test_latency_limits_per_load_per_cell_and_by_default_the_interval(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cell = measured_cell()  # a real run: max 570 us
    write_study(tmp_path / "study", ("idle", "cpu"), (500, 1000), cell)

    def verdicts(*limits: str) -> dict[str, str]:
        _, out, _ = report(capsys, tmp_path / "study", *limits, "--format", "json")
        cells = json.loads(out)["areas"][-1]["cells"]
        return {c["key"]: c["verdict"] for c in cells}

    assert verdicts() == {
        "idle-500us": "not_ready",
        "cpu-500us": "not_ready",
        "idle-1000us": "ready",
        "cpu-1000us": "ready",
    }
    assert set(verdicts("--max-latency-us", "600").values()) == {"ready"}
    assert verdicts("--max-latency-us", "600,cpu=100") == {
        "idle-500us": "ready",
        "cpu-500us": "not_ready",
        "idle-1000us": "ready",
        "cpu-1000us": "not_ready",
    }
    assert verdicts("--max-latency-us", "600", "--max-latency-us", "idle-1000us=50")["idle-1000us"] == "not_ready"


def test_emulated_timings_are_shown_and_never_judged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_study(tmp_path / "emulated", ("idle",), (1000,), measured_cell(), target="qemu-aarch64")
    code, out, _ = report(capsys, tmp_path / "emulated", "--max-latency-us", "10000", "--format", "json")
    latency = json.loads(out)["areas"][-1]
    assert latency["verdict"] == "not_measured" and "qemu-user" in latency["why"]
    assert latency["cells"][0]["max_ns"] == 570000 and code == 1


def test_the_targets_warnings_are_cited_by_their_ids(
    saved: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sysinfo = json.loads(saved["target-sysinfo"].read_text())
    ids = [w["id"] for w in sysinfo["warnings"]]
    if not ids:
        pytest.skip("rt sysinfo warns of nothing on this machine")
    write_study(tmp_path / "study", ("idle",), (1000,), measured_cell(), sysinfo=sysinfo)
    shown = [(tmp_path / "study", "json"), (tmp_path / "study", "html")]
    shown += [(saved["target-sysinfo"], fmt) for fmt in ("json", "html", "markdown")]
    for source, fmt in shown:
        _, out, _ = report(capsys, source, "--format", fmt)
        assert all(warning_id in out for warning_id in ids), (source.name, fmt)


def test_cyclictest_output_is_read_as_rt_import_reads_it(
    saved: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = report(capsys, saved["latency-cyclictest"], "--max-latency-us", "1000", "--format", "json")
    latency = json.loads(out)["areas"][-1]
    assert latency["sources"][0]["kind"] == "cyclictest output"
    assert [c["key"] for c in latency["cells"]] == ["verbose-t2"] and latency["verdict"] == "ready" and code == 0


def test_require_makes_an_area_without_results_keep_the_report_from_being_ready(
    saved: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = report(capsys, saved["latency"], "--max-latency-us", "1000", "--format", "json")
    assert json.loads(out)["verdict"] == "ready" and code == 0
    code, out, _ = report(
        capsys, saved["latency"], "--max-latency-us", "1000", "--require", "latency,target", "--format", "json"
    )
    document = json.loads(out)
    assert document["verdict"] == "not_measured" and code == 1


def test_the_commands_run_here_on_the_inputs_given(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    agent = BUILD / "host" / "portkit-target"
    if not agent.exists():
        pytest.skip("no host agent (make native)")
    image = small_image(tmp_path / "rootfs")
    config = debian_configs("amd64") / "config.amd64_none_amd64.xz"  # this machine's architecture
    code, out, err = report(
        capsys,
        "--source",
        LEGACY,
        "--headers",
        LEGACY / "include" / "long_records.h",
        "--rootfs",
        image,
        "--kconfig",
        config,
        "--target",
        "local",
        "--agent",
        agent,
        "--cpu-has",
        "sse2",
        "--format",
        "json",
        "--quiet",
    )
    document = json.loads(out)
    labels = {a["area"]: [s["label"] for s in a["sources"]] for a in document["areas"]}
    assert labels["code"] == [f"portkit scan {LEGACY} --from arm --to aarch64"]
    assert labels["image"] == [f"portkit audit rootfs {image} --kconfig {config}"]
    assert labels["target"] == [
        f"portkit cpu --target local --agent {agent} --has sse2",
        f"portkit vdso verify --target local --agent {agent}",
        f"portkit rt sysinfo --target local --agent {agent}",
    ]
    assert all(s["origin"] == "run" and s["error"] is None for a in document["areas"] for s in a["sources"])
    assert next(a for a in document["areas"] if a["area"] == "target")["verdict"] == "ready"
    assert err == "" and code == 1  # the legacy code is not ready


def test_an_input_that_is_no_result_is_one_line_and_the_rest_is_reported(
    saved: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    readme = ROOT / "README.md"
    html = tmp_path / "r.html"
    code, out, err = report(capsys, readme, saved["code"], "--html", html)
    assert code == 2 and html.exists() and "NOT READY" in out
    assert err == (
        f"portkit: error: {readme}: not a result portkit report reads (a portkit --format json document, "
        "portkit's SARIF, a latency study or directory of results, cyclictest or rtla output); a source tree is "
        "--source, headers --headers, an image --rootfs, a kernel config --kconfig\n"
    )


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda d: d, "neither a study (study.json) nor any portkit rt result (*.json) (a source tree is --source DIR"),
        (
            lambda d: _write(d / "r.json", {"schema": "portkit.report/1"}),
            "an earlier report: give it as --baseline FILE",
        ),
        (lambda d: _write(d / "c.json", {"schema": "portkit.crc32c/1"}), "a portkit.crc32c/1 document, which no area"),
        (
            lambda d: _write(d / "s.json", {"schema": "portkit.scan/2"}),
            "a portkit.scan/2 document; this portkit reads portkit.scan/1",
        ),
        (lambda d: _write(d / "s.json", {"schema": "portkit.scan/1"}), "a portkit.scan/1 document without findings[]"),
        (
            lambda d: _write(d / "x.sarif", {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "cppcheck"}}}]}),
            "SARIF from 'cppcheck'; portkit report reads portkit's own",
        ),
        (lambda d: d / "missing.json", "missing.json: no such file or directory"),
        (lambda d: _text(d / "broken.json", '{"schema": '), "not JSON (Expecting value at line 1 column 12)"),
    ],
)
def test_inputs_refused_name_the_file_and_why(
    make, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make(tmp_path)
    code, _, err = report(capsys, path)
    assert code == 2 and err.startswith(f"portkit: error: {path}") and expected in err and len(err.splitlines()) == 1


def _write(path: Path, document: dict) -> Path:
    path.write_text(json.dumps(document))
    return path


def _text(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_usage_mistakes_are_one_line_before_any_work(
    saved: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mistakes = {
        (): "report: nothing to report on: give saved results",
        (
            "--require",
            "speed",
            saved["code"],
        ): "argument --require: 'speed': the areas are code, layouts, image, kernel",
        ("--max-latency-us", "fast", saved["code"]): "'fast' is not US or LOAD=US",
        ("--max-latency-us", "cpu=0", saved["code"]): "'cpu=0': the limit must be above 0 us",
        ("--cpu-has", "sse2", saved["code"]): "--cpu-has, --agent and --timeout are for --target",
        ("--from", "vax", saved["code"]): "vax",
        (saved["code"], "-o", tmp_path): f"-o {tmp_path}: is a directory",
        (
            saved["code"],
            "--html",
            tmp_path / "no" / "r.html",
        ): f"--html {tmp_path / 'no' / 'r.html'}: {tmp_path / 'no'} does not exist",
        (
            saved["code"],
            "--html",
            tmp_path / "r",
            "--json",
            tmp_path / "r",
        ): f"--json {tmp_path / 'r'}: --html writes there too",
        (
            saved["code"],
            "--baseline",
            saved["code"],
        ): "a portkit.scan/1 document; give an earlier `portkit report --format json`",
    }
    for args, expected in mistakes.items():
        code, out, err = report(capsys, *args)
        assert code == 2 and out == "" and len(err.splitlines()) == 1, (args, err)
        assert err.startswith("portkit: error: ") and expected in err, (args, err)
    assert list(tmp_path.iterdir()) == []


def test_an_unreachable_target_is_the_environment_and_nothing_else_stands_in_its_way(
    saved: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = report(capsys, "--target", "local", "--agent", "/nonexistent/portkit-target", "--format", "json")
    document = json.loads(out)
    assert document["verdict"] == "not_measured" and code == 3
    # one line: the target's other commands are not tried once its agent cannot start
    assert (
        err
        == "portkit: error: cannot start the agent on local (/nonexistent/portkit-target: No such file or directory)\n"
    )
    code, out, _ = report(
        capsys, saved["code"], "--target", "local", "--agent", "/nonexistent/portkit-target", "--format", "json"
    )
    assert code == 1  # the code is not ready: that the target could not be reached changes nothing


def test_help_has_examples_and_fits_80_columns() -> None:
    proc = run_portkit("report", "--help", env={"COLUMNS": "80"})
    assert proc.returncode == 0 and "examples:" in proc.stdout and "exit status:" in proc.stdout
    assert max(len(line) for line in proc.stdout.splitlines()) <= 80


def test_piped_to_head_and_on_a_terminal(saved: dict[str, Path]) -> None:
    command = f"{shlex.quote(sys.executable)} -m portkit report {shlex.quote(str(saved['code']))} | head -1"
    proc = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.stdout == "Is this port ready? NOT READY\n" and proc.stderr == ""
    screen = run_on_terminal(["report", str(saved["code"]), str(saved["layouts"])], columns=80)
    assert screen.returncode == 1 and all(len(line) <= 80 for line in screen.lines)
    assert "layouts    not ready" in "\n".join(screen.lines)


def test_every_area_is_one_suite_and_every_verdict_a_case_in_junit(
    saved: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = report(capsys, saved["code"], saved["latency"], "--format", "junit")
    assert junit_errors(out) == []
    suites = etree.fromstring(out.encode())
    names = [s.get("name") for s in suites]
    assert names == [f"portkit report: {t}" for t in ("Code", "Data layouts", "Image", "Kernel", "Target", "Latency")]
    latency = suites[-1]
    cases = {c.get("name"): c for c in latency}
    assert set(cases) == {f"latency: {saved['latency']}", "latency: idle-1000us", "latency: cpu-1000us"}
    code_case = suites[0][0]
    failure = code_case.find("failure")
    assert failure is not None and "PK101" in failure.text and "fix: Keep addresses" in failure.text
    skipped = suites[2][0].find("skipped")
    assert skipped is not None and "--rootfs" in skipped.text
    assert suites.get("failures") == str(sum(int(s.get("failures")) for s in suites))


def test_ten_thousand_findings_and_fifty_cells_fit_a_merge_request_comment(
    saved: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tmp_path / "scan.json"
    big.write_text(json.dumps(scan_document(json.loads(saved["code"].read_text()), 10_000)))
    write_study(tmp_path / "study", LOADS, tuple(range(100, 1100, 100)), measured_cell())
    markdown, page, junit = tmp_path / "r.md", tmp_path / "r.html", tmp_path / "r.xml"
    code, _, err = report(
        capsys, big, tmp_path / "study", "--markdown", markdown, "--junit", junit, "--json", tmp_path / "r.json"
    )
    assert code == 1 and err == ""
    text = markdown.read_text()
    assert size(text) <= LIMIT < 65_536  # GitHub's comment limit; GitLab's is 1,000,000
    assert "The details were cut to fit a merge-request comment" in text and "more rows" in text
    assert "| Latency | ❌ not ready |" in text  # the verdicts are never cut
    assert junit_errors(junit.read_text()) == []
    code, _, _ = report(capsys, big, "--html", page)
    assert page.stat().st_size < 8_000_000 and page.read_text().count("<tr>") == 10_000


def test_o_file_names_its_format_unless_format_does(
    saved: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, start in (
        ("r.html", "<!DOCTYPE html>"),
        ("r.md", "## "),
        ("r.json", "{"),
        ("r.xml", "<?xml"),
        ("r.txt", "Is this"),
    ):
        report(capsys, saved["code"], "-o", tmp_path / name)
        assert (tmp_path / name).read_text().startswith(start), name
    report(capsys, saved["code"], "-o", tmp_path / "forced.html", "--format", "markdown")
    assert (tmp_path / "forced.html").read_text().startswith("## ")
