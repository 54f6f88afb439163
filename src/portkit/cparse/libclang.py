"""libclang itself, with the calls its Python bindings do not wrap declared
once. The bindings come from the `libclang` PyPI wheel; the library is a
Debian libclang1-N whose own builtin headers (libclang-common-N-dev) are
installed when there is one, else the wheel's (which ships no headers);
LIBCLANG_LIBRARY_PATH, which the bindings read, still chooses."""

from __future__ import annotations

import array
import contextlib
import ctypes
import glob
import os
import re
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module

from portkit import _clangwalk
from portkit.core.errors import EnvironmentProblem

# libclang parses with the builtin headers of its own version (stddef.h, the
# *intrin.h): another version's call builtins it does not know or declares
# differently (clang 14's emmintrin.h under libclang 18: no <windows.h> parses).
# From 17 on, libclang has the operator-kind calls the walk uses.
DEBIAN_LIBCLANG = "/usr/lib/llvm-*/lib/libclang-*.so.1"
OLDEST_USABLE = 17
# The bindings' Config is the process's own: choosing its library must happen once.
_CHOOSING = threading.Lock()


def bindings():
    """clang.cindex, its library not loaded yet (but chosen)."""
    try:
        from clang import cindex as ci
    except ImportError:
        raise EnvironmentProblem(
            "reading C and C++ needs libclang's Python bindings", hint="pip install libclang"
        ) from None
    with _CHOOSING:  # two probe threads at once: one chooses, the other sees it chosen
        chosen = ci.Config.library_file is not None or "LIBCLANG_LIBRARY_PATH" in os.environ  # the user's
        if not ci.Config.loaded and not chosen and (library := matched_debian_libclang()):
            ci.Config.set_library_file(library)
    return ci


def matched_debian_libclang(pattern: str = DEBIAN_LIBCLANG) -> str | None:
    """The newest Debian libclang-N.so.1 (N >= 17) with its builtin headers beside it."""
    usable = []
    for path in glob.glob(pattern):
        found = re.search(r"/llvm-(\d+)/lib/libclang-\1\.so\.1$", path)
        if found and int(found[1]) >= OLDEST_USABLE and builtin_headers(int(found[1]), os.path.dirname(path)):
            usable.append((int(found[1]), path))
    return max(usable)[1] if usable else None


def builtin_headers(major: int, lib: str) -> str | None:
    """The builtin headers of libclang `major` under the library directory
    `lib` (Debian: lib/clang/19/include, or lib/clang/14.0.6/include)."""
    found = [d for d in glob.glob(f"{lib}/clang/{major}*/include") if re.search(rf"/clang/{major}(\.|/)", d)]
    return sorted(found)[-1] if found else None


def loaded_builtin_headers(ci) -> str | None:
    """The builtin headers of the loaded libclang's version: beside it, or
    where Debian installs that version's (the wheel's libclang has none)."""
    if (major := loaded_version(ci)) is None:
        return None
    return _headers_of(major, ci.Config.library_file or ci.conf.get_filename())


def _headers_of(major: int, library: str) -> str | None:
    beside = os.path.dirname(os.path.realpath(library))
    return builtin_headers(major, beside) or builtin_headers(major, f"/usr/lib/llvm-{major}/lib")


def chosen_builtin_headers() -> str | None:
    """loaded_builtin_headers() of the libclang this process loads, without
    loading it where its file names its version (Debian's libclang-19.so.1,
    which bindings() chooses): a process that only reads a scan's inputs
    then never loads the 60 MB library its workers' parent loads anyway."""
    if (library := unloaded_choice()) is not None:
        found = re.search(r"/llvm-(\d+)/lib/libclang-\1\.so\.1$", library)
        return _headers_of(int(found[1]), library) if found else None
    return loaded_builtin_headers(cindex())


def unloaded_choice() -> str | None:
    """The Debian libclang bindings() chooses, while nothing is loaded yet and
    LIBCLANG_LIBRARY_PATH does not choose another (else None)."""
    # (another thread may be importing the bindings: a module without its Config yet)
    config = getattr(sys.modules.get("clang.cindex"), "Config", None)
    if config is not None and (config.loaded or config.library_file is not None):
        return None  # chosen or loaded already: that one is the truth
    if "LIBCLANG_LIBRARY_PATH" in os.environ:
        return None
    return matched_debian_libclang()


