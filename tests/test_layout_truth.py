"""Ground truth for `portkit layout`: every size, alignment, offset and
bit-field position it reports is checked against what the real cross
compiler for that triple produces (docs/architecture.md, "Tests and
measurements"). The probe is a C file that stores sizeof/_Alignof/offsetof of
every record and field in a data array, and one object per record with each
bit-field set to all ones; the object file's .data section is read back
with objdump, in the byte order its ELF header names.

Bit offsets (docs/formats.md) count in the order the ABI allocates
bit-fields: from each byte's least significant bit on little-endian targets,
from its most significant bit on big-endian ones (powerpc, s390x, mips), so
bit N is bit N % 8 of byte N // 8 counted from that end. The probe's set bits
are numbered that way and must be exactly the field's N .. N + width - 1."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "layout"
HEADERS = sorted(DATA.glob("*.h")) + sorted((ROOT / "examples" / "legacy32" / "include").glob("*.h"))

# portkit ABI name -> cross compiler (GNU triple)
COMPILERS = {
    "arm": "arm-linux-gnueabihf",
    "i686": "i686-linux-gnu",
    "aarch64": "aarch64-linux-gnu",
    "mips64el": "mips64el-linux-gnuabi64",
    "mipsel": "mipsel-linux-gnu",
    "mingw64": "x86_64-w64-mingw32",
    "x86_64": "x86_64-linux-gnu",
    "riscv64": "riscv64-linux-gnu",
    "powerpc": "powerpc-linux-gnu",
    "powerpc64le": "powerpc64le-linux-gnu",
    "s390x": "s390x-linux-gnu",
    "mips": "mips-linux-gnu",
}
BIG_ENDIAN = ("powerpc", "s390x", "mips")


def portkit_layout(abi: str, *extra: str) -> dict:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "portkit",
            "layout",
            "--all",
            "--format",
            "json",
            "--abi",
            abi,
            *extra,
            *map(str, HEADERS),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def compiler(triple: str) -> tuple[str, str]:
    gcc = shutil.which(f"{triple}-gcc") or (shutil.which("gcc") if triple == "x86_64-linux-gnu" else None)
    objdump = shutil.which(f"{triple}-objdump") or (shutil.which("objdump") if triple == "x86_64-linux-gnu" else None)
    if gcc is None or objdump is None:
        pytest.fail(f"{triple}-gcc is not installed (scripts/install-system-packages installs it)")
    return gcc, objdump


def probe_source(records: list[dict]) -> tuple[str, list[tuple], list[tuple]]:
    """C source, the meaning of each value in pk_vals, and the bit-field objects."""
    lines = ["#include <stddef.h>"] + [f'#include "{h}"' for h in HEADERS]
    vals: list[tuple] = []
    bitobjs: list[tuple] = []
    exprs: list[str] = []
    for rec in records:
        t = rec["name"]
        exprs += [f"sizeof({t})", f"_Alignof({t})"]
        vals += [(t, None, "size"), (t, None, "align")]
        for f in rec["fields"]:
            if not f["name"] or f["name"].startswith("("):
                continue
            if "bit_width" in f:
                if f["bit_width"] == 0:
                    continue
                sym = f"pk_bf_{len(bitobjs)}"
                lines.append(f"{t} {sym} = {{ .{f['name']} = -1 }};")
                bitobjs.append((t, f["name"], sym))
                continue
            member = f"((({t} *)0)->{f['name']})"
            exprs.append(f"offsetof({t}, {f['name']})")
            vals.append((t, f["name"], "offset"))
            if f["size"]:  # a flexible array member has no sizeof
                exprs += [f"sizeof{member}", f"_Alignof(__typeof__{member})"]
                vals += [(t, f["name"], "size"), (t, f["name"], "align")]
    lines.append("unsigned long long pk_vals[] = {\n  " + ",\n  ".join(exprs) + "\n};")
    return "\n".join(lines) + "\n", vals, bitobjs


def byte_order(obj: Path) -> str:
    """ "little" or "big", as the object file's ELF header says (EI_DATA); PE is little-endian."""
    head = obj.read_bytes()[:6]
    if head[:4] != b"\x7fELF":
        return "little"
    return {1: "little", 2: "big"}[head[5]]


