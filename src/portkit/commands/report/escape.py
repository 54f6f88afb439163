"""Names from the inputs as every output shows them: a struct, a file, a
load or a cyclictest line may hold anything. Characters that hide or
reorder text (bidi controls, zero-width marks, terminal escapes, bytes that
were not UTF-8) are shown as `<U+202E>`; then each format escapes what it
must: HTML's markup (`Html`, `h()`), Markdown's code spans and punctuation,
XML's (ElementTree does)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

# C0 (less tab and newline) and C1 controls, DEL, the Arabic letter mark, zero-width
# and bidi marks, embeddings, overrides and isolates, word joiners, BOM, lone surrogates.
HIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ud800-\udfff\ufffe\uffff]"
)


def visible(text: object) -> str:
    """text with every hiding or reordering character spelt out."""
    return HIDDEN.sub(lambda m: f"<U+{ord(m.group()):04X}>", str(text))


class Html(str):
    """Markup that is safe as it is: made by h() or esc(), never by hand from input."""


def esc(text: object) -> Html:
    """Text as HTML: markup characters and quotes escaped, hidden characters shown."""
    return text if isinstance(text, Html) else Html(html.escape(visible(text), quote=True))


def h(tag: str, *children: object, **attributes: object) -> Html:
    """`<tag attributes>children</tag>`: every string escaped unless it is Html;
    None and False are left out, lists are flattened. `class_` is `class`."""
    attrs = "".join(_attribute(name, value) for name, value in attributes.items())
    inner = "".join(_children(children))
    return Html(f"<{tag}{attrs}>{inner}</{tag}>")


def void(tag: str, **attributes: object) -> Html:
    """An element without content: `<img ...>`, `<meta ...>`."""
    return Html(f"<{tag}{''.join(_attribute(name, value) for name, value in attributes.items())}>")


def join(parts: Iterable[object]) -> Html:
    return Html("".join(_children(tuple(parts))))


def _attribute(name: str, value: object) -> str:
    if value is None or value is False:
        return ""
    name = name.rstrip("_").replace("_", "-")
    return f" {name}" if value is True else f' {name}="{esc(value)}"'


def _children(children: tuple[object, ...]) -> Iterable[str]:
    for child in children:
        if child is None or child is False:
            continue
        if isinstance(child, (list, tuple)):
            yield from _children(tuple(child))
        else:
            yield esc(child)


# ------------------------------------------------------------------ Markdown

PUNCTUATION = re.compile(r"([\\`*_{}\[\]()#+\-.!|~@:\"'=$%^])")
ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def md_text(text: object, limit: int | None = None) -> str:
    """Prose from the inputs in Markdown, on one line: HTML's characters as
    entities (no renderer reads a tag in them), every other punctuation mark
    that could start markup escaped (CommonMark lets any be)."""
    line = re.sub("[&<>]", lambda m: ENTITIES[m.group()], _one_line(text, limit))
    return PUNCTUATION.sub(r"\\\1", line)


def md_prose(text: object, limit: int | None = None) -> str:
    """Prose whose `backquoted` parts are code spans (as the commands write
    their fixes), the rest md_text; an unpaired backquote leaves it all prose."""
    parts = _one_line(text, limit).split("`")
    if len(parts) % 2 == 0:
        return md_text("`".join(parts))
    return "".join(md_code(part) if index % 2 else md_text(part) for index, part in enumerate(parts))


def md_code(text: object, limit: int | None = None) -> str:
    """A name or message as a code span, where nothing is markup (no link, no
    HTML, no mention): fenced with more backticks than it holds, its pipes
    escaped for a table cell (GitHub and GitLab split cells first)."""
    content = _one_line(text, limit).replace("|", "\\|")
    longest = max((len(run) for run in re.findall("`+", content)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if content.startswith(("`", " ")) or content.endswith(("`", " ")) or not content else ""
    return f"{fence}{pad}{content}{pad}{fence}"


def _one_line(text: object, limit: int | None) -> str:
    line = " ".join(visible(text).split())
    return line if limit is None or len(line) <= limit else line[: limit - 1] + "…"
