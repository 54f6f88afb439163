"""The two data models a scan compares, and the width of a type in each.

The code is parsed once, for the target ABI (the model it moves to: clang's
own diagnostics for that target come with the parse). Its width in the source
model (where the code works today) is worked out from the same type: builtin
kinds and pointers by the source ABI's own sizes, typedefs of the C library by
their size in the source ABI's headers (int64_t is 8 bytes on AArch32 although
it is `long` on AArch64), and the project's own typedefs through their
definitions. Both tables come from one probe parse for the source ABI.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from portkit.core.abis import Abi, parse_abi
from portkit.core.errors import BadInput
from portkit.cparse.libclang import cindex
from portkit.cparse.parse import parse

# Data model names and the ABI that stands for each (its cross headers are installed).
MODEL_ABIS = {"ILP32": "arm", "LP64": "aarch64", "LLP64": "mingw64"}
# Builtin types by libclang TypeKind name, as the probe declares them.
BUILTINS = {
    "BOOL": "_Bool",
    "CHAR_U": "char",
    "CHAR_S": "char",
    "UCHAR": "unsigned char",
    "SCHAR": "signed char",
    "WCHAR": "wchar_t",
    "CHAR16": "unsigned short",
    "CHAR32": "unsigned int",
    "SHORT": "short",
    "USHORT": "unsigned short",
    "INT": "int",
    "UINT": "unsigned int",
    "LONG": "long",
    "ULONG": "unsigned long",
    "LONGLONG": "long long",
    "ULONGLONG": "unsigned long long",
    "INT128": "__int128",
    "UINT128": "unsigned __int128",
    "FLOAT": "float",
    "DOUBLE": "double",
    "LONGDOUBLE": "long double",
    "POINTER": "void *",
}
# The C library's headers a probe includes for its typedefs (those the target lacks are skipped).
PROBE_HEADERS = (
    "stddef.h",
    "stdint.h",
    "inttypes.h",
    "sys/types.h",
    "time.h",
    "sys/time.h",
    "stdio.h",
    "stdlib.h",
    "string.h",
    "unistd.h",
    "wchar.h",
    "signal.h",
    "sys/socket.h",
    "sys/stat.h",
    "fcntl.h",
)


@dataclass(frozen=True)
class Model:
    """One side of the comparison: an ABI, its data model, and its sizes."""

    abi: Abi
    builtins: dict[str, int]  # TypeKind name -> bytes (64-bit types through __int128 where it exists)
    typedefs: dict[str, int]  # the C library's typedef name -> bytes

    @property
    def label(self) -> str:
        """ "ILP32 (arm)": how messages name it."""
        return f"{self.abi.data_model} ({self.abi.name})"


@dataclass(frozen=True)
class ModelPair:
    source: Model  # where the code works today
    target: Model  # where it moves: the ABI the code is parsed for

    @property
    def labels(self) -> tuple[str, str]:
        return self.source.label, self.target.label


def resolve_abi(spec: str, option: str) -> Abi:
    """A data model name (ILP32, LP64, LLP64) or any ABI `portkit layout` knows."""
    name = MODEL_ABIS.get(spec.upper(), spec)
    try:
        return parse_abi(name)
    except BadInput:
        models = ", ".join(f"{m} ({a})" for m, a in MODEL_ABIS.items())
        raise BadInput(f"{option} {spec}: not a data model ({models}) or a known ABI") from None


def probe_pair(source: Abi, target: Abi, sysroot: Path | None) -> ModelPair:
    """Both models, probed in two threads: libclang parses without holding
    the GIL, so the pair costs little more than one probe (30 ms less of
    every scan's start-up)."""
    with ThreadPoolExecutor(2) as pool:
        both = list(pool.map(lambda abi: probe_model(abi, sysroot), (source, target)))
    return ModelPair(*both)


def probe_model(abi: Abi, sysroot: Path | None) -> Model:
    """The builtin and C library typedef sizes of abi, from one parse of a probe."""
    ci = cindex()
    lines = [f"#if __has_include(<{h}>)\n#include <{h}>\n#endif" for h in PROBE_HEADERS]
    lines += [f"typedef {ctype} pk_builtin_{kind};" for kind, ctype in BUILTINS.items() if "128" not in kind]
    lines.append("#ifdef __SIZEOF_INT128__")
    lines += [f"typedef {ctype} pk_builtin_{kind};" for kind, ctype in BUILTINS.items() if "128" in kind]
    lines.append("#endif")
    tu, _ = parse("portkit-models.c", abi, ["-w"], sysroot, "\n".join(lines) + "\n")
    builtins: dict[str, int] = {}
    typedefs: dict[str, int] = {}
    if tu is not None:
        for cursor in tu.cursor.get_children():
            if cursor.kind != ci.CursorKind.TYPEDEF_DECL:
                continue
            size = cursor.underlying_typedef_type.get_size()
            if size <= 0:
                continue
            if cursor.spelling.startswith("pk_builtin_"):
                builtins[cursor.spelling.removeprefix("pk_builtin_")] = size
            else:
                typedefs.setdefault(cursor.spelling, size)
    if "LONG" not in builtins:
        raise BadInput(f"cannot read the type sizes of {abi.name} ({abi.clang_triple}): its headers did not parse")
    return Model(abi, builtins, typedefs)
