"""What a rule wants of an option (the `desired` column), and the conditions
under which a rule applies (`when`): the small vocabulary the rule tables are
written in. Each answers for one config what it sees (the `actual` column)
and whether that is what is wanted; the engine does the rest."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from portkit.commands.audit.kconfig.reader import KernelConfig, Setting

NOT_FOUND = "is not found"
NOT_SET = "is not set"


@dataclass(frozen=True)
class Observed:
    ok: bool
    actual: str  # "y", "is not set", "is not found", "250", "ARM64_16K_PAGES", "6.1.176"
    setting: Setting | None  # the line it was read from, if any


def shown(setting: Setting | None) -> str:
    if setting is None:
        return NOT_FOUND
    return NOT_SET if setting.value is None else setting.value


class Desired(ABC):
    """One expectation of an option's value."""

    @property
    @abstractmethod
    def text(self) -> str:
        """As the table's `desired` column shows it."""

    @abstractmethod
    def observe(self, config: KernelConfig, option: str) -> Observed: ...

    @abstractmethod
    def examples(self, option: str) -> tuple[str, str]:
        """A config fragment that fails and one that passes, for the rules page."""


@dataclass(frozen=True)
class Value(Desired):
    """Set to exactly this value (`y`, or a number or string as Kconfig writes it)."""

    value: str

    @property
    def text(self) -> str:
        return self.value

    def observe(self, config: KernelConfig, option: str) -> Observed:
        setting = config.get(option)
        return Observed(setting is not None and setting.value == self.value, shown(setting), setting)

    def examples(self, option: str) -> tuple[str, str]:
        wrong = f"# CONFIG_{option} is not set" if self.value == "y" else f"CONFIG_{option}=n"
        return wrong, f"CONFIG_{option}={self.value}"


@dataclass(frozen=True)
class Off(Desired):
    """Not set, `=n`, or absent (an option the kernel does not have is off)."""

    @property
    def text(self) -> str:
        return NOT_SET

    def observe(self, config: KernelConfig, option: str) -> Observed:
        setting = config.get(option)
        return Observed(setting is None or not setting.is_set, shown(setting), setting)

    def examples(self, option: str) -> tuple[str, str]:
        return f"CONFIG_{option}=y", f"# CONFIG_{option} is not set"


@dataclass(frozen=True)
class Enabled(Desired):
    """Built in or as a module (`y` or `m`): what a program needs of an option."""

    @property
    def text(self) -> str:
        return "y or m"

    def observe(self, config: KernelConfig, option: str) -> Observed:
        setting = config.get(option)
        return Observed(setting is not None and setting.value in ("y", "m"), shown(setting), setting)

    def examples(self, option: str) -> tuple[str, str]:
        return f"# CONFIG_{option} is not set", f"CONFIG_{option}=y"


@dataclass(frozen=True)
class AtLeast(Desired):
    """A number at least this large."""

    minimum: int

    @property
    def text(self) -> str:
        return f">= {self.minimum}"

    def observe(self, config: KernelConfig, option: str) -> Observed:
        setting = config.get(option)
        number = _number(setting.value) if setting is not None and setting.value is not None else None
        return Observed(number is not None and number >= self.minimum, shown(setting), setting)

    def examples(self, option: str) -> tuple[str, str]:
        return f"CONFIG_{option}={self.minimum // 2 + 1}", f"CONFIG_{option}={self.minimum}"


@dataclass(frozen=True)
class Chosen(Desired):
    """This member of a Kconfig choice (the option itself), out of `members`;
    the actual column names the member the config chose."""

    members: tuple[str, ...]  # every member of the choice, the wanted one among them

    @property
    def text(self) -> str:
        return "y (of " + ", ".join(self.members) + ")"

    def observe(self, config: KernelConfig, option: str) -> Observed:
        chosen = [config.settings[m] for m in self.members if m in config.settings and config.settings[m].value == "y"]
        if not chosen:
            return Observed(False, f"none of {len(self.members)} chosen", config.get(option))
        return Observed(chosen[0].name == option, chosen[0].name, chosen[0])

    def examples(self, option: str) -> tuple[str, str]:
        other = next(m for m in self.members if m != option)
        return (
            f"# CONFIG_{option} is not set\nCONFIG_{other}=y",
            f"CONFIG_{option}=y\n# CONFIG_{other} is not set",
        )


@dataclass(frozen=True)
class KernelVersion(Desired):
    """The kernel release in the config's header (`# Linux/arm 6.1.0 Kernel
    Configuration`) at least this one; the option is a pseudo-option."""

    minimum: tuple[int, int]

    @property
    def text(self) -> str:
        return f">= {self.minimum[0]}.{self.minimum[1]}"

    def observe(self, config: KernelConfig, option: str) -> Observed:
        header = config.header
        version = header.version_tuple if header is not None else None
        if header is None or version is None:
            return Observed(False, "no version in the header", None)
        at = Setting("kernel version", header.version, header.line)
        return Observed(version[:2] >= self.minimum, header.version, at)

    def examples(self, option: str) -> tuple[str, str]:
        older = f"{self.minimum[0]}.{self.minimum[1] - 1}" if self.minimum[1] else f"{self.minimum[0] - 1}.19"
        return (
            f"# Linux/arm {older}.0 Kernel Configuration",
            f"# Linux/arm {self.minimum[0]}.{self.minimum[1]}.0 Kernel Configuration",
        )


def _number(text: str) -> int | None:
    try:
        return int(text, 0)
    except ValueError:
        return None


# Conditions under which a rule applies.


class When(ABC):
    @property
    @abstractmethod
    def text(self) -> str:
        """As the rules page and a skipped row show it: `COMPAT=y`."""

    @abstractmethod
    def holds(self, config: KernelConfig, runs: frozenset[str] = frozenset()) -> bool:
        """Whether the row applies to this config, for a kernel that is to run
        programs of the ABIs `runs` (Debian's names; audit rootfs knows them)."""


@dataclass(frozen=True)
class Has(When):
    """Another option as wanted."""

    option: str
    desired: Desired

    @property
    def text(self) -> str:
        return f"{self.option}={self.desired.text}" if not isinstance(self.desired, Off) else f"{self.option} off"

    def holds(self, config: KernelConfig, runs: frozenset[str] = frozenset()) -> bool:
        return self.desired.observe(config, self.option).ok


@dataclass(frozen=True)
class AnyOf(When):
    conditions: tuple[When, ...]

    @property
    def text(self) -> str:
        return " or ".join(c.text for c in self.conditions)

    def holds(self, config: KernelConfig, runs: frozenset[str] = frozenset()) -> bool:
        return any(c.holds(config, runs) for c in self.conditions)


@dataclass(frozen=True)
class Runs(When):
    """The kernel is to run programs of one of these ABIs (Debian's names):
    audit rootfs's image has some."""

    abis: tuple[str, ...]

    @property
    def text(self) -> str:
        return f"the image has {' or '.join(self.abis)} programs"

    def holds(self, config: KernelConfig, runs: frozenset[str] = frozenset()) -> bool:
        return not runs.isdisjoint(self.abis)


Y = Value("y")
OFF = Off()
ENABLED = Enabled()
