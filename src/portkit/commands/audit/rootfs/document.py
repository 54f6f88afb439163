"""The rootfs audit's own fields of its JSON document (portkit.audit-rootfs/1
in docs/formats.md): the image, the target, the loaders as modelled, what
was read, the kernel's side, problems, and the findings grouped per rule and
per file."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from portkit.commands.audit.rootfs.audit import Audit, placement
from portkit.commands.audit.rootfs.compat import compat_programs
from portkit.findings.model import Finding, Rule


def audit_fields(audit: Audit, problems: list[str], shown: Sequence[Finding], rules: Sequence[Rule]) -> dict[str, Any]:
    image, target = audit.image, audit.target.abi
    places = Counter(placement(path, facts) for path, facts in audit.files.items())
    kind = "running system" if image.live else "directory" if image.root_uri else "archive"
    return {
        "image": {"path": image.label, "kind": kind, "entries": len(image.nodes) - 1},
        "target": {"abi": target.name, "label": target.label, "triple": target.triple, "source": audit.target.source},
        "loaders": [
            {
                "abi": loader.abi.name,
                "libc": loader.libc,
                "program": loader.program,
                "system_dirs": list(loader.system_dirs),
                "system_source": loader.system_source,
                "conf_dirs": list(loader.conf_dirs),
                "conf_source": loader.conf_source or None,
            }
            for loader in audit.model.loaders()
        ],
        "files": {
            "elf": len(audit.files),
            "audited": len(audit.programs_and_libraries),
            "firmware": places["firmware"],
            "data": places["data"],
            "modules": places["module"],
            "debug": places["debug"],
            "malformed": len(image.malformed),
        },
        "left_out": _left_out(audit),
        "kernel": _kernel(audit),
        "problems": problems,
        "summary": {"by_rule": _by_rule(shown, rules), "by_file": _by_file(shown)},
    }


def _left_out(audit: Audit) -> dict[str, Any]:
    """What the audit did not read: --exclude's matches, and of the running
    system what is not its loader's (live.left_out)."""
    excluded = [{"pattern": pattern, "paths": sorted(paths)} for pattern, paths in audit.image.excluded.items()]
    if not audit.image.live:
        return {"excluded": excluded}
    from portkit.commands.audit.rootfs.live import left_out

    return {"excluded": excluded, **left_out(audit.image, set(audit.loader_dirs))}


def _kernel(audit: Audit) -> dict[str, Any] | None:
    found = compat_programs(audit)
    if found is None:
        return None
    needs = [
        {"option": option, "value": found.state(option), "programs": len(programs)}
        for option, programs in sorted(found.programs.items())
    ]
    if found.vdso and found.time_callers:
        needs.append({"option": found.vdso, "value": found.state(found.vdso), "programs": len(found.time_callers)})
    return {"config": audit.kconfig_path, "needs": needs}


def _by_rule(shown: Sequence[Finding], rules: Sequence[Rule]) -> list[dict[str, Any]]:
    counts = Counter(f.rule for f in shown)
    return [{"rule": r.id, "name": r.name, "family": r.family, "findings": counts[r.id]} for r in rules if counts[r.id]]


def _by_file(shown: Sequence[Finding]) -> list[dict[str, Any]]:
    per_file: dict[str, list[str]] = {}
    for finding in shown:
        per_file.setdefault(finding.location.path, []).append(finding.rule)
    ordered = sorted(per_file.items(), key=lambda item: (-len(item[1]), item[0]))
    return [{"path": path, "findings": len(ids), "rules": sorted(set(ids))} for path, ids in ordered]
