"""Nim's addition to the web page's Play tab (:data:`WEB`, the plugin's ``web``): Bouton's
binary table beside the rows, as ``nim analyse`` prints it.

Each row's chips left in binary, the ones in every column and their parity, the nim-sum
and what it says: every column even (nim-sum 0) is a safe position, which the player to
move loses against perfect play (misère play too, until no row holds more than one chip).
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from boardgames.core.protocol import State
from boardgames.nim.game import Nim
from boardgames.nim.rules import bit_columns, column_counts, is_safe, nim_sum
from boardgames.web.extras import Panel, WebExtras


def _cell(tag: str, text: object, cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    return f"<{tag}{attr}>{escape(str(text))}</{tag}>"


def binary_table(game: Nim, state: State) -> Panel:
    """The binary table of the position: rows, bits, ones, parity; the nim-sum."""
    rows = game.rows_of(state)
    columns = bit_columns(rows)
    ones = column_counts(rows)
    head = _cell("th", "row") + _cell("th", "chips") + "".join(_cell("th", c) for c in columns)
    lines = [f"<tr>{head}</tr>"]
    for k, count in enumerate(rows):
        bits = "".join(
            _cell("td", 1 if count & c else 0, "one" if count & c else "zero") for c in columns
        )
        lines.append(f'<tr data-row="{k}">{_cell("td", k + 1)}{_cell("td", count)}{bits}</tr>')
    lines.append(
        "<tr>" + _cell("td", "ones", "l") + _cell("td", "")
        + "".join(_cell("td", n) for n in ones) + "</tr>"
    )  # fmt: skip
    lines.append(
        "<tr>" + _cell("td", "parity", "l") + _cell("td", "")
        + "".join(_cell("td", "odd" if n % 2 else "even", "odd" if n % 2 else "even")
                  for n in ones)
        + "</tr>"
    )  # fmt: skip
    total = nim_sum(rows)
    if not any(rows):
        said = "No chip left: the game is over."
    elif is_safe(rows, game.misere):
        said = (
            f"nim-sum {total}: a safe position (every column even, or its misère end): "
            "the player to move loses against perfect play."
        )
    else:
        said = f"nim-sum {total}: some column odd: the player to move can win."
    table = f'<table class="data bits">{"".join(lines)}</table>'
    note = f'<p class="note nim-sum" data-nim-sum="{total}">{escape(said)}</p>'
    return Panel("Binary table", table + note)


WEB = WebExtras(
    static=Path(__file__).parent / "static",
    styles=("nim.css",),
    panel=binary_table,
)
"""What Nim's plugin names (``web``)."""
