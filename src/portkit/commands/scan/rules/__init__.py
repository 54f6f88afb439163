"""The scan rules, one file each (docs/rules.md is generated from them).

A rule file holds its Rule (id, severity, what, why, a wrong and a right
example, the fix) and the checks the engine hands nodes or clang diagnostics
to; this list is the one place that knows them all, in id order."""

from __future__ import annotations

from portkit.commands.scan.rules import (
    pk101_pointer_to_int,
    pk102_int_to_pointer,
    pk201_printf_format,
    pk202_scanf_format,
    pk301_implicit_narrowing,
    pk302_time_truncation,
    pk401_pointer_size_literal,
    pk402_pointer_bits_literal,
    pk403_mask_32_on_64,
    pk404_narrow_constant_widened,
    pk501_layout_io,
    pk502_union_overlay,
    pk601_narrow_loop_counter,
    pk602_overflow_before_widening,
    pk701_implicit_declaration,
    pk702_va_arg_narrow,
    pk703_int_sentinel,
    pk801_inline_asm,
    pk802_arch_intrinsic,
)
from portkit.commands.scan.rules.check import Check

CHECKS: tuple[Check, ...] = tuple(
    module.CHECK
    for module in (
        pk101_pointer_to_int,
        pk102_int_to_pointer,
        pk201_printf_format,
        pk202_scanf_format,
        pk301_implicit_narrowing,
        pk302_time_truncation,
        pk401_pointer_size_literal,
        pk402_pointer_bits_literal,
        pk403_mask_32_on_64,
        pk404_narrow_constant_widened,
        pk501_layout_io,
        pk502_union_overlay,
        pk601_narrow_loop_counter,
        pk602_overflow_before_widening,
        pk701_implicit_declaration,
        pk702_va_arg_narrow,
        pk703_int_sentinel,
        pk801_inline_asm,
        pk802_arch_intrinsic,
    )
)
RULES = tuple(check.rule for check in CHECKS)
