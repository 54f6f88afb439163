"""Damaged latency files (hypothesis): truncated anywhere, a line replaced, a
character changed, binary junk, huge numbers, the wrong format forced. Every
outcome is one BadInput line naming the file, or documents of the right shape;
never another exception. A verbose log cut anywhere keeps exactly its complete
samples."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from portkit.commands.rt.importers import INPUT_FORMATS, ImportResult, import_file, import_text
from portkit.core.errors import BadInput
from rt_samples import EVERY_FILE, VERBOSE, check_shape

TEXTS = {path.name: path.read_text() for path in EVERY_FILE}
NAMES = sorted(TEXTS)
FUZZ = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAME = "damaged.log"


def outcome(text: str, forced_format: str | None = None) -> ImportResult | None:
    """The result, or None after checking the error is one line about the file."""
    try:
        result = import_text(text, NAME, forced_format)
    except BadInput as err:
        message = str(err)
        assert "\n" not in message and message.startswith(f"{NAME}:"), message
        return None
    check_shape(result)
    return result


@FUZZ
@given(name=st.sampled_from(NAMES), cut=st.floats(0, 1))
def test_truncated_anywhere(name: str, cut: float) -> None:
    text = TEXTS[name]
    outcome(text[: int(len(text) * cut)])


@FUZZ
@given(name=st.sampled_from(VERBOSE), cut=st.floats(0.05, 1))
def test_a_verbose_log_cut_anywhere_keeps_its_complete_samples(name: str, cut: float) -> None:
    text = TEXTS[name]
    prefix = text[: int(len(text) * cut)]
    complete = prefix[: prefix.rfind("\n") + 1] if not prefix.endswith("\n") else prefix
    if "# Histogram" in complete:
        return  # cut inside the histogram that follows the samples: checked by test_truncated_anywhere
    expected = len(re.findall(r"^\s*\d+:\s*\d+:\s*\d+$", complete, flags=re.MULTILINE))
    result = outcome(prefix)
    if expected == 0:
        return
    assert result is not None
    document = result.documents[-1]
    assert sum(t["samples"] for t in document["threads"]) == expected
    assert document["stopped"] == ("interrupted" if prefix != complete else "unknown")


@FUZZ
@given(name=st.sampled_from(NAMES), data=st.data())
def test_a_line_replaced(name: str, data: st.DataObject) -> None:
    lines = TEXTS[name].split("\n")
    index = data.draw(st.integers(0, len(lines) - 1))
    lines[index] = data.draw(
        st.one_of(
            st.text(max_size=60),
            st.from_regex(r"\A\s*\d{1,30}:\s*\d{1,30}:\s*-?\d{1,30}\Z"),
            st.from_regex(r"\A# (Total|Min Latencies|Avg Latencies|Max Latencies|Histogram Overflows):"
                          r"( \d{1,25}){0,4}\Z"),
            st.from_regex(r"\A(over|count|min|avg|max):(\s+(\d{1,25}|-)){0,12}\Z"),
            st.from_regex(r"\AT:\s*\d{1,5} \(\s*\d{1,7}\) P:\d{1,3} I:\d{1,9} C:\s*\d{1,20} Min:\s*-?\d{1,20} "
                          r"Act:\s*\d{1,9} Avg:\s*-?\d{1,20} Max:\s*-?\d{1,25}\Z"),
        )
    )  # fmt: skip
    outcome("\n".join(lines))


@FUZZ
@given(name=st.sampled_from(NAMES), data=st.data())
def test_a_character_changed(name: str, data: st.DataObject) -> None:
    text = TEXTS[name]
    position = data.draw(st.integers(0, len(text) - 1))
    character = data.draw(st.sampled_from(list('0123456789 \t\n:-#{}",.x\x00\x1b\r\u00e9')))
    outcome(text[:position] + character + text[position + 1 :])


@FUZZ
@given(name=st.sampled_from(NAMES), fmt=st.sampled_from(INPUT_FORMATS))
def test_the_wrong_format_forced(name: str, fmt: str) -> None:
    outcome(TEXTS[name], fmt)


@FUZZ
@given(junk=st.binary(max_size=4000), prefix=st.sampled_from(["", *VERBOSE]))
def test_binary_junk_alone_or_after_a_good_log(junk: bytes, prefix: str) -> None:
    content = (TEXTS[prefix].encode() if prefix else b"") + junk
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / NAME
        path.write_bytes(content)
        try:
            result = import_file(path)
        except BadInput as err:
            assert "\n" not in str(err) and str(err).startswith(str(path))
            return
        check_shape(result)


@FUZZ
@given(name=st.sampled_from(NAMES), data=st.data())
def test_huge_numbers(name: str, data: st.DataObject) -> None:
    text = TEXTS[name]
    numbers = list(re.finditer(r"\d+", text))
    chosen = numbers[data.draw(st.integers(0, len(numbers) - 1))]
    huge = data.draw(st.sampled_from(["9" * 19, "9" * 400, "9" * 5000, str(2**53), str(2**64), "0" * 30 + "7"]))
    outcome(text[: chosen.start()] + huge + text[chosen.end() :])


def test_empty_and_blank_files() -> None:
    for text in ("", "\n", "   \n\t\n"):
        try:
            import_text(text, NAME)
        except BadInput as err:
            assert str(err) == f"{NAME}: empty file"
        else:
            raise AssertionError("an empty file imported")
