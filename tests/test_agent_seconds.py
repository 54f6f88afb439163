"""The agent's one parser of seconds (native/common/pk_options.c,
pk_seconds_option), used by load --duration/--grace, rt --duration and
crc32c --seconds, fuzzed against a model written here from its contract:
a number as C's strtod reads it in the C locale without sign, spaces, hex,
inf or nan, then at most one unit s, m, h or d, within the option's range.

crc32c --seconds is the probe: `--check x --bench` is always refused after
the options are read, so stderr says whether the seconds were (the
conflict) or were not (the seconds' own error)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import run

NUMBER = r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"  # ASCII digits, as C's isdigit
UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}
CRC32C_MAX_SECONDS = 3600
SECONDS_ERROR = "expected seconds such as 10, 0.5, 2m or 1h, above 0 and at most 1h"
CONFLICT = "portkit-target crc32c: --bench and --check do not go together\n"


def model_accepts(text: str, maximum: float) -> bool:
    """Whether text is seconds in (0, maximum], by the contract alone."""
    match = re.fullmatch(rf"({NUMBER})([smhd]?)", text)
    if not match:
        return False
    seconds = float(match.group(1)) * UNITS[match.group(2)]
    return 0 < seconds <= maximum


def escaped_as_the_agent_does(text: str) -> str:
    """Each control byte as \\n, \\t, \\r or \\xNN; everything else as it is."""
    names = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}
    return "".join(names.get(c) or (f"\\x{ord(c):02x}" if ord(c) < 0x20 or c == "\x7f" else c) for c in text)


def agent_accepts(agent: Path, text: str) -> bool:
    proc = run([agent], "crc32c", "--check", "x", "--bench", f"--seconds={text}", check_exit=2)
    assert proc.stdout == ""
    if proc.stderr == CONFLICT:
        return True
    # The line quotes the value with its control characters escaped (pk_put_escaped).
    assert proc.stderr == f"portkit-target crc32c: --seconds '{escaped_as_the_agent_does(text)}': {SECONDS_ERROR}\n"
    return False


numbers = st.from_regex(rf"\A{NUMBER}[smhd]?\Z")
anything = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(numbers, anything))
@example(text="60m")
@example(text="3600.0000000000001")
@example(text="1e-05")
@example(text="1E-310")  # below the smallest normal double: strtod says ERANGE, yet it is above 0
@example(text="0x10")
@example(text="inf")
@example(text="1e")
@example(text=" 1")
@example(text="1.5.5")
def test_seconds_parse_as_the_contract_says(host_agent: Path, text: str) -> None:
    assert agent_accepts(host_agent, text) == model_accepts(text, CRC32C_MAX_SECONDS)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["load", "cpu", "--duration", "2d"], "load: --duration '2d': {}, above 0 and at most 1d"),
        (["load", "cmd", "--cmd", "true", "--grace", "2m"], "load: --grace '2m': {}, 0 or more and at most 1m"),
        (["rt", "--duration", "8d"], "rt: --duration '8d': {}, above 0 and at most 7d"),
    ],
)
def test_every_command_words_it_alike(host_agent: Path, args: list[str], line: str) -> None:
    proc = run([host_agent], *args, check_exit=2)
    assert proc.stderr == "portkit-target " + line.format("expected seconds such as 10, 0.5, 2m or 1h") + "\n"
