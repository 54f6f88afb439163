"""The two data models a scan compares, and the width of a type in each.

The code is parsed once, for the target ABI (the model it moves to: clang's
own diagnostics for that target come with the parse). Its width in the source
model (where the code works today) is worked out from the same type: builtin
kinds and pointers by the source ABI's own sizes, typedefs of the C library by
their size in the source ABI's headers (int64_t is 8 bytes on AArch32 although
it is `long` on AArch64), and the project's own typedefs through their
definitions. Both tables come from one probe parse for each ABI, kept
between runs while the headers it read are unchanged (modelcache).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from portkit.commands.scan.modelcache import Probed, kept_or_probed, probe_identity
from portkit.core.abis import Abi, parse_abi
from portkit.core.errors import BadInput
from portkit.cparse.libclang import cindex, inclusions, library_file
from portkit.cparse.parse import parse, system_includes

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


def probe_pair(source: Abi, target: Abi, sysroot: Path | None, kept_in: Path | None = None) -> ModelPair:
    """Both models: kept ones (in kept_in, see modelcache) where nothing they
    came from has changed, the others probed, two at once in threads
    (libclang parses without holding the GIL)."""
    library = library_file()
    text = probe_text()

    def one(abi: Abi) -> Model:
        search = system_includes(abi, sysroot)
        identity = probe_identity(abi, sysroot, text, search, library)
        probed = kept_or_probed(kept_in, identity, search, PROBE_HEADERS, lambda: probe_model(abi, sysroot, text))
        if "LONG" not in probed.builtins:
            raise BadInput(f"cannot read the type sizes of {abi.name} ({abi.clang_triple}): its headers did not parse")
        return Model(abi, probed.builtins, probed.typedefs)

    return ModelPair(*_side_by_side(one, source, target))


def _side_by_side(work: Callable[[Abi], Model], first: Abi, second: Abi) -> tuple[Model, Model]:
    """work(first) on a thread of its own while this one does work(second);
    an exception of either is raised here."""
    outcome: list[tuple[bool, object]] = []

    def run() -> None:
        try:
            outcome.append((True, work(first)))
        except BaseException as err:  # raised in the caller's thread below
            outcome.append((False, err))

    thread = threading.Thread(target=run)
    thread.start()
    try:
        other = work(second)
    finally:
        thread.join()
    ok, value = outcome[0]
    if not ok:
        raise value  # type: ignore[misc]
    return value, other  # type: ignore[return-value]


def probe_text() -> str:
    """A C file declaring one typedef per builtin type, after the C library's headers the target has."""
    lines = [f"#if __has_include(<{h}>)\n#include <{h}>\n#endif" for h in PROBE_HEADERS]
    lines += [f"typedef {ctype} pk_builtin_{kind};" for kind, ctype in BUILTINS.items() if "128" not in kind]
    lines.append("#ifdef __SIZEOF_INT128__")
    lines += [f"typedef {ctype} pk_builtin_{kind};" for kind, ctype in BUILTINS.items() if "128" in kind]
    lines.append("#endif")
    return "\n".join(lines) + "\n"


def probe_model(abi: Abi, sysroot: Path | None, text: str) -> Probed:
    """The builtin and C library typedef sizes of abi, from one parse of the
    probe, and every header that parse read."""
    ci = cindex()
    tu, _ = parse("portkit-models.c", abi, ["-w"], sysroot, text)
    builtins: dict[str, int] = {}
    typedefs: dict[str, int] = {}
    if tu is None:
        return Probed(builtins, typedefs, ())
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
    return Probed(builtins, typedefs, tuple(sorted({i.header for i in inclusions(ci, tu)})))