def allocated_bits(blob: bytes, order: str) -> list[int]:
    """The set bits of blob, numbered in allocation order: bit N is bit N % 8 of
    byte N // 8, counted from the least significant end on little-endian
    targets and from the most significant end on big-endian ones."""
    return sorted(
        8 * index + (bit if order == "little" else 7 - bit)
        for index, byte in enumerate(blob)
        for bit in range(8)
        if byte >> bit & 1
    )


def bit_span(bits: list[int]) -> str:
    """ "N:WIDTH" for a contiguous run of bits, else the bits themselves."""
    if bits and bits == list(range(bits[0], bits[0] + len(bits))):
        return f"{bits[0]}:{len(bits)}"
    return f"bits {bits}"


def read_section(objdump: str, obj: Path, section: str) -> bytes:
    dump = subprocess.run([objdump, "-s", "-j", section, str(obj)], capture_output=True, text=True, check=True).stdout
    data = bytearray()
    for line in dump.splitlines():
        m = re.match(r"^ ([0-9a-f]{4,}) ((?:[0-9a-f]{2,8} ?){1,4})", line)
        if m:
            addr = int(m.group(1), 16)
            chunk = bytes.fromhex(m.group(2).replace(" ", ""))
            data[addr : addr + len(chunk)] = chunk
    return bytes(data)


def read_data(objdump: str, obj: Path) -> dict[str, bytes]:
    """Each pk_ object's bytes (to the end of its section). 32-bit PowerPC puts
    objects of up to 8 bytes in .sdata, the others in .data."""
    where = {}
    table = subprocess.run([objdump, "-t", str(obj)], capture_output=True, text=True, check=True).stdout
    for line in table.splitlines():
        if "pk_" in line:
            name = line.split()[-1].lstrip("_")
            if line.startswith("["):  # PE/COFF: [ n](sec  2)(fl 0x00)(ty   0)(scl   2) (nx 0) 0x... name
                where[name] = (".data", int(re.search(r"0x([0-9a-f]+) \S+$", line).group(1), 16))
            else:  # ELF: VALUE FLAGS SECTION SIZE NAME
                where[name] = (line.split()[-3], int(line.split()[0], 16))
    sections = {section: read_section(objdump, obj, section) for section, _ in where.values()}
    return {name: sections[section][value:] for name, (section, value) in where.items()}


# Where libclang (and so portkit) and GCC disagree, found by this test. Listed
# exactly, so a change on either side fails the test: MinGW GCC honours
# __attribute__((packed)) together with its MS bit-field layout, clang 18 for
# x86_64-w64-windows-gnu does not.
KNOWN_DIFFERENCES = {
    "mingw64": [
        "struct packed_bf size: portkit 16, gcc 13",
        "struct packed_bf align: portkit 8, gcc 1",
        "struct packed_bf.d bits: portkit 64:33, gcc 40:33",
    ],
}


