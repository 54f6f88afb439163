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
    signatures = {
        "clang_isVirtualBase": ([ci.Cursor], ctypes.c_uint),
        "clang_Cursor_Evaluate": ([ci.Cursor], ctypes.c_void_p),
        "clang_EvalResult_getKind": ([ctypes.c_void_p], ctypes.c_int),
        "clang_EvalResult_getAsLongLong": ([ctypes.c_void_p], ctypes.c_longlong),
        "clang_EvalResult_dispose": ([ctypes.c_void_p], None),
        "clang_getCursorBinaryOperatorKind": ([ci.Cursor], ctypes.c_int),
        "clang_getCursorUnaryOperatorKind": ([ci.Cursor], ctypes.c_int),
        "clang_getBinaryOperatorKindSpelling": ([ctypes.c_int], ci._CXString),
        "clang_getUnaryOperatorKindSpelling": ([ctypes.c_int], ci._CXString),
    }
    for name, (arguments, result) in signatures.items():
        function = getattr(ci.conf.lib, name)
        function.argtypes, function.restype = arguments, result


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
