"""Real-time: the kernel's own real-time configuration guide
(Documentation/core-api/real-time/kernel-configuration.rst), whose levels map
to severities as fatal -> error, high and medium -> warning, info -> note
(medium where the guide leaves the choice to the workload -> note), plus the
debug options whose Kconfig help states a runtime cost, and the names older
kernels and the out-of-tree PREEMPT_RT patch sets used."""

from __future__ import annotations

from portkit.commands.audit.kconfig.desired import OFF, Chosen, Has, Y
from portkit.commands.audit.kconfig.model import KconfigRule, OldName
from portkit.findings.model import Severity

FAMILY = "Real-time (rt)"
GUIDE = "Documentation/core-api/real-time/kernel-configuration.rst"
DEBUG_GUIDE = f"{GUIDE}, section Kernel Debug Options"
DEFAULT_GOVERNORS = tuple(
    f"CPU_FREQ_DEFAULT_GOV_{g}"
    for g in ("PERFORMANCE", "POWERSAVE", "USERSPACE", "ONDEMAND", "CONSERVATIVE", "SCHEDUTIL")
)
TICK_MODES = ("HZ_PERIODIC", "NO_HZ_IDLE", "NO_HZ_FULL")
CPUFREQ_ON = Has("CPU_FREQ", Y)


def _debug_option(number: int, option: str, name: str, cost: str, source: str) -> KconfigRule:
    return KconfigRule(
        id=f"PKK1{number:02d}",
        name=name,
        family=FAMILY,
        option=option,
        desired=OFF,
        severity=Severity.WARNING,
        reason=f"a debug option with a runtime cost: {cost}",
        why=(
            f"{cost[0].upper()}{cost[1:]}. The real-time guide notes that most debug options add runtime "
            "overhead that raises the worst-case latency: use them while developing and testing, not in the "
            "kernel that ships."
        ),
        source=f"{source}; {DEBUG_GUIDE}",
        fix=f"Build the production kernel with `# CONFIG_{option} is not set`; keep a debug build for testing.",
    )


