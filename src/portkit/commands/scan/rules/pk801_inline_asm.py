"""PK801: inline assembly, which the new architecture cannot run."""

from __future__ import annotations

from portkit.commands.scan.check import Check
from portkit.commands.scan.unit import Unit
from portkit.findings.model import Rule, Severity

RULE = Rule(
    id="PK801",
    name="inline-asm",
    severity=Severity.NOTE,
    family="Architecture-specific code",
    summary="Inline assembly: its instructions, registers and their sizes belong to one architecture.",
    why=(
        "A32/T32 and A64 are different instruction sets with different registers (r0-r15 vs x0-x30/w0-w30) "
        "and calling conventions; code written for one does not assemble, or silently does something "
        "else, on the other (the field report: openssl had to be built with no-asm for AArch64)."
    ),
    wrong='__asm__ volatile("mcr p15, 0, %0, c7, c10, 5" : : "r"(0));   /* ARMv7 barrier */',
    right="__atomic_thread_fence(__ATOMIC_SEQ_CST);   /* or a per-architecture file */",
    fix="Use a compiler builtin or C11 atomic where one exists; otherwise keep one implementation per "
    "architecture behind #if defined(__aarch64__) / __arm__ and a portable fallback.",
)


def on_asm(unit: Unit, node, _parent) -> None:
    strings = [t.spelling for t in node.get_tokens() if t.kind.name == "LITERAL" and t.spelling.startswith('"')]
    if strings and all(s == '""' for s in strings[:1]):
        return  # asm("" ::: "memory"): a compiler barrier, no instruction
    message = f"inline assembly: rewrite it for {unit.pair.target.abi.name} or replace it with a builtin"
    unit.report(RULE, node, message, anchor=node)


CHECK = Check(RULE, nodes={"ASM_STMT": on_asm, "MS_ASM_STMT": on_asm}, at_home=True)
