"""How qemu-system boots each architecture's kernel: the emulator, the
machine and CPU, the console, which agents the kernel runs, and whether it
may use KVM.

The choices were measured here: arm64 on `-M virt -cpu cortex-a72` reaches
init in 2-4 s under TCG (plain `-cpu max` is slower, `a64fx` panics at once);
`-M microvm` printed nothing for Debian's x86 kernels. KVM is used only
where it is hardware virtualization (vmx or svm among the CPU flags and a
/dev/kvm that can be opened for writing): a software /dev/kvm (kvm_pvm)
aborts on `-cpu host`."""

from __future__ import annotations

import os
import platform
import shutil
from dataclasses import dataclass
from pathlib import Path

from portkit.core.errors import BadInput, EnvironmentProblem
from portkit.core.vm.kernel import Kernel

MEMORY_MB = 1024  # an initramfs of a few MB, and the loads' memory
MAX_CPUS = 4  # TCG runs one host thread per virtual CPU


@dataclass(frozen=True)
class Machine:
    qemu: str  # the qemu-system program
    package: str  # the Debian package that has it
    options: tuple[str, ...]  # -M and -cpu
    console: str  # the kernel's name for the serial console
    runs: tuple[str, ...]  # the architectures whose programs the kernel runs, its own first
    accelerable: tuple[str, ...] = ()  # host architectures on which KVM may run it
    cpus: int | None = None  # None: as many as this host has, up to MAX_CPUS
    memory_mb: int = MEMORY_MB
    mttcg: bool = True  # qemu runs each virtual CPU on a thread of its own (not for MIPS guests)

    @property
    def name(self) -> str:
        """`virt cortex-a72`: the machine and CPU, for documents."""
        words = [w for w in self.options if not w.startswith("-")]
        return " ".join(words)


MACHINES = {
    "aarch64": Machine(
        "qemu-system-aarch64",
        "qemu-system-arm",
        ("-M", "virt", "-cpu", "cortex-a72"),
        "ttyAMA0",
        ("aarch64", "arm"),  # cortex-a72 runs AArch32 at EL0: the compat vDSO is there to meet
    ),
    "arm": Machine("qemu-system-arm", "qemu-system-arm", ("-M", "virt", "-cpu", "cortex-a15"), "ttyAMA0", ("arm",)),
    "x86_64": Machine(
        "qemu-system-x86_64", "qemu-system-x86", ("-M", "pc", "-cpu", "max"), "ttyS0", ("x86_64", "i686"), ("x86_64",)
    ),
    "i686": Machine(
        "qemu-system-i386", "qemu-system-x86", ("-M", "pc", "-cpu", "max"), "ttyS0", ("i686",), ("x86_64", "i686")
    ),
    # Without firmware the second CPU of loongson3-virt fails to start ("CPU1:
    # failed to start"), so one; MIPS guests run single-threaded under TCG.
    "mips64el": Machine(
        "qemu-system-mips64el",
        "qemu-system-mips",
        ("-M", "loongson3-virt"),
        "ttyS0",
        ("mips64el",),
        cpus=1,
        mttcg=False,
    ),
}
# Malta's kernel finds its memory below 256 MB.
MALTA = Machine(
    "qemu-system-mips64el",
    "qemu-system-mips",
    ("-M", "malta", "-cpu", "5KEc"),
    "ttyS0",
    ("mips64el",),
    cpus=1,
    memory_mb=256,
    mttcg=False,
)


def machine_for(kernel: Kernel, spec: str) -> Machine:
    """The machine that boots this kernel: by its architecture, and for MIPS
    by the platform its config was built for."""
    machine = MACHINES.get(kernel.arch.name)
    if machine is None:
        raise BadInput(f"--target {spec}: portkit boots no {kernel.arch.name} kernels (it boots {', '.join(MACHINES)})")
    if kernel.arch.name == "mips64el" and kernel.config is not None and not kernel.setting("CONFIG_CPU_LOONGSON64"):
        if kernel.setting("CONFIG_MIPS_MALTA"):
            return MALTA
        raise BadInput(
            f"--target {spec}: this MIPS kernel is built for neither Loongson-3 nor Malta, the boards qemu has "
            "(Octeon and other SoCs have no qemu machine)"
        )
    return machine


def accelerator(
    machine: Machine, cpuinfo: Path = Path("/proc/cpuinfo"), kvm: Path = Path("/dev/kvm"), host: str | None = None
) -> str:
    """KVM ("kvm") where this host virtualizes the machine's architecture in
    hardware, else qemu's emulation ("tcg")."""
    if (host or platform.machine()) not in machine.accelerable:
        return "tcg"
    try:
        flags = next((line for line in cpuinfo.read_text().splitlines() if line.startswith("flags")), "").split()
    except OSError:
        return "tcg"
    if ("vmx" in flags or "svm" in flags) and os.access(kvm, os.R_OK | os.W_OK):
        return "kvm"
    return "tcg"


def command_line(machine: Machine, kernel: Kernel, initrd: Path, accel: str, spec: str) -> list[str]:
    """qemu-system's argv: the serial console on stdin and stdout, no display,
    no monitor, no reboot (a panic or a reset ends qemu)."""
    emulator = shutil.which(machine.qemu)
    if emulator is None:
        raise EnvironmentProblem(
            f"--target {spec}: {machine.qemu} is not installed (it boots {kernel.arch.name} kernels)",
            hint=f"apt-get install {machine.package}",
        )
    cpus = machine.cpus or max(1, min(MAX_CPUS, os.cpu_count() or 1))
    options = list(machine.options)
    if accel == "kvm":
        previous = ["", *options[:-1]]
        options = [("host" if before == "-cpu" else word) for before, word in zip(previous, options, strict=True)]
        accel_option = "kvm"
    else:
        accel_option = "tcg,thread=multi" if machine.mttcg else "tcg"
    cmdline = f"console={machine.console} panic=-1 rdinit=/init"
    return [
        emulator,
        *options,
        "-accel",
        accel_option,
        "-smp",
        str(cpus),
        "-m",
        str(machine.memory_mb),
        "-display",
        "none",
        "-monitor",
        "none",
        "-serial",
        "stdio",
        "-nodefaults",
        "-no-reboot",
        "-kernel",
        str(kernel.image),
        "-initrd",
        str(initrd),
        "-append",
        cmdline,
    ]
