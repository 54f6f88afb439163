"""How the image's own dynamic loader would find each DT_NEEDED, modelled
on glibc's ld.so (and musl's where it differs), without running it:

glibc, for a name without a slash, needed by object O:
 1. a library already loaded under that name (or SONAME) is used again;
 2. unless O has DT_RUNPATH: the DT_RPATH of O, of the object that loaded
    O, and so on up to the program (an object with DT_RUNPATH lends none);
 3. (LD_LIBRARY_PATH: the environment of a board is not known; not used)
 4. O's DT_RUNPATH;
 5. unless O has DF_1_NODEFLIB: ld.so.cache, which ldconfig builds from the
    directories of /etc/ld.so.conf (with its `include`s) and the loader's
    own; it holds only libraries of the loader's ABI, found by SONAME;
 6. the loader's system directories, compiled into it (read from its bytes:
    /lib/<triple>, /usr/lib/<triple>, /lib, /usr/lib on Debian).
In 2, 4 and 6 a file of another ABI is skipped and the search goes on.
$ORIGIN is the directory of the object (for the program, its real path),
$LIB the loader's first system directory's last part.

musl: the DT_RPATH/DT_RUNPATH of O and of each object above it, then
/etc/ld-musl-ARCH.path or /lib:/usr/local/lib:/usr/lib.

The model assumes ldconfig has run (at build time or at first boot), as
every distribution and build system arranges."""

from __future__ import annotations

import fnmatch
import posixpath
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field

from portkit.commands.audit.rootfs.abi import TRIPLES, FileAbi, abi_of
from portkit.commands.audit.rootfs.elf import ElfFacts
from portkit.commands.audit.rootfs.image import Image

MUSL_DEFAULT = ("/lib", "/usr/local/lib", "/usr/lib")
Step = tuple[str, str, bool]  # a directory searched, how it came to be, whether through ld.so.cache
MAX_INCLUDE_DEPTH = 16


@dataclass(frozen=True)
class Loader:
    """How the loader of one ABI searches this image."""

    abi: FileAbi
    libc: str  # "glibc" or "musl"
    program: str | None  # the loader's file in the image, None when absent
    system_dirs: tuple[str, ...]  # absolute: "/lib/aarch64-linux-gnu"
    system_source: str  # where they come from, in words
    conf_dirs: tuple[str, ...]  # ld.so.conf's (glibc) or the path file's (musl)
    conf_source: str


@dataclass(frozen=True)
class Lookup:
    """Where one needed name led."""

    name: str
    found: str | None  # the library's real path in the image
    opened: str | None  # the path the loader opened (for $ORIGIN); may be a link
    how: str  # "already loaded", "RUNPATH", "RPATH of usr/bin/x", "ld.so.cache", "system directory"
    searched: tuple[str, ...]  # directories searched, in order
    skipped: tuple[tuple[str, str], ...] = ()  # files of another ABI passed over: (path, what they are)
    dangling: tuple[tuple[str, str], ...] = ()  # links of that name that lead nowhere: (path, why)


@dataclass
class Loaded:
    path: str  # real path
    opened: str  # as opened
    facts: ElfFacts
    loader: Loaded | None  # the object whose DT_NEEDED brought it in
    lent: tuple[tuple[str, str], ...] = ()  # (directory, how): the RPATHs this object and those above it lend


