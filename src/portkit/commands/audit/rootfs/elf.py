"""What the audit needs to know about one ELF file, read once: its identity
(class, byte order, machine, flags), what a loader reads (PT_INTERP, the
dynamic section: DT_NEEDED, DT_SONAME, DT_RPATH, DT_RUNPATH, flags), the
hardening facts (PT_GNU_STACK, PT_GNU_RELRO, TEXTREL, BIND_NOW, PIE), the
undefined dynamic symbols of a 32-bit file (its time_t calls), and for a
loader the system directories compiled into it.

pyelftools reads the header and the symbol tables. The program header and
dynamic tables are fixed-layout arrays read here with struct: pyelftools
builds a parser object per entry and scans every section to open the
dynamic segment, which made it most of the audit's time."""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from typing import BinaryIO

ELF_MAGIC = b"\x7fELF"

# Program header types and flags, dynamic tags (the ELF gABI, GNU extensions).
PT_DYNAMIC, PT_INTERP, PT_LOAD = 2, 3, 1
PT_GNU_STACK, PT_GNU_RELRO = 0x6474E551, 0x6474E552
PF_X = 1
DT_NULL, DT_NEEDED, DT_STRTAB, DT_STRSZ, DT_SONAME, DT_RPATH = 0, 1, 5, 10, 14, 15
DT_TEXTREL, DT_BIND_NOW, DT_FLAGS, DT_RUNPATH, DT_FLAGS_1 = 22, 24, 30, 29, 0x6FFFFFFB
DF_TEXTREL, DF_BIND_NOW = 0x4, 0x8
DF_1_NOW, DF_1_NODEFLIB, DF_1_PIE = 0x1, 0x800, 0x08000000
ET_REL, ET_EXEC, ET_DYN = 1, 2, 3

MAX_PROGRAM_HEADERS = 4096  # far above any real file; a mutated count must not cost minutes
MAX_TABLE_BYTES = 64 << 20  # a dynamic string table larger than this is not a real one
# glibc's loader keeps its system directories as one string, "/lib/x/\0/usr/lib/x/\0..."
_SYSTEM_DIRS = re.compile(rb"(?:/[\x21-\x7e]*/\x00){2,}")
_LOADER_NAME = re.compile(r"ld(64|-[\w.-]+)?\.so[.\d]*")  # ld-linux-aarch64.so.1, ld.so.1, ld64.so.2, ld-2.31.so


class Malformed(Exception):
    """The file starts like ELF but cannot be read as one; the message says why."""


@dataclass(frozen=True)
class Segment:
    type: int
    flags: int
    offset: int
    vaddr: int
    filesz: int


@dataclass(frozen=True)
class ElfFacts:
    elf_class: int  # 32 or 64
    little_endian: bool
    machine: int  # e_machine
    flags: int  # e_flags: ARM float ABI, MIPS ABI
    type: int  # e_type: ET_REL, ET_EXEC, ET_DYN, ...
    interpreter: str | None  # PT_INTERP
    dynamic: bool  # has PT_DYNAMIC
    needed: tuple[str, ...]
    soname: str | None
    rpath: str | None  # DT_RPATH as written (colon-separated)
    runpath: str | None
    textrel: bool
    bind_now: bool
    pie_flag: bool  # DF_1_PIE
    nodeflib: bool  # DF_1_NODEFLIB: the default directories are not searched for its needs
    gnu_stack: int | None  # PT_GNU_STACK's flags, None without one
    relro: bool
    undefined: frozenset[str]  # undefined dynamic symbols (32-bit files only)
    system_dirs: tuple[str, ...]  # a glibc loader's compiled-in directories, else ()

    @property
    def is_executable(self) -> bool:
        """A program: ET_EXEC, or a PIE: ET_DYN flagged DF_1_PIE (static-pie
        too), or with an interpreter and no SONAME (glibc's libc.so.6 has an
        interpreter, and a SONAME: it is a library)."""
        if self.type == ET_EXEC:
            return True
        return self.type == ET_DYN and (self.pie_flag or (self.interpreter is not None and self.soname is None))


