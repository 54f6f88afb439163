"""A compilation database (compile_commands.json) read by libclang itself:
its command splitting, @response files and, for a header no entry names,
the command of the nearest source file, as clang tools do.

From each command portkit keeps what decides how the code reads (macros,
include paths, -include, language standard, -f options) and drops what belongs
to one build: the compiler, inputs, outputs and dependency files, and the
target (-target, -m...), since portkit parses the same file for several ABIs.
Relative paths stay relative to the entry's directory (-working-directory).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from portkit.core.errors import BadInput
from portkit.cparse.libclang import cindex

NAME = "compile_commands.json"
# Options whose value is the next argument, by what becomes of them (GCC's and clang's spellings).
KEEP_WITH_VALUE = frozenset(
    {"-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote", "-idirafter", "-iprefix", "-iwithprefix"}
    | {"-x", "-Xclang", "-Xpreprocessor"}
)
DROP_WITH_VALUE = frozenset(
    {"-o", "-MF", "-MT", "-MQ", "-target", "-isysroot", "--sysroot", "-Xassembler", "-Xlinker", "-L", "-l", "-arch"}
)
# What one build owns: its steps, outputs and dependency files, and its warnings-as-errors.
DROP = frozenset({"-c", "-S", "-E", "-M", "-MM", "-MD", "-MMD", "-MP", "-MG", "-Werror", "-pedantic-errors"})
DROP_PREFIXES = ("--target=", "--driver-mode=", "--sysroot=", "-Werror=", "-Wa,", "-Wl,", "-Wp,", "-MF", "-MT", "-MQ")
KEEP_MACHINE = frozenset({"-mms-bitfields", "-mno-ms-bitfields"})  # -m options that decide layouts, not targets


class CompileDatabase:
    """The flags each file is compiled with, for parsing it for any ABI."""

    def __init__(self, path: Path) -> None:
        """path: a build directory holding compile_commands.json, or such a file."""
        directory = path if path.is_dir() else path.parent
        self._tempdir: tempfile.TemporaryDirectory[str] | None = None
        _check(directory / NAME if path.is_dir() else path)
        if not path.is_dir() and path.name != NAME:  # libclang reads only that name: show it one
            self._tempdir = tempfile.TemporaryDirectory(prefix="portkit-compdb.")
            directory = Path(self._tempdir.name)
            os.symlink(path.resolve(), directory / NAME)
        ci = cindex()
        try:
            self._db = ci.CompilationDatabase.fromDirectory(str(directory))
        except ci.CompilationDatabaseError:
            raise BadInput(f"-p {path}: libclang could not read it as a compilation database") from None

    def files(self) -> list[str]:
        """Every file the database compiles, once each, in its order."""
        paths = (os.path.normpath(os.path.join(c.directory, c.filename)) for c in self._db.getAllCompileCommands())
        return list(dict.fromkeys(paths))

    def flags_for(self, source: Path) -> list[str]:
        """The flags for source, from its first entry."""
        variants = self.variants_for(source)
        return variants[0] if variants else []

    def variants_for(self, source: Path) -> list[list[str]]:
        """The flags of each entry for source that reads the code another way
        (a library built for 8- and 16-bit characters with -D of its own),
        one per way: entries that differ in optimisation, warnings or PIC
        only read the same code and count once."""
        found: dict[tuple[str, ...], list[str]] = {}
        for command in self._db.getCompileCommands(str(source.resolve())) or ():
            flags = portable_flags(list(command.arguments), command.filename)
            found.setdefault(reading(flags, command.directory), ["-working-directory", command.directory, *flags])
        return list(found.values())


def portable_flags(argv: list[str], filename: str) -> list[str]:
    """argv without the compiler, the inputs and what one build or target owns."""
    out: list[str] = []
    args = iter(argv[1:])
    for arg in args:
        if arg == "--":  # only inputs follow
            break
        value = next(args, None) if arg in KEEP_WITH_VALUE or arg in DROP_WITH_VALUE else None
        if not arg.startswith("-") or arg == filename:
            continue  # an input
        if arg in DROP_WITH_VALUE or arg in DROP or arg.startswith(DROP_PREFIXES):
            continue
        if arg.startswith("-m") and arg not in KEEP_MACHINE:
            continue
        out += [arg] if value is None else [arg, value]
    return out


# What changes how the code reads: macros, include paths and headers (their
# paths resolved), the language and its standard, the signedness of char.
READING_WITH_VALUE = frozenset({"-D", "-U", "-I", "-include", "-imacros", "-isystem", "-iquote", "-idirafter", "-x"})
READING_PREFIXES = ("-D", "-U", "-I", "-std=", "-ansi", "-funsigned-char", "-fsigned-char", "-fshort-")
PATH_OPTIONS = ("-I", "-include", "-imacros", "-isystem", "-iquote", "-idirafter")
# Defined by libtool for the shared objects of a library: the same code as the static ones.
BUILD_ONLY_DEFINES = frozenset({"-DPIC"})


def reading(flags: list[str], directory: str) -> tuple[str, ...]:
    """What in a file's flags decides how its code reads, relative paths made absolute."""
    out: list[str] = []
    args = iter(flags)
    for arg in args:
        if arg in READING_WITH_VALUE:
            value = next(args, "")
            out.append(arg + (_resolved(value, directory) if arg in PATH_OPTIONS else value))
        elif arg.startswith(PATH_OPTIONS[0]) and len(arg) > 2:
            out.append("-I" + _resolved(arg[2:], directory))
        elif arg.startswith(READING_PREFIXES) and arg not in BUILD_ONLY_DEFINES:
            out.append(arg)
    return tuple(out)


def _resolved(path: str, directory: str) -> str:
    return os.path.normpath(os.path.join(directory, path))


def _check(path: Path) -> None:
    """One clear line for a database libclang would only call unreadable."""
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BadInput(
            f"-p {path}: no such file (a build directory with {NAME}, or the file)",
            hint="CMake writes it with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, Meson always; for make: bear -- make",
        ) from None
    except OSError as err:
        raise BadInput(f"-p {path}: {err.strerror}") from None
    except (UnicodeDecodeError, ValueError) as err:
        raise BadInput(f"-p {path}: not a {NAME} ({err})") from None
    if not isinstance(entries, list) or not all(isinstance(e, dict) and "file" in e for e in entries):
        raise BadInput(f"-p {path}: not a {NAME} (expected a list of entries, each with a 'file')")
