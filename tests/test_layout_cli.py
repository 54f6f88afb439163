"""`portkit layout` from the command line: the field report's figures, the Y2038
variant, the type table, exit codes and one-line errors for bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from portkit.cli import main
from terminal import run_on_terminal

ROOT = Path(__file__).resolve().parent.parent
LEGACY = ROOT / "examples" / "legacy32" / "include"


def portkit(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "portkit", *argv], capture_output=True, text=True)


def layout_json(capsys, *argv: str) -> tuple[int, dict]:
    code = main(["layout", "--format", "json", *argv])
    return code, json.loads(capsys.readouterr().out)


def size(document: dict, record: str, abi: str) -> int:
    rec = next(r for r in document["records"] if r["name"] == record)
    return rec["layouts"][abi]["size"]


def test_the_field_reports_figures_aarch32_vs_aarch64(capsys) -> None:
    code, doc = layout_json(capsys, str(LEGACY / "long_records.h"))
    assert code == 0
    assert [a["triple"] for a in doc["abis"]] == ["arm-linux-gnueabihf", "aarch64-linux-gnu"]
    assert (size(doc, "struct bar", "arm"), size(doc, "struct bar", "aarch64")) == (16, 32)
    assert (size(doc, "long_union_t", "arm"), size(doc, "long_union_t", "aarch64")) == (8, 16)
    bar = next(r for r in doc["records"] if r["name"] == "struct bar")
    assert bar["reasons"] == ["j: long is 4 -> 8 bytes", "p: pointer 4 -> 8"]
    union = next(r for r in doc["records"] if r["name"] == "long_union_t")
    assert union["reasons"] == ["l: long is 4 -> 8 bytes"]


def test_text_output_side_by_side(capsys) -> None:
    assert main(["layout", str(LEGACY / "long_records.h")]) == 0
    out = capsys.readouterr().out
    assert "arm: 16 bytes, align 4  aarch64: 32 bytes, align 8" in out
    assert "why: j: long is 4 -> 8 bytes" in out
    assert "aarch64: hole after i: 4 bytes at byte 4" in out


def test_y2038_variant_same_triple_with_flags(capsys) -> None:
    code, doc = layout_json(
        capsys, str(LEGACY / "timestamp.h"), "--abi", "armhf", "--abi", "armhf:-D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64"
    )
    assert code == 0
    rec = doc["records"][0]
    variant = "armhf:-D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64"
    assert (rec["layouts"]["arm"]["size"], rec["layouts"][variant]["size"]) == (20, 40)
    assert "when: time_t 4 -> 8" in rec["reasons"]
    assert "file_pos: off_t 4 -> 8" in rec["reasons"]


def test_only_changed_records_by_default_all_with_flag(capsys) -> None:
    _, changed = layout_json(capsys, str(LEGACY / "wire.h"), "--abi", "aarch64", "--abi", "x86_64")
    assert changed["records"] == [] and changed["records_total"] == 2
    _, every = layout_json(capsys, str(LEGACY / "wire.h"), "--abi", "aarch64", "--abi", "x86_64", "--all")
    assert len(every["records"]) == 2


def test_fail_on_change_for_ci(capsys) -> None:
    assert main(["layout", str(LEGACY / "ipc.h"), "--fail-on-change"]) == 1
    assert main(["layout", str(LEGACY / "ipc.h"), "--abi", "aarch64", "--abi", "mips64el", "--fail-on-change"]) == 0


def test_i686_long_long_alignment_reason(capsys) -> None:
    _, doc = layout_json(capsys, str(LEGACY / "wire.h"), "--abi", "i686", "--abi", "arm")
    header = next(r for r in doc["records"] if r["name"] == "struct wire_header")
    assert header["reasons"][0] == "timestamp_us: long long aligned 4 -> 8"
    assert (header["layouts"]["i686"]["size"], header["layouts"]["arm"]["size"]) == (28, 32)


def test_types_table_is_the_field_reports_table(capsys) -> None:
    code, doc = layout_json(capsys, "--types", "--abi", "armhf", "--abi", "aarch64", "--abi", "mingw64")
    assert code == 0
    rows = {r["type"]: r for r in doc["types"]}
    sizes = {t: tuple(rows[t][a]["size"] for a in ("arm", "aarch64", "mingw64")) for t in rows}
    assert sizes["long"] == (4, 8, 4)  # ILP32, LP64, LLP64
    assert sizes["pointer"] == (4, 8, 8)
    assert sizes["long long"] == (8, 8, 8)
    assert sizes["int"] == (4, 4, 4)
    assert sizes["size_t"] == (4, 8, 8)
    assert sizes["time_t"] == (4, 8, 8)
    assert sizes["wchar_t"] == (4, 4, 2)


def test_big_endian_bit_offsets_are_explained(capsys) -> None:
    """Bit offsets count in allocation order: from each byte's most significant bit
    on big-endian ABIs, which the document names and the text spells out."""
    code, doc = layout_json(capsys, str(LEGACY / "wire.h"), "--abi", "arm", "--abi", "ppc", "--all")
    assert code == 0
    assert [(a["name"], a["byte_order"]) for a in doc["abis"]] == [("arm", "little"), ("powerpc", "big")]
    frame = next(r for r in doc["records"] if r["name"] == "struct wire_frame")
    kinds = {n: next(f for f in lay["fields"] if f["name"] == "kind") for n, lay in frame["layouts"].items()}
    assert {n: (f["bit_offset"], f["bit_width"]) for n, f in kinds.items()} == {"arm": (256, 4), "powerpc": (256, 4)}
    assert main(["layout", str(LEGACY / "wire.h"), "--abi", "arm", "--abi", "ppc", "--all"]) == 0
    text = capsys.readouterr().out
    assert "bit N = byte N/8, bit 0x80>>N%8 on powerpc (big-endian: bit-fields fill each byte from the top)" in text
    assert "bit N = byte N/8, bit 0x01<<N%8 on arm: the same offset is another bit in memory" in text
    assert main(["layout", str(LEGACY / "wire.h"), "--abi", "arm", "--abi", "aarch64", "--all"]) == 0
    assert "big-endian" not in capsys.readouterr().out


@pytest.mark.parametrize(
    ("alias", "name"), [("ppc64el", "powerpc64le"), ("s390x-linux-gnu", "s390x"), ("mips-linux-gnu", "mips")]
)
def test_debian_names_and_triples_of_the_newer_abis(capsys, alias: str, name: str) -> None:
    code, doc = layout_json(capsys, "--types", "--abi", alias)
    assert code == 0 and doc["abis"][0]["name"] == name


def test_system_types_resolve_without_flags(capsys) -> None:
    data = ROOT / "tests" / "data" / "layout" / "libc.h"
    code, doc = layout_json(capsys, str(data), "--all")
    assert code == 0 and doc["problems"] == []
    names = {r["name"] for r in doc["records"]}
    assert {"struct poll_slot", "struct sig_slot", "struct input_log", "struct file_snapshot"} <= names
    assert not any(r["incomplete"] for r in doc["records"])


def test_missing_include_reports_what_resolved(capsys, tmp_path: Path) -> None:
    header = tmp_path / "partial.h"
    header.write_text('#include "nope.h"\nstruct ok { long a; };\nstruct bad { struct missing m; int x; };\n')
    code = main(["layout", "--format", "json", str(header)])
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert code == 0
    ok = next(r for r in doc["records"] if r["name"] == "struct ok")
    assert (ok["layouts"]["arm"]["size"], ok["layouts"]["aarch64"]["size"]) == (4, 8)
    bad = next(r for r in doc["records"] if r["name"] == "struct bad")
    assert bad["incomplete"] and bad["layouts"]["arm"]["size"] is None
    assert "'nope.h' file not found" in captured.err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x7fELF\x00\x01\x02", "binary file"),
        (b"", "empty file"),
        (b"  \n\n", "empty file"),
        (b"struct { garbage ]]] ", ""),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path: Path, content: bytes, message: str) -> None:
    bad = tmp_path / "bad.h"
    bad.write_bytes(content)
    proc = portkit("layout", str(bad))
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert str(bad) in proc.stderr and message in proc.stderr


def test_unknown_abi_no_input_bad_sysroot(capsys) -> None:
    assert main(["layout", "x.h", "--abi", "vax"]) == 2
    assert "unknown ABI" in capsys.readouterr().err
    assert main(["layout"]) == 2
    assert main(["layout", str(LEGACY / "long_records.h"), "--sysroot", "/nonexistent"]) == 2
    assert "--sysroot /nonexistent: not a directory" in capsys.readouterr().err


def test_output_file_is_written(tmp_path: Path, capsys) -> None:
    out = tmp_path / "layout.json"
    assert main(["layout", str(LEGACY / "long_records.h"), "--format", "json", "-o", str(out)]) == 0
    assert json.loads(out.read_text())["schema"] == "portkit.layout/1"
    assert capsys.readouterr().out == ""


def test_sysroot_is_searched(tmp_path: Path, capsys) -> None:
    (tmp_path / "usr/include").mkdir(parents=True)
    (tmp_path / "usr/include/board.h").write_text("typedef long reg_t;\n")
    src = tmp_path / "drv.h"
    src.write_text("#include <board.h>\nstruct regs { reg_t a, b; };\n")
    code, doc = layout_json(capsys, str(src), "--sysroot", str(tmp_path))
    assert code == 0 and size(doc, "struct regs", "arm") == 8 and size(doc, "struct regs", "aarch64") == 16


def test_huge_generated_header(tmp_path: Path, capsys) -> None:
    big = tmp_path / "gen.h"
    big.write_text("".join(f"struct g{i} {{ long a; int b; void *p; }};\n" for i in range(3000)))
    code, doc = layout_json(capsys, str(big))
    assert code == 0 and doc["records_changed"] == 3000


def test_compile_commands(tmp_path: Path, capsys) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "cfg.h").write_text("typedef long word_t;\n")
    src = tmp_path / "a.c"
    src.write_text('#include "cfg.h"\nstruct w { WORD_T a; };\n')
    db = tmp_path / "compile_commands.json"
    db.write_text(
        json.dumps([{"directory": str(tmp_path), "file": "a.c", "command": "cc -Iinc -DWORD_T=word_t -c a.c"}])
    )
    code, doc = layout_json(capsys, str(src), "-p", str(db))
    assert code == 0 and doc["problems"] == []
    assert size(doc, "struct w", "aarch64") == 8


# A project whose one entry uses every flag form that matters: a separate
# -U after -D, a relative -include, -isystem and -iquote, a response file,
# and target flags of the AArch32 build it came from.
PROJECT_SOURCE = """#include <sys_cfg.h>
#include "quoted.h"
#ifdef FOO
#error FOO must be undefined by -U FOO
#endif
_Static_assert(BAR == 1 && PRE == 3 && FROM_RSP == 4 && SYS_CFG == 5 && QUOTED == 6, "flags");
struct msg { long stamp; int pad[BAR + PRE]; };
"""


def make_project(root: Path) -> Path:
    (root / "src" / "sys").mkdir(parents=True)
    (root / "src" / "quote").mkdir()
    (root / "build").mkdir()
    (root / "src" / "pre.h").write_text("#define PRE 3\n")
    (root / "src" / "sys" / "sys_cfg.h").write_text("#define SYS_CFG 5\n")
    (root / "src" / "quote" / "quoted.h").write_text("#define QUOTED 6\n")
    (root / "src" / "flags.rsp").write_text("-DFROM_RSP=4\n")
    (root / "src" / "msg.c").write_text(PROJECT_SOURCE)
    (root / "src" / "msg.h").write_text("struct header { void *next; long size; };\n")
    argv = ["arm-linux-gnueabihf-gcc", "-DFOO", "-U", "FOO", "-DBAR=1", "-include", "pre.h", "-isystem", "sys"]
    argv += ["-iquote", "quote", "@flags.rsp", "-march=armv7-a", "-mfpu=neon", "-MD", "-MF", "msg.d"]
    argv += ["-o", "msg.o", "-c", "msg.c"]
    entry = {"directory": str(root / "src"), "arguments": argv, "file": "msg.c"}
    (root / "build" / "compile_commands.json").write_text(json.dumps([entry]))
    return root / "build"


def test_the_projects_flags_mean_to_gcc_what_the_test_expects(tmp_path: Path) -> None:
    """Ground truth for the fixture: the entry's own command, run by the real cross GCC, compiles."""
    build = make_project(tmp_path)
    entry = json.loads((build / "compile_commands.json").read_text())[0]
    subprocess.run(entry["arguments"], cwd=entry["directory"], check=True)


