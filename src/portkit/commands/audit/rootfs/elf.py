"""What the audit needs to know about one ELF file, read once: its identity
(class, byte order, machine, flags), what a loader reads (PT_INTERP, the
dynamic section: DT_NEEDED, DT_SONAME, DT_RPATH, DT_RUNPATH, flags), the
hardening facts (PT_GNU_STACK, PT_GNU_RELRO, TEXTREL, BIND_NOW, PIE), the
undefined dynamic symbols of a 32-bit file (its time_t calls), whether it
is a separate debug file, and for a loader the system directories compiled
into it.

Only those tables are read, each with one read at its offset: the header,
the program headers, the section headers (a debug file's sections are
NOBITS: its program headers describe the stripped original, whose bytes it
does not hold), the dynamic segment and its string table, and for 32-bit
files the dynamic symbol table. Every table is a fixed-layout array, read
with struct (the ELF gABI, System V ABI chapter 4)."""

from __future__ import annotations

import os
import re
import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

ELF_MAGIC = b"\x7fELF"

# Program header types and flags, section types and flags, dynamic tags (the ELF gABI, GNU extensions).
PT_LOAD, PT_DYNAMIC, PT_INTERP = 1, 2, 3
PT_GNU_STACK, PT_GNU_RELRO = 0x6474E551, 0x6474E552
PF_X = 1
SHT_NOTE, SHT_NOBITS, SHT_DYNSYM = 7, 8, 11
SHF_ALLOC = 0x2
PN_XNUM = 0xFFFF  # e_phnum's escape: the real count is section 0's sh_info
DT_NULL, DT_NEEDED, DT_STRTAB, DT_STRSZ, DT_SONAME, DT_RPATH = 0, 1, 5, 10, 14, 15
DT_TEXTREL, DT_BIND_NOW, DT_FLAGS, DT_RUNPATH, DT_FLAGS_1 = 22, 24, 30, 29, 0x6FFFFFFB
DF_TEXTREL, DF_BIND_NOW = 0x4, 0x8
DF_1_NOW, DF_1_NODEFLIB, DF_1_PIE = 0x1, 0x800, 0x08000000
ET_REL, ET_EXEC, ET_DYN = 1, 2, 3

MAX_PROGRAM_HEADERS = 4096  # far above any real file; a mutated count must not cost minutes
MAX_SECTIONS = 1 << 16
MAX_TABLE_BYTES = 64 << 20  # a dynamic or symbol table larger than this is not a real one
HEAD_BYTES = 4096  # read at once: the header and, in nearly every file, the program headers
# glibc's loader keeps its system directories as one string, "/lib/x/\0/usr/lib/x/\0..."
_SYSTEM_DIRS = re.compile(rb"(?:/[\x21-\x7e]*/\x00){2,}")
_LOADER_NAME = re.compile(r"ld(64|-[\w.-]+)?\.so[.\d]*")  # ld-linux-aarch64.so.1, ld.so.1, ld64.so.2, ld-2.31.so

# Elf32/Elf64 layouts, after e_ident: the header, a program header, a section header, a dynamic entry, a symbol.
_HEADER = {32: "HHIIIIIHHHHHH", 64: "HHIQQQIHHHHHH"}
_PHDR = {32: "IIIIIIII", 64: "IIQQQQQQ"}
_SHDR = {32: "IIIIIIIIII", 64: "IIQQQQIIQQ"}
_DYN = {32: "iI", 64: "qQ"}
_SYM32 = "IIIBBH"


class Malformed(Exception):
    """The file starts like ELF but cannot be read as one; the message says why."""


class Segment(NamedTuple):
    type: int
    flags: int
    offset: int
    vaddr: int
    filesz: int


class Section(NamedTuple):
    type: int
    flags: int
    offset: int
    size: int
    link: int
    entsize: int


