"""32-bit programs on a 64-bit kernel (and legacy ARM binaries on any ARM
kernel): the options that decide whether they start, keep their vDSO, and find
the helpers and instructions older ARM code expects. Facts from each option's
Kconfig help (arch/arm64/Kconfig, arch/arm/mm/Kconfig, arch/x86/Kconfig,
arch/mips/Kconfig) and Documentation/arch/arm64/legacy_instructions.rst."""

from __future__ import annotations

from portkit.commands.audit.kconfig.desired import OFF, AnyOf, Chosen, Has, Y
from portkit.commands.audit.kconfig.model import KconfigRule
from portkit.findings.model import Severity

FAMILY = "32-bit programs on 64-bit kernels (compat32)"
ARM64 = "arch/arm64/Kconfig"
LEGACY = "Documentation/arch/arm64/legacy_instructions.rst"
COMPAT_ON = Has("COMPAT", Y)
PAGE_SIZES = ("ARM64_4K_PAGES", "ARM64_16K_PAGES", "ARM64_64K_PAGES")


def _emulation(number: int, option: str, name: str, what: str, why: str) -> KconfigRule:
    return KconfigRule(
        id=f"PKK2{number:02d}",
        name=name,
        family=FAMILY,
        option=option,
        desired=Y,
        severity=Severity.NOTE,
        reason=f"32-bit code that uses {what} gets SIGILL without the emulation",
        why=(
            f"{why} The emulations sit under ARMV8_DEPRECATED (Emulate deprecated/obsolete ARMv8 "
            "instructions); each can be set to undefined, emulated or hardware execution at run time "
            "through /proc/sys/abi."
        ),
        source=f"{ARM64} ({option} help); {LEGACY}",
        fix=f"Set CONFIG_ARMV8_DEPRECATED=y and CONFIG_{option}=y if legacy 32-bit binaries run on this kernel.",
        arches=("arm64",),
        when=COMPAT_ON,
    )