@pytest.mark.parametrize("where", ["build", "build/compile_commands.json", "renamed.json"])
def test_compile_database_flags_as_the_compiler_reads_them(tmp_path: Path, capsys, where: str) -> None:
    build = make_project(tmp_path)
    (tmp_path / "renamed.json").write_text((build / "compile_commands.json").read_text())
    code, doc = layout_json(capsys, str(tmp_path / "src" / "msg.c"), "-p", str(tmp_path / where))
    assert code == 0 and doc["problems"] == [], doc["problems"]
    assert (size(doc, "struct msg", "arm"), size(doc, "struct msg", "aarch64")) == (20, 24)


def test_a_header_gets_the_flags_of_its_nearest_source(tmp_path: Path, capsys) -> None:
    build = make_project(tmp_path)
    header = tmp_path / "src" / "needs_flags.h"
    header.write_text('#include "quoted.h"\nstruct q { long v[QUOTED]; };\n')
    code, doc = layout_json(capsys, str(header), "-p", str(build))
    assert code == 0 and doc["problems"] == []
    assert size(doc, "struct q", "aarch64") == 48


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        ("{not json", "not a compile_commands.json"),
        ('{"file": "a.c"}', "expected a list of entries"),
        ('[{"directory": "/"}]', "expected a list of entries"),
    ],
)
def test_a_bad_compile_database_is_one_line(tmp_path: Path, content: str | None, message: str) -> None:
    if content is not None:
        (tmp_path / "compile_commands.json").write_text(content)
    header = LEGACY / "long_records.h"
    proc = portkit("layout", str(header), "-p", str(tmp_path))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and message in proc.stderr, proc.stderr