class ElfFacts(NamedTuple):  # a tuple: made in workers by the thousand and sent back, it pickles fastest
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
    debug_only: bool = False  # a separate debug file (objcopy --only-keep-debug): symbols, no code

    @property
    def is_executable(self) -> bool:
        """A program: ET_EXEC, or a PIE: ET_DYN flagged DF_1_PIE (static-pie
        too), or with an interpreter and no SONAME (glibc's libc.so.6 has an
        interpreter, and a SONAME: it is a library)."""
        if self.debug_only:
            return False
        if self.type == ET_EXEC:
            return True
        return self.type == ET_DYN and (self.pie_flag or (self.interpreter is not None and self.soname is None))


def is_elf(head: bytes) -> bool:
    return head[:4] == ELF_MAGIC


ReadAt = Callable[[int, int], bytes]  # (offset, length) -> at most length bytes


def read_elf_bytes(data: bytes | bytearray, name: str) -> ElfFacts:
    """The facts of an ELF file held in memory (an archive member). Raises Malformed."""
    view = memoryview(data)
    return read_elf(lambda offset, length: bytes(view[offset : offset + length]), len(data), name)


def read_elf_fd(fd: int, size: int, name: str, head: bytes = b"") -> ElfFacts:
    """The facts of the ELF file open as `fd` (`size` bytes), read with
    pread; `head` is what was already read from its start. Raises Malformed."""
    if len(head) < min(size, HEAD_BYTES):
        head = os.pread(fd, HEAD_BYTES, 0)

    def read_at(offset: int, length: int) -> bytes:
        if offset + length <= len(head):
            return head[offset : offset + length]
        return os.pread(fd, length, offset)

    return read_elf(read_at, size, name)


def read_elf(read_at: ReadAt, size: int, name: str) -> ElfFacts:
    """The facts of an ELF file of `size` bytes read through `read_at`;
    `name` is its file name (a loader is recognised by it). Raises Malformed."""
    try:
        return _read(_File(read_at, size), name)
    except Malformed:
        raise
    except (struct.error, ValueError, OverflowError, UnicodeError, OSError) as err:
        raise Malformed(f"unreadable ELF structure ({type(err).__name__})") from None


@dataclass(frozen=True)
class _File:
    read_at: ReadAt
    size: int

    def read(self, offset: int, length: int, what: str = "a table") -> bytes:
        if offset < 0 or length < 0 or offset + length > self.size:
            raise Malformed(f"past the end of the file ({self.size} bytes): {what} at offset {offset} ({length} bytes)")
        data = self.read_at(offset, length)
        if len(data) != length:
            raise Malformed(f"{what} at offset {offset} could not be read whole")
        return data


@dataclass(frozen=True)
class _Layout:
    elf_class: int
    order: str  # struct's byte order: "<" or ">"

    def unpack(self, table: dict[int, str], data: bytes, offset: int = 0) -> tuple:
        return struct.unpack_from(self.order + table[self.elf_class], data, offset)

    def size(self, table: dict[int, str]) -> int:
        return struct.calcsize(self.order + table[self.elf_class])


