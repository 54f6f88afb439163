"""The conventions every command follows (docs/architecture.md, "Conventions"): --help with an example,
one-line errors with exit 2, exit 3 when the environment cannot do it,
--format json, -o FILE written atomically. Runs the installed `portkit`."""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_portkit
from portkit.cli import main
from portkit.core.errors import BadInput, EnvironmentProblem
from portkit.core.target import AgentCall
from portkit.core.targets import parse_target

COMMANDS = ["cpu", "vdso", "crc32c", "layout", "scan", "rt", "audit", "report", "agents"]


def portkit(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_portkit(*args, env=env, timeout=120)


def fake_agent(tmp_path: Path, script: str) -> Path:
    """A stand-in agent, to drive the target layer through its failure paths."""
    path = tmp_path / "portkit-target"
    path.write_text("#!/bin/sh\n" + script + "\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def test_top_level_help_shows_an_example_and_every_command() -> None:
    proc = portkit("--help")
    assert proc.returncode == 0
    assert "examples:\n  portkit " in proc.stdout
    # the exit codes, in the help as well as the README
    assert re.search(r"^exit status:\n  0 .*\n  1 .*\n  2 .*\n  3 ", proc.stdout, flags=re.M)
    listed = re.findall(r"^    ([a-z0-9]+)  ", proc.stdout, flags=re.M)  # the commands, one a line
    assert listed == COMMANDS


def test_a_mistyped_command_names_every_command() -> None:
    proc = portkit("scna")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert all(name in proc.stderr for name in COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_help_shows_an_example(command: str) -> None:
    proc = portkit(command, "--help")
    assert proc.returncode == 0
    examples = re.split(r"^examples?:", proc.stdout, flags=re.M)  # the heading, not a path like examples/
    assert len(examples) > 1 and f"portkit {command}" in examples[-1]


@pytest.mark.parametrize(
    "args",
    [["--bogus"], ["nonsense-command"], ["cpu", "--format", "xml"], ["cpu", "--target", "nowhere"], ["cpu", "extra"]],
)
def test_bad_usage_is_one_line_and_exit_2(args: list[str]) -> None:
    proc = portkit(*args)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("portkit: error: ")
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "Traceback" not in proc.stderr


def test_unknown_qemu_architecture_is_bad_usage() -> None:
    proc = portkit("cpu", "--target", "qemu-vax")
    assert proc.returncode == 2
    assert "unknown architecture 'vax'" in proc.stderr


def test_missing_agent_is_an_environment_problem(tmp_path: Path) -> None:
    proc = portkit("cpu", "--agent", str(tmp_path / "absent"))
    assert proc.returncode == 3
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "cannot start the agent" in proc.stderr


def test_agent_speaking_another_schema_is_refused(tmp_path: Path) -> None:
    agent = fake_agent(tmp_path, """echo '{"schema":"portkit.cpu/9","agent":{}}'""")
    proc = portkit("cpu", "--agent", str(agent))
    assert proc.returncode == 3
    assert "portkit.cpu/9" in proc.stderr


def test_agent_printing_garbage_is_reported(tmp_path: Path) -> None:
    agent = fake_agent(tmp_path, "echo 'not json'")
    proc = portkit("cpu", "--agent", str(agent))
    assert proc.returncode == 3
    assert "invalid JSON" in proc.stderr


def test_agent_killed_by_a_signal_is_reported(tmp_path: Path) -> None:
    agent = fake_agent(tmp_path, "kill -SEGV $$")
    proc = portkit("cpu", "--agent", str(agent))
    assert proc.returncode == 3
    assert "SIGSEGV" in proc.stderr


def test_agent_usage_error_is_relayed_as_exit_2(tmp_path: Path) -> None:
    agent = fake_agent(tmp_path, "echo 'portkit-target vdso: --calls: expected 1..1000000000' >&2; exit 2")
    proc = portkit("vdso", "bench", "--agent", str(agent))
    assert proc.returncode == 2
    # the agent is portkit's own part: its name stays out of the user's error
    assert proc.stderr.strip() == "portkit: error: --calls: expected 1..1000000000"


DOCUMENT = """echo '{"schema":"portkit.crc32c/1","agent":{}}'"""


def test_a_document_after_an_accepted_exit_code_is_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    agent = fake_agent(tmp_path, f"{DOCUMENT}; echo 'portkit-target crc32c: f: No such file' >&2; exit 2")
    result = parse_target("local", agent).run(AgentCall(("crc32c",), "portkit.crc32c/1", document_exits=frozenset({2})))
    assert result.exit_code == 2 and result.document["schema"] == "portkit.crc32c/1"
    assert capsys.readouterr().err == "portkit: error: f: No such file\n"


def test_an_accepted_exit_code_without_a_document_is_still_an_error(tmp_path: Path) -> None:
    agent = fake_agent(tmp_path, "echo 'portkit-target crc32c: list: No such file' >&2; exit 2")
    with pytest.raises(BadInput, match="list: No such file"):
        parse_target("local", agent).run(AgentCall(("crc32c",), "portkit.crc32c/1", document_exits=frozenset({2})))


@pytest.mark.parametrize(
    "script, accepted, error",
    [
        (f"{DOCUMENT}; exit 2", set(), BadInput),  # this caller accepts no exit 2
        (f"{DOCUMENT}; exit 3", {2}, EnvironmentProblem),
        ("echo 'not json'; exit 2", {2}, EnvironmentProblem),
        ("""echo '{"schema":"portkit.crc32c/9"}'; exit 2""", {2}, EnvironmentProblem),
        (f"{DOCUMENT}; kill -SEGV $$", {2}, EnvironmentProblem),
    ],
)
def test_other_exits_keep_their_meaning(tmp_path: Path, script: str, accepted: set[int], error: type) -> None:
    with pytest.raises(error):
        parse_target("local", fake_agent(tmp_path, script)).run(
            AgentCall(("x",), "portkit.crc32c/1", document_exits=frozenset(accepted))
        )


def test_operands_follow_a_double_dash(tmp_path: Path) -> None:
    agent = fake_agent(tmp_path, """printf '{"schema":"portkit.crc32c/1","argv":"%s"}' "$*" """)
    result = parse_target("local", agent).run(AgentCall(("crc32c",), "portkit.crc32c/1", operands=("-x", "--json")))
    assert result.document["argv"] == "crc32c --json -- -x --json"


def test_output_file_is_written_atomically(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cpu.json"
    assert main(["cpu", "--format", "json", "-o", str(out)]) == 0
    assert capsys.readouterr().out == ""
    document = json.loads(out.read_text())
    assert document["schema"] == "portkit.cpu/1"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cpu.json"]


def test_output_to_a_fifo_writes_into_it_and_keeps_it(tmp_path: Path) -> None:
    """-o /dev/null used to rename a temporary file over the device, turning
    /dev/null into a regular file for every process on the machine."""
    import stat
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    from portkit.core.output import write_atomically

    write_atomically(fifo, "through the pipe\n")
    reader.join(timeout=30)
    assert received == [b"through the pipe\n"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_output_into_a_missing_directory_is_bad_input(tmp_path: Path) -> None:
    proc = portkit("cpu", "-o", str(tmp_path / "no" / "such" / "dir" / "x.txt"))
    assert proc.returncode == 2
    assert proc.stderr == f"portkit: error: -o {tmp_path}/no/such/dir/x.txt: {tmp_path}/no/such/dir does not exist\n"


def test_has_with_an_unknown_feature_is_bad_input() -> None:
    proc = portkit("cpu", "--has", "warpdrive")
    assert proc.returncode == 2
    assert "warpdrive" in proc.stderr


# ------------------------------------------------- time limits and options


def test_a_hanging_agent_is_stopped_at_its_time_limit(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    agent = fake_agent(tmp_path, f"echo $$ > {pidfile}; exec sleep 300")
    proc = portkit("vdso", "bench", "--agent", str(agent), "--timeout", "1")
    assert proc.returncode == 3
    assert proc.stderr.startswith("portkit: error: `vdso bench` on local did not finish within 1 s")
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not running(int(pidfile.read_text()))  # stopped, not left running


def test_a_hanging_emulator_is_stopped_with_what_it_runs(tmp_path: Path) -> None:
    """Under qemu-user the agent is qemu's child: the whole session goes."""
    pidfile = tmp_path / "pid"
    agent = fake_agent(tmp_path, f"sleep 300 & echo $! > {pidfile}; wait")
    proc = portkit("cpu", "--agent", str(agent), "--timeout", "0.5")
    assert proc.returncode == 3 and "`cpu` on local did not finish within 0.5 s" in proc.stderr
    assert not running(int(pidfile.read_text()))


def running(pid: int) -> bool:
    """Alive, not merely a zombie that its new parent has yet to reap."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


AGENT_RUNS = [
    ["cpu"],
    ["cpu", "--has", "sse2"],
    ["vdso"],
    ["vdso", "verify", "--iterations", "100000000"],
    ["vdso", "bench", "--calls", "100000000", "--repeat", "10"],
    ["crc32c", "README.md"],
    ["crc32c", "-"],
    ["crc32c", "--check", "README.md"],
    ["crc32c", "--bench", "--sizes", "1024m", "--seconds", "3600"],
]


@pytest.mark.parametrize("argv", AGENT_RUNS, ids=" ".join)
def test_every_agent_run_has_a_time_limit(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from portkit.core import target

    calls: list[AgentCall] = []

    def record(self: target.Target, call: AgentCall, status: object = None) -> target.AgentResult:
        calls.append(call)
        raise EnvironmentProblem("recorded")

    monkeypatch.setattr(target.Target, "run", record)
    assert main([*argv, "--agent", "/bin/true"]) == 3
    assert calls[0].timeout is not None and target.START_SECONDS <= calls[0].timeout < 7 * 24 * 3600
    assert main([*argv, "--agent", "/bin/true", "--timeout", "7"]) == 3
    assert calls[1].timeout == 7
    assert main([*argv, "--agent", "/bin/true", "--timeout", "0"]) == 3
    assert calls[2].timeout is None


@pytest.mark.parametrize("option", [["--target", "qemu-arm"], ["--agent", "x"], ["--timeout", "5"], ["--target"]])
def test_a_host_command_refuses_target_options(option: list[str]) -> None:
    proc = portkit("layout", "examples/legacy32/include/long_records.h", *option)
    assert proc.returncode == 2
    assert proc.stderr.startswith("portkit: error: layout: ")
    assert "runs on this host" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "argv, message",
    [
        (["vdso", "list", "--calls", "5"], "portkit: error: vdso list: --calls is a bench option"),
        (["vdso", "--iterations", "5"], "portkit: error: vdso list: --iterations is a verify option"),
        (["vdso", "bench", "--require"], "portkit: error: vdso bench: --require is a list option"),
        (["vdso", "verify", "--dump", "x"], "portkit: error: vdso verify: --dump is a list option"),
        (["vdso", "--image", "a", "--dump", "b"], "--image and --dump cannot be combined"),
        (["vdso", "bench", "--calls", "0"], "argument --calls: 0 is not from 1 to 100000000"),
        (["vdso", "bench", "--calls", "2e3"], "argument --calls: '2e3' is not a whole number"),
        (["vdso", "bench", "--calls", "100000000", "--repeat", "11"], "is more than 1000000000 calls per path"),
        (["vdso", "verify", "--iterations", "-3"], "argument --iterations: -3 is not from 1 to 100000000"),
        (["crc32c", "--sizes", "64", "f"], "portkit: error: crc32c: --sizes is a --bench option"),
        (["crc32c", "--check", "l", "--seconds", "1"], "portkit: error: crc32c: --seconds is a --bench option"),
        (["crc32c", "--bench", "--sizes", "4x"], "'4x' is not a size from 1 byte to 1 GiB"),
        (["crc32c", "--bench", "--sizes", "2g"], "'2g' is not a size"),
        (["crc32c", "--bench", "--sizes", "0"], "'0' is not a size"),
        (["crc32c", "--bench", "--sizes", ","], "needs at least one size"),
        (["crc32c", "--bench", "--seconds", "0"], "0 is not above 0 and up to 3600 seconds"),
        (["cpu", "--timeout", "-1"], "-1 is not from 0 up to 604800 seconds"),
    ],
)
def test_agent_options_are_checked_before_the_agent_starts(argv: list[str], message: str, tmp_path: Path) -> None:
    """The agent named does not exist: exit 2 (not 3) shows it was never started."""
    proc = portkit(*argv, "--agent", str(tmp_path / "absent"))
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_a_launched_agent_reports_progress_and_ends_on_request(tmp_path: Path) -> None:
    """The way rt runs: progress lines on stderr while it works, and SIGTERM asks it to
    write what it has; other stderr lines are relayed at the end."""
    import time

    script = """trap 'echo "{\\"schema\\":\\"portkit.rt/1\\",\\"stopped\\":\\"interrupted\\"}"; exit 0' TERM
echo 'a warning' >&2
i=0
while true; do i=$((i+1)); echo "{\\"progress\\": {\\"loops\\": $i}}" >&2; sleep 0.05; done"""
    running = parse_target("local", fake_agent(tmp_path, script)).launch(AgentCall(("rt",), "portkit.rt/1", timeout=30))
    deadline = time.monotonic() + 20
    while (running.latest is None or running.latest["loops"] < 3) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert running.latest is not None and running.latest["loops"] >= 3
    running.finish()
    result = running.wait()
    assert result.document["stopped"] == "interrupted"


def test_an_unknown_emulated_cpu_is_a_bad_target_with_qemus_reason() -> None:
    if not (Path("build") / "aarch64-linux-gnu" / "portkit-target").exists():
        pytest.skip("no aarch64 agent (make cross)")
    proc = portkit("cpu", "--target", "qemu-aarch64:foo")
    assert proc.returncode == 2
    assert proc.stderr.startswith("portkit: error: --target qemu-aarch64:foo: qemu-aarch64: unable to find CPU model")
    assert "-cpu help" in proc.stderr and len(proc.stderr.splitlines()) == 1


def test_the_target_options_refusal_names_every_command_that_has_them() -> None:
    """AGENT_COMMANDS is written out (only the command asked for is imported);
    here it is checked against every command's real parser."""
    from portkit.cli import build_parser
    from portkit.core.command import AGENT_COMMANDS

    def with_target(parser: argparse.ArgumentParser, words: list[str]) -> list[str]:
        found = []
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found += with_target(sub, [*words, name])
            elif "--target" in action.option_strings and action.help != argparse.SUPPRESS:
                found.append(" ".join(words))
        return found

    named = AGENT_COMMANDS.replace(" and ", ", ").split(", ")
    assert sorted(with_target(build_parser([]), [])) == sorted(named)


@pytest.mark.parametrize("argv", [["--bogus"], ["scan", "--bogus"], ["rt"], ["audit", "nope"], ["vdso", "--calls"]])
def test_usage_errors_name_portkit_once(argv: list[str]) -> None:
    proc = portkit(*argv)
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1
    assert proc.stderr.startswith("portkit: error: ") and "portkit" not in proc.stderr.removeprefix("portkit: error: ")


def _every_parser() -> list[tuple[str, argparse.ArgumentParser]]:
    from portkit.cli import build_parser

    found = []

    def walk(parser: argparse.ArgumentParser, words: list[str]) -> None:
        found.append((" ".join(words) or "portkit", parser))
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, [*words, name])

    walk(build_parser([]), [])
    return found


def test_every_help_fits_an_80_column_terminal_and_its_examples_stay_pastable(monkeypatch: pytest.MonkeyPatch) -> None:
    columns = 80
    monkeypatch.setenv("COLUMNS", str(columns))
    for name, parser in _every_parser():
        text = parser.format_help()
        too_wide = [line for line in text.splitlines() if len(line) > columns]
        assert not too_wide, f"{name} --help: {too_wide}"
        examples = text.partition("examples:\n")[2].split("\n\n")[0].splitlines()
        for before, line in itertools.pairwise(examples):
            if line.startswith("      -"):  # a command's continuation
                assert before.endswith(" \\"), f"{name}: {before!r} does not continue onto {line!r}"


def test_portkit_alone_shows_the_help() -> None:
    proc = portkit()
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.startswith("usage: portkit") and "examples:" in proc.stdout


@pytest.mark.parametrize(
    "argv", [[], ["--help"], ["--version"], ["bogus"], ["-q", "scan", "a.c"], ["--format", "json"]]
)
def test_the_list_of_commands_is_the_same_without_importing_them(argv: list[str]) -> None:
    """`portkit --help` names each command by cli.SUMMARIES, not by importing all nine
    (half a second): the same text and the same errors as from the commands' own parsers."""
    import contextlib
    import io

    from portkit.cli import build_parser

    def outcome(listing: bool) -> tuple:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                parser = build_parser(argv, listing=listing)
                if not argv:
                    parser.print_help()
                else:
                    parser.parse_args(argv)
                result: object = None
            except SystemExit as exit:
                result = exit.code
            except Exception as problem:  # BadInput: the one-line usage error
                result = str(problem)
        return result, out.getvalue(), err.getvalue()

    assert outcome(listing=True) == outcome(listing=False)


def test_the_summaries_are_the_commands_own() -> None:
    import importlib

    from portkit.cli import COMMANDS, SUMMARIES

    assert {name: importlib.import_module(module).SUMMARY for name, module in COMMANDS.items()} == SUMMARIES


def test_the_top_level_help_imports_no_command() -> None:
    script = (
        "import sys\n"
        "from portkit.cli import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('portkit.commands.')))\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.stdout.startswith("usage: portkit") and proc.stdout.splitlines()[-1] == "[]", proc.stderr
