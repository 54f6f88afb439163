"""One audit of one image: the target ABI, which ELF files are the image's
own programs and libraries, and what loading each of them leads to, worked
out once and asked by the rules (rules/, one file per rule)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from portkit.commands.audit.rootfs.abi import COMPAT_ABIS, EM_BPF, Abi, FileAbi, abi_of, find_abi
from portkit.commands.audit.rootfs.elf import ET_DYN, ET_REL, ElfFacts
from portkit.commands.audit.rootfs.image import Image
from portkit.commands.audit.rootfs.loader import Loaded, LoadingModel, Lookup
from portkit.core.output import count
from portkit.findings.model import Finding, Location, Rule

# Directories whose ELF files may be for other processors: firmware for
# peripherals, bootloaders' modules, data (Buildroot's check-bin-arch skips
# the same; Yocto's linux-firmware recipe opts out of its arch check).
FIRMWARE_DIRS = ("lib/firmware/", "usr/lib/firmware/")
DATA_DIRS = ("usr/share/", "lib/grub/", "usr/lib/grub/")
MODULE_DIRS = ("lib/modules/", "usr/lib/modules/")
PROGRAM_DIRS = ("bin", "sbin", "usr/bin", "usr/sbin")


@dataclass(frozen=True)
class Target:
    abi: Abi
    source: str  # how it was known: "--arch arm64", "inferred: 312 of 315 programs in bin/..."


def placement(path: str) -> str:
    """What the directory says about a file: firmware, module, data or code."""
    if path.startswith(FIRMWARE_DIRS):
        return "firmware"
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
        if real is None or real in dirs:
            continue
        dirs.append(real)
        for name in image.children(real):
            facts = image.elves.get(f"{real}/{name}")
            if facts is not None and facts.is_executable and abi_of(facts).known:
                counts[abi_of(facts).known] += 1
    noun, where = "program", f" in {', '.join(d + '/' for d in dirs)}"
    if not counts:
        counts.update(abi_of(f).known for p, f in image.elves.items() if abi_of(f).known and placement(p) == "code")
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


@dataclass
class Audit:
    image: Image
    target: Target
    kconfig: Mapping[str, str] | None = None
    kconfig_path: str | None = None
    problems: list[str] = field(default_factory=list)

    # -- which files are whose ---------------------------------------------

    @cached_property
    def abis(self) -> dict[str, FileAbi]:
        return {path: abi_of(facts) for path, facts in self.image.elves.items()}

    @cached_property
    def target_abi(self) -> FileAbi:
        return FileAbi(self.target.abi.machine, self.target.abi.elf_class, self.target.abi.little_endian,
                       self.target.abi.float_abi, self.target.abi)  # fmt: skip

    @cached_property
    def compat_names(self) -> tuple[str, ...]:
        return COMPAT_ABIS.get(self.target.abi.name, ())

    def is_native(self, path: str) -> bool:
        """Built for the target's ABI or one its kernel also runs (armhf on arm64)."""
        abi = self.abis[path]
        return abi.loads(self.target_abi) or (abi.known is not None and abi.known.name in self.compat_names)

    @cached_property
    def programs_and_libraries(self) -> dict[str, ElfFacts]:
        """The ELF files the other checks look at: the target's (and its
        compat ABIs') programs, libraries and objects outside firmware, data
        and module directories; BPF objects are not programs for the CPU."""
        return {
            path: facts
            for path, facts in sorted(self.image.elves.items())
            if placement(path) == "code" and facts.machine != EM_BPF and self.is_native(path)
        }

    @cached_property
    def interpreters(self) -> frozenset[str]:
        """Real paths of the files some program names as its PT_INTERP."""
        found = set()
        for facts in self.image.elves.values():
            if facts.interpreter:
                real = self.image.resolve(facts.interpreter).path
                if real is not None:
                    found.add(real)
        return frozenset(found)

    def is_library(self, path: str) -> bool:
        facts = self.image.elves[path]
        return facts.type == ET_DYN and not facts.is_executable and path not in self.interpreters

    # -- loading -----------------------------------------------------------

    @cached_property
    def model(self) -> LoadingModel:
        return LoadingModel(self.image, self.problems)

    @cached_property
    def loading(self) -> dict[tuple[str, str], list[tuple[str, Lookup]]]:
        """(object, needed name) -> [(the program or library loading began with, where the name led)]
        over every program of the image, then every library no program loads (as on its own)."""
        outcomes: dict[tuple[str, str], list[tuple[str, Lookup]]] = {}
        reached: set[str] = set()

        def run(root: str) -> None:
            facts = self.image.elves[root]
            loader = self.model.loader_for(self.abis[root], facts.interpreter)
            seen: set[tuple[str, str]] = set()
            requester: Loaded
            for requester, lookup in self.model.closure(root, loader):
                reached.add(requester.path)
                key = (requester.path, lookup.name)
                if key not in seen:
                    seen.add(key)
                    outcomes.setdefault(key, []).append((root, lookup))

        candidates = self.programs_and_libraries
        for path, facts in candidates.items():
            if facts.is_executable and facts.dynamic:
                run(path)
        for path, facts in candidates.items():
            if path not in reached and facts.dynamic and facts.type != ET_REL and facts.needed:
                run(path)
        return outcomes

    # -- findings ------------------------------------------------------------

    def finding(self, rule: Rule, path: str, message: str, fix: str | None = None, severity=None) -> Finding:
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
