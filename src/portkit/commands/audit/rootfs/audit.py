"""One audit of one image: the target ABI, which ELF files are the image's
own programs and libraries, and what loading each of them leads to, worked
out once and asked by the rules (rules/, one file per rule).

Loading starts from every program, then from every library no program
loads, on its own: first the public ones (those the loader finds by name,
in the directories it searches), then the rest, which nothing in the image
links and the loader cannot find by name: plugins and libraries a program
opens by path (dlopen). Each outcome remembers which kind of start led to
it, so a missing library is an error of the image when a program or a
public library needs it, and a plugin's own problem otherwise."""

from __future__ import annotations

import posixpath
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from portkit.commands.audit.kconfig.reader import KernelConfig
from portkit.commands.audit.rootfs.abi import COMPAT_ABIS, EM_BPF, Abi, FileAbi, abi_of, file_abi, find_abi
from portkit.commands.audit.rootfs.elf import ET_DYN, ET_REL, ElfFacts
from portkit.commands.audit.rootfs.image import Image
from portkit.commands.audit.rootfs.loader import Loaded, Loader, LoadingModel, Lookup
from portkit.core.output import count
from portkit.findings.model import Finding, Location, Rule, Severity

# Directories whose ELF files may be for other processors: firmware for
# peripherals, bootloaders' modules, data (Buildroot's check-bin-arch skips
# the same; Yocto's linux-firmware recipe opts out of its arch check).
FIRMWARE_DIRS = ("lib/firmware/", "usr/lib/firmware/")
DATA_DIRS = ("usr/share/", "lib/grub/", "usr/lib/grub/")
MODULE_DIRS = ("lib/modules/", "usr/lib/modules/")
DEBUG_DIRS = ("usr/lib/debug/", "lib/debug/")  # for debuggers only: no loader searches them
PROGRAM_DIRS = ("bin", "sbin", "usr/bin", "usr/sbin")

# How loading began, for each start: a program, a public library on its own, a plugin on its own.
PROGRAM, LIBRARY, PLUGIN = "program", "library", "plugin"


@dataclass(frozen=True)
class Target:
    abi: Abi
    source: str  # how it was known: "--arch arm64", "inferred: 312 of 315 programs in bin/..."


def placement(path: str, facts: ElfFacts | None = None) -> str:
    """What the directory (or the file itself) says about a file: firmware,
    module, debug data, data or code."""
    if path.startswith(FIRMWARE_DIRS):
        return "firmware"
    if path.startswith(DEBUG_DIRS) or (facts is not None and facts.debug_only):
        return "debug"
    if path.startswith(MODULE_DIRS) or path.endswith(".ko"):
        return "module"
    if path.startswith(DATA_DIRS):
        return "data"
    return "code"


def infer_target(image: Image, arch: str | None) -> Target | None:
    """--arch, or the ABI most programs in bin/sbin (through links, as on
    usr-merged images) are built for; failing that, most ELF files."""
    if arch is not None:
        return Target(find_abi(arch), f"--arch {arch}")
    counts: Counter[Abi] = Counter()
    dirs = []
    for directory in PROGRAM_DIRS:
        real = image.resolve(directory).path
        if real is None or real in dirs or not image.is_dir(real):
            continue
        dirs.append(real)
        for name in image.children(real):
            facts = image.elf(f"{real}/{name}")
            if facts is not None and facts.is_executable and abi_of(facts).known:
                counts[abi_of(facts).known] += 1
    noun, where = "program", f" in {', '.join(d + '/' for d in dirs)}"
    if not counts:
        counts.update(abi_of(f).known for p, f in image.elves.items() if abi_of(f).known and placement(p, f) == "code")
        noun, where = "ELF file", ""
    if not counts:
        return None
    (abi, most), total = counts.most_common(1)[0], sum(counts.values())
    return Target(abi, f"inferred from {most} of {count(total, noun)}{where}")


def looks_like_a_root(image: Image) -> bool:
    """Whether the image has what every root filesystem has at its top: a
    directory of programs or of libraries."""
    return any(image.is_dir(directory) for directory in (*PROGRAM_DIRS, "lib"))


def roots_below(image: Image) -> list[str]:
    """Directories at the image's top that look like a root filesystem
    themselves (the image's parent given by mistake: build/ for build/rootfs/)."""
    return [
        name
        for name in image.children("")
        if image.nodes[name].kind == "dir" and any(image.is_dir(f"{name}/{d}") for d in (*PROGRAM_DIRS, "lib"))
    ]