def is_elf(head: bytes) -> bool:
    return head[:4] == ELF_MAGIC


def read_elf(stream: BinaryIO, name: str) -> ElfFacts:
    """The facts of the ELF file open in `stream` (seekable, at any position);
    `name` is its file name (a loader is recognised by it). Raises Malformed."""
    from elftools.common.exceptions import ELFError

    try:
        return _read(stream, name)
    except Malformed:
        raise
    except ELFError as err:
        raise Malformed(str(err) or "not a valid ELF file") from None
    except Exception as err:
        raise Malformed(f"unreadable ELF structure ({type(err).__name__})") from None


def _read(stream: BinaryIO, name: str) -> ElfFacts:
    from elftools.elf.elffile import ELFFile
    from elftools.elf.enums import ENUM_E_MACHINE

    stream.seek(0, 2)
    size = stream.tell()
    stream.seek(0)
    elf = ELFFile(stream)
    header = elf.header
    machine = header["e_machine"]
    machine = ENUM_E_MACHINE.get(machine, 0) if isinstance(machine, str) else int(machine)
    kinds = {"ET_REL": ET_REL, "ET_EXEC": ET_EXEC, "ET_DYN": ET_DYN}
    file_type = kinds.get(header["e_type"], 0) if isinstance(header["e_type"], str) else int(header["e_type"])
    layout = _Layout(elf.elfclass, elf.little_endian)
    segments = _segments(stream, size, layout, header["e_phoff"], header["e_phentsize"], header["e_phnum"])

    interpreter = None
    gnu_stack = None
    relro = False
    for seg in segments:
        if seg.type == PT_INTERP:
            interpreter = _read_at(stream, size, seg.offset, min(seg.filesz, 4096)).split(b"\0", 1)[0].decode("latin-1")
        elif seg.type == PT_GNU_STACK:
            gnu_stack = seg.flags
        elif seg.type == PT_GNU_RELRO:
            relro = True
    dynamic_segment = next((s for s in segments if s.type == PT_DYNAMIC), None)
    tags = _dynamic(stream, size, layout, dynamic_segment) if dynamic_segment else []
    strings = _strings(stream, size, segments, tags)

    def text(value: int) -> str:
        if strings is None or not 0 <= value < len(strings):
            raise Malformed(f"a dynamic entry's name lies outside the string table (offset {value})")
        end = strings.find(b"\0", value)
        return strings[value : end if end >= 0 else len(strings)].decode("latin-1")

    needed, soname, rpath, runpath = [], None, None, None
    flags = flags_1 = 0
    textrel = bind_now = False
    for tag, value in tags:
        if tag == DT_NEEDED:
            needed.append(text(value))
        elif tag == DT_SONAME:
            soname = text(value)
        elif tag == DT_RPATH:
            rpath = text(value)
        elif tag == DT_RUNPATH:
            runpath = text(value)
        elif tag == DT_TEXTREL:
            textrel = True
        elif tag == DT_BIND_NOW:
            bind_now = True
        elif tag == DT_FLAGS:
            flags = value
        elif tag == DT_FLAGS_1:
            flags_1 = value

    undefined: frozenset[str] = frozenset()
    if elf.elfclass == 32 and dynamic_segment is not None:
        undefined = _undefined_symbols(elf)
    base = name.rsplit("/", 1)[-1]
    system_dirs: tuple[str, ...] = ()
    if _LOADER_NAME.fullmatch(base) or (soname is not None and _LOADER_NAME.fullmatch(soname)):
        system_dirs = _system_dirs(_read_at(stream, size, 0, min(size, MAX_TABLE_BYTES)))
    return ElfFacts(
        elf_class=elf.elfclass,
        little_endian=elf.little_endian,
        machine=machine,
        flags=int(header["e_flags"]),
        type=file_type,
        interpreter=interpreter,
        dynamic=dynamic_segment is not None,
        needed=tuple(needed),
        soname=soname,
        rpath=rpath,
        runpath=runpath,
        textrel=textrel or bool(flags & DF_TEXTREL),
        bind_now=bind_now or bool(flags & DF_BIND_NOW) or bool(flags_1 & DF_1_NOW),
        pie_flag=bool(flags_1 & DF_1_PIE),
        nodeflib=bool(flags_1 & DF_1_NODEFLIB),
        gnu_stack=gnu_stack,
        relro=relro,
        undefined=undefined,
        system_dirs=system_dirs,
    )


