"""PK103, a cast between pointers whose pointees change width (issue 18's
two missed real defects: util-linux wdctl's `(unsigned long *)&wanted` and
pciutils' `readl`/`writel`). The labelled corpus (test_scan_corpus.py) holds
where it fires and where it must not; these hold what a finding says: its
severity by what the code does through the pointer, and the widths it claims,
checked with the real cross compilers rather than with portkit's own tables."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

import scan_corpus as corpus
from conftest import _missing
from test_scan import scan_json

POINTERS = corpus.CORPUS / "1-pointers"
# 'uint32_t' (4 bytes) or 'unsigned long' (4 bytes in ILP32 (arm), 8 in LP64 (aarch64))
CLAIM = re.compile(r"'([^']+)' \((\d+) bytes(?: in (\w+) \([^)]*\), (\d+) in (\w+) \([^)]*\))?\)")


def pk103(document: dict) -> dict[int, dict]:
    return {f["location"]["line"]: f for f in document["findings"] if f["rule"] == "PK103"}


def test_a_store_that_overruns_is_an_error_and_a_read_a_warning() -> None:
    _, document = scan_json(POINTERS / "bitmask_u32.c", "--fail-on", "never")
    found = pk103(document)
    assert {line: f["severity"] for line, f in found.items()} == {36: "error", 41: "warning"}
    assert "writes 8 bytes into the 4-byte object on LP64 (aarch64)" in found[36]["message"]
    assert "takes 4 bytes past the object" in found[41]["message"]
    assert "('uint32_t *'), or declare the object as 'unsigned long'" in found[36]["fix"]


def test_a_narrower_pointer_over_a_long_is_a_warning_that_says_what_is_left() -> None:
    _, document = scan_json(POINTERS / "long_through_int.c", "--fail-on", "never")
    found = pk103(document)
    severities = {line: f["severity"] for line, f in found.items()}
    assert severities == {30: "error", 34: "error", 37: "warning", 40: "warning"}
    assert "sets 4 of the object's 8 bytes on LP64 (aarch64)" in found[40]["message"]


def test_a_register_write_is_an_error_a_read_a_warning() -> None:
    _, document = scan_json(POINTERS / "mmio_ulong.c", "--fail-on", "never")
    found = pk103(document)
    severities = {line: f["severity"] for line, f in found.items()}
    assert severities == {12: "error", 17: "warning", 22: "error", 27: "warning"}
    assert "device register write of 4 bytes on ILP32 (arm) becomes 8 bytes on LP64 (aarch64)" in found[12]["message"]
    assert "'volatile uint32_t *'" in found[17]["fix"]


def test_llp64_compares_long_with_pointers_not_with_int() -> None:
    _, document = scan_json(POINTERS / "llp64_long_slot.c", "--to", "LLP64", "--fail-on", "never")
    found = pk103(document)
    assert sorted(found) == [18, 19]
    assert "own type ('void **')" in found[19]["fix"]  # as C writes it, not 'void * *'
    _, lp64 = scan_json(POINTERS / "llp64_long_slot.c", "--fail-on", "never")
    assert sorted(pk103(lp64)) == [20]  # long, intptr_t and void * are 8 bytes on LP64; int is not


def test_the_rule_can_be_selected_and_ignored() -> None:
    _, selected = scan_json(POINTERS / "bitmask_u32.c", "--select", "PK103", "--fail-on", "never")
    assert {f["rule"] for f in selected["findings"]} == {"PK103"}
    _, ignored = scan_json(POINTERS / "bitmask_u32.c", "--ignore", "PK103", "--fail-on", "never")
    assert pk103(ignored) == {}


# ---------------------------------------------------------------- widths, from the compilers


def _claims() -> list[tuple[str, str, int, str, int]]:
    """(fixture, type, bytes at home, target model, bytes there) for each type PK103's messages size."""
    claims = []
    fixtures = (
        ("bitmask_u32.c", ()),
        ("long_through_int.c", ()),
        ("mmio_ulong.c", ()),
        ("llp64_long_slot.c", ("--to", "LLP64")),
    )
    for name, args in fixtures:
        _, document = scan_json(POINTERS / name, *args, "--fail-on", "never")
        target = "LLP64" if args else "LP64"
        for finding in pk103(document).values():
            for spelled, home, _source, there, _target in CLAIM.findall(finding["message"]):
                claims.append((name, spelled, int(home), target, int(there or home)))
    return claims


def _compiles(triple: str, assertion: str, tmp_path: Path) -> bool:
    source = tmp_path / "claim.c"
    source.write_text(f'#include <stdint.h>\n#include <stddef.h>\n_Static_assert({assertion}, "width");\n')
    compiler = f"{triple}-gcc"
    proc = subprocess.run([compiler, "-fsyntax-only", str(source)], capture_output=True, text=True, check=False)
    return proc.returncode == 0


def test_the_widths_in_the_messages_are_the_compilers(tmp_path: Path) -> None:
    triples = {"ILP32": corpus.MODELS["ILP32"], "LP64": corpus.MODELS["LP64"], "LLP64": corpus.MODELS["LLP64"]}
    absent = [t for t in triples.values() if shutil.which(f"{t}-gcc") is None]
    if absent:
        _missing(", ".join(f"{t}-gcc" for t in absent))
    claims = _claims()
    assert len(claims) >= 15
    wrong = []
    for name, spelled, home, target, there in sorted(set(claims)):
        for triple, size in ((triples["ILP32"], home), (triples[target], there)):
            if not _compiles(triple, f"sizeof({spelled}) == {size}", tmp_path):
                wrong.append(f"{name}: sizeof({spelled}) is not {size} for {triple}")
    assert wrong == []


@pytest.mark.parametrize("claim", ["sizeof(unsigned long) == 8", "sizeof(uint32_t) == 8"])
def test_the_width_check_can_fail(claim: str, tmp_path: Path) -> None:
    if shutil.which("arm-linux-gnueabihf-gcc") is None:
        _missing("arm-linux-gnueabihf-gcc")
    assert not _compiles("arm-linux-gnueabihf", claim, tmp_path)


def test_cxx_reinterpret_cast_is_a_cast_like_any_other(tmp_path: Path) -> None:
    source = tmp_path / "mask.cpp"
    source.write_text(
        "#include <cstdint>\n"
        "void fill(unsigned long *mask);\n"
        "std::uint32_t flags;\n"
        "long counter;\n"
        "void parse() {\n"
        "    fill(reinterpret_cast<unsigned long *>(&flags));\n"
        "    fill(reinterpret_cast<unsigned long *>(&counter));\n"
        "}\n"
    )
    _, document = scan_json(source, "--fail-on", "never")
    assert {line: f["severity"] for line, f in pk103(document).items()} == {6: "error"}


def test_broken_code_is_reported_as_incomplete_not_as_a_crash(tmp_path: Path) -> None:
    source = tmp_path / "broken.c"
    source.write_text("unsigned int u;\nvoid f(void) { *(unsigned long *)&u = ; (long *)(; }\n")
    code, document = scan_json(source, "--fail-on", "never")
    assert code == 3 and document["incomplete"]
