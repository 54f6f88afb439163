"""PK802: an architecture's own intrinsics and builtins."""

from __future__ import annotations

import os

from portkit.commands.scan.check import Check
from portkit.commands.scan.messages import shown_path
from portkit.commands.scan.unit import Unit
from portkit.cparse.libclang import inclusions
from portkit.findings.model import Location, Rule, Severity

RULE = Rule(
    id="PK802",
    name="arch-intrinsic",
    severity=Severity.NOTE,
    family="Architecture-specific code",
    summary="A call to an architecture's intrinsics (arm_neon.h, arm_acle.h, x86 *intrin.h) or target builtins.",
    why=(
        "Intrinsics map to one architecture's instructions. AArch64's NEON differs from ARMv7's "
        "(no vector registers aliased as pairs, new and removed intrinsics), x86 intrinsics do not "
        "exist on ARM at all, and __builtin_arm_* builtins are specific to one architecture."
    ),
    wrong="uint32x4_t v = vld1q_u32(p);          /* ARMv7 NEON, checked only on AArch32 */\n"
    "unsigned c = __builtin_arm_rbit(x);",
    right="#if defined(__ARM_NEON)\n    /* NEON path, tested on both */\n#else\n    /* portable C */\n#endif",
    fix="Keep intrinsic code behind feature macros (__ARM_NEON, __ARM_FEATURE_CRC32, __SSE4_2__) "
    "with a portable fallback, and test it on the new architecture.",
)

HEADERS = ("arm_neon.h", "arm_acle.h", "arm_sve.h", "arm_fp16.h", "arm_bf16.h", "arm_mve.h")
PREFIXES = ("__builtin_arm_", "__builtin_aarch64_", "__builtin_neon_", "__builtin_ia32_", "__builtin_mips_", "__arm_")


def on_call(unit: Unit, call, _parent) -> None:
    callee = unit.callee(call)
    if callee is None:
        return
    known = unit.notes.setdefault("PK802 callees", {})
    key = bytes(callee)
    if key not in known:  # once per function called: its header's name is a call into libclang
        known[key] = _intrinsic(callee)
    if known[key] is None:
        return
    name, builtin, base = known[key]
    lines = unit.notes.setdefault("PK802 lines", set())
    line = (call.location.file.name if call.location.file else "", call.location.line)
    if line in lines:
        return  # one finding a line: an intrinsic macro expands into builtins on the same line
    lines.add(line)
    where = "a target builtin" if builtin else f"from <{base}>"
    message = f"'{name}' ({where}) is specific to one architecture: check it on {unit.pair.target.abi.name}"
    unit.report(RULE, call, message, anchor=call)


def _intrinsic(callee) -> tuple[str, bool, str] | None:
    """(its name, whether it is a target builtin, its header's name) of a function
    specific to one architecture; None for the rest."""
    name = callee.spelling
    header = callee.location.file.name if callee.location.file else ""
    base = os.path.basename(header)
    builtin = name.startswith(PREFIXES)
    if name.startswith("__builtin_") and not builtin:
        return None  # __builtin_clz, __builtin_bswap32: every target has them (clang declares them where first used)
    if not (builtin or base in HEADERS or base.endswith("intrin.h")):
        return None
    return name, builtin, base


def on_includes(unit: Unit) -> None:
    """#include <arm_neon.h> in the project's own files."""
    target = unit.pair.target.abi.name
    for inclusion in inclusions(unit.ci, unit.tu):
        header = os.path.basename(inclusion.header)
        if inclusion.system or not (header in HEADERS or header.endswith("intrin.h")):
            continue
        message = f"<{header}> declares one architecture's intrinsics: check what uses it on {target}"
        line, column = inclusion.line, inclusion.column
        unit.add(RULE, Location(shown_path(inclusion.file), line, column, line, column), message)


CHECK = Check(RULE, nodes={"CALL_EXPR": on_call}, whole=on_includes, at_home=True)