@dataclass(frozen=True)
class _Layout:
    elf_class: int
    little_endian: bool

    @property
    def order(self) -> str:
        return "<" if self.little_endian else ">"


def _read_at(stream: BinaryIO, size: int, offset: int, length: int) -> bytes:
    if offset < 0 or length < 0 or offset + length > size:
        raise Malformed(f"a table at offset {offset} ({length} bytes) lies past the end of the file ({size} bytes)")
    stream.seek(offset)
    return stream.read(length)


def _segments(stream: BinaryIO, size: int, layout: _Layout, offset: int, entry: int, count: int) -> list[Segment]:
    if count == 0:
        return []
    if count > MAX_PROGRAM_HEADERS:
        raise Malformed(f"{count} program headers")
    # Elf32_Phdr: type, offset, vaddr, paddr, filesz, memsz, flags, align; Elf64 moves flags second.
    fmt = layout.order + ("IIIIIIII" if layout.elf_class == 32 else "IIQQQQQQ")
    if entry < struct.calcsize(fmt):
        raise Malformed(f"program header entries of {entry} bytes")
    data = _read_at(stream, size, offset, entry * count)
    segments = []
    for n in range(count):
        fields = struct.unpack_from(fmt, data, n * entry)
        if layout.elf_class == 32:
            p_type, p_offset, p_vaddr, _, p_filesz, _, p_flags, _ = fields
        else:
            p_type, p_flags, p_offset, p_vaddr, _, p_filesz, _, _ = fields
        segments.append(Segment(p_type, p_flags, p_offset, p_vaddr, p_filesz))
    return segments


def _dynamic(stream: BinaryIO, size: int, layout: _Layout, segment: Segment) -> list[tuple[int, int]]:
    fmt = layout.order + ("iI" if layout.elf_class == 32 else "qQ")
    width = struct.calcsize(fmt)
    length = min(segment.filesz, MAX_TABLE_BYTES) // width * width
    data = _read_at(stream, size, segment.offset, length)
    tags = []
    for tag, value in struct.iter_unpack(fmt, data):
        if tag == DT_NULL:
            break
        tags.append((tag, value))
    return tags


def _strings(stream: BinaryIO, size: int, segments: list[Segment], tags: list[tuple[int, int]]) -> bytes | None:
    """The dynamic string table, found as the loader finds it: DT_STRTAB is an
    address, placed in the file through the PT_LOAD segment that holds it."""
    found = dict(tags)
    if DT_STRTAB not in found:
        return None
    address, length = found[DT_STRTAB], min(found.get(DT_STRSZ, 0), MAX_TABLE_BYTES)
    for seg in segments:
        if seg.type == PT_LOAD and seg.vaddr <= address < seg.vaddr + seg.filesz:
            offset = seg.offset + (address - seg.vaddr)
            return _read_at(stream, size, offset, min(length, size - offset))
    raise Malformed(f"DT_STRTAB {address:#x} lies in no loaded segment")


def _undefined_symbols(elf) -> frozenset[str]:
    """Names of the undefined dynamic symbols (what the file imports)."""
    table = elf.get_section_by_name(".dynsym")
    if table is None:  # section headers stripped: nothing to read them by, as for `nm -D`
        return frozenset()
    return frozenset(s.name for s in table.iter_symbols() if s["st_shndx"] == "SHN_UNDEF" and s.name)


def _system_dirs(data: bytes) -> tuple[str, ...]:
    found = _SYSTEM_DIRS.search(data)
    if not found:
        return ()
    return tuple(d.decode("latin-1").rstrip("/") or "/" for d in found.group().split(b"\0") if d)
