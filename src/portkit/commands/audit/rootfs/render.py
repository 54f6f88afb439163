"""The rootfs audit as text: what was audited and how the loaders were
modelled, then the findings grouped per rule and per file; the findings
themselves follow (portkit.findings.text)."""

from __future__ import annotations

from typing import Any

from portkit.commands.audit.rootfs.messages import listed

FILES_SHOWN = 8  # in the per-file summary; JSON has them all


def header(document: dict[str, Any]) -> list:
    from portkit.core.output import columns, fields

    image, target, files = document["image"], document["target"], document["files"]
    rows = [
        ("image", f"{image['path']} ({image['kind']}, {image['entries']} entries)"),
        ("target", f"{target['label']}, {target['source']}"),
    ]
    for loader in document["loaders"]:
        dirs = listed(loader["system_dirs"], 6)
        conf = f"; {loader['conf_source']}: {listed(loader['conf_dirs'], 4)}" if loader["conf_dirs"] else ""
        rows.append((f"loader {loader['abi']}", f"{loader['program'] or '(none)'} ({loader['libc']}): {dirs}{conf}"))
    skipped = [f"{files[k]} {k}" for k in ("firmware", "data", "modules") if files[k]]
    rows.append(
        (
            "files",
            f"{files['elf']} ELF files, {files['audited']} audited as the image's own"
            + (f"; not checked for loading: {', '.join(skipped)}" if skipped else "")
            + (f"; {files['malformed']} malformed" if files["malformed"] else ""),
        )
    )
    kernel = document["kernel"]
    if kernel is not None:
        needs = ", ".join(
            f"CONFIG_{n['option']}={n['value'] or '?'} ({n['programs']} program{'s' if n['programs'] > 1 else ''})"
            for n in kernel["needs"]
        )
        rows.append(("kernel", f"{kernel['config'] or 'no --kconfig'}: {needs}"))
    if document["problems"]:
        rows.append(("not read", f"{len(document['problems'])} entries (warnings above)"))
    out: list = [fields(rows), ""]
    by_rule, by_file = document["summary"]["by_rule"], document["summary"]["by_file"]
    if by_rule:
        out.append(columns(["rule", "name", "findings"], [[r["rule"], r["name"], str(r["findings"])] for r in by_rule],
                           right=[2]))  # fmt: skip
        out.append("")
        rows_file = [[f["path"], str(f["findings"]), ", ".join(f["rules"])] for f in by_file[:FILES_SHOWN]]
        if len(by_file) > FILES_SHOWN:
            rows_file.append([f"... and {len(by_file) - FILES_SHOWN} more files", "", ""])
        out.append(columns(["file", "findings", "rules"], rows_file, right=[1]))
        out.append("")
    return out