@dataclass
class LoadingModel:
    image: Image
    problems: list[str]
    _loaders: dict[tuple, Loader] = field(default_factory=dict)
    _lookups: dict[tuple, tuple[str | None, str | None, tuple, tuple]] = field(default_factory=dict)
    _orders: dict[tuple, tuple[tuple[Step, ...], tuple[str, ...]]] = field(default_factory=dict)
    _found: dict[tuple, Lookup] = field(default_factory=dict)
    _sonames: dict[str, dict[str, str]] = field(default_factory=dict)
    _ld_so_conf: tuple[tuple[str, ...], str] | None = None

    # -- the loaders ------------------------------------------------------

    def loaders(self) -> list[Loader]:
        """The loaders the audit asked about so far, once each."""
        return list(dict.fromkeys(self._loaders.values()))

    def loader_for(self, abi: FileAbi, interpreter: str | None) -> Loader:
        """The loader of `abi`: the program's own interpreter when it has one,
        else the image's loader of that ABI, else the C library's defaults."""
        key = (abi.machine, abi.elf_class, abi.little_endian, abi.variant, interpreter)
        if key not in self._loaders:
            self._loaders[key] = self._make_loader(abi, interpreter)
        return self._loaders[key]

    def _make_loader(self, abi: FileAbi, interpreter: str | None) -> Loader:
        candidates = [interpreter] if interpreter else []
        if abi.known is not None:
            candidates += [abi.known.glibc_interpreter, abi.known.musl_interpreter]
        program, facts, asked = None, None, interpreter
        for path in candidates:
            found = self.image.elf_at(path)
            if found is not None and abi_of(found[1]).loads(abi):
                program, facts = found
                asked = path
                break
        musl = posixpath.basename(asked or "").startswith("ld-musl-")
        if musl:
            arch = posixpath.basename(asked or "")[len("ld-musl-") :].split(".so")[0]
            path_file = f"etc/ld-musl-{arch}.path"
            dirs = self._musl_path_file(path_file)
            if dirs is not None:
                return Loader(abi, "musl", program, dirs, path_file, (), "")
            return Loader(abi, "musl", program, MUSL_DEFAULT, "musl's defaults", (), "")
        conf_dirs, conf_source = self.ld_so_conf()
        conf_dirs = tuple(d for d in conf_dirs if _may_hold(d, abi))
        if facts is not None and facts.system_dirs:
            return Loader(abi, "glibc", program, facts.system_dirs, f"compiled into {program}", conf_dirs, conf_source)
        return Loader(abi, "glibc", program, self._glibc_defaults(abi), "glibc's defaults for this ABI "
                      "(its loader is not in the image)", conf_dirs, conf_source)  # fmt: skip

    def _glibc_defaults(self, abi: FileAbi) -> tuple[str, ...]:
        dirs = []
        if abi.known is not None:
            triple = abi.known.triple
            if self.image.is_dir(f"lib/{triple}") or self.image.is_dir(f"usr/lib/{triple}"):
                dirs += [f"/lib/{triple}", f"/usr/lib/{triple}"]
            if abi.known.lib64:
                dirs += ["/lib64", "/usr/lib64"]
        return (*dirs, "/lib", "/usr/lib")

    def _musl_path_file(self, path: str) -> tuple[str, ...] | None:
        real = self.image.resolve(path).path
        text = self.image.text(real) if real is not None else None
        if text is None:
            return None
        return tuple(d for line in text.splitlines() for d in line.split(":") if d.startswith("/"))

    def ld_so_conf(self) -> tuple[tuple[str, ...], str]:
        """The directories /etc/ld.so.conf lists, following its `include` globs inside the image."""
        if self._ld_so_conf is None:
            if self.image.resolve("etc/ld.so.conf").path is None:
                self._ld_so_conf = ((), "")
            else:
                dirs: list[str] = []
                self._read_conf("etc/ld.so.conf", dirs, 0, set())
                self._ld_so_conf = (tuple(dict.fromkeys(dirs)), "etc/ld.so.conf")
        return self._ld_so_conf

    def _read_conf(self, path: str, dirs: list[str], depth: int, seen: set[str]) -> None:
        real = self.image.resolve(path).path
        if real is None or real in seen:
            return
        seen.add(real)
        if depth > MAX_INCLUDE_DEPTH:
            self.problems.append(f"{path}: includes nested more than {MAX_INCLUDE_DEPTH} deep, the rest not read")
            return
        text = self.image.text(real)
        if text is None:
            return
        for raw in text.splitlines():
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            words = line.split()
            if words[0] == "include" and len(words) > 1:
                for pattern in words[1:]:
                    if not pattern.startswith("/"):
                        pattern = "/" + posixpath.join(posixpath.dirname(path), pattern)
                    for included in image_glob(self.image, pattern):
                        self._read_conf(included, dirs, depth + 1, seen)
            elif words[0] != "hwcap":
                directory = line.split("=", 1)[0].rstrip("/") or "/"  # "dir=TYPE": libc5's library types
                if directory.startswith("/"):
                    dirs.append(directory)

    # -- finding one library ----------------------------------------------

    def lookup(self, name: str, requester: Loaded, loader: Loader) -> Lookup:
        abi = abi_of(requester.facts)
        if "/" in name:
            found = self.image.elf_at(name)
            if found is not None and abi_of(found[1]).loads(abi):
                return Lookup(name, found[0], name, "its path", ())
            return Lookup(name, None, None, "its path", (), self._skipped_at([name.lstrip("/")], abi))
        order, searched = self._search_order(requester, loader)
        key = (name, abi, order)
        known = self._found.get(key)
        if known is not None:
            return known
        found, how_or_opened, skipped, dangling = self._search_once(name, abi, order)
        if found is None:
            lookup = Lookup(name, None, None, "", searched, skipped, dangling)
        else:
            opened, how = (how_or_opened or "").split("\0", 1)
            lookup = Lookup(name, found, opened, how, searched, skipped)
        self._found[key] = lookup
        return lookup

    def _search_once(self, name: str, abi: FileAbi, order: tuple[Step, ...]):
        key = (name, abi.machine, abi.elf_class, abi.little_endian, abi.variant, order)
        found = self._lookups.get(key)
        if found is None:
            found = self._lookups[key] = self._search(name, abi, order)
        return found

    def _search_order(self, requester: Loaded, loader: Loader) -> tuple[tuple[Step, ...], tuple[str, ...]]:
        """(directory, how it came to be searched, whether it is searched
        through the cache), and the directories once each; the same for every
        requester with the same RPATHs lent, RUNPATH and flags."""
        facts = requester.facts
        if loader.libc == "musl":
            own: tuple[tuple[str, str], ...] = requester.lent
        elif facts.runpath is None:
            own = requester.lent
        else:
            own = tuple((d, "RUNPATH") for d in self._expand(facts.runpath, requester, loader))
        key = (own, facts.nodeflib, id(loader))
        found = self._orders.get(key)
        if found is None:
            order = [(d, how, False) for d, how in own]
            if loader.libc == "musl":
                order += [(d, "musl's path", False) for d in loader.system_dirs]
            elif not facts.nodeflib:
                order += [(d, "ld.so.cache", True) for d in (*loader.conf_dirs, *loader.system_dirs)]
                order += [(d, "system directory", False) for d in loader.system_dirs]
            found = self._orders[key] = (tuple(order), tuple(dict.fromkeys(d for d, _, _ in order)))
        return found

    def lends(self, holder: Loaded, loader: Loader) -> tuple[tuple[str, str], ...]:
        """The RPATH directories `holder` lends to what it loads, its own
        first, then those lent to it. glibc: an object with DT_RUNPATH lends
        none of its own; musl: both of every object count."""
        facts = holder.facts
        above = holder.loader.lent if holder.loader is not None else ()
        if loader.libc == "musl":
            entries = [facts.rpath, facts.runpath]
        else:
            entries = [facts.rpath] if facts.runpath is None else []
        own = tuple((d, f"RPATH of {holder.path}") for entry in entries for d in self._expand(entry, holder, loader))
        return own + above if own else above

    def _expand(self, entry: str | None, holder: Loaded, loader: Loader) -> list[str]:
        """An RPATH or RUNPATH's directories as absolute image paths; entries
        the image cannot answer ($PLATFORM, relative ones: the process's
        working directory) are left out (rpath rules report them)."""
        if not entry:
            return []
        origin = "/" + posixpath.dirname(holder.opened if holder.loader is not None else holder.path)
        lib = loader.system_dirs[0].lstrip("/") if loader.system_dirs else "lib"
        dirs = []
        for part in entry.split(":"):
            expanded = expand_tokens(part, origin, lib)
            if expanded is not None and expanded.startswith("/"):
                dirs.append(posixpath.normpath(expanded))
        return dirs

    def _search(self, name: str, abi: FileAbi, order: tuple[Step, ...]):
        skipped: list[tuple[str, str]] = []
        dangling: list[tuple[str, str]] = []
        for directory, how, cached in order:
            candidate = f"{directory.strip('/')}/{name}".lstrip("/")
            found = self.image.elf_at(candidate)
            if found is not None and abi_of(found[1]).loads(abi):
                return found[0], f"{candidate}\0{how}", tuple(skipped), ()
            if found is None:
                dangling += self._dangling_at(candidate)
            if cached:  # ldconfig keeps only the loader's ABI, under each library's SONAME
                by_soname = self._sonames_in(directory, abi).get(name)
                if by_soname is not None:
                    return by_soname, f"{by_soname}\0{how} (by SONAME)", tuple(skipped), ()
                continue
            skipped += self._skipped_at([candidate], abi)
        return None, None, tuple(dict.fromkeys(skipped)), tuple(dict.fromkeys(dangling))

    def _dangling_at(self, candidate: str) -> list[tuple[str, str]]:
        """[(candidate, why)] when candidate is a link that leads nowhere."""
        itself = self.image.resolve(candidate, follow_last=False).path
        if itself is None:
            return []
        node = self.image.nodes[itself]
        if node.kind != "link":
            return []
        resolved = self.image.resolve(candidate)
        if resolved.path is not None:
            return []
        return [(itself, f"a link to {node.target}, where {resolved.why}")]

    def _skipped_at(self, candidates: list[str], abi: FileAbi) -> list[tuple[str, str]]:
        skipped = []
        for candidate in candidates:
            real = self.image.resolve(candidate).path
            if real is None or self.image.nodes[real].kind != "file":
                continue
            facts = self.image.elf(real)
            if facts is not None:
                skipped.append((candidate, abi_of(facts).label))
            elif real in self.image.malformed:
                skipped.append((candidate, "a malformed ELF file"))
            else:
                skipped.append((candidate, "not an ELF file"))
        return skipped

    def _sonames_in(self, directory: str, abi: FileAbi) -> dict[str, str]:
        real_dir = self.image.resolve(directory).path
        key = f"{real_dir}\0{abi.machine}\0{abi.elf_class}\0{abi.little_endian}\0{abi.variant}"
        if key not in self._sonames:
            names: dict[str, str] = {}
            if real_dir is not None:
                for child in self.image.children(real_dir):
                    path = f"{real_dir}/{child}".lstrip("/")
                    facts = self.image.elf(path)
                    if facts is not None and facts.soname and abi_of(facts).loads(abi):
                        names.setdefault(facts.soname, path)
            self._sonames[key] = names
        return self._sonames[key]

    # -- one program and everything it loads --------------------------------

    def closure(self, root: str, loader: Loader) -> Iterator[tuple[Loaded, Lookup]]:
        """Every DT_NEEDED searched for while loading `root` (a program, or a
        library on its own), breadth first as ld.so maps them, with where it
        led; a name already loaded (as a file name or a SONAME) is used again
        without a search, and not yielded."""
        facts = self.image.elves[root]
        first = Loaded(root, root, facts, None)
        first.lent = self.lends(first, loader)
        by_name: dict[str, Loaded] = {}
        by_path: dict[str, Loaded] = {root: first}
        if facts.interpreter and loader.program:
            interp = self.image.elves[loader.program]
            loaded = Loaded(loader.program, facts.interpreter, interp, None)
            for alias in (posixpath.basename(facts.interpreter), interp.soname, facts.interpreter):
                if alias:
                    by_name[alias] = loaded
        queue = deque([first])
        while queue:
            requester = queue.popleft()
            for name in requester.facts.needed:
                if name in by_name:
                    continue
                lookup = self.lookup(name, requester, loader)
                yield requester, lookup
                if lookup.found is None:
                    continue
                loaded = by_path.get(lookup.found)
                if loaded is None:
                    loaded = Loaded(
                        lookup.found, lookup.opened or lookup.found, self.image.elves[lookup.found], requester
                    )
                    loaded.lent = self.lends(loaded, loader)
                    by_path[lookup.found] = loaded
                    queue.append(loaded)
                by_name[name] = loaded
                if loaded.facts.soname:
                    by_name.setdefault(loaded.facts.soname, loaded)


