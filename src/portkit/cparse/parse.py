"""Parsing one C or C++ file for a target ABI, as that target's GCC would see
it: the target's builtin and libc headers, its triple, the file's own flags;
errors as one-line problems. parse_in_workers() runs parsing where a crash
inside libclang (a stack overflow on a deeply nested expression, say) costs
only that file (docs/architecture.md, "Parsing C and C++")."""

from __future__ import annotations

import glob
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TypeVar

from portkit.core.abis import Abi
from portkit.core.workers import Failed, Host, run_isolated
from portkit.cparse.libclang import chosen_builtin_headers, cindex

FALLBACK_INCLUDE = Path(__file__).parent / "include"  # freestanding stddef.h etc. for any triple
# A nested expression takes about 500 bytes of stack per level in clang: 1 GiB
# (address space, not memory, until used) parses a 1 MB `1+1+...+1`.
STACK_BYTES = 1 << 30
DEFAULT_TIMEOUT = 120.0  # seconds for one file and ABI; a header takes well under one

Task = TypeVar("Task")
Result = TypeVar("Result")


def parse_in_workers(
    work: Callable[[Task], Result],
    tasks: Sequence[Task],
    jobs: int,
    timeout: float | None,
    done: Callable[[int], None] | None = None,
    host: Host | None = None,
) -> list[Result | Failed]:
    """work(task), which parses with libclang, for every task in worker
    processes: forked by host when there is one (it has loaded libclang and
    the code work runs), else by this process."""
    if host is not None:
        return host.run(partial(_on_this_thread, work), tasks, jobs, timeout, STACK_BYTES, done)
    cindex()  # loaded here once: the forked workers share it
    return run_isolated(partial(_on_this_thread, work), tasks, jobs, timeout, STACK_BYTES, done)


def _on_this_thread(work: Callable[[Task], Result], task: Task) -> Result:
    # libclang parses on a thread of its own with an 8 MiB stack unless told
    # not to; on the worker's thread it has the deep stack.
    os.environ["LIBCLANG_NOTHREADS"] = "1"
    return work(task)


def _newest(pattern: str) -> str | None:
    def version(path: str) -> tuple[int, ...]:
        digits = "".join(c if c.isdigit() else " " for c in os.path.basename(path)).split()
        return tuple(int(d) for d in digits)

    found = sorted((p for p in glob.glob(pattern) if os.path.isdir(p)), key=version)
    return found[-1] if found else None


def system_includes(abi: Abi, sysroot: Path | None, cxx: bool = False) -> list[str]:
    """The directories a clang cross compiler for this triple searches, in
    GCC's order: for C++ libstdc++'s headers, then the builtin headers, then
    the Debian cross sysroot's (or the multiarch) libc."""
    t = abi.triple
    dirs: list[str] = _libstdcxx(t, sysroot) if cxx else []
    dirs.append(clang_resource_include() or gcc_builtin_include(t) or str(FALLBACK_INCLUDE))
    if sysroot is not None:
        dirs += [str(sysroot / "usr/include" / t), str(sysroot / "usr/include"), str(sysroot / "include")]
    elif os.path.isdir(f"/usr/{t}/include"):
        dirs.append(f"/usr/{t}/include")
    elif os.path.isdir(f"/usr/include/{t}"):  # the native multiarch layout
        dirs += [f"/usr/include/{t}", "/usr/include"]
    return [d for d in dirs if os.path.isdir(d)]


def clang_resource_include() -> str | None:
    """clang's own builtin headers (stddef.h, stdatomic.h, arm_neon.h, the x86
    *intrin.h), as a clang cross compiler uses with a GCC sysroot: GCC's
    versions of the intrinsics headers are written in GCC's builtins, which
    clang does not know. Those of the libclang's version (Debian:
    libclang-common-N-dev), else the newest there are."""
    if found := chosen_builtin_headers():
        return found
    return _newest("/usr/lib/llvm-*/lib/clang/*/include") or _newest("/usr/lib/clang/*/include")


def gcc_builtin_include(t: str) -> str | None:
    """The cross GCC's builtin headers, when no clang ones are installed."""
    if t == "x86_64-w64-mingw32":
        return _newest(f"/usr/lib/gcc/{t}/*-posix/include") or _newest(f"/usr/lib/gcc/{t}/*/include")
    return _newest(f"/usr/lib/gcc-cross/{t}/*/include") or _newest(f"/usr/lib/gcc/{t}/*/include")