def _read(file: _File, name: str) -> ElfFacts:
    ident = file.read(0, 16, "the ELF identification")
    elf_class = {1: 32, 2: 64}.get(ident[4])
    if elf_class is None:
        raise Malformed(f"unknown ELF class {ident[4]} (neither 32- nor 64-bit)")
    if ident[5] not in (1, 2):
        raise Malformed(f"unknown ELF byte order {ident[5]}")
    layout = _Layout(elf_class, "<" if ident[5] == 1 else ">")
    header = file.read(16, layout.size(_HEADER), "the ELF header")
    (file_type, machine, _, _, phoff, shoff, flags, _, phentsize, phnum, shentsize, shnum, _) = layout.unpack(
        _HEADER, header
    )
    identity = dict(elf_class=elf_class, little_endian=ident[5] == 1, machine=machine, flags=flags, type=file_type)
    if file_type == ET_REL:  # an object or a kernel module: no segments; its identity is all a rule asks
        return ElfFacts(**identity, interpreter=None, dynamic=False, needed=(), soname=None, rpath=None,
                        runpath=None, textrel=False, bind_now=False, pie_flag=False, nodeflib=False, gnu_stack=None,
                        relro=False, undefined=frozenset(), system_dirs=())  # fmt: skip
    sections = _sections(file, layout, shoff, shentsize, shnum)
    if phnum == PN_XNUM and sections:
        phnum = _section_zero_info(file, layout, shoff)
    if _is_debug_only(sections):
        return ElfFacts(**identity, interpreter=None, dynamic=False, needed=(), soname=None, rpath=None,
                        runpath=None, textrel=False, bind_now=False, pie_flag=False, nodeflib=False, gnu_stack=None,
                        relro=False, undefined=frozenset(), system_dirs=(), debug_only=True)  # fmt: skip
    segments = _segments(file, layout, phoff, phentsize, phnum)

    interpreter = None
    gnu_stack = None
    relro = False
    for seg in segments:
        if seg.type == PT_INTERP:
            raw = file.read(seg.offset, min(seg.filesz, 4096), "PT_INTERP")
            interpreter = raw.split(b"\0", 1)[0].decode("latin-1")
        elif seg.type == PT_GNU_STACK:
            gnu_stack = seg.flags
        elif seg.type == PT_GNU_RELRO:
            relro = True
    dynamic_segment = next((s for s in segments if s.type == PT_DYNAMIC), None)
    tags = _dynamic(file, layout, dynamic_segment) if dynamic_segment else []
    strings = _strings(file, segments, tags)

    def text(value: int) -> str:
        if strings is None or not 0 <= value < len(strings):
            raise Malformed(f"a dynamic entry's name lies outside the string table (offset {value})")
        end = strings.find(b"\0", value)
        return strings[value : end if end >= 0 else len(strings)].decode("latin-1")

    needed, soname, rpath, runpath = [], None, None, None
    dt_flags = flags_1 = 0
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
            dt_flags = value
        elif tag == DT_FLAGS_1:
            flags_1 = value

    undefined: frozenset[str] = frozenset()
    if elf_class == 32 and dynamic_segment is not None:
        undefined = _undefined_symbols(file, layout, sections)
    base = name.rsplit("/", 1)[-1]
    system_dirs: tuple[str, ...] = ()
    if _LOADER_NAME.fullmatch(base) or (soname is not None and _LOADER_NAME.fullmatch(soname)):
        system_dirs = _system_dirs(file.read(0, min(file.size, MAX_TABLE_BYTES), "the loader"))
    return ElfFacts(
        **identity,
        interpreter=interpreter,
        dynamic=dynamic_segment is not None,
        needed=tuple(needed),
        soname=soname,
        rpath=rpath,
        runpath=runpath,
        textrel=textrel or bool(dt_flags & DF_TEXTREL),
        bind_now=bind_now or bool(dt_flags & DF_BIND_NOW) or bool(flags_1 & DF_1_NOW),
        pie_flag=bool(flags_1 & DF_1_PIE),
        nodeflib=bool(flags_1 & DF_1_NODEFLIB),
        gnu_stack=gnu_stack,
        relro=relro,
        undefined=undefined,
        system_dirs=system_dirs,
    )


def _sections(file: _File, layout: _Layout, offset: int, entry: int, count: int) -> list[Section]:
    """The section headers; [] without them (a stripped-to-the-bone file)."""
    if offset == 0:
        return []
    if entry < layout.size(_SHDR):
        if count == 0:
            return []
        raise Malformed(f"section header entries of {entry} bytes")
    if count == 0:  # more than 0xff00 sections: the count is section 0's sh_size
        count = layout.unpack(_SHDR, file.read(offset, entry, "section header 0"))[5]
    if count > MAX_SECTIONS:
        raise Malformed(f"{count} section headers")
    data = file.read(offset, entry * count, "the section headers")
    fmt = layout.order + _SHDR[layout.elf_class]
    if entry != struct.calcsize(fmt):  # padded entries: one at a time
        rows = [struct.unpack_from(fmt, data, n * entry) for n in range(count)]
    else:
        rows = list(struct.iter_unpack(fmt, data))
    return [Section(row[1], row[2], row[4], row[5], row[6], row[9]) for row in rows]


def _section_zero_info(file: _File, layout: _Layout, offset: int) -> int:
    return layout.unpack(_SHDR, file.read(offset, layout.size(_SHDR), "section header 0"))[7]


