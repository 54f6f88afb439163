"""How long `--target vm:` takes to reach the agent, side by side with the
way a kernel is booted by hand: each Debian kernel booted under qemu-system
(TCG) with portkit's initramfs until its init says it is ready, x86 kernels
both through the PVH entry of the vmlinux portkit takes out of the bzImage
and through the bzImage itself (`qemu -kernel bzImage`, which decompresses
the XZ payload under emulation), alternating, repeated; then a whole
`portkit cpu --target vm:KERNEL` (fetching cached, boot, run, power off).
Medians go to docs/benchmarks.md.

    python bench/vm/run.py [--rounds 5] [--write docs/benchmarks.md]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from benchlib import machine, write_section  # noqa: E402
from portkit.core.agents import find_agent  # noqa: E402
from portkit.core.vm import console, kernel  # noqa: E402
from portkit.core.vm import machine as machines  # noqa: E402
from portkit.core.vm.initramfs import AGENTS, Entry, init_script, newc  # noqa: E402
from portkit.core.vm.session import Session  # noqa: E402

BEGIN, END = "<!-- vm-boot:begin -->", "<!-- vm-boot:end -->"
KERNELS = ("linux-image-arm64", "linux-image-amd64", "linux-image-rt-amd64", "linux-image-loongson-3")


def boot_seconds(k: kernel.Kernel, image: Path, scratch: Path) -> float:
    """From qemu's start to the init's ready line, booting image."""
    m = machines.machine_for(k, "bench")
    marker = console.new_marker()
    agent = find_agent(k.arch)
    entries = [
        Entry.program("/init", init_script(marker, {k.arch.name: str(AGENTS / k.arch.name)})),
        Entry.program("/bin/busybox", kernel.busybox(k.arch).read_bytes()),
        Entry.program(AGENTS / k.arch.name / "portkit-target", agent.read_bytes()),
    ]
    initrd = scratch / "initrd.cpio"
    initrd.write_bytes(newc(entries))
    argv = machines.command_line(m, replace(k, image=image), initrd, machines.accelerator(m), "bench")
    session = Session(argv, marker, "bench")
    started = time.monotonic()
    session.start(None, "bench")
    elapsed = time.monotonic() - started
    session.close()
    return elapsed


def command_seconds(package: str) -> float:
    started = time.monotonic()
    subprocess.run(
        [sys.executable, "-m", "portkit", "cpu", "--target", f"vm:{package}", "--format", "json"],
        check=True,
        capture_output=True,
    )
    return time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--write", type=Path)
    args = parser.parse_args()
    os.environ.setdefault("XDG_CACHE_HOME", str(ROOT / "build" / "cache"))
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for package in KERNELS:
            k = kernel.resolve(package, f"vm:{package}")
            # the bzImage: the package's own /boot/vmlinuz, where portkit booted a vmlinux taken out of it
            original = next((k.config.parent.glob("vmlinuz-*")), None) if k.config else None
            variants = {"portkit": k.image}
            if original is not None and original != k.image:
                variants["bzImage"] = original
            times: dict[str, list[float]] = {name: [] for name in variants}
            commands = []
            for _ in range(args.rounds):
                for name, image in variants.items():
                    times[name].append(boot_seconds(k, image, Path(scratch)))
                commands.append(command_seconds(package))
            m = machines.machine_for(k, "bench")
            rows.append(
                (package, k, m, {n: statistics.median(t) for n, t in times.items()}, statistics.median(commands))
            )
            print(package, {n: round(statistics.median(t), 2) for n, t in times.items()}, file=sys.stderr)
    lines = [
        BEGIN,
        f"Machine: {machine()}. {args.rounds} alternating rounds; medians, seconds; TCG "
        "(this machine's /dev/kvm is a software one, so no KVM).",
        "",
        "| kernel | qemu machine | launch to init, portkit | launch to init, `-kernel bzImage` | saved | "
        "`portkit cpu --target vm:` |",
        "|---|---|---|---|---|---|",
    ]
    for package, k, m, boots, whole in rows:
        hand = boots.get("bzImage")
        saved = f"{hand / boots['portkit']:.1f}x" if hand else "-"
        lines.append(
            f"| {package} ({k.release}) | {m.qemu} {m.name} | {boots['portkit']:.1f} | "
            f"{f'{hand:.1f}' if hand else '- (booted as shipped)'} | {saved} | {whole:.1f} |"
        )
    lines.append(END)
    section = "\n".join(lines) + "\n"
    if args.write:
        write_section(args.write, section, BEGIN, END, "## Kernels in a VM: time to the agent\n\n")
    print(section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
