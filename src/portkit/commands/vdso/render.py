"""How `portkit vdso` shows the agent's documents as text: the list of
symbols, the verdict of each check, and the costs per call."""

from __future__ import annotations

from typing import TYPE_CHECKING

from portkit.core.output import fields, styled

if TYPE_CHECKING:
    from rich.console import RenderableType

STATUS_STYLE = {"pass": "green", "fail": "bold red", "unsupported": "dim", "absent": "yellow"}


def _header(document: dict) -> list[tuple[str, RenderableType]]:
    process = document["process"]
    kernel = f"kernel {process['kernel_machine']} {process['kernel_release']}"
    rows: list[tuple[str, RenderableType]] = [
        ("target", document["target"]),
        ("process", f"{process['arch']} {process['data_model']}, {kernel}"),
    ]
    if document.get("compat"):
        rows.append(
            ("compat", styled("a 32-bit process on a 64-bit kernel: it sees the compat vDSO, if any", "yellow"))
        )
    return rows


def render_no_vdso(report: dict) -> list[RenderableType]:
    hints = report.get("hints") or []
    rows: list[tuple[str, RenderableType]] = [
        ("cost here", f"{report['syscall_ns_per_call']:.0f} ns per gettimeofday system call"),
        ("seed's test", f"{report['seed_calls']} calls take {report['seed_syscall_total_us'] / 1000:.1f} ms"),
    ]
    rows += [("why" if i == 0 else "or", hint) for i, hint in enumerate(hints)]
    return [styled(report["message"], "bold red"), fields(rows)]


def render_list(document: dict) -> list[RenderableType]:
    from rich.table import Table

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
    table = Table(box=None, pad_edge=False, header_style="bold")
    for column in ("symbol", "version", "type", "address"):
        table.add_column(column)
    for symbol in document["symbols"]:
        version = symbol["version"] or "-"
        if symbol["hidden"]:
            version += " (hidden)"
        table.add_row(symbol["name"], version, symbol["type"].lower(), symbol["address"])
    return [fields(rows), "", table]


def render_verify(document: dict) -> list[RenderableType]:
    from rich.table import Table
    from rich.text import Text

    summary = document["summary"]
    verdict = (
        styled("vDSO agrees with the kernel", "green") if document["ok"] else styled("vDSO check FAILED", "bold red")
    )
    counts = ", ".join(f"{summary[k]} {k}" for k in ("pass", "fail", "unsupported", "absent"))
    rows = [*_header(document), ("result", Text.assemble(verdict, f": {counts}"))]
    if not document["present"]:
        return [fields(rows), "", *render_no_vdso(document["no_vdso"])]
    rows.append(("vDSO", f"{document['soname']} at {document['base']}, {document['iterations']} samples a check"))
    checks = document["checks"]
    columns = ["check", "vDSO symbol", "status", "samples", "violations", "max gap ns"]
    if any(check["detail"] for check in checks):
        columns.append("detail")
    table = Table(box=None, pad_edge=False, header_style="bold")
    for column in columns:
        numeric = column in ("samples", "violations", "max gap ns")
        table.add_column(column, justify="right" if numeric else "left", no_wrap=column != "detail")
    for check in checks:
        status = check["status"]
        cells = [
            check["function"] + (f"({check['clock']})" if check["clock"] else ""),
            check["symbol"] or "-",
            styled(status, STATUS_STYLE.get(status, "")),
            str(check["samples"]),
            str(check["violations"]),
            str(check["max_gap_ns"]),
            check["detail"] or "",
        ]
        table.add_row(*cells[: len(columns)])
    return [fields(rows), "", table]


def render_bench(document: dict) -> list[RenderableType]:
    from rich.table import Table

    table = Table(box=None, pad_edge=False, header_style="bold")
    for column in ("function", "libc ns", "vDSO ns", "syscall ns", "syscall/vDSO", "libc uses vDSO"):
        table.add_column(column, justify="left" if column == "function" else "right", no_wrap=True)
    for fn in document["functions"]:
        vdso = fn["vdso"]
        uses = {True: "yes", False: styled("no", "red"), None: "?"}[fn["libc_uses_vdso"]]
        table.add_row(
            fn["name"] + (f"({fn['clock']})" if fn["clock"] else ""),
            _ns(fn["libc"]),
            _ns(vdso) if vdso else styled("none", "red"),
            _ns(fn["syscall"]),
            f"{fn['speedup']:.1f}x" if fn["speedup"] else "-",
            uses,
        )
    seed = document["seed"]
    if seed["vdso_total_us"] is not None:
        verdict = (
            f"{seed['calls']} gettimeofday calls: {seed['vdso_total_us'] / 1000:.1f} ms with the vDSO, "
            f"{seed['syscall_total_us'] / 1000:.1f} ms as system calls ({seed['ratio']:.1f}x)"
        )
    else:
        verdict = f"{seed['calls']} gettimeofday calls: {seed['syscall_total_us'] / 1000:.1f} ms, all system calls"
    rows = [
        *_header(document),
        ("measured", f"median of {document['repeat']} x {document['calls']} calls (± half the spread)"),
        ("seed's test", verdict),
    ]
    out: list[RenderableType] = [fields(rows), "", table]
    if document.get("no_vdso"):
        out += ["", *render_no_vdso(document["no_vdso"])]
    return out


def _ns(path: dict) -> str:
    """Median ns per call, with the spread of the repeats when there are several."""
    repeats = path["repeats_ns"]
    median = path["ns_per_call"]
    spread = f" ±{50 * (max(repeats) - min(repeats)) / median:.0f}%" if len(repeats) > 1 and median else ""
    return f"{median:.1f}{spread}"
