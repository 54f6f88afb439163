"""The kernel config reader under hypothesis: truncated, mutated and random
input, plain or packed, gives a config (with its problem lines) or one
BadInput, never another exception; and whatever it reads, the rules evaluate."""

from __future__ import annotations

import gzip
import lzma

from hypothesis import given, settings
from hypothesis import strategies as st

from portkit.commands.audit.kconfig.arch import detect_arch
from portkit.commands.audit.kconfig.engine import evaluate, findings
from portkit.commands.audit.kconfig.reader import parse_config_bytes
from portkit.commands.audit.kconfig.rules import ROWS
from portkit.core.errors import BadInput

SAMPLE = b"""#
# Automatically generated file; DO NOT EDIT.
# Linux/arm64 6.1.0 Kernel Configuration
#
CONFIG_CC_VERSION_TEXT="gcc-12 (Debian 12.2.0-14) 12.2.0"
CONFIG_ARM64=y
CONFIG_64BIT=y
CONFIG_COMPAT=y
CONFIG_COMPAT_VDSO=y
# CONFIG_PREEMPT_RT is not set
CONFIG_HZ_PERIODIC=y
CONFIG_ARM64_VA_BITS=48
CONFIG_CMA_SIZE_MBYTES=64
CONFIG_ARM64_4K_PAGES=y
"""
PACKED = {"plain": SAMPLE, "gzip": gzip.compress(SAMPLE), "xz": lzma.compress(SAMPLE)}


def read_or_refuse(data: bytes) -> None:
    try:
        config = parse_config_bytes(data, "fuzz")
    except BadInput as err:
        assert str(err).startswith("fuzz: ") and "\n" not in str(err)
        return
    assert config.settings and all(p.startswith("fuzz") and "\n" not in p for p in config.problems)
    checks = evaluate(config, detect_arch(config), ROWS)
    assert len(checks) == len(ROWS)
    for finding in findings(checks, config.path):
        assert finding.location.line >= 0


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(sorted(PACKED)), cut=st.integers(min_value=0, max_value=len(SAMPLE) * 2))
def test_truncated(kind: str, cut: int) -> None:
    read_or_refuse(PACKED[kind][:cut])


@settings(max_examples=500, deadline=None)
@given(
    kind=st.sampled_from(sorted(PACKED)),
    edits=st.lists(st.tuples(st.integers(min_value=0), st.integers(min_value=0, max_value=255)), max_size=8),
)
def test_mutated(kind: str, edits: list[tuple[int, int]]) -> None:
    data = bytearray(PACKED[kind])
    for position, byte in edits:
        data[position % len(data)] = byte
    read_or_refuse(bytes(data))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000) | st.text(max_size=2000).map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_random(data: bytes) -> None:
    read_or_refuse(data)


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(
        st.one_of(
            st.from_regex(
                r"CONFIG_[A-Z0-9_]{1,12}=(y|m|n|[0-9]{1,4}|0x[0-9a-f]{1,4}|\"[^\"\n\\\\]{0,8}\")", fullmatch=True
            ),
            st.from_regex(r"# CONFIG_[A-Z0-9_]{1,12} is not set", fullmatch=True),
            st.sampled_from(["CONFIG_ARM64=y", "CONFIG_ARM=y", "CONFIG_X86_64=y", "CONFIG_64BIT=y", "", "#"]),
            st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30),
        ),
        max_size=30,
    )
)
def test_line_soup(lines: list[str]) -> None:
    read_or_refuse("\n".join(lines).encode())