def test_a_file_that_crashes_the_parser_is_one_error_and_the_rest_is_reported(tmp_path: Path) -> None:
    """Five million nested prefix operators overflow even the parse workers'
    deep stack (libclang 19 no longer recurses on a chain of binary `+`):
    that file is lost, not the run."""
    crash = tmp_path / "deeper.c"
    crash.write_text("int x = " + "-" * 5_000_000 + "1;\n")
    proc = portkit("layout", "--abi", "aarch64", str(crash), str(LEGACY / "long_records.h"))
    assert proc.returncode == 2
    assert proc.stderr == f"portkit: error: {crash}: the parser was killed by SIGSEGV (arm, aarch64)\n"
    assert "struct bar" in proc.stdout and "long_union_t" in proc.stdout


def test_a_deeply_nested_expression_parses(tmp_path: Path, capsys) -> None:
    """The issue's case: 500000 terms killed portkit itself (SIGSEGV, exit 139) when libclang ran in-process."""
    deep = tmp_path / "deep.c"
    deep.write_text("int x = " + "+".join(["1"] * 500_000) + ";\nstruct s { int a; long b; };\n")
    code, doc = layout_json(capsys, str(deep))
    assert code == 0 and (size(doc, "struct s", "arm"), size(doc, "struct s", "aarch64")) == (8, 16)