@pytest.mark.parametrize("abi", list(COMPILERS))
def test_every_size_alignment_and_offset_matches_the_cross_compiler(abi: str, tmp_path: Path) -> None:
    gcc, objdump = compiler(COMPILERS[abi])
    document = portkit_layout(abi)
    records = [r["layouts"][abi] for r in document["records"] if r["layouts"][abi]]
    assert len(records) >= 25 or (abi == "mingw64" and len(records) >= 22)
    assert all(r["size"] is not None for r in records), [r["name"] for r in records if r["size"] is None]
    src, vals, bitobjs = probe_source(records)
    (tmp_path / "probe.c").write_text(src)
    subprocess.run([gcc, "-c", "-w", "-std=gnu11", "-O0", "probe.c", "-o", "probe.o"], cwd=tmp_path, check=True)
    objects = read_data(objdump, tmp_path / "probe.o")
    order = byte_order(tmp_path / "probe.o")
    assert order == ("big" if abi in BIG_ENDIAN else "little")
    assert next(a for a in document["abis"] if a["name"] == abi)["byte_order"] == order
    truth = {}
    for i, key in enumerate(vals):
        truth[key] = int.from_bytes(objects["pk_vals"][8 * i : 8 * i + 8], order)
    mismatches = []
    checked = 0
    for rec in records:
        t = rec["name"]
        for what in ("size", "align"):
            checked += 1
            if rec[what] != truth[(t, None, what)]:
                mismatches.append(f"{t} {what}: portkit {rec[what]}, gcc {truth[(t, None, what)]}")
        for f in rec["fields"]:
            for what in ("offset", "size", "align"):
                if (t, f["name"], what) in truth:
                    checked += 1
                    if f[what] != truth[(t, f["name"], what)]:
                        mismatches.append(
                            f"{t}.{f['name']} {what}: portkit {f[what]}, gcc {truth[(t, f['name'], what)]}"
                        )
    for t, name, sym in bitobjs:
        rec = next(r for r in records if r["name"] == t)
        f = next(f for f in rec["fields"] if f["name"] == name)
        gcc_bits = bit_span(allocated_bits(objects[sym][: rec["size"]], order))
        checked += 1
        if f"{f['bit_offset']}:{f['bit_width']}" != gcc_bits:
            mismatches.append(f"{t}.{name} bits: portkit {f['bit_offset']}:{f['bit_width']}, gcc {gcc_bits}")
    assert mismatches == KNOWN_DIFFERENCES.get(abi, []), "\n".join(mismatches)
    assert checked > 200


CLASSES = [str(DATA / "classes.hpp"), str(ROOT / "examples" / "legacy32" / "include" / "signals.hpp")]
CXX_ABIS = [abi for abi in COMPILERS if abi != "mipsel"]  # no g++ for mipsel is installed


def cxx_probe(records: list[dict]) -> tuple[str, list[tuple[str, str, int]]]:
    """C++ source whose pk_vals g++ fills with sizeof/alignof/offsetof and, per
    base subobject, the distance from the object to it; and what each value
    should be according to portkit."""
    lines = ["#include <cstddef>"] + [f'#include "{h}"' for h in CLASSES]
    exprs: list[str] = []
    keys: list[tuple[str, str, int]] = []
    for n, rec in enumerate(records):
        t = rec["name"]
        exprs += [f"sizeof({t})", f"alignof({t})"]
        keys += [(t, "size", rec["size"]), (t, "align", rec["align"])]
        for f in rec["fields"]:
            name = f["name"]
            if name.startswith(("(base ", "(virtual base ")):
                base = f["type"]
                if name.startswith("(virtual"):  # needs a complete object: its most-derived type places it
                    lines.append(f"extern {t} pk_obj_{n};")
                    obj = f"&pk_obj_{n}"
                else:
                    obj = f"(const {t} *)4096"
                exprs += [f"(const char *)(const {base} *){obj} - (const char *){obj}", f"sizeof({base})"]
                keys += [(f"{t} {name}", "offset", f["offset"]), (f"{t} {name}", "size", f["size"])]
            elif name == "(vptr)":
                continue
            elif "bit_width" not in f:
                exprs.append(f"offsetof({t}, {name})")
                keys.append((f"{t}.{name}", "offset", f["offset"]))
    values = ",\n  ".join(f"(unsigned long long)({e})" for e in exprs)
    lines.append(f'extern "C" {{ unsigned long long pk_vals[] = {{\n  {values}\n}}; }}')
    return "\n".join(lines) + "\n", keys


