"""The rootfs audit as text: what was audited and how the loaders were
modelled, then the findings grouped per rule and per file; the findings
themselves follow (portkit.findings.text)."""

from __future__ import annotations

from typing import Any

from portkit.commands.audit.rootfs.wording import entries, listed
from portkit.core.fit import GAP, MIN_WRAPPED
from portkit.core.output import count

FILES_SHOWN = 8  # in the per-file summary; JSON has them all
PROBLEMS_SHOWN = 20  # in a report written to a file; JSON has them all
LIVE_SCOPE = (
    "its loader's: the programs in PATH's directories and usr/libexec, the libraries in the directories its "
    "loaders search, and what they load"
)


def header(document: dict[str, Any], width: int | None = None, to_file: bool = False) -> list:
    """What was audited, the loaders, the findings per rule and per file;
    `width` the terminal's (None: a file or a pipe, whole lines); `to_file`:
    the report goes to a file (-o), where the warnings printed on stderr are
    not: it lists them itself."""
    from portkit.core.output import columns, fields

    image, target, files = document["image"], document["target"], document["files"]
    read = "read" if image["kind"] == "running system" else ""
    rows = [
        ("image", f"{image['path']} ({image['kind']}, {entries(image['entries'])}{' ' + read if read else ''})"),
        ("target", f"{target['label']}, {target['source']}"),
    ]
    if read:
        rows.append(("scope", LIVE_SCOPE))
    for loader in document["loaders"]:
        dirs = listed(loader["system_dirs"], 6)
        conf = f"; {loader['conf_source']}: {listed(loader['conf_dirs'], 4)}" if loader["conf_dirs"] else ""
        rows.append((f"loader {loader['abi']}", f"{loader['program'] or '(none)'} ({loader['libc']}): {dirs}{conf}"))
    kinds = {"firmware": "firmware file", "data": "data file", "modules": "module", "debug": "debug file"}
    skipped = [count(files[k], noun) for k, noun in kinds.items() if files[k]]
    rows.append(
        (
            "files",
            f"{count(files['elf'], 'ELF file')}, {files['audited']} audited as the image's own"
            + (f"; not checked for loading: {', '.join(skipped)}" if skipped else "")
            + (f"; {files['malformed']} malformed" if files["malformed"] else ""),
        )
    )
    kernel = document["kernel"]
    if kernel is not None:
        needs = ", ".join(
            f"CONFIG_{n['option']}={n['value'] or '?'} ({count(n['programs'], 'program')})" for n in kernel["needs"]
        )
        rows.append(("kernel", f"{kernel['config'] or 'no --kconfig'}: {needs}"))
    rows += left_out_rows(document["left_out"])
    problems = document["problems"]
    if problems and to_file:
        shown = problems[:PROBLEMS_SHOWN]
        rest = len(problems) - len(shown)
        more = [f"... and {count(rest, 'more')} (JSON: problems)"] if rest else []
        rows.append(("not read", "\n".join([*shown, *more])))
    elif problems:
        rows.append(("not read", f"{count(len(problems), 'warning')} (on stderr)"))
    out: list = [fields(rows), ""]
    by_rule, by_file = document["summary"]["by_rule"], document["summary"]["by_file"]
    if by_rule:
        out.append(columns(["rule", "name", "findings"], [[r["rule"], r["name"], str(r["findings"])] for r in by_rule],
                           right=[2]))  # fmt: skip
        out.append("")
        room = None if width is None else width - len("findings") - 2 * len(GAP) - MIN_WRAPPED
        rows_file = []
        for f in by_file[:FILES_SHOWN]:
            first, *rest = fold_path(f["path"], room)
            rows_file += [[first, str(f["findings"]), ", ".join(f["rules"])], *([piece, "", ""] for piece in rest)]
        if len(by_file) > FILES_SHOWN:
            rows_file.append([f"... and {count(len(by_file) - FILES_SHOWN, 'more file')}", "", ""])
        out.append(columns(["file", "findings", "rules"], rows_file, right=[1], wrap=2))
        out.append("")
    return out


def left_out_rows(left: dict[str, Any]) -> list[tuple[str, str]]:
    """`left out` rows: each --exclude pattern with what it matched; of the
    running system, the trees that are not its loader's."""
    parts = [f"{p['pattern']} (--exclude): {listed(p['paths'], 3) or 'matched nothing'}" for p in left["excluded"]]
    if "sysroots" in left:
        if left["sysroots"]:
            parts.append(f"cross toolchains' sysroots: {listed(left['sysroots'], 4)}")
        if left["other_abis"]:
            parts.append(f"other ABIs' libraries: {listed(left['other_abis'], 4)}")
        if left["not_read"]:
            parts.append(f"not read: {listed(left['not_read'], 8)}")
    return [("left out", "\n".join(parts))] if parts else []


def fold_path(path: str, room: int | None) -> list[str]:
    """A path cut after a `/` into pieces that fit room (None: whole), the
    pieces after the first indented two; a name longer than room stays whole."""
    if room is None or len(path) <= room:
        return [path]
    pieces: list[str] = []
    line = "/" if path.startswith("/") else ""
    for part in path.lstrip("/").split("/"):
        indent = 2 if pieces else 0
        if line and indent + len(line) + len(part) + 2 > room:  # the two slashes: the one before part, one after
            pieces.append(line + "/")
            line = part
        else:
            line = f"{line}/{part}" if line.strip("/") else line + part
    pieces.append(line)
    return [pieces[0], *(f"  {piece}" for piece in pieces[1:])]
