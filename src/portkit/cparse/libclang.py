"""libclang itself: loaded from the `libclang` PyPI wheel, with the calls its
Python bindings do not wrap declared once."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

from portkit.core.errors import EnvironmentProblem


def cindex():
    try:
        from clang import cindex as ci
    except ImportError:
        raise EnvironmentProblem(
            "reading C and C++ needs libclang's Python bindings", hint="pip install libclang"
        ) from None
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
    lib.clang_getCursorBinaryOperatorKind.argtypes = [ci.Cursor]
    lib.clang_getCursorBinaryOperatorKind.restype = ctypes.c_int
    lib.clang_getCursorUnaryOperatorKind.argtypes = [ci.Cursor]
    lib.clang_getCursorUnaryOperatorKind.restype = ctypes.c_int
    lib.clang_getBinaryOperatorKindSpelling.argtypes = [ctypes.c_int]
    lib.clang_getBinaryOperatorKindSpelling.restype = ci._CXString
    lib.clang_getUnaryOperatorKindSpelling.argtypes = [ctypes.c_int]
    lib.clang_getUnaryOperatorKindSpelling.restype = ci._CXString


EVAL_INT = 1  # CXEval_Int


def is_virtual_base(ci, cursor) -> bool:
    """For a CXX_BASE_SPECIFIER cursor: `virtual` inheritance."""
    return bool(ci.conf.lib.clang_isVirtualBase(cursor))


def binary_operator(ci, cursor) -> str:
    """The operator of a BINARY_OPERATOR or COMPOUND_ASSIGNMENT_OPERATOR cursor: "*", "<<", "&=", ..."""
    kind = ci.conf.lib.clang_getCursorBinaryOperatorKind(cursor)
    return ci._CXString.from_result(ci.conf.lib.clang_getBinaryOperatorKindSpelling(kind))


def unary_operator(ci, cursor) -> str:
    """The operator of a UNARY_OPERATOR cursor: "~", "-", "&", "++", ..."""
    kind = ci.conf.lib.clang_getCursorUnaryOperatorKind(cursor)
    return ci._CXString.from_result(ci.conf.lib.clang_getUnaryOperatorKindSpelling(kind))


def evaluate_int(ci, cursor) -> int | None:
    """The value clang folds a variable's initializer (or an expression) to, if it is an integer."""
    result = ci.conf.lib.clang_Cursor_Evaluate(cursor)
    if not result:
        return None
    try:
        if ci.conf.lib.clang_EvalResult_getKind(result) != EVAL_INT:
            return None
        return ci.conf.lib.clang_EvalResult_getAsLongLong(result)
    finally:
        ci.conf.lib.clang_EvalResult_dispose(result)


@dataclass(frozen=True)
class Inclusion:
    """One #include: where it stands and the file it brings in."""

    file: str  # the including file
    line: int
    column: int
    system: bool  # the including file is a system header
    header: str  # the included file


def inclusions(ci, tu) -> list[Inclusion]:
    """Every #include of a translation unit. (The bindings' get_includes()
    keeps each location as a view into memory libclang frees once the visit is
    over; reading it later crashes. Here each is read during the visit.)"""
    found: list[Inclusion] = []

    def visit(included, stack, depth, _data) -> None:
        if depth > 0:
            where = stack.contents
            if where.file is not None:
                found.append(
                    Inclusion(
                        where.file.name, where.line, where.column, where.is_in_system_header, ci.File(included).name
                    )
                )

    ci.conf.lib.clang_getInclusions(tu, ci.callbacks["translation_unit_includes"](visit), None)
    return found