@pytest.mark.parametrize("abi", CXX_ABIS)
def test_cplusplus_records_match_gxx(abi: str, tmp_path: Path) -> None:
    """C++: sizes, alignment, own fields' offsets, and where every base
    subobject sits (private, multiple, virtual, diamond), against g++."""
    gcc, objdump = compiler(COMPILERS[abi])
    gxx = shutil.which(gcc.removesuffix("gcc") + "g++")
    if gxx is None:
        pytest.fail(f"{COMPILERS[abi]}-g++ is not installed (scripts/install-system-packages installs it)")
    proc = subprocess.run(
        [sys.executable, "-m", "portkit", "layout", "--all", "--format", "json", "--abi", abi, *CLASSES],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    document = json.loads(proc.stdout)
    records = [r["layouts"][abi] for r in document["records"]]
    assert len(records) == 29
    pointer = 4 if next(a for a in document["abis"] if a["name"] == abi)["data_model"] == "ILP32" else 8
    for rec in records:
        vptr = [f for f in rec["fields"] if f["name"] == "(vptr)"]
        if vptr:  # the own vptr is first: nothing else (but empty things) starts at 0
            assert (vptr[0]["offset"], vptr[0]["size"]) == (0, pointer)
            assert all(f["offset"] > 0 for f in rec["fields"][1:] if f["size"] > 1), rec["name"]
    placed = {r["name"]: r["unplaced_bases"] for r in records if r["unplaced_bases"]}
    assert placed == {}, placed
    src, keys = cxx_probe(records)
    (tmp_path / "probe.cpp").write_text(src)
    subprocess.run([gxx, "-c", "-w", "-std=c++20", "probe.cpp", "-o", "probe.o"], cwd=tmp_path, check=True)
    sections = subprocess.run([objdump, "-h", "probe.o"], cwd=tmp_path, capture_output=True, text=True).stdout
    assert ".init_array" not in sections and ".ctors" not in sections, "g++ did not fold the probe to constants"
    values, order = read_data(objdump, tmp_path / "probe.o")["pk_vals"], byte_order(tmp_path / "probe.o")
    got = [int.from_bytes(values[8 * i : 8 * i + 8], order) for i in range(len(keys))]
    wrong = [f"{k[0]} {k[1]}: portkit {k[2]}, g++ {g}" for k, g in zip(keys, got, strict=True) if k[2] != g]
    assert not wrong, "\n".join(wrong)
    assert sum(1 for k in keys if "base " in k[0]) >= 18


def test_cplusplus_bit_fields_after_the_vptr() -> None:
    """g++ for x86_64 puts WithBits' a at bit 64 (after the 8-byte vptr) and b right after it."""
    proc = subprocess.run(
        [sys.executable, "-m", "portkit", "layout", "--all", "--format", "json", "--abi", "x86_64", *CLASSES],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    withbits = next(r for r in json.loads(proc.stdout)["records"] if r["name"] == "WithBits")["layouts"]["x86_64"]
    assert [(f["bit_offset"], f["bit_width"]) for f in withbits["fields"] if "bit_width" in f] == [(64, 3), (67, 9)]


TYPE_HEADERS = ("stddef.h", "sys/types.h", "time.h", "wchar.h")


@pytest.mark.parametrize("abi", list(COMPILERS))
def test_types_table_matches_the_cross_compiler(abi: str, tmp_path: Path) -> None:
    """`--types`: each type's size and its alignment inside a struct, as the cross gcc has them."""
    gcc, objdump = compiler(COMPILERS[abi])
    proc = subprocess.run(
        [sys.executable, "-m", "portkit", "layout", "--types", "--format", "json", "--abi", abi],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    rows = json.loads(proc.stdout)["types"]
    lines = [f"#include <{h}>" for h in TYPE_HEADERS]
    exprs = []
    for i, row in enumerate(rows):
        ctype = "void *" if row["type"] == "pointer" else row["type"]
        lines.append(f"struct in_{i} {{ char c; {ctype} v; }};")
        exprs += [f"sizeof({ctype})", f"offsetof(struct in_{i}, v)"]
    lines.append("unsigned long long pk_vals[] = {" + ", ".join(exprs) + "};")
    (tmp_path / "types.c").write_text("\n".join(lines) + "\n")
    subprocess.run([gcc, "-c", "-std=gnu11", "types.c", "-o", "types.o"], cwd=tmp_path, check=True)
    values, order = read_data(objdump, tmp_path / "types.o")["pk_vals"], byte_order(tmp_path / "types.o")
    got = [int.from_bytes(values[8 * i : 8 * i + 8], order) for i in range(2 * len(rows))]
    truth = {row["type"]: {"size": got[2 * i], "align": got[2 * i + 1]} for i, row in enumerate(rows)}
    assert {row["type"]: row[abi] for row in rows} == truth
