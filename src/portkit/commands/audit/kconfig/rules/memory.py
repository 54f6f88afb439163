"""Memory: how much of the machine's memory and address space the kernel and
each process can use, and the contiguous memory that camera, display and
codec drivers allocate. Facts from arch/arm/mm/Kconfig, arch/arm/Kconfig,
Documentation/arch/arm64/memory.rst, mm/Kconfig and kernel/dma/Kconfig."""

from __future__ import annotations

from portkit.commands.audit.kconfig.desired import AtLeast, Has, Y
from portkit.commands.audit.kconfig.model import KconfigRule
from portkit.findings.model import Severity

FAMILY = "Memory (memory)"

ROWS: tuple[KconfigRule, ...] = (
    KconfigRule(
        id="PKK401",
        name="arm-lpae",
        family=FAMILY,
        option="ARM_LPAE",
        desired=Y,
        severity=Severity.NOTE,
        reason="without LPAE a 32-bit ARM kernel reaches at most 4 GiB of physical memory",
        why=(
            "The Large Physical Address Extension gives ARMv7 cores that have it (Cortex-A7, A15, A17, and "
            "ARMv8 cores in AArch32) 40-bit physical addresses; the classic page tables stop at 32 bits. A "
            "kernel built with LPAE does not run on cores without it (Cortex-A8, A9), which is why "
            "distributions ship both."
        ),
        source="arch/arm/mm/Kconfig (ARM_LPAE help)",
        fix="Set CONFIG_ARM_LPAE=y when every target core has LPAE and memory beyond 4 GiB matters.",
        arches=("arm",),
    ),
    KconfigRule(
        id="PKK402",
        name="highmem",
        family=FAMILY,
        option="HIGHMEM",
        desired=Y,
        severity=Severity.NOTE,
        reason="a 32-bit kernel without HIGHMEM leaves memory it cannot map permanently unused",
        why=(
            "A 32-bit kernel maps RAM permanently only into its own share of the 4 GiB address space (1 GiB "
            "with the default 3G/1G split, less the vmalloc area). Memory beyond that is usable only as high "
            "memory, with HIGHMEM."
        ),
        source="arch/arm/Kconfig and arch/x86/Kconfig (HIGHMEM help)",
        fix="Set CONFIG_HIGHMEM=y when the board has more RAM than the kernel's low memory.",
        arches=("arm", "x86"),
    ),
    KconfigRule(
        id="PKK403",
        name="arm64-va-bits",
        family=FAMILY,
        option="ARM64_VA_BITS",
        desired=AtLeast(48),
        severity=Severity.NOTE,
        reason="39-bit virtual addresses give each process 512 GiB and the kernel's linear map 256 GiB of RAM",
        why=(
            "With 4K pages and 39-bit virtual addresses (3 levels of page tables) each process has 512 GiB of "
            "address space and the kernel maps at most 256 GiB of physical memory; 48 bits (4 levels) give "
            "256 TiB to each. Large mappings, sanitizers and runtimes that reserve address space run out "
            "first."
        ),
        source="Documentation/arch/arm64/memory.rst; arch/arm64/Kconfig (ARM64_VA_BITS choice)",
        fix="Choose Virtual address space size > 48-bit (CONFIG_ARM64_VA_BITS_48=y).",
        arches=("arm64",),
    ),
    KconfigRule(
        id="PKK404",
        name="cma",
        family=FAMILY,
        option="CMA",
        desired=Y,
        severity=Severity.NOTE,
        reason="without CMA, large physically contiguous buffers (camera, display, codecs) may not be found",
        why=(
            "The Contiguous Memory Allocator reserves a region that holds only movable pages, so the kernel "
            "can use it for the page cache and still hand out big physically contiguous blocks later by "
            "migrating those pages away. Devices without an IOMMU or scatter-gather need such blocks."
        ),
        source="mm/Kconfig (CMA help)",
        fix="Set CONFIG_CMA=y and CONFIG_DMA_CMA=y, and size the area (CMA_SIZE_MBYTES, cma= or the device tree).",
        arches=("arm", "arm64"),
    ),
    KconfigRule(
        id="PKK405",
        name="dma-cma",
        family=FAMILY,
        option="DMA_CMA",
        desired=Y,
        severity=Severity.NOTE,
        reason="drivers allocate DMA buffers from CMA only with DMA_CMA",
        why=(
            "DMA_CMA makes the DMA mapping layer allocate from the contiguous memory area, for hardware that "
            "supports neither I/O mapping nor scatter-gather."
        ),
        source="kernel/dma/Kconfig (DMA_CMA help)",
        fix="Set CONFIG_DMA_CMA=y.",
        arches=("arm", "arm64"),
        when=Has("CMA", Y),
    ),
)