class _Abis(dict):
    """Each audited file's ABI, worked out when first asked."""

    def __init__(self, image: Image) -> None:
        super().__init__()
        self.image = image

    def __missing__(self, path: str) -> FileAbi:
        value = self[path] = abi_of(self.image.elves[path])
        return value


@dataclass
class Audit:
    image: Image
    target: Target
    kconfig: KernelConfig | None = None
    kconfig_path: str | None = None
    problems: list[str] = field(default_factory=list)
    root_kinds: dict[str, str] = field(default_factory=dict)  # where loading began -> PROGRAM, LIBRARY or PLUGIN
    loaded: set[str] = field(default_factory=set)  # every object loading reached
    _searched_dirs: dict[int, frozenset[str]] = field(default_factory=dict)

    # -- which files are whose ---------------------------------------------

    @cached_property
    def abis(self) -> dict[str, FileAbi]:
        return _Abis(self.image)

    @cached_property
    def target_abi(self) -> FileAbi:
        return file_abi(self.target.abi)

    @cached_property
    def compat_names(self) -> tuple[str, ...]:
        return COMPAT_ABIS.get(self.target.abi.name, ())

    def is_native(self, path: str) -> bool:
        """Built for the target's ABI or one its kernel also runs (armhf on arm64)."""
        abi = self.abis[path]
        return abi.loads(self.target_abi) or (abi.known is not None and abi.known.name in self.compat_names)

    @cached_property
    def entry_files(self) -> dict[str, ElfFacts]:
        """The ELF files loading starts from: every one of an image; of the
        running system, the programs of PATH's directories and the libraries
        in its loaders' directories (live.py)."""
        if not self.image.live:
            return dict(sorted(self.image.elves.items()))
        from portkit.commands.audit.rootfs.live import LiveSource, program_paths

        source = self.image.source
        assert isinstance(source, LiveSource)
        paths = program_paths(self.image)
        for directory in self.loader_dirs:
            paths += source.prefetch(self.image, [directory])
        return {p: f for p in sorted(set(paths)) if (f := self.image.elf(p)) is not None}

    @cached_property
    def loader_dirs(self) -> list[str]:
        """The real directories the loaders of the target (and of its compat
        ABIs present in the image) search by default."""
        loaders = [self.model.loader_for(self.target_abi, None)]
        for name in self.compat_names:
            abi = find_abi(name)
            if any(self.image.elf_at(path) for path in (abi.glibc_interpreter, abi.musl_interpreter)):
                loaders.append(self.model.loader_for(file_abi(abi), None))
        dirs = [self.image.resolve(d).path for loader in loaders for d in (*loader.system_dirs, *loader.conf_dirs)]
        return list(dict.fromkeys(d for d in dirs if d is not None and self.image.is_dir(d)))

    @cached_property
    def files(self) -> dict[str, ElfFacts]:
        """The ELF files the audit covers: every one of an image; of the
        running system, those loading starts from and whatever it reached."""
        if not self.image.live:
            return self.entry_files
        self.loading  # noqa: B018 - what it reaches is part of the running system's files
        paths = sorted(set(self.entry_files) | self.loaded)
        return {p: self.image.elves[p] for p in paths}

    def _native_code(self, files: Mapping[str, ElfFacts]) -> dict[str, ElfFacts]:
        return {
            path: facts
            for path, facts in files.items()
            if placement(path, facts) == "code" and facts.machine != EM_BPF and self.is_native(path)
        }

    @cached_property
    def programs_and_libraries(self) -> dict[str, ElfFacts]:
        """The ELF files the other checks look at: the target's (and its
        compat ABIs') programs, libraries and objects outside firmware, data,
        debug and module directories; BPF objects are not programs for the CPU."""
        return self._native_code(self.files)

    @cached_property
    def interpreters(self) -> frozenset[str]:
        """Real paths of the files some program names as its PT_INTERP."""
        found = set()
        for facts in self.files.values():
            if facts.interpreter:
                real = self.image.resolve(facts.interpreter).path
                if real is not None:
                    found.add(real)
        return frozenset(found)

    def is_library(self, path: str) -> bool:
        facts = self.image.elves[path]
        return facts.type == ET_DYN and not facts.is_executable and path not in self.interpreters

    @cached_property
    def by_soname(self) -> dict[str, list[str]]:
        """SONAME -> the audited libraries that carry it."""
        found: dict[str, list[str]] = {}
        for path, facts in self.programs_and_libraries.items():
            if facts.soname:
                found.setdefault(facts.soname, []).append(path)
        return found

    def by_soname_for(self, path: str, soname: str) -> list[str]:
        """The audited libraries other than path that carry `soname`, of an ABI path's loader takes."""
        abi = self.abis[path]
        return [p for p in self.by_soname.get(soname, []) if p != path and self.abis[p].loads(abi)]

    # -- loading -----------------------------------------------------------

    @cached_property
    def model(self) -> LoadingModel:
        return LoadingModel(self.image, self.problems)

    def loader_of(self, path: str) -> Loader:
        return self.model.loader_for(self.abis[path], self.image.elves[path].interpreter)

    def is_public(self, path: str) -> bool:
        """Whether the loader finds this library by name: it lies in a
        directory the loader searches, or a link there of its SONAME leads to it."""
        facts = self.image.elves[path]
        searched = self._searched(self.model.loader_for(self.abis[path], None))
        if posixpath.dirname(path) in searched:
            return True
        name = facts.soname or posixpath.basename(path)
        return any(
            self.image.resolve(posixpath.dirname(other)).path in searched and self.image.resolve(other).path == path
            for other in self.image.named(name)
        )

    def _searched(self, loader: Loader) -> frozenset[str]:
        """The real directories a loader searches by default."""
        key = id(loader)
        if key not in self._searched_dirs:
            dirs = (self.image.resolve(d).path for d in (*loader.system_dirs, *loader.conf_dirs))
            self._searched_dirs[key] = frozenset(d for d in dirs if d is not None)
        return self._searched_dirs[key]

    @cached_property
    def loading(self) -> dict[tuple[str, str], list[tuple[str, Lookup]]]:
        """(object, needed name) -> [(the object loading began with, where the name led)]
        for every name not found or found past a file of another ABI, over
        every program, then every public library no program loads, then the
        rest; every object reached is in `loaded`."""
        outcomes: dict[tuple[str, str], list[tuple[str, Lookup]]] = {}

        def run(root: str, kind: str) -> None:
            self.root_kinds[root] = kind
            self.loaded.add(root)
            requester: Loaded
            for requester, lookup in self.model.closure(root, self.loader_of(root)):
                if lookup.found is not None:
                    self.loaded.add(lookup.found)
                    if not lookup.skipped:
                        continue  # nothing to say: the rules ask about what went wrong or was passed over
                found = outcomes.setdefault((requester.path, lookup.name), [])
                if not found or found[-1][0] != root:
                    found.append((root, lookup))

        candidates = self._native_code(self.entry_files)
        for path, facts in candidates.items():
            if facts.is_executable and facts.dynamic:
                run(path, PROGRAM)
        alone = [
            path
            for path, facts in candidates.items()
            if facts.dynamic and facts.type != ET_REL and facts.needed and not facts.is_executable
        ]
        public = [path for path in alone if path not in self.loaded and self.is_public(path)]
        for path in public:
            if path not in self.loaded:
                run(path, LIBRARY)
        for path in alone:
            if path not in self.loaded:
                run(path, PLUGIN)
        return outcomes

    def linked(self, roots: list[str]) -> list[str]:
        """The roots that are programs or public libraries (not plugins)."""
        return [root for root in roots if self.root_kinds.get(root) != PLUGIN]

    # -- what the image says about itself ----------------------------------

    @cached_property
    def scripts_not_run(self) -> str | None:
        """Why the packages' maintainer scripts have not run in this image,
        when it says so itself: links they make (update-alternatives) are then missing."""
        node = self.image.node("debootstrap/debootstrap")
        if node is not None and node.kind == "file":
            return "a first-stage debootstrap image (debootstrap/ at its root), whose maintainer scripts have not run"
        if self.image.is_dir("var/lib/dpkg/info") and not self.image.children("var/lib/dpkg/info"):
            return "an image unpacked without dpkg (var/lib/dpkg/info/ is empty), whose maintainer scripts have not run"
        return None

    # -- findings ------------------------------------------------------------

    def finding(
        self, rule: Rule, path: str, message: str, fix: str | None = None, severity: Severity | None = None
    ) -> Finding:
        """A finding about a whole file (line 0), its path relative to the image root."""
        return Finding(rule.id, severity or rule.severity, Location(path, 0, 0, 0, 0), message, fix or rule.fix)


def loaders_phrase(roots: list[str], path: str, limit: int = 3) -> str:
    """`when loaded by usr/bin/a, usr/bin/b and 4 more` ('' when the file is its own root)."""
    others = sorted({r for r in roots if r != path})
    if not others:
        return ""
    shown = ", ".join(others[:limit])
    more = f" and {len(others) - limit} more" if len(others) > limit else ""
    return f" (when loaded by {shown}{more})"