def test_a_parse_past_its_time_limit_is_one_error(tmp_path: Path) -> None:
    slow = tmp_path / "slow.c"
    slow.write_text("int x = " + "+".join(["1"] * 500_000) + ";\n")
    proc = portkit("layout", "--parse-timeout", "0.05", str(slow), str(LEGACY / "long_records.h"))
    assert proc.returncode == 2
    assert f"{slow}: the parser did not finish within 0.05 s (arm, aarch64)" in proc.stderr


C_TOKENS = st.sampled_from(
    [
        "struct",
        "union",
        "{",
        "}",
        ";",
        "int",
        "long",
        "char",
        "*",
        "a",
        "b",
        ":",
        "3",
        "0",
        "[",
        "]",
        "(",
        ")",
        "#include",
        '"x.h"',
        "<stdint.h>",
        "__attribute__((packed))",
        "typedef",
        "enum",
        ",",
        "=",
        "\n",
        "#define",
        "_Alignas(8)",
        "void",
        "unsigned",
        "\x00",
        "\xff",
        "/*",
        "*/",
        "class",
        "virtual",
        "template<",
    ]
)


LEGACY_HEADERS = "".join(p.read_text() for p in sorted(LEGACY.glob("*.h")))


@st.composite
def mutated_header(draw) -> list[str]:
    """A real legacy32 header with slices cut out or replaced by C tokens."""
    text = LEGACY_HEADERS
    for _ in range(draw(st.integers(1, 6))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 40)))
        text = text[:i] + "".join(draw(st.lists(C_TOKENS, max_size=3))) + text[j:]
    return [text]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(C_TOKENS, max_size=40) | st.binary(max_size=200).map(lambda b: [b.decode("latin-1")]) | mutated_header()
)
def test_fuzz_never_a_traceback(tmp_path: Path, tokens: list[str]) -> None:
    assert_one_line_or_a_report(tmp_path / "fuzz.h", " ".join(tokens))