def _libstdcxx(t: str, sysroot: Path | None) -> list[str]:
    """libstdc++'s three directories (the headers, the target's bits, backward)
    where this triple's g++ has them: a sysroot, the Debian cross layout, the
    native multiarch one, or MinGW's (the posix thread model, as for C)."""
    if sysroot is not None:
        roots = [(f"{sysroot}/usr/include/c++/*", f"{sysroot}/usr/include/{t}/c++/{{v}}")]
    else:
        roots = [
            (f"/usr/{t}/include/c++/*", f"/usr/{t}/include/c++/{{v}}/{t}"),
            (f"/usr/lib/gcc/{t}/*-posix/include/c++", f"/usr/lib/gcc/{t}/{{v}}-posix/include/c++/{t}"),
        ]
        if os.path.isdir(f"/usr/include/{t}"):  # this machine's own triple: the multiarch layout
            roots.append(("/usr/include/c++/*", f"/usr/include/{t}/c++/{{v}}"))
    for pattern, bits in roots:
        headers = _newest(pattern)
        if headers is None or (not os.path.isdir(f"{headers}/bits") and not os.path.isfile(f"{headers}/cstdio")):
            continue
        version = (
            os.path.basename(headers)
            if not headers.endswith("/c++")
            else os.path.basename(os.path.dirname(os.path.dirname(headers))).removesuffix("-posix")
        )
        return [headers, bits.format(v=version), f"{headers}/backward"]
    return []


# Where the build machine keeps headers of libraries installed for itself
# (zlib.h, lz4.h, oniguruma.h): `clang --target=aarch64-linux-gnu` searches
# them after the cross sysroot, so a cross build finds what the sysroot lacks there.
BUILD_MACHINE_INCLUDE = ("/usr/local/include", "/usr/include")


def build_machine_includes(abi: Abi, sysroot: Path | None, cxx: bool = False) -> list[str]:
    """The build machine's include directories a cross compiler for abi
    searches after the target's own, when no --sysroot replaces them (a
    sysroot is the target's whole world); none that are the target's own."""
    if sysroot is not None:
        return []
    own = set(system_includes(abi, sysroot, cxx))
    return [d for d in BUILD_MACHINE_INCLUDE if d not in own and os.path.isdir(d)]


@dataclass
class Problem:
    file: str
    line: int
    message: str
    fatal: bool = False  # clang stopped checking here (a missing #include): what follows is not diagnosed

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}" if self.line else f"{self.file}: {self.message}"


def parse(
    path: str,
    abi: Abi,
    flags: list[str],
    sysroot: Path | None,
    text: str | None = None,
    *,
    bodies: bool = False,
    build_machine: bool = False,
    preprocessor_record: bool = False,
):
    """Parses one file for `abi`; returns (translation unit or None, errors).
    Function bodies are skipped unless `bodies` (declarations are all layout
    needs). `build_machine`: search the build machine's include directories
    after the target's, as a cross compiler does (build_machine_includes).
    `preprocessor_record`: keep what the preprocessor did (the regions an
    #if left out, macros' definitions and uses), at about 1% of the parse."""
    ci = cindex()
    cxx = path.endswith((".hpp", ".hh", ".hxx", ".cpp", ".cc", ".cxx", ".c++", ".C"))
    args = ["-target", abi.clang_triple, "-nostdinc", "-ferror-limit=0"]
    for d in system_includes(abi, sysroot, cxx):
        args += ["-isystem", d]
    for d in build_machine_includes(abi, sysroot, cxx) if build_machine else ():
        args += ["-idirafter", d]
    if cxx:
        args += ["-x", "c++", "-std=c++20"]
    elif path.endswith(".h"):
        args += ["-x", "c", "-std=gnu11"]
    args += list(abi.flags) + flags
    given = path
    if "-working-directory" in flags and not os.path.isabs(path):
        # clang would take a relative path from the build's directory, not from ours
        path = os.path.abspath(path)
    unsaved = [(path, text)] if text is not None else None
    options = 0 if bodies else ci.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES
    if preprocessor_record:
        options |= ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD
    try:
        tu = ci.TranslationUnit.from_source(path, args=args, unsaved_files=unsaved, options=options)
    except ci.TranslationUnitLoadError:
        return None, [Problem(given, 0, "clang could not parse it")]
    errors = []
    for diag in tu.diagnostics:
        if diag.severity >= ci.Diagnostic.Error:
            loc = diag.location
            fatal = diag.severity >= ci.Diagnostic.Fatal
            where = loc.file.name if loc.file and loc.file.name != path else given
            errors.append(Problem(where, loc.line, diag.spelling, fatal))
    return tu, errors
