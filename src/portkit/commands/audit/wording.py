"""Counts in words, shared by the audits' reports: `1 rule`, `3 rules`."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`1 file`, `2 files`; `plural` for nouns that do not take an s (`entries`)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