CLASSES_TEXT = (ROOT / "tests" / "data" / "layout" / "classes.hpp").read_text()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_fuzz_cplusplus_bases_never_a_traceback(tmp_path: Path, data: st.DataObject) -> None:
    """Damaged class hierarchies: the base-offset probe must fail quietly (a base stays unplaced)."""
    text = CLASSES_TEXT
    for _ in range(data.draw(st.integers(1, 5))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 30)))
        text = text[:i] + "".join(data.draw(st.lists(C_TOKENS, max_size=3))) + text[j:]
    assert_one_line_or_a_report(tmp_path / "fuzz.hpp", text)


def assert_one_line_or_a_report(header: Path, text: str) -> None:
    header.write_bytes(text.encode("latin-1", "replace"))
    proc = portkit("layout", "--abi", "arm", "--abi", "aarch64", str(header))
    assert proc.returncode in (0, 1, 2), proc.stderr
    assert "Traceback" not in proc.stderr
    if proc.returncode == 2:
        assert proc.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("abi", "triple", "qemu", "bar", "union"),
    [
        ("arm", "arm-linux-gnueabihf", "qemu-arm", 16, 8),
        ("aarch64", "aarch64-linux-gnu", "qemu-aarch64", 32, 16),
        ("powerpc", "powerpc-linux-gnu", "qemu-ppc", 16, 8),
        ("mips", "mips-linux-gnu", "qemu-mips", 16, 8),
        ("s390x", "s390x-linux-gnu", "qemu-s390x", 32, 16),
        ("riscv64", "riscv64-linux-gnu", "qemu-riscv64", 32, 16),
        ("powerpc64le", "powerpc64le-linux-gnu", "qemu-ppc64le", 32, 16),
    ],
)
def test_the_legacy_program_prints_what_portkit_reports(tmp_path: Path, capsys, abi, triple, qemu, bar, union) -> None:
    """The field report's own experiment: examples/legacy32/src/main.c built for each target, run under qemu-user."""
    exe = tmp_path / "legacy32"
    subprocess.run(
        [f"{triple}-gcc", "-static", "-O1", str(ROOT / "examples/legacy32/src/main.c"), "-o", str(exe)], check=True
    )
    printed = subprocess.run([qemu, str(exe)], capture_output=True, text=True, check=True).stdout
    assert f"sizeof ( struct bar ) = {bar}\n" in printed
    assert f"sizeof (long_union_t ) = {union}\n" in printed
    _, doc = layout_json(capsys, str(LEGACY / "long_records.h"), "--abi", abi, "--all")
    assert (size(doc, "struct bar", abi), size(doc, "long_union_t", abi)) == (bar, union)


