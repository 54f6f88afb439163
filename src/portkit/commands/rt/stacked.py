"""rt's wide tables on a narrow terminal. A table (core.fit.Columns) whose
rows would not fit on one line each becomes blocks of its columns one above
the other, each block led by the columns that name a row; in a file or a
pipe, and wherever it fits, it stays one line a row."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from portkit.core.fit import Columns

if TYPE_CHECKING:
    from rich.text import Text


@dataclass(frozen=True)
class Stacked(Columns):
    blocks: tuple[tuple[int, ...], ...] = ()  # the columns of each block, when one line a row would not fit
    above: tuple[str, ...] = ()  # lines said above the blocks (what a block left out)

    def text(self, width: int | None) -> Text:
        whole = Columns.text(self, None)
        if width is None or widest(whole) <= width:
            return whole
        return self.stacked(width)

    def stacked(self, width: int) -> Text:
        from rich.text import Text

        out = Text()
        for line in self.above:
            out.append(f"{line}\n")
        if self.above:
            out.append("\n")
        for block in self.blocks:
            table = Columns(
                [self.header[i] for i in block],
                [[row[i] for i in block] for row in self.rows],
                frozenset(n for n, i in enumerate(block) if i in self.right),
                wrap=block.index(self.wrap) if self.wrap in block else None,
            )
            out.append_text(table.text(width))
            out.append("\n\n")
        out.rstrip()
        return out

    def without(self, column: int, above: Sequence[str] = ()) -> Stacked:
        """The same table without one column (said above instead)."""
        keep = [i for i in range(len(self.header)) if i != column]
        moved = {old: new for new, old in enumerate(keep)}
        return replace(
            self,
            header=[self.header[i] for i in keep],
            rows=[[row[i] for i in keep] for row in self.rows],
            right=frozenset(moved[i] for i in self.right if i in moved),
            wrap=moved.get(self.wrap) if self.wrap is not None else None,
            blocks=tuple(tuple(moved[i] for i in block if i in moved) for block in self.blocks),
            above=(*self.above, *above),
        )


def widest(text: Text) -> int:
    return max((len(line) for line in text.plain.splitlines()), default=0)