def _may_hold(directory: str, abi: FileAbi) -> bool:
    """Whether ld.so.cache can hold this ABI's libraries from the directory:
    not from another ABI's multiarch directory (ldconfig files those under
    that ABI, which this loader never reads)."""
    own = abi.known.triple if abi.known else None
    return not any(part in TRIPLES and part != own for part in directory.split("/"))


def expand_tokens(entry: str, origin: str, lib: str) -> str | None:
    """$ORIGIN/${ORIGIN} and $LIB/${LIB} replaced; None for $PLATFORM (the
    board's AT_PLATFORM, not known here)."""
    if "$PLATFORM" in entry or "${PLATFORM}" in entry:
        return None
    for token, value in (("${ORIGIN}", origin), ("$ORIGIN", origin), ("${LIB}", lib), ("$LIB", lib)):
        entry = entry.replace(token, value)
    return entry


def image_glob(image: Image, pattern: str) -> list[str]:
    """The image's paths that match an absolute glob pattern, sorted as glob(3) sorts."""
    paths = [""]
    for part in [p for p in pattern.split("/") if p]:
        matched = []
        for base in paths:
            real = image.resolve(base).path if base else ""
            if real is None:
                continue
            if any(c in part for c in "*?["):
                names = [n for n in image.children(real) if fnmatch.fnmatchcase(n, part) and not n.startswith(".")]
            else:
                names = [part] if image.node(f"{real}/{part}".lstrip("/")) is not None else []
            matched += [f"{base}/{n}".lstrip("/") for n in names]
        paths = matched
    return sorted(paths)