def loaded_version(ci) -> int | None:
    """The major version of the libclang loaded ("Debian clang version 19.1.7" -> 19)."""
    spelling = ci._CXString.from_result(ci.conf.lib.clang_getClangVersion())
    found = re.search(r"version (\d+)\.", spelling)
    return int(found[1]) if found else None


def cindex():
    """clang.cindex with libclang loaded and the calls portkit adds declared (once a process)."""
    ci = bindings()
    if getattr(ci, "_portkit_loaded", False):
        return ci
    early = getattr(ci, "_portkit_loading", None)
    if early is not None and early is not threading.current_thread():
        early.join()  # before anything forks: a child would inherit the dynamic loader's lock, held
    try:
        ci.Index.create()
    except Exception as err:  # libclang.so missing or unloadable
        raise EnvironmentProblem(
            f"cannot load libclang: {err}", hint="pip install --force-reinstall libclang"
        ) from None
    _declare_missing(ci)
    ci._portkit_loaded = True
    return ci


def load_now() -> None:
    """libclang loaded on this thread, now: in a process about to fork another
    that needs it too (core.workers.Host), which then inherits it instead of
    loading it a second time. If it cannot be loaded, cindex() says why when
    the command asks for it."""
    with contextlib.suppress(EnvironmentProblem):
        cindex()


def load_early() -> Callable[[], None]:
    """Starts loading libclang (a 60 MB library) on a thread of its own, so
    that it overlaps the imports of a command that will need it. (CPython
    3.11's ctypes holds the GIL through dlopen, so the overlap is the loader's
    page faults and whatever else the process does outside the GIL; dlopen
    called through libc as a foreign function, which releases it, measured no
    faster: at start-up both CPUs are busy.) Returns the wait for it, to be
    called before exiting; cindex() waits for it too."""
    try:
        ci = bindings()
    except EnvironmentProblem:
        return lambda: None  # cindex() says so if the command needs it
    if getattr(ci, "_portkit_loaded", False) or getattr(ci, "_portkit_loading", None) is not None:
        return lambda: None

    def load() -> None:
        with contextlib.suppress(Exception):  # cindex() tries again and says why
            ci.conf.lib  # noqa: B018  (the property that loads it)

    thread = threading.Thread(target=load, name="libclang", daemon=True)
    ci._portkit_loading = thread
    thread.start()
    return thread.join


def preload(modules: Sequence[str]) -> None:
    """What a process that forks parsing workers does first (core.workers.Host):
    libclang loaded, on a thread, while the modules whose code the workers
    run are imported; both done before it returns (and so before any fork)."""
    load_early()
    for module in modules:
        import_module(module)
    cindex()