ROWS: tuple[KconfigRule, ...] = (
    KconfigRule(
        id="PKK201",
        name="arm64-compat",
        family=FAMILY,
        option="COMPAT",
        desired=Y,
        severity=Severity.ERROR,
        reason="without COMPAT an arm64 kernel cannot run 32-bit (AArch32) programs at all",
        why=(
            "COMPAT (Kernel support for 32-bit EL0) provides the AArch32 system calls, signal frames, VFP "
            "state and ptrace for 32-bit programs; without it the kernel refuses to execute them. It depends "
            "on 4K pages unless EXPERT is set."
        ),
        source=f"{ARM64} (COMPAT help)",
        fix="Set CONFIG_COMPAT=y (Kernel Features > Kernel support for 32-bit EL0), with 4K pages.",
        arches=("arm64",),
    ),
    KconfigRule(
        id="PKK202",
        name="x86-ia32-emulation",
        family=FAMILY,
        option="IA32_EMULATION",
        desired=Y,
        severity=Severity.ERROR,
        reason="without IA32_EMULATION an x86-64 kernel cannot run i386 programs",
        why="IA32_EMULATION lets a 64-bit x86 kernel run 32-bit (i386) programs; without it they do not start.",
        source="arch/x86/Kconfig (IA32_EMULATION help)",
        fix="Set CONFIG_IA32_EMULATION=y (Binary Emulations > IA32 Emulation).",
        arches=("x86_64",),
    ),
    KconfigRule(
        id="PKK203",
        name="x86-ia32-enabled-by-default",
        family=FAMILY,
        option="IA32_EMULATION_DEFAULT_DISABLED",
        desired=OFF,
        severity=Severity.WARNING,
        reason="32-bit programs are refused unless the kernel is booted with ia32_emulation=true",
        why=(
            "With IA32_EMULATION_DEFAULT_DISABLED (Linux 6.7 on) the emulation is built but off: 32-bit "
            "processes cannot be loaded and 32-bit system calls are refused until the boot parameter "
            "ia32_emulation=true turns it on."
        ),
        source=(
            "arch/x86/Kconfig (IA32_EMULATION_DEFAULT_DISABLED help); "
            "Documentation/admin-guide/kernel-parameters.txt (ia32_emulation)"
        ),
        fix="Set `# CONFIG_IA32_EMULATION_DEFAULT_DISABLED is not set`, or boot with ia32_emulation=true.",
        arches=("x86_64",),
        when=Has("IA32_EMULATION", Y),
    ),
    KconfigRule(
        id="PKK204",
        name="mips-o32",
        family=FAMILY,
        option="MIPS32_O32",
        desired=Y,
        severity=Severity.ERROR,
        reason="without MIPS32_O32 a 64-bit MIPS kernel cannot run o32 (32-bit) programs",
        why=(
            "o32 is the ABI of the 32-bit Linux/MIPS port; a 64-bit kernel runs o32 programs only with "
            "MIPS32_O32 (Kernel support for o32 binaries). n32 programs need MIPS32_N32 as well."
        ),
        source="arch/mips/Kconfig (MIPS32_O32 help)",
        fix="Set CONFIG_MIPS32_O32=y (Executable file formats > Kernel support for o32 binaries).",
        arches=("mips",),
        when=Has("64BIT", Y),
    ),
    KconfigRule(
        id="PKK205",
        name="arm64-compat-vdso",
        family=FAMILY,
        option="COMPAT_VDSO",
        desired=Y,
        severity=Severity.WARNING,
        reason="without COMPAT_VDSO every gettimeofday/clock_gettime of a 32-bit program is a system call",
        why=(
            "COMPAT_VDSO gives 32-bit programs a vDSO with fast gettimeofday and clock_gettime. It defaults to "
            "y but exists only when the kernel build can compile AArch32 code: with CROSS_COMPILE_COMPAT "
            "naming an AArch32 cross compiler, or when building with clang and ld.lld (CC_IS_CLANG and "
            "LD_IS_LLD); big-endian kernels never have it. Otherwise Kconfig drops it without a word and "
            "32-bit programs still run, every time call entering the kernel (`portkit vdso bench` measures "
            "the cost)."
        ),
        source=(
            f"{ARM64} (COMPAT_VDSO: depends on !CPU_BIG_ENDIAN, and on CC_IS_CLANG && LD_IS_LLD "
            "or a non-empty CROSS_COMPILE_COMPAT)"
        ),
        fix=(
            "Build the kernel with CROSS_COMPILE_COMPAT=arm-linux-gnueabihf- (an AArch32 cross compiler, on "
            "the make command line or in the environment), or with LLVM=1; COMPAT_VDSO then defaults to y."
        ),
        arches=("arm64",),
        when=COMPAT_ON,
        context=("CC_IS_CLANG", "LD_IS_LLD", "CPU_BIG_ENDIAN"),
    ),
    KconfigRule(
        id="PKK206",
        name="kuser-helpers",
        family=FAMILY,
        option="KUSER_HELPERS",
        desired=Y,
        severity=Severity.WARNING,
        reason="32-bit ARM code built for older cores calls helpers at fixed addresses that would be missing",
        why=(
            "The kuser helpers are kernel-provided code at a fixed address high in every 32-bit process "
            "(atomic compare-and-exchange, memory barrier, TLS access) so that one binary runs on ARMv4 to "
            "ARMv8. Binaries and libraries built for older cores call them; without the helpers page they "
            "crash. Turning them off hinders exploits that jump to the fixed address, and is safe only when "
            "every program was built for this platform."
        ),
        source=f"{ARM64} and arch/arm/mm/Kconfig (KUSER_HELPERS help); Documentation/arch/arm/kernel_user_helpers.rst",
        fix="Keep CONFIG_KUSER_HELPERS=y unless every 32-bit binary is known to be built without them.",
        arches=("arm64", "arm"),
        when=AnyOf((Has("ARM", Y), COMPAT_ON)),  # arm64 has the helpers only for 32-bit programs
    ),
    _emulation(
        7,
        "SWP_EMULATION",
        "swp-emulation",
        "SWP/SWPB",
        "ARMv8 made the A32 SWP and SWPB instructions undefined; the kernel can emulate them with exclusive "
        "loads and stores for old code (some glibc 2.8 and earlier used SWP in futex trylock).",
    ),
    _emulation(
        8,
        "CP15_BARRIER_EMULATION",
        "cp15-barrier-emulation",
        "CP15 barrier operations",
        "ARMv6-era code issues memory barriers as CP15 coprocessor operations (CP15ISB, CP15DSB, CP15DMB), "
        "deprecated in ARMv8; the kernel can emulate them for AArch32 user space.",
    ),
    _emulation(
        9,
        "SETEND_EMULATION",
        "setend-emulation",
        "SETEND",
        "SETEND switches the data endianness of AArch32 user code and is deprecated in ARMv8; the kernel can "
        "emulate it when every CPU supports mixed endianness at EL0.",
    ),
    KconfigRule(
        id="PKK210",
        name="compat-page-size",
        family=FAMILY,
        option="ARM64_4K_PAGES",
        desired=Chosen(PAGE_SIZES),
        severity=Severity.WARNING,
        reason="with 16K or 64K pages only 32-bit binaries whose segments are aligned to that size load",
        why=(
            "The arm64 COMPAT help warns that with a page size other than 4 KiB only AArch32 binaries compiled "
            "with segments aligned to that page size can run; most 32-bit ARM binaries are linked for 4 KiB "
            "pages and fail to load. COMPAT depends on 4K pages unless EXPERT is set."
        ),
        source=f"{ARM64} (COMPAT help and its depends on ARM64_4K_PAGES || EXPERT)",
        fix=(
            "Choose Page size > 4KB (CONFIG_ARM64_4K_PAGES=y), or relink every 32-bit binary with "
            "-z max-page-size set to the kernel's page size."
        ),
        arches=("arm64",),
        when=COMPAT_ON,
    ),
    KconfigRule(
        id="PKK211",
        name="arm-vdso",
        family=FAMILY,
        option="VDSO",
        desired=Y,
        severity=Severity.NOTE,
        reason="without the vDSO a 32-bit ARM kernel makes every gettimeofday a system call",
        why=(
            "On 32-bit ARM kernels VDSO places fast gettimeofday and clock_gettime in every process; they "
            "avoid the system call when the SoC has the ARM architected timer, its default condition."
        ),
        source="arch/arm/mm/Kconfig (VDSO help)",
        fix="Set CONFIG_VDSO=y (it needs the ARM architected timer, CONFIG_ARM_ARCH_TIMER).",
        arches=("arm",),
        context=("ARM_ARCH_TIMER",),
    ),
)
