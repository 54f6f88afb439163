"""`portkit rt sysinfo` for people: the facts that decide wake-up latency,
one line each, then the agent's warnings (docs/formats.md,
"portkit.rt-sysinfo/1"). The JSON form is the agent's document as it is.

Under qemu-user the agent is the emulated architecture's, but everything it
reads (uname, the clock, /proc and /sys) is this host's kernel: qemu only
changes the machine uname reports. In a VM (vm:) the kernel and all it says
of itself are real; only its timings are the emulator's. The text says which,
first."""

from __future__ import annotations

import argparse
import platform
from collections.abc import Iterable

from portkit.commands.rt.study import SCHEMA_SYSINFO
from portkit.core.command import add_command
from portkit.core.output import emit
from portkit.core.target import AgentCall, emulation_note
from portkit.core.targets import run_agent


def register(modes: argparse._SubParsersAction) -> None:
    add_command(
        modes,
        "sysinfo",
        "the target's facts that decide latency",
        None,
        "examples:\n  portkit rt sysinfo\n  portkit rt sysinfo --target ssh:root@board\n"
        "  portkit rt sysinfo --target vm:linux-image-rt-amd64   Debian's PREEMPT_RT kernel, booted in a VM",
        run,
        runs_on="agent",
    )


def run(args: argparse.Namespace) -> int:
    result = run_agent(args, AgentCall(("rt", "sysinfo"), SCHEMA_SYSINFO))
    emit(args.format, result.document, render, args.output)
    return result.exit_code


def render(document: dict) -> list:
    from portkit.core.output import fields, styled

    out: list = []
    if host_kernel(document):
        out += [styled(_emulated(document), "yellow"), ""]
    elif emulation_note(document):
        out += [styled(str(emulation_note(document)), "yellow"), ""]
    out.append(fields(list(_facts(document))))
    warnings = document.get("warnings") or []
    if warnings:
        out += ["", f"{len(warnings)} warning{'s' if len(warnings) != 1 else ''}:"]
        # The rule id (PKS1xx) first, as findings show theirs; older agents send none.
        out += [
            styled(f"  {w['id'] + ' ' if w.get('id') else ''}{w.get('about', '?')}: {w.get('message', '')}", "yellow")
            for w in warnings
        ]
    return out


def host_kernel(document: dict) -> bool:
    """Read by an agent under qemu-user on this host: its kernel is this host's."""
    return str(document.get("target") or "").startswith("qemu-")


def _emulated(document: dict) -> str:
    agent = document.get("agent") or {}
    model = f" ({agent['data_model']})" if agent.get("data_model") else ""
    uname = (document.get("kernel") or {}).get("machine")
    return (
        f"EMULATED by qemu-user: the agent is {agent.get('arch', '?')}{model}, but the kernel, clock, CPUs, "
        f"cpufreq, cpuidle and tracefs below are this {platform.machine()} host's, seen through the emulator "
        f"(which makes uname say {uname})"
    )


def _facts(d: dict) -> Iterable[tuple[str, str]]:
    kernel = d.get("kernel") or {}
    config = kernel.get("config") or f"none ({kernel.get('config_why') or 'unknown'})"
    machine = kernel.get("machine")
    if host_kernel(d):  # qemu-user answers uname with the emulated machine
        machine = f"{platform.machine()}, this host's"
    yield "kernel", f"{kernel.get('release')} {machine} ({kernel.get('version')}), config {config}"
    yield "preemption", _preemption(d.get("preemption") or {})
    clock = d.get("clock") or {}
    hz = d.get("hz")
    yield (
        "timer",
        f"HZ {hz if hz is not None else '?'}, clocksource {clock.get('clocksource')} "
        f"(available: {' '.join(clock.get('available') or []) or '?'}), "
        f"resolution {clock.get('monotonic_resolution_ns')} ns",
    )
    cpus = d.get("cpus") or {}
    nohz = cpus.get("nohz_full")
    yield (
        "cpus",
        f"{cpus.get('count')} online {_list(cpus.get('online'))}; isolated {_list(cpus.get('isolated'))}; "
        f"nohz_full {'-' if nohz is None else _list(nohz)}",
    )
    yield "cpufreq", _cpufreq(d.get("cpufreq") or {})
    yield "cpuidle", _cpuidle(d.get("cpuidle") or {})
    throttle = d.get("rt_throttling")
    yield "rt throttling", _throttling(throttle)
    dma = d.get("cpu_dma_latency") or {}
    held = "can be held" if dma.get("openable") else f"cannot be opened ({dma.get('error')})"
    yield "cpu_dma_latency", f"{dma.get('path')} {held}"
    tracefs = d.get("tracefs") or {}
    tracers = " ".join(tracefs.get("tracers") or []) or "none"
    timerlat = "timerlat available" if tracefs.get("timerlat") else "no timerlat (see the warnings)"
    yield "tracefs", f"{tracefs.get('path') or 'not mounted'}; tracers {tracers}; {timerlat}"
    yield "load average", " ".join(str(x) for x in d.get("loadavg") or [])
    hypervisor = d.get("hypervisor")
    yield "hypervisor", {True: "yes", False: "no", None: "unknown"}.get(hypervisor, str(hypervisor))


def _preemption(p: dict) -> str:
    text = f"{p.get('model')} (from {p.get('source')})"
    if p.get("dynamic_mode"):
        text += f", running as {p['dynamic_mode']} ({p.get('dynamic_mode_source')})"
    return text


def _cpufreq(c: dict) -> str:
    if not c.get("available"):
        return "not available"
    governors: dict[str, list[int]] = {}
    for row in c.get("governors") or []:
        governors.setdefault(row.get("governor"), []).append(row.get("cpu"))
    return "; ".join(f"{g} on cpus {_list(cpus)}" for g, cpus in governors.items())


def _cpuidle(c: dict) -> str:
    if not c.get("available"):
        return f"not available (driver {c.get('driver')}, governor {c.get('governor')})"
    deepest = {}
    for cpu in c.get("cpus") or []:
        for state in cpu.get("states") or []:
            if not state.get("disabled"):
                deepest[state.get("name")] = state.get("latency_us")
    states = ", ".join(f"{name} {latency} us" for name, latency in deepest.items())
    return f"driver {c.get('driver')}, governor {c.get('governor')}; enabled states: {states or 'none'}"


def _throttling(t: dict | None) -> str:
    if not t:
        return "unknown"
    if t.get("runtime_us") == -1:
        return "off (real-time tasks may take every CPU cycle)"
    return f"{t.get('runtime_us')} of every {t.get('period_us')} us for real-time tasks"


def _list(values: list | None) -> str:
    """[0, 1, 2, 5] -> '0-2,5'; [] -> 'none'."""
    if not values:
        return "none"
    ranges: list[list[int]] = []
    for v in sorted(values):
        if ranges and v == ranges[-1][1] + 1:
            ranges[-1][1] = v
        else:
            ranges.append([v, v])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in ranges)