def _declare_missing(ci) -> None:
    """Calls the Python bindings of libclang 18 do not wrap: declared here, as
    ctypes would otherwise truncate a pointer result to an int."""
    signatures = {
        "clang_isVirtualBase": ([ci.Cursor], ctypes.c_uint),
        "clang_getClangVersion": ([], ci._CXString),
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
# CXBinaryOperatorKind: PtrMemD (1) .. Comma (33). libclang crashes spelling a number outside it.
BINARY_OPERATOR_KINDS = range(1, 34)


@dataclass(frozen=True)
class Quick:
    """libclang's calls on the hot paths of a walk over every node, bound
    without the bindings' wrappers (which make a Python object of every
    result): kinds as numbers, yes or no as bools."""

    canonical_kind: Callable[[object], int]  # a cursor's type, canonical, as a CXTypeKind number
    in_system_header: Callable[[object], bool]  # where a cursor is
    binary_operator_kind: Callable[[object], int]  # a CXBinaryOperatorKind number
    # (file, line, column) of a SourceLocation where expanded; the file as libclang's handle, for comparing
    place: Callable[[object], tuple[int | None, int, int]]
    extent: Callable[[object], tuple[tuple[int | None, int, int], tuple[int | None, int, int]]]  # a cursor's


def quick(ci) -> Quick:
    """The Quick calls of this libclang, made once per process."""
    made = getattr(ci, "_portkit_quick", None)
    if made is None:
        lib = ctypes.CDLL(ci.conf.lib._name)
        cursor_type, canonical, location, system = (
            lib.clang_getCursorType,
            lib.clang_getCanonicalType,
            lib.clang_getCursorLocation,
            lib.clang_Location_isInSystemHeader,
        )
        cursor_type.argtypes, cursor_type.restype = [ci.Cursor], ci.Type
        canonical.argtypes, canonical.restype = [ci.Type], ci.Type
        location.argtypes, location.restype = [ci.Cursor], ci.SourceLocation
        system.argtypes, system.restype = [ci.SourceLocation], ctypes.c_int
        operator = lib.clang_getCursorBinaryOperatorKind
        operator.argtypes, operator.restype = [ci.Cursor], ctypes.c_int
        extent, start, end, expansion = (
            lib.clang_getCursorExtent,
            lib.clang_getRangeStart,
            lib.clang_getRangeEnd,
            lib.clang_getExpansionLocation,
        )
        extent.argtypes, extent.restype = [ci.Cursor], ci.SourceRange
        start.argtypes = end.argtypes = [ci.SourceRange]
        start.restype = end.restype = ci.SourceLocation
        number = ctypes.POINTER(ctypes.c_uint)
        expansion.argtypes = [ci.SourceLocation, ctypes.c_void_p, number, number, number]
        expansion.restype = None

        def place(where) -> tuple[int | None, int, int]:
            file, line, column = ctypes.c_void_p(), ctypes.c_uint(), ctypes.c_uint()
            expansion(where, ctypes.byref(file), ctypes.byref(line), ctypes.byref(column), None)
            return file.value, line.value, column.value

        def cursor_extent(cursor):
            span = extent(cursor)
            return place(start(span)), place(end(span))

        made = Quick(
            canonical_kind=lambda cursor: canonical(cursor_type(cursor))._kind_id,
            in_system_header=lambda cursor: bool(system(location(cursor))),
            binary_operator_kind=operator,
            place=place,
            extent=cursor_extent,
        )
        ci._portkit_quick = made
    return made


def is_virtual_base(ci, cursor) -> bool:
    """For a CXX_BASE_SPECIFIER cursor: `virtual` inheritance."""
    return bool(ci.conf.lib.clang_isVirtualBase(cursor))


def binary_operator(ci, cursor) -> str:
    """The operator of a BINARY_OPERATOR or COMPOUND_ASSIGNMENT_OPERATOR cursor: "*", "<<", "&=", ..."""
    spellings = binary_operator_spellings(ci)
    kind = quick(ci).binary_operator_kind(cursor)
    return spellings[kind] if 0 <= kind < len(spellings) else ""


def binary_operator_spellings(ci) -> list[str]:
    """Each CXBinaryOperatorKind's spelling, by number ("" for 0, none), spelled once per process."""
    spellings = getattr(ci, "_portkit_binary_operators", None)
    if spellings is None:
        spell = ci.conf.lib.clang_getBinaryOperatorKindSpelling
        spellings = ["", *(ci._CXString.from_result(spell(k)) for k in BINARY_OPERATOR_KINDS)]
        ci._portkit_binary_operators = spellings
    return spellings


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


def skipped_lines(ci, tu, path: str) -> list[tuple[int, int]]:
    """The regions of a file the preprocessor left out (#if 0, the other
    branch of an #ifdef), as (first, last) lines; the translation unit must
    be parsed with parse(..., preprocessor_record=True), else none are known.
    Read in C (portkit._clangwalk): asked of every project header a unit
    includes, a region was four calls through the bindings."""
    address = ctypes.cast(tu.obj, ctypes.c_void_p).value
    found = _clangwalk.skipped_lines(ci.conf.lib._name, address, os.fsencode(path))
    lines = array.array("I", found)
    return list(zip(lines[::2], lines[1::2], strict=True))


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


def library_file() -> str:
    """The libclang the bindings will load (a path, or the name the dynamic
    loader looks for), found without loading it."""
    if (chosen := unloaded_choice()) is not None:
        return os.path.realpath(chosen)  # what bindings() will choose, without importing them
    try:
        from clang import cindex as ci
    except ImportError:
        raise EnvironmentProblem(
            "reading C and C++ needs libclang's Python bindings", hint="pip install libclang"
        ) from None
    name = ci.conf.get_filename()
    return os.path.realpath(name) if os.path.isfile(name) else name
