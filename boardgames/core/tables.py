"""Result tables that fit the terminal: a number is never cut, a column is left out instead.

rich shrinks a table that is too wide by cutting its widest cells (``1.000-1.…``). A
:class:`FitTable` is built when it is printed, for the width it gets: number columns never
wrap, text columns fold, and when even that does not fit, the columns that matter least
(``drop`` 1 first, then 2, ...) are left out and the caption says which.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, JustifyMethod, RenderableType, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table


@dataclass(frozen=True)
class Col:
    """A column of a :class:`FitTable`.

    ``number``: its cells are numbers (or other words that must not be cut): they never
    wrap; give a long header a line break ("positions\\nvisited") to keep it narrow.
    ``drop``: 0 keeps the column at any width; otherwise the column may be left out on a
    narrow terminal, those with the lowest ``drop`` first.
    """

    header: str
    justify: JustifyMethod = "left"
    number: bool = False
    drop: int = 0

    @property
    def name(self) -> str:
        """The header on one line (for the caption's note on left-out columns)."""
        return " ".join(self.header.split())


def _renderable(console: Console, cell: RenderableType) -> RenderableType:
    """A cell as rich renders it in a table: a string is read as markup."""
    return console.render_str(cell) if isinstance(cell, str) else cell


class FitTable:
    """A table of :class:`Col` columns and rows of cells (strings with rich markup or
    renderables), laid out for the width it is printed at (see the module doc)."""

    def __init__(
        self,
        columns: Sequence[Col],
        *,
        title: str | None = None,
        caption: str | None = None,
        **table_options: object,
    ) -> None:
        self.columns = list(columns)
        self.title = title
        self.caption = caption
        self.table_options = table_options
        self.rows: list[tuple[RenderableType, ...]] = []

    def add_row(self, *cells: RenderableType) -> None:
        """One row: a cell per column, in the order of the columns."""
        if len(cells) != len(self.columns):
            raise ValueError(f"a row needs {len(self.columns)} cells, got {len(cells)}")
        self.rows.append(cells)

    def kept_columns(self, console: Console, width: int) -> list[int]:
        """Indexes of the columns shown at ``width``: all that fit, leaving out the
        droppable ones (lowest ``drop`` first) until the rest fits or none is left."""
        kept = list(range(len(self.columns)))
        droppable = sorted(
            (i for i, c in enumerate(self.columns) if c.drop), key=lambda i: self.columns[i].drop
        )
        for i in droppable:
            if self.needed_width(console, kept) <= width:
                break
            kept.remove(i)
        return kept

    def needed_width(self, console: Console, kept: Iterable[int]) -> int:
        """Columns needed for the ``kept`` columns without cutting a number or a word:
        number columns at their widest cell, text columns at their longest word."""
        kept = list(kept)
        sample = self._table(kept, None)
        options = console.options.update_width(10_000)
        total = 0
        for i in kept:
            cells = [self.columns[i].header, *(row[i] for row in self.rows)]
            sizes = [Measurement.get(console, options, _renderable(console, c)) for c in cells]
            if self.columns[i].number:
                total += max(m.maximum for m in sizes)
            else:
                total += max(m.minimum for m in sizes)
        _, right, _, left = Padding.unpack(sample.padding)
        borders = (2 if sample.box and sample.show_edge else 0) + (
            len(kept) - 1 if sample.box else 0
        )
        return total + len(kept) * (left + right) + borders

    def table(self, console: Console, width: int) -> Table:
        """The rich Table for ``width`` columns."""
        kept = self.kept_columns(console, width)
        left_out = [self.columns[i].name for i in range(len(self.columns)) if i not in kept]
        note = None
        if left_out:
            note = f"(narrow terminal: {', '.join(left_out)} left out; wider shows all)"
        return self._table(kept, note)

    def _table(self, kept: Sequence[int], note: str | None) -> Table:
        caption = "\n".join(part for part in (self.caption, note) if part) or None
        table = Table(title=self.title, caption=caption, **self.table_options)  # type: ignore[arg-type]
        for i in kept:
            col = self.columns[i]
            table.add_column(
                col.header,
                justify=col.justify,
                no_wrap=col.number,
                overflow="ellipsis" if col.number else "fold",
            )
        for row in self.rows:
            table.add_row(*(row[i] for i in kept))
        return table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.table(console, options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.table(console, options.max_width))
