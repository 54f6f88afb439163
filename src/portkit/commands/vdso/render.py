"""How `portkit vdso` shows the agent's documents as text: the list of
symbols, the verdict of each check, and the costs per call, in tables narrow
enough for an 80-column terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from portkit.core.output import columns, fields, styled
from portkit.core.target import emulation_note

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.text import Text

    from portkit.core.fit import Cell

FIELD_REPORT_CALLS = 500_000  # the compat-vDSO field report's gettimeofday loop
STATUS_STYLE = {"pass": "green", "fail": "bold red", "unsupported": "dim", "absent": "yellow"}


def _header(document: dict) -> list[tuple[str, RenderableType]]:
    process = document["process"]
    kernel = f"kernel {process['kernel_machine']} {process['kernel_release']}"
    rows: list[tuple[str, RenderableType]] = [("target", document["target"])]
    note = emulation_note(document)
    if note:
        rows.append(("", styled(note, "bold yellow")))
    rows.append(("process", f"{process['arch']} {process['data_model']}, {kernel}"))
    if document.get("compat"):
        rows.append(
            ("compat", styled("a 32-bit process on a 64-bit kernel: it sees the compat vDSO, if any", "yellow"))
        )
    return rows


def _gettimeofday_calls(calls: int) -> str:
    """The loop the totals are for, named after the field report when it is its loop."""
    return f"{calls} gettimeofday calls" + (
        ", as in the compat-vDSO field report," if calls == FIELD_REPORT_CALLS else ""
    )


def render_no_vdso(report: dict) -> list[RenderableType]:
    hints = report.get("hints") or []
    loop = report["gettimeofday_loop"]
    rows: list[tuple[str, RenderableType]] = [
        ("cost here", f"{report['syscall_ns_per_call']:.0f} ns per gettimeofday system call"),
        ("total", f"{_gettimeofday_calls(loop['calls'])} take {loop['syscall_total_us'] / 1000:.1f} ms"),
    ]
    rows += [("why" if i == 0 else "or", hint) for i, hint in enumerate(hints)]
    return [styled(report["message"], "bold red"), fields(rows)]


def render_list(document: dict) -> list[RenderableType]:
    if not document["present"]:
        return [fields(_header(document)), *render_no_vdso(document["no_vdso"])]
    source = f"file {document['image_path']}" if document["source"] == "image" else f"live at {document['base']}"
    rows = [
        *(_header(document) if document["source"] == "live" else []),
        ("vDSO", f"{document['soname'] or '(no soname)'}, {source}"),
        (
            "image",
            f"ELF{document['elf_class']} {document['byte_order']}-endian {document['machine']}, "
            f"{document['size']} bytes ({document['symbol_source']})",
        ),
    ]
    if document.get("dumped_to"):
        rows.append(("saved to", document["dumped_to"]))
    symbols: list[list[Cell]] = [
        [
            symbol["name"],
            (symbol["version"] or "-") + (" (hidden)" if symbol["hidden"] else ""),
            symbol["type"].lower(),
            symbol["address"],
        ]
        for symbol in document["symbols"]
    ]
    return [fields(rows), "", columns(["symbol", "version", "type", "address"], symbols)]


def render_verify(document: dict) -> list[RenderableType]:
    summary = document["summary"]
    counts = ", ".join(f"{summary[k]} {k}" for k in ("pass", "fail", "unsupported", "absent"))
    if not document["present"]:
        verdict = styled("no vDSO, so nothing was verified", "bold yellow")
    elif document["ok"]:
        verdict = styled("vDSO agrees with the kernel", "green")
    else:
        verdict = styled("vDSO check FAILED", "bold red")
    rows = [*_header(document), ("result", _assemble(verdict, f": {counts}"))]
    if not document["present"]:
        return [fields(rows), "", *render_no_vdso(document["no_vdso"])]
    checks = document["checks"]
    entries = list(dict.fromkeys(check["symbol"] for check in checks if check["symbol"]))
    rows += [
        ("vDSO", f"{document['soname']} at {document['base']}, entries {', '.join(entries) or '-'}"),
        (
            "checked",
            f"{document['iterations']} readings a check, each between two system calls "
            "(syscall <= vDSO <= syscall); clock_getres equal both ways",
        ),
    ]
    return [fields(rows), "", _checks_table(checks), *_check_details(checks)]


def _checks_table(checks: list[dict]) -> RenderableType:
    """One row per check, those of a clock under its name: narrow enough for
    80 columns with the longest clock and function names."""
    rows: list[list[Cell]] = []
    clock = None
    for check in checks:
        if check["clock"] and check["clock"] != clock:
            rows.append([check["clock"], "", "", "", ""])
        clock = check["clock"]
        status = check["status"]
        measured = status in ("pass", "fail")
        rows.append(
            [
                ("  " if clock else "") + check["function"],
                styled(status, STATUS_STYLE.get(status, "")),
                str(check["samples"]) if measured else "-",
                str(check["violations"]) if measured else "-",
                str(check["max_gap_ns"]) if measured else "-",
            ]
        )
    return columns(["check", "status", "samples", "violations", "max gap ns"], rows, right={2, 3, 4})


def _check_details(checks: list[dict]) -> list[RenderableType]:
    """Why checks failed or were not run, each reason once, below the table."""
    lines: list[str] = []
    for check in checks:
        name = check["function"] + (f"({check['clock']})" if check["clock"] else "")
        if check["status"] == "fail" and check["detail"]:
            lines.append(f"{name}: {check['detail']}")
        elif check["status"] == "unsupported" and check["detail"]:
            lines.append(f"{check['clock']}: {check['detail']}")
    absent = list(dict.fromkeys(c["function"] for c in checks if c["status"] == "absent"))
    if absent:
        lines.append(f"absent from this vDSO (no __vdso_ or __kernel_ entry): {', '.join(absent)}")
    lines = list(dict.fromkeys(lines))
    return ["", *lines] if lines else []


def render_bench(document: dict) -> list[RenderableType]:
    functions = document["functions"]
    header = ["ns per call", *(fn["name"] + (f"({fn['clock']})" if fn["clock"] else "") for fn in functions)]
    uses = {True: "yes", False: styled("no", "red"), None: "?"}
    rows: list[list[Cell]] = [
        ["libc", *(_ns(fn["libc"]) for fn in functions)],
        ["vDSO", *(_ns(fn["vdso"]) if fn["vdso"] else styled("none", "red") for fn in functions)],
        ["system call", *(_ns(fn["syscall"]) for fn in functions)],
        ["syscall/vDSO", *(f"{fn['speedup']:.1f}x" if fn["speedup"] else "-" for fn in functions)],
        ["libc uses vDSO", *(uses[fn["libc_uses_vdso"]] for fn in functions)],
    ]
    loop = document["gettimeofday_loop"]
    what = _gettimeofday_calls(loop["calls"])
    if loop["vdso_total_us"] is not None:
        total = (
            f"{what} take {loop['vdso_total_us'] / 1000:.1f} ms with the vDSO, "
            f"{loop['syscall_total_us'] / 1000:.1f} ms as system calls ({loop['ratio']:.1f}x)"
        )
    else:
        total = f"{what} take {loop['syscall_total_us'] / 1000:.1f} ms, all system calls"
    header_rows = [
        *_header(document),
        ("measured", f"median of {document['repeat']} x {document['calls']} calls (± half the spread)"),
        ("total", total),
    ]
    out: list[RenderableType] = [
        fields(header_rows),
        "",
        columns(header, rows, right=range(1, len(header))),
    ]
    if document.get("no_vdso"):
        out += ["", *render_no_vdso(document["no_vdso"])]
    return out


def _ns(path: dict) -> str:
    """Median ns per call, with the spread of the repeats when there are several."""
    repeats = path["repeats_ns"]
    median = path["ns_per_call"]
    spread = f" ±{50 * (max(repeats) - min(repeats)) / median:.0f}%" if len(repeats) > 1 and median else ""
    return f"{median:.1f}{spread}"


def _assemble(*parts: str | Text) -> Text:
    from rich.text import Text

    return Text.assemble(*parts)