def test_cplusplus_bases_are_fields_with_reasons(capsys) -> None:
    """Base subobjects are rows like fields, a polymorphic base moves to offset 0,
    and a member in a base's tail padding is named as such."""
    code = main(["layout", "--abi", "msvc64", "--abi", "x86_64", str(ROOT / "tests/data/layout/classes.hpp")])
    out = capsys.readouterr().out
    assert code == 0
    assert "why: d: in the tail padding of NonPod for x86_64, not for msvc64" in out
    code, doc = layout_json(capsys, "--abi", "arm", "--abi", "aarch64", str(ROOT / "tests/data/layout/classes.hpp"))
    rec = next(r for r in doc["records"] if r["name"] == "PrimaryLater")
    rows = {f["name"]: (f["offset"], f["size"]) for f in rec["layouts"]["aarch64"]["fields"]}
    assert rows == {"(base PolyData)": (0, 16), "(base Plain)": (16, 1), "d": (17, 1)}
    assert "(base PolyData): struct PolyData is 8 -> 16 bytes" in rec["reasons"]
    nua = next(r for r in doc["records"] if r["name"] == "Nua")["layouts"]["aarch64"]
    assert nua["fields"][0]["type"] == "[[no_unique_address]] Empty"
    assert nua["holes"] == [{"after": "(end)", "offset_bits": 72, "bits": 56}]  # e takes no byte


def test_unplaceable_base_is_named(tmp_path: Path, capsys) -> None:
    header = tmp_path / "abstract.hpp"
    header.write_text("struct T { int t; };\nstruct A : virtual T { virtual void g() = 0; int x; };\n")
    assert main(["layout", str(header)]) == 0
    assert "offsets not known for bases T (a virtual base of an abstract class" in capsys.readouterr().out


@pytest.mark.parametrize(
    "abi", ["arm", "aarch64", "i686", "x86_64", "mingw64", "riscv64", "powerpc", "powerpc64le", "s390x", "mips"]
)
def test_cplusplus_standard_headers_resolve(capsys, abi: str) -> None:
    """<cstddef> and friends come from each target's own libstdc++, as its g++ finds them."""
    code, doc = layout_json(
        capsys,
        "--abi",
        abi,
        "--abi",
        "x86_64" if abi != "x86_64" else "aarch64",
        str(ROOT / "tests/data/layout/classes.hpp"),
    )
    assert code == 0 and doc["problems"] == []


# Directories and compilation databases, as scan takes them.


def test_a_directory_is_every_c_and_cplusplus_file_below_it(capsys, tmp_path: Path) -> None:
    code, doc = layout_json(capsys, str(LEGACY.parent))
    names = {r["name"] for r in doc["records"]}
    # wire.h through the sources that include it; signals.hpp, which no source includes, on its own
    assert code == 0 and {"struct wire_frame", "struct ipc_msg", "SpeedSignal", "Heartbeat"} <= names
    assert doc["problems"] == [] and doc["failed"] == []
    (tmp_path / "empty").mkdir()
    proc = portkit("layout", str(tmp_path / "empty"))
    assert proc.returncode == 2 and proc.stderr == f"portkit: error: {tmp_path / 'empty'}: no C or C++ files below it\n"


def test_a_compile_database_alone_is_every_file_it_compiles(tmp_path: Path, capsys) -> None:
    build = make_project(tmp_path)
    for database in (["-p", str(build)], [str(build / "compile_commands.json")]):
        code, doc = layout_json(capsys, *database)
        assert code == 0 and doc["problems"] == [], (database, doc["problems"])
        assert (size(doc, "struct msg", "arm"), size(doc, "struct msg", "aarch64")) == (20, 24)
    proc = portkit("layout", str(build / "compile_commands.json"), "-p", str(build))
    assert proc.returncode == 2 and "one compilation database at a time" in proc.stderr


@pytest.mark.parametrize(
    ("given", "compared"), [("aarch64", ["arm", "aarch64"]), ("arm", ["arm", "aarch64"]), ("x86_64", ["arm", "x86_64"])]
)
def test_one_abi_is_compared_with_the_other_side_of_the_default_pair(capsys, given: str, compared: list[str]) -> None:
    code, doc = layout_json(capsys, str(LEGACY / "wire.h"), "--abi", given)
    assert code == 0 and [a["name"] for a in doc["abis"]] == compared
    assert doc["records_changed"] == doc["records_total"] == 2
    _, types = layout_json(capsys, "--types", "--abi", given)
    assert [a["name"] for a in types["abis"]] == [given]  # the type table shows the ABIs as given