ROWS: tuple[KconfigRule, ...] = (
    KconfigRule(
        id="PKK101",
        name="preempt-rt",
        family=FAMILY,
        option="PREEMPT_RT",
        desired=Y,
        severity=Severity.ERROR,
        reason="without PREEMPT_RT the kernel is not fully preemptible",
        why=(
            "PREEMPT_RT turns most spinning locks into sleeping, priority-inheriting ones and runs interrupt "
            "handlers in threads, so a high-priority task can preempt almost all kernel code. Without it the "
            "worst-case latency depends on the longest non-preemptible section anywhere in the kernel. The "
            "real-time guide rates this option fatal. Out-of-tree PREEMPT_RT patch sets for Linux 3.0 to 5.2 "
            "called it PREEMPT_RT_FULL."
        ),
        source=f"{GUIDE} (CONFIG_PREEMPT_RT: expectation enabled, severity fatal); kernel/Kconfig.preempt",
        fix=(
            "Choose Preemption Model > Fully Preemptible Kernel (Real-Time), CONFIG_PREEMPT_RT=y: in mainline "
            "Linux since 6.12 for x86, arm64 and riscv; older kernels need the PREEMPT_RT patch set."
        ),
        old_names=(OldName("PREEMPT_RT_FULL", "the PREEMPT_RT patch set for Linux 3.0 to 5.2"),),
    ),
    KconfigRule(
        id="PKK102",
        name="cpu-freq",
        family=FAMILY,
        option="CPU_FREQ",
        desired=Y,
        severity=Severity.WARNING,
        reason="without CPU frequency scaling the CPU may stay at the speed the boot loader left",
        why=(
            "The guide keeps CPU frequency scaling enabled so the processor can be set to, and held at, the "
            "frequency the application was measured at; some boot loaders leave the CPU slower than its maximum."
        ),
        source=f"{GUIDE} (CONFIG_CPU_FREQ: expectation enabled, severity high)",
        fix="Set CONFIG_CPU_FREQ=y and the driver for the SoC's clock.",
    ),
    KconfigRule(
        id="PKK103",
        name="performance-governor",
        family=FAMILY,
        option="CPU_FREQ_DEFAULT_GOV_PERFORMANCE",
        desired=Chosen(DEFAULT_GOVERNORS),
        severity=Severity.WARNING,
        reason="real-time work expects a fixed CPU frequency; the performance governor gives one from boot",
        why=(
            "A governor that follows the load changes the CPU frequency while real-time tasks run, and their "
            "execution times with it. The performance default fixes the frequency from the kernel "
            "configuration alone; a board that must run slower for thermal reasons can use userspace or "
            "powersave instead, as long as the frequency stays constant."
        ),
        source=f"{GUIDE} (CONFIG_CPU_FREQ_DEFAULT_GOV_PERFORMANCE: expectation enabled, severity high)",
        fix=(
            "Choose CPU Frequency scaling > Default CPUFreq governor > performance "
            "(CONFIG_CPU_FREQ_DEFAULT_GOV_PERFORMANCE=y)."
        ),
        when=CPUFREQ_ON,
    ),
    KconfigRule(
        id="PKK104",
        name="no-ondemand-governor",
        family=FAMILY,
        option="CPU_FREQ_GOV_ONDEMAND",
        desired=OFF,
        severity=Severity.WARNING,
        reason="the ondemand governor changes the frequency with the load and harms determinism",
        why=(
            "The guide says the ondemand governor should not be enabled on a real-time system: its frequency "
            "changes follow the workload. A governor that is built in can also be selected at run time by any "
            "privileged process, changing latency while the system runs."
        ),
        source=f"{GUIDE} (Non-performance CPU frequency governors: expectation disabled, severity medium)",
        fix="Set `# CONFIG_CPU_FREQ_GOV_ONDEMAND is not set`.",
        when=CPUFREQ_ON,
    ),
    KconfigRule(
        id="PKK105",
        name="no-conservative-governor",
        family=FAMILY,
        option="CPU_FREQ_GOV_CONSERVATIVE",
        desired=OFF,
        severity=Severity.NOTE,
        reason="a load-following governor that user space could select while real-time tasks run",
        why=(
            "The guide advises disabling the governors other than performance whenever possible, so that no "
            "process can switch to one at run time and change the latency behaviour."
        ),
        source=f"{GUIDE} (Non-performance CPU frequency governors: expectation disabled, severity medium)",
        fix="Set `# CONFIG_CPU_FREQ_GOV_CONSERVATIVE is not set`.",
        when=CPUFREQ_ON,
    ),
    KconfigRule(
        id="PKK106",
        name="no-schedutil-governor",
        family=FAMILY,
        option="CPU_FREQ_GOV_SCHEDUTIL",
        desired=OFF,
        severity=Severity.NOTE,
        reason="a load-following governor that user space could select while real-time tasks run",
        why=(
            "The guide advises disabling the governors other than performance whenever possible, so that no "
            "process can switch to one at run time and change the latency behaviour."
        ),
        source=f"{GUIDE} (Non-performance CPU frequency governors: expectation disabled, severity medium)",
        fix="Set `# CONFIG_CPU_FREQ_GOV_SCHEDUTIL is not set` (choose another default governor first).",
        when=CPUFREQ_ON,
    ),
    KconfigRule(
        id="PKK107",
        name="cpu-idle",
        family=FAMILY,
        option="CPU_IDLE",
        desired=Y,
        severity=Severity.NOTE,
        reason="keep cpuidle and limit deep C-states at boot rather than build it out",
        why=(
            "Deep idle states take long to leave, but removing cpuidle altogether can hurt the hardware's "
            "thermal behaviour and lifetime. The guide keeps it and caps the idle depth instead (on ACPI "
            "platforms with the boot parameter processor.max_cstate=1)."
        ),
        source=f"{GUIDE} (CONFIG_CPU_IDLE: expectation enabled, severity info)",
        fix="Set CONFIG_CPU_IDLE=y and limit the idle states at boot.",
    ),
    KconfigRule(
        id="PKK108",
        name="no-drm",
        family=FAMILY,
        option="DRM",
        desired=OFF,
        severity=Severity.NOTE,
        reason="a GPU shares the last-level cache and memory bandwidth with the CPU",
        why=(
            "Integrated GPUs compete with the CPU for cache and memory bandwidth, which the guide calls a "
            "source of CPU non-determinism. If graphics must run beside real-time tasks, measure the latency "
            "with a graphics load running."
        ),
        source=f"{GUIDE} (CONFIG_DRM: expectation disabled, severity info)",
        fix="Leave DRM out of real-time systems without a display, or measure latency under a graphics load.",
    ),
    KconfigRule(
        id="PKK109",
        name="efi-runtime-off",
        family=FAMILY,
        option="EFI_DISABLE_RUNTIME",
        desired=Y,
        severity=Severity.WARNING,
        reason="calls into EFI runtime firmware cannot be preempted",
        why=(
            "While the kernel is inside an EFI runtime service (updating an EFI variable, reading the EFI "
            "clock) the CPU may not take interrupts or switch tasks. PREEMPT_RT turns this option on by "
            "default; without it, boot with efi=noruntime or confine the efi_runtime workqueue to a "
            "housekeeping CPU."
        ),
        source=f"{GUIDE} (CONFIG_EFI_DISABLE_RUNTIME: expectation enabled, severity medium)",
        fix="Set CONFIG_EFI_DISABLE_RUNTIME=y, or boot with efi=noruntime.",
        when=Has("EFI", Y),
    ),
    KconfigRule(
        id="PKK110",
        name="periodic-tick",
        family=FAMILY,
        option="HZ_PERIODIC",
        desired=Chosen(TICK_MODES),
        severity=Severity.NOTE,
        reason="tickless modes add work to every kernel entry and exit; periodic loops prefer a steady tick",
        why=(
            "NO_HZ_IDLE and NO_HZ_FULL do extra accounting when entering and leaving the kernel. For periodic "
            "work such as a control loop every 100 us the guide prefers the periodic tick; for long "
            "computations in user space NO_HZ_FULL can help, with housekeeping moved to other CPUs and the "
            "computing CPUs isolated (Documentation/timers/no_hz.rst)."
        ),
        source=f"{GUIDE} (CONFIG_NO_HZ / CONFIG_NO_HZ_FULL: expectation disabled, severity medium, by workload)",
        fix="Choose Timer tick handling > Periodic timer ticks (CONFIG_HZ_PERIODIC=y) for periodic workloads.",
    ),
    KconfigRule(
        id="PKK111",
        name="tracing",
        family=FAMILY,
        option="TRACING",
        desired=Y,
        severity=Severity.NOTE,
        reason="tracing support, built in but idle, is how latency problems are found later",
        why=(
            "The guide recommends shipping with tracing support enabled but not running, so that a latency "
            "problem in the field can be traced; running tracers during production adds overhead."
        ),
        source=f"{GUIDE} (CONFIG_TRACING: expectation enabled, severity info)",
        fix="Enable a tracer such as the function tracer (it selects CONFIG_TRACING) and leave it off at run time.",
    ),
    KconfigRule(
        id="PKK112",
        name="no-irqsoff-tracer",
        family=FAMILY,
        option="IRQSOFF_TRACER",
        desired=OFF,
        severity=Severity.WARNING,
        reason="the irqsoff tracer costs latency even while it is not tracing",
        why=(
            "The irqsoff tracer hooks every place that disables interrupts; the guide states a measurable "
            "overhead even when tracing is not active. The PREEMPT_RT patch set for Linux 2.6 had it as "
            "CRITICAL_IRQSOFF_TIMING and warned at boot that it raises latencies."
        ),
        source=f"{GUIDE} (CONFIG_IRQSOFF_TRACER: expectation disabled, severity high)",
        fix="Set `# CONFIG_IRQSOFF_TRACER is not set` in the kernel that ships.",
        old_names=(OldName("CRITICAL_IRQSOFF_TIMING", "the PREEMPT_RT patch set for Linux 2.6"),),
    ),
    KconfigRule(
        id="PKK113",
        name="no-preempt-tracer",
        family=FAMILY,
        option="PREEMPT_TRACER",
        desired=OFF,
        severity=Severity.WARNING,
        reason="the preemptoff tracer costs latency even while it is not tracing",
        why=(
            "The preemptoff tracer hooks every place that disables preemption; the guide states a measurable "
            "overhead even when tracing is not active. The PREEMPT_RT patch set for Linux 2.6 had it as "
            "CRITICAL_PREEMPT_TIMING."
        ),
        source=f"{GUIDE} (CONFIG_PREEMPT_TRACER: expectation disabled, severity high)",
        fix="Set `# CONFIG_PREEMPT_TRACER is not set` in the kernel that ships.",
        old_names=(OldName("CRITICAL_PREEMPT_TIMING", "the PREEMPT_RT patch set for Linux 2.6"),),
    ),
    KconfigRule(
        id="PKK114",
        name="no-lockup-detector",
        family=FAMILY,
        option="LOCKUP_DETECTOR",
        desired=OFF,
        severity=Severity.WARNING,
        reason="the lockup detector runs timer callbacks in hard-interrupt context every few seconds",
        why=(
            "The soft and hard lockup detectors run periodic timer callbacks in hard-interrupt context, even "
            "on PREEMPT_RT kernels, which the guide names as a cause of latency spikes. A hardware watchdog "
            "gives similar protection without them. Before Linux 2.6.36 the soft lockup detector was "
            "DETECT_SOFTLOCKUP."
        ),
        source=f"{GUIDE} (CONFIG_LOCKUP_DETECTOR: expectation disabled, severity high)",
        fix=(
            "Set `# CONFIG_SOFTLOCKUP_DETECTOR is not set` and `# CONFIG_HARDLOCKUP_DETECTOR is not set` "
            "(they select LOCKUP_DETECTOR); use the hardware watchdog."
        ),
        old_names=(OldName("DETECT_SOFTLOCKUP", "Linux before 2.6.36"),),
    ),
    KconfigRule(
        id="PKK115",
        name="no-prove-locking",
        family=FAMILY,
        option="PROVE_LOCKING",
        desired=OFF,
        severity=Severity.WARNING,
        reason="lockdep's proof of every lock operation adds large overhead",
        why=(
            "Proving the correctness of all kernel locking checks every lock acquisition and release; the guide "
            "rates it a high latency cost. Run it during development and testing, not in production."
        ),
        source=f"{GUIDE} (CONFIG_PROVE_LOCKING: expectation disabled, severity high)",
        fix="Set `# CONFIG_PROVE_LOCKING is not set` in the kernel that ships.",
    ),
    _debug_option(
        16,
        "DEBUG_LOCKDEP",
        "no-debug-lockdep",
        "lockdep checks itself as well, at the price of more runtime overhead",
        "lib/Kconfig.debug (DEBUG_LOCKDEP help)",
    ),
    _debug_option(
        17,
        "LOCK_STAT",
        "no-lock-stat",
        "every lock operation records contention statistics and runs lockdep",
        "lib/Kconfig.debug (LOCK_STAT help; it selects LOCKDEP)",
    ),
    _debug_option(
        18,
        "DEBUG_PREEMPT",
        "no-debug-preempt",
        "every this_cpu operation runs debug checks, which its help calls a potentially high runtime overhead",
        "lib/Kconfig.debug (DEBUG_PREEMPT help)",
    ),
    _debug_option(
        19,
        "DEBUG_OBJECTS",
        "no-debug-objects",
        "the life time of kernel objects is tracked and every operation on them validated",
        "lib/Kconfig.debug (DEBUG_OBJECTS help)",
    ),
    _debug_option(
        20,
        "DEBUG_PAGEALLOC",
        "no-debug-pagealloc",
        "freed pages are unmapped from the kernel's linear map, a small or large slowdown",
        "mm/Kconfig.debug (DEBUG_PAGEALLOC help)",
    ),
    _debug_option(
        21,
        "SLUB_DEBUG_ON",
        "no-slub-debug-on",
        "the slab allocator's debug checks run on every allocation from boot",
        "mm/Kconfig.debug (SLUB_DEBUG_ON help: the same as booting with slub_debug)",
    ),
    _debug_option(
        22,
        "KASAN",
        "no-kasan",
        "every memory access is checked against shadow memory, a slowdown its help puts at about 3x for generic KASAN",
        "lib/Kconfig.kasan (KASAN_GENERIC help)",
    ),
    _debug_option(
        23,
        "DEBUG_KMEMLEAK",
        "no-kmemleak",
        "allocations are tracked and memory is scanned for leaks by a kernel thread",
        "mm/Kconfig.debug (DEBUG_KMEMLEAK help)",
    ),
)