def _is_debug_only(sections: list[Section]) -> bool:
    """A separate debug file (`objcopy --only-keep-debug`, dh_strip's
    .build-id/xx/yyy.debug): every section the original loaded, notes aside,
    is NOBITS here (its bytes stayed in the original), while the program
    headers still describe the original's layout."""
    loaded = [s for s in sections if s.flags & SHF_ALLOC and s.size and s.type != SHT_NOTE]
    return bool(loaded) and all(s.type == SHT_NOBITS for s in loaded)


def _segments(file: _File, layout: _Layout, offset: int, entry: int, count: int) -> list[Segment]:
    if count == 0:
        return []
    if count > MAX_PROGRAM_HEADERS:
        raise Malformed(f"{count} program headers")
    if entry < layout.size(_PHDR):
        raise Malformed(f"program header entries of {entry} bytes")
    data = file.read(offset, entry * count, "the program headers")
    segments = []
    for n in range(count):
        fields = layout.unpack(_PHDR, data, n * entry)
        if layout.elf_class == 32:  # Elf32_Phdr: type, offset, vaddr, paddr, filesz, memsz, flags, align
            p_type, p_offset, p_vaddr, _, p_filesz, _, p_flags, _ = fields
        else:  # Elf64_Phdr moves flags second
            p_type, p_flags, p_offset, p_vaddr, _, p_filesz, _, _ = fields
        segments.append(Segment(p_type, p_flags, p_offset, p_vaddr, p_filesz))
    return segments


def _dynamic(file: _File, layout: _Layout, segment: Segment) -> list[tuple[int, int]]:
    width = layout.size(_DYN)
    length = min(segment.filesz, MAX_TABLE_BYTES) // width * width
    data = file.read(segment.offset, length, "the dynamic section")
    tags = []
    for tag, value in struct.iter_unpack(layout.order + _DYN[layout.elf_class], data):
        if tag == DT_NULL:
            break
        tags.append((tag, value))
    return tags


def _strings(file: _File, segments: list[Segment], tags: list[tuple[int, int]]) -> bytes | None:
    """The dynamic string table, found as the loader finds it: DT_STRTAB is an
    address, placed in the file through the PT_LOAD segment that holds it."""
    found = dict(tags)
    if DT_STRTAB not in found:
        return None
    address, length = found[DT_STRTAB], min(found.get(DT_STRSZ, 0), MAX_TABLE_BYTES)
    for seg in segments:
        if seg.type == PT_LOAD and seg.vaddr <= address < seg.vaddr + seg.filesz:
            offset = seg.offset + (address - seg.vaddr)
            return file.read(offset, max(0, min(length, file.size - offset)), "the dynamic string table")
    raise Malformed(f"DT_STRTAB {address:#x} lies in no loaded segment")


def _undefined_symbols(file: _File, layout: _Layout, sections: list[Section]) -> frozenset[str]:
    """Names of the undefined dynamic symbols of a 32-bit file (what it
    imports), from the SHT_DYNSYM section and the string table it links to;
    none without section headers, as for `nm -D`."""
    table = next((s for s in sections if s.type == SHT_DYNSYM), None)
    if table is None or not 0 <= table.link < len(sections):
        return frozenset()
    width = struct.calcsize(layout.order + _SYM32)
    symbols = file.read(table.offset, min(table.size, MAX_TABLE_BYTES) // width * width, "the dynamic symbols")
    names_section = sections[table.link]
    names = file.read(names_section.offset, min(names_section.size, MAX_TABLE_BYTES), "the dynamic symbol names")
    undefined = set()
    for st_name, _, _, _, _, st_shndx in struct.iter_unpack(layout.order + _SYM32, symbols):
        if st_shndx == 0 and 0 < st_name < len(names):
            end = names.find(b"\0", st_name)
            undefined.add(names[st_name : end if end >= 0 else len(names)].decode("latin-1"))
    undefined.discard("")
    return frozenset(undefined)


def _system_dirs(data: bytes) -> tuple[str, ...]:
    found = _SYSTEM_DIRS.search(data)
    if not found:
        return ()
    return tuple(d.decode("latin-1").rstrip("/") or "/" for d in found.group().split(b"\0") if d)
