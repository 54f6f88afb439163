"""The shared libclang base: find libclang (the `libclang` PyPI wheel), give
it the target's builtin and libc headers, parse for a target triple and turn
diagnostics into one-line errors."""

from __future__ import annotations

import ctypes
import glob
import os
from dataclasses import dataclass
from pathlib import Path

from portkit.core.abis import Abi
from portkit.core.errors import EnvironmentProblem

FALLBACK_INCLUDE = Path(__file__).parent / "include"  # freestanding stddef.h etc. for any triple


def cindex():
    try:
        from clang import cindex as ci
    except ImportError:
        raise EnvironmentProblem("layout needs libclang's Python bindings", hint="pip install libclang") from None
    try:
        ci.Index.create()
    except Exception as err:  # libclang.so missing or unloadable
        raise EnvironmentProblem(
            f"cannot load libclang: {err}", hint="pip install --force-reinstall libclang"
        ) from None
    _declare_missing(ci)
    return ci


def _declare_missing(ci) -> None:
    """Calls the Python bindings of libclang 18 do not wrap: declared here, as
    ctypes would otherwise truncate a pointer result to an int."""
    lib = ci.conf.lib
    lib.clang_isVirtualBase.argtypes = [ci.Cursor]
    lib.clang_isVirtualBase.restype = ctypes.c_uint
    lib.clang_Cursor_Evaluate.argtypes = [ci.Cursor]
    lib.clang_Cursor_Evaluate.restype = ctypes.c_void_p
    lib.clang_EvalResult_getKind.argtypes = [ctypes.c_void_p]
    lib.clang_EvalResult_getKind.restype = ctypes.c_int
    lib.clang_EvalResult_getAsLongLong.argtypes = [ctypes.c_void_p]
    lib.clang_EvalResult_getAsLongLong.restype = ctypes.c_longlong
    lib.clang_EvalResult_dispose.argtypes = [ctypes.c_void_p]


EVAL_INT = 1  # CXEval_Int


def is_virtual_base(ci, cursor) -> bool:
    """For a CXX_BASE_SPECIFIER cursor: `virtual` inheritance."""
    return bool(ci.conf.lib.clang_isVirtualBase(cursor))


def evaluate_int(ci, cursor) -> int | None:
    """The value clang folds a variable's initializer to, if it is an integer."""
    result = ci.conf.lib.clang_Cursor_Evaluate(cursor)
    if not result:
        return None
    try:
        if ci.conf.lib.clang_EvalResult_getKind(result) != EVAL_INT:
            return None
        return ci.conf.lib.clang_EvalResult_getAsLongLong(result)
    finally:
        ci.conf.lib.clang_EvalResult_dispose(result)


def _newest(pattern: str) -> str | None:
    def version(path: str) -> tuple[int, ...]:
        digits = "".join(c if c.isdigit() else " " for c in os.path.basename(path)).split()
        return tuple(int(d) for d in digits)

    found = sorted((p for p in glob.glob(pattern) if os.path.isdir(p)), key=version)
    return found[-1] if found else None


def system_includes(abi: Abi, sysroot: Path | None) -> list[str]:
    """The directories GCC for this triple searches, in GCC's order: its
    builtin headers, then the Debian cross sysroot (or multiarch) libc."""
    t = abi.triple
    dirs: list[str] = []
    builtin = _newest(f"/usr/lib/gcc-cross/{t}/*/include") or _newest(f"/usr/lib/gcc/{t}/*/include")
    if t == "x86_64-w64-mingw32":
        builtin = _newest(f"/usr/lib/gcc/{t}/*-posix/include") or builtin
    dirs.append(builtin or str(FALLBACK_INCLUDE))
    if sysroot is not None:
        dirs += [str(sysroot / "usr/include" / t), str(sysroot / "usr/include"), str(sysroot / "include")]
    elif os.path.isdir(f"/usr/{t}/include"):
        dirs.append(f"/usr/{t}/include")
    elif os.path.isdir(f"/usr/include/{t}"):  # the native multiarch layout
        dirs += [f"/usr/include/{t}", "/usr/include"]
    return [d for d in dirs if os.path.isdir(d)]


@dataclass
class Problem:
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}" if self.line else f"{self.file}: {self.message}"


def parse(path: str, abi: Abi, flags: list[str], sysroot: Path | None, text: str | None = None):
    """Parses one file for `abi`; returns (translation unit or None, errors)."""
    ci = cindex()
    args = ["-target", abi.clang_triple, "-nostdinc", "-ferror-limit=0"]
    for d in system_includes(abi, sysroot):
        args += ["-isystem", d]
    if path.endswith((".hpp", ".hh", ".hxx", ".cpp", ".cc", ".cxx")):
        args += ["-x", "c++", "-std=c++20"]
    elif path.endswith(".h"):
        args += ["-x", "c", "-std=gnu11"]
    args += list(abi.flags) + flags
    unsaved = [(path, text)] if text is not None else None
    try:
        tu = ci.TranslationUnit.from_source(
            path, args=args, unsaved_files=unsaved, options=ci.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES
        )
    except ci.TranslationUnitLoadError:
        return None, [Problem(path, 0, "clang could not parse it")]
    errors = []
    for diag in tu.diagnostics:
        if diag.severity >= ci.Diagnostic.Error:
            loc = diag.location
            errors.append(Problem(loc.file.name if loc.file else path, loc.line, diag.spelling))
    return tu, errors