LONG_NAMES = """\
struct telemetry_sample_header_with_a_descriptive_name { long timestamp_in_microseconds_since_boot; void *owner; };
struct telemetry_record_for_the_vehicle_bus_gateway {
    struct telemetry_sample_header_with_a_descriptive_name sample_header_with_a_long_field_name;
    unsigned long long int counters_of_received_and_dropped_frames[4];
    const volatile unsigned long *const pointer_to_memory_mapped_status_register;
};
"""


def test_long_names_fit_an_80_column_terminal(tmp_path: Path) -> None:
    header = tmp_path / "long.h"
    header.write_text(LONG_NAMES)
    argv = ["layout", str(header), "--abi", "arm", "--abi", "aarch64", "--abi", "mingw64"]
    screen = run_on_terminal([*argv, "-q"], columns=80)
    lines = [line.rstrip() for line in screen.lines]
    assert screen.returncode == 0 and max(len(line) for line in lines) <= 80, lines
    tables = [n for n, line in enumerate(lines) if line.endswith("field: type (offset/size in bytes)")]
    assert len(tables) == 2
    field_column = lines[tables[1]].index("field: type")
    rows = lines[tables[1] + 1 : tables[1] + 7]
    assert " ".join(row[field_column:] for row in rows).split() == [
        "sample_header_with_a_long_field_name:", "struct", "telemetry_sample_header_with_a_descriptive_name",
        "counters_of_received_and_dropped_frames:", "unsigned", "long", "long[4]",
        "pointer_to_memory_mapped_status_register:", "const", "volatile", "unsigned", "long", "*const",
    ]  # fmt: skip
    assert rows[0].split()[:3] == ["0/8", "0/16", "0/16"]
    piped = portkit(*argv).stdout.splitlines()  # a pipe keeps the table side by side, whole
    assert any(line.split() == ["field", "type", "arm", "off/size", "aarch64", "off/size", "mingw64", "off/size"]
               for line in piped)  # fmt: skip


def test_an_abi_with_flags_is_named_short_in_a_narrow_table() -> None:
    variant = "armhf:-D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64"
    screen = run_on_terminal(["layout", str(LEGACY / "timestamp.h"), "--abi", "armhf", "--abi", variant, "-q"])
    lines = [line.rstrip() for line in screen.lines]
    assert screen.returncode == 0 and max(len(line) for line in lines) <= 80, lines
    assert f"  armhf ({variant}): 40 bytes, align 8" in lines
    assert "  armhf: tail padding: 4 bytes at byte 36" in lines
    assert f"1 of 1 record differs between arm / {variant}" in lines


def test_progress_of_the_parses_on_a_terminal_only() -> None:
    screen = run_on_terminal(["layout", str(LEGACY / "wire.h"), "--format", "json", "-o", "/dev/null"])
    assert screen.returncode == 0 and "layout: 2/2 parses" in screen.raw and screen.lines == [""]
    quiet = run_on_terminal(["layout", str(LEGACY / "wire.h"), "--format", "json", "-o", "/dev/null", "-q"])
    assert quiet.returncode == 0 and quiet.raw == ""


def test_the_type_table_names_an_abi_with_flags_short_and_in_full_below(capsys) -> None:
    variant = "armhf:-D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64"
    assert main(["layout", "--types", "--abi", "armhf", "--abi", "x86_64", "--abi", variant, "--abi", "i686"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["arm", "x86_64", "armhf", "i686"]
    assert lines[2].split() == ["type", "ILP32", "LP64", "ILP32", "ILP32"]
    assert lines[-1] == f"armhf: {variant}" and "…" not in "".join(lines)


def test_a_file_not_named_as_c_is_refused_in_one_line() -> None:
    proc = portkit("layout", str(ROOT / "README.md"))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith(f"portkit: error: {ROOT / 'README.md'}: not C or C++ source (named .c, .cc")
    assert proc.stderr.count("\n") == 1
