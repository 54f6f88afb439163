"""The target area: what the board offers the port, from the agent's own
documents: the CPU features the code needs (`portkit cpu --has`), a vDSO
that agrees with the kernel (`portkit vdso verify`; the compat-vDSO field
report's 32-bit apps lose it silently), and the facts that decide latency
(`portkit rt sysinfo`, as notes: the latency area measures what they do).
Under qemu-user the CPU is the emulated one, but the vDSO and the kernel are
the emulator's and this host's: they are shown, not judged."""

from __future__ import annotations

from typing import Any

from portkit.commands.report.model import Source, item, sysinfo_group
from portkit.core.errors import BadInput

CPU = "portkit.cpu/1"
VDSO = ("portkit.vdso/2", "portkit.vdso-verify/2", "portkit.vdso-bench/2")
SYSINFO = "portkit.rt-sysinfo/1"
MISSING_FEATURE_FIX = (
    "Build the code so that it does not rely on it (a run-time check with a portable fallback, as portkit's "
    "CRC32C does), or choose a CPU that has it; `portkit cpu --target` lists what a CPU offers."
)
VDSO_FAIL_FIX = (
    "The vDSO's copy of the kernel's timekeeping disagrees with the system calls: update the kernel (its vDSO "
    "or clocksource driver), and check the clocksource `portkit rt sysinfo` shows."
)


def check(document: dict, label: str) -> None:
    schema = document.get("schema")
    wanted = {CPU: ("features", list), SYSINFO: ("warnings", list)}.get(schema, ("present", bool))
    if not isinstance(document.get(wanted[0]), wanted[1]):
        raise BadInput(f"{label}: a {schema} document without {wanted[0]}")


def judge(index: int, source: Source) -> dict[str, Any]:
    """The items (missing features, no vDSO, failed checks, the target's warnings) and facts to show."""
    document = source.document
    schema = document.get("schema")
    emulated = bool(document.get("emulated"))
    if schema == CPU:
        return _cpu(index, document)
    if schema in VDSO:
        return _vdso(index, source, emulated)
    return _sysinfo(index, source, emulated)


def _cpu(index: int, document: dict) -> dict[str, Any]:
    model = " ".join(str(x) for x in (document.get("model"), document.get("vendor") and f"({document['vendor']})") if x)
    facts = [
        [
            "cpu",
            f"{document.get('arch')} {model}".strip() + (f" on {document['target']}" if document.get("target") else ""),
        ],
        ["features", " ".join(map(str, document["features"])) or "-"],
    ]
    items = []
    if document.get("wanted"):
        facts.append(["needed", " ".join(map(str, document["wanted"]))])
    if document.get("emulated"):
        facts.append(["vDSO", "not checked: qemu-user provides none, whatever the board's kernel does"])
    for name in document.get("missing") or []:
        items.append(
            item(
                f"cpu:{name}",
                index,
                "error",
                "cpu-feature",
                "a CPU feature the code needs is missing",
                str(document.get("target") or "cpu"),
                f"the CPU lacks {name}",
                MISSING_FEATURE_FIX,
            )
        )
    return {"items": items, "facts": facts}


def _vdso(index: int, source: Source, emulated: bool) -> dict[str, Any]:
    document = source.document
    where = str(document.get("target") or source.label)
    process = document.get("process") or {}
    facts = []
    if document["present"]:
        summary = document.get("summary") or {}
        checked = f", {summary.get('pass', 0)} checks agree with the system calls" if summary else ""
        facts.append(
            ["vDSO", f"{document.get('soname') or 'present'} in a {process.get('data_model', '?')} process{checked}"]
        )
    items = []
    absent = document.get("no_vdso") or {}
    if not document["present"]:
        cost = absent.get("syscall_ns_per_call")
        message = str(absent.get("message") or "no vDSO") + (
            f" ({cost:.0f} ns each here)" if isinstance(cost, (int, float)) else ""
        )
        facts.append(["vDSO", message])
        if emulated:
            items.append(
                item(
                    "vdso",
                    index,
                    "note",
                    "vdso-emulated",
                    "no vDSO under qemu-user",
                    where,
                    "qemu-user provides no vDSO, so this says nothing about a board",
                    "Run it on the board: --target ssh:HOST.",
                )
            )
        else:
            hints = " Or: ".join(str(h) for h in absent.get("hints") or [])
            items.append(
                item(
                    "vdso",
                    index,
                    "error",
                    "no-vdso",
                    "no vDSO",
                    where,
                    message,
                    f"Why it may be missing: {hints}" if hints else "Boot a kernel with vDSO support (no vdso=0).",
                )
            )
    for check in document.get("checks") or []:
        if isinstance(check, dict) and check.get("status") == "fail":
            name = f"{check.get('function')}({check.get('clock') or ''})"
            detail = f": {check['detail']}" if check.get("detail") else ""
            items.append(
                item(
                    f"vdso:{name}",
                    index,
                    "note" if emulated else "error",
                    "vdso-disagrees",
                    "the vDSO disagrees with the kernel",
                    where,
                    f"{name}: {check.get('violations')} of {check.get('samples')} readings outside the "
                    f"system calls' bracket{detail}",
                    VDSO_FAIL_FIX,
                )
            )
    return {"items": items, "facts": facts}


def _sysinfo(index: int, source: Source, emulated: bool) -> dict[str, Any]:
    document = source.document
    preemption = document.get("preemption") or {}
    mode = f" ({preemption['dynamic_mode']})" if preemption.get("dynamic_mode") else ""
    kernel = document.get("kernel") or {}
    facts = [
        [
            "kernel",
            f"{kernel.get('release', '?')}, preemption {preemption.get('model', '?')}{mode}, "
            f"HZ {document.get('hz') or '?'}",
        ],
        ["clocksource", str((document.get("clock") or {}).get("clocksource") or "?")],
    ]
    if emulated:
        facts.append(["note", "under qemu-user the kernel, clock and CPUs shown are this host's"])
        return {"items": [], "facts": facts}
    items = []
    for warning in document["warnings"]:
        if isinstance(warning, dict):
            about = str(warning.get("about", ""))
            items.append(
                item(
                    f"sysinfo:{about}",
                    index,
                    "note",
                    sysinfo_group(warning),
                    "the target's facts that make wake-ups late",
                    f"{document.get('target') or source.label}: {about}",
                    str(warning.get("message", "")),
                    "",
                )
            )
    return {"items": items, "facts": facts}


def summary(source: Source) -> str:
    document = source.document
    schema = document.get("schema")
    if schema == CPU:
        missing = document.get("missing") or []
        wanted = document.get("wanted")
        has = (
            f"; needs {', '.join(wanted)}: " + (f"missing {', '.join(missing)}" if missing else "all present")
            if wanted
            else ""
        )
        return f"{document.get('arch')} CPU with {len(document['features'])} optional features{has}"
    if schema in VDSO:
        if not document["present"]:
            return "no vDSO" + (" (qemu-user provides none)" if document.get("emulated") else "")
        summary = document.get("summary")
        return f"vDSO {document.get('soname') or ''}" + (
            f": {summary.get('pass', 0)} checks pass, {summary.get('fail', 0)} fail" if summary else ""
        )
    warnings = len(document["warnings"])
    return f"preemption {(document.get('preemption') or {}).get('model', '?')}, {warnings} warnings"
