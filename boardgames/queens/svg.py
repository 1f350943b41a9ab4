"""N-queens placements as SVG pictures (standard library only): the board, its queens,
optionally the lines each queen attacks, and queens that attack each other in red.

A placement is a sequence of 1-based columns, row 1 first (RULES.md 5), as a solution
is written; 0 (or a shorter sequence, with ``n`` given) leaves a row empty. Squares are
``<rect class="square light|dark" data-row data-col>``; every queen is a
``<g class="queen" data-row="1" data-col="5">`` (``queen conflict`` when another queen
attacks it); the root has ``data-n`` and ``data-queens`` (the columns, 0 for none).
"""

from __future__ import annotations

import sys
import types
from collections.abc import Sequence
from typing import Any

from boardgames.core.protocol import GameError
from boardgames.core.svg import FONT, SVG, document, el, num, text, title

MAX_N = 64

STYLE = f"""
svg {{ font-family: {FONT}; }}
.background {{ fill: #fbfaf6; }}
.heading {{ font-size: 14px; font-weight: 600; fill: #2b2b2b; }}
.square.light {{ fill: #f0d9b5; }}
.square.dark {{ fill: #b58863; }}
.frame {{ fill: none; stroke: #6b4f34; stroke-width: 2; }}
.coord {{ fill: #7a6a58; font-size: 11px; text-anchor: middle; }}
.queen .body {{ fill: #1f1f1f; stroke: #fff; stroke-width: 1.2; stroke-linejoin: round; }}
.queen.conflict .body {{ fill: #c92a2a; }}
.attack {{ stroke: #c92a2a; stroke-width: 2; opacity: 0.35; stroke-linecap: round; }}
"""


GALLERY_STYLE = """
.solution .heading { font-size: 11px; font-weight: 600; }
"""


def _crown(cx: float, cy: float, s: float) -> str:
    """A queen's crown of size ``s`` centred on (cx, cy): five points over a base."""
    h = s * 0.42
    pts = [
        (-0.42, 0.30),
        (-0.46, -0.22),
        (-0.24, 0.02),
        (-0.16, -0.36),
        (0.0, -0.02),
        (0.16, -0.36),
        (0.24, 0.02),
        (0.46, -0.22),
        (0.42, 0.30),
    ]
    path = " ".join(f"{num(round(cx + x * s, 2))},{num(round(cy + y * s, 2))}" for x, y in pts)
    parts = [el("polygon", points=path, class_="body")]
    for x, y in ((-0.46, -0.22), (-0.16, -0.36), (0.16, -0.36), (0.46, -0.22)):
        parts.append(
            el(
                "circle",
                cx=round(cx + x * s, 2),
                cy=round(cy + y * s, 2),
                r=round(s * 0.06, 2),
                class_="body",
            )
        )
    parts.append(
        el(
            "rect",
            x=round(cx - 0.44 * s, 2),
            y=round(cy + 0.30 * s, 2),
            width=round(0.88 * s, 2),
            height=round(h * 0.32, 2),
            rx=round(s * 0.04, 2),
            class_="body",
        )
    )
    return "".join(parts)


def _conflicts(cols: Sequence[int]) -> set[int]:
    """Rows (0-based) whose queen another queen attacks."""
    placed = [(r, c) for r, c in enumerate(cols) if c]
    bad: set[int] = set()
    for k, (r1, c1) in enumerate(placed):
        for r2, c2 in placed[k + 1 :]:
            if c1 == c2 or abs(c1 - c2) == abs(r1 - r2):
                bad.update((r1, r2))
    return bad


def svg(
    placement: Sequence[int],
    *,
    n: int | None = None,
    attacks: bool = False,
    heading: str | None = None,
    cell: float | None = None,
) -> SVG:
    """A placement as a picture (a ``str`` that shows itself in Jupyter).

    ``placement`` holds 1-based columns, row 1 first (0: no queen in that row); ``n`` is
    the board size (default: the placement's length). ``cell`` is a square's size in
    pixels (default: the board fits about 440 pixels). ``attacks`` draws each queen's
    row, column and diagonals; queens that attack each other are red either way.
    """
    cols = [int(c) for c in placement]
    size = len(cols) if n is None else int(n)
    if not 1 <= size <= MAX_N:
        raise GameError(f"a board has 1 to {MAX_N} rows, got {size}")
    if len(cols) > size:
        raise GameError(f"{len(cols)} rows of queens do not fit a board of {size}")
    bad = next((c for c in cols if not 0 <= c <= size), None)
    if bad is not None:
        raise GameError(f"column {bad} is off a board of {size} (columns are 1 to {size})")
    cols += [0] * (size - len(cols))
    if cell is None:
        cell = max(12.0, min(46.0, 440.0 / size))
    margin, top = 26.0, 34.0 if heading else 12.0
    board = cell * size
    width = margin + board + 12
    height = top + board + 26
    x0, y0 = margin, top
    body = [el("rect", x=0, y=0, width=width, height=height, class_="background")]
    if heading:
        body.append(text(heading, 8, 22, class_="heading"))
    squares = []
    for r in range(size):
        for c in range(size):
            shade = "light" if (r + c) % 2 == 0 else "dark"
            squares.append(
                el(
                    "rect",
                    x=x0 + c * cell,
                    y=y0 + r * cell,
                    width=cell,
                    height=cell,
                    class_=f"square {shade}",
                    data_row=r + 1,
                    data_col=c + 1,
                )
            )
    body.append(el("g", *squares, class_="squares"))
    body.append(el("rect", x=x0, y=y0, width=board, height=board, class_="frame"))
    coords = []
    label_every = 1 if cell >= 16 else 2
    for k in range(size):
        if k % label_every:
            continue
        coords.append(text(k + 1, x0 + k * cell + cell / 2, y0 + board + 16, class_="coord"))
        coords.append(text(k + 1, x0 - 12, y0 + k * cell + cell / 2 + 4, class_="coord"))
    body.append(el("g", *coords, class_="coords"))
    if attacks:
        lines = []
        for r, c in enumerate(cols):
            if not c:
                continue
            cx, cy = x0 + (c - 1) * cell + cell / 2, y0 + r * cell + cell / 2
            lo, hi = x0 + cell / 2, x0 + board - cell / 2
            top_y, bottom_y = y0 + cell / 2, y0 + board - cell / 2
            lines.append(el("line", x1=lo, y1=cy, x2=hi, y2=cy))
            lines.append(el("line", x1=cx, y1=top_y, x2=cx, y2=bottom_y))
            for d in (1, -1):  # the two diagonals, clipped to the board's centres
                back = min(r, (c - 1) if d == 1 else (size - c))
                fwd = min(size - 1 - r, (size - c) if d == 1 else (c - 1))
                lines.append(
                    el(
                        "line",
                        x1=cx - d * back * cell,
                        y1=cy - back * cell,
                        x2=cx + d * fwd * cell,
                        y2=cy + fwd * cell,
                    )
                )
            body.append(el("g", *lines, class_="attack", data_row=r + 1, data_col=c))
            lines = []
    conflicts = _conflicts(cols)
    for r, c in enumerate(cols):
        if not c:
            continue
        cx, cy = x0 + (c - 1) * cell + cell / 2, y0 + r * cell + cell / 2
        cls = "queen conflict" if r in conflicts else "queen"
        body.append(
            el(
                "g",
                title(f"queen in row {r + 1}, column {c}"),
                _crown(cx, cy, cell * 0.8),
                class_=cls,
                data_row=r + 1,
                data_col=c,
            )
        )
    label = heading or f"{size} queens: {' '.join(map(str, cols))}"
    return document(
        width,
        height,
        body,
        label=label,
        style=STYLE,
        class_="queens-board",
        data_game="queens",
        data_n=size,
        data_queens=" ".join(map(str, cols)),
    )


def gallery(
    boards: Sequence[tuple[Sequence[int], str]], *, heading: str, columns: int | None = None
) -> SVG:
    """Many placements in one picture, a grid of small boards each under its title (for
    ``queens solve --format svg``); each board is a ``<g class="solution" data-index>``
    holding what :func:`svg` draws."""
    if not boards:
        body = [text(heading, 8, 22, class_="heading")]
        return document(420, 40, body, label=heading, style=STYLE, class_="queens-gallery")
    size = max(len(b) for b, _ in boards)
    cell = max(8.0, min(24.0, 200.0 / size))
    one_w = 26 + cell * size + 12
    one_h = 34 + cell * size + 26
    if columns is None:
        columns = max(1, min(len(boards), int(1000 // one_w)))
    rows = -(-len(boards) // columns)
    width, height = columns * one_w + 8, rows * one_h + 36
    body = [el("rect", x=0, y=0, width=width, height=height, class_="background")]
    body.append(text(heading, 8, 22, class_="heading"))
    for k, (placement, name) in enumerate(boards):
        r, c = divmod(k, columns)
        one = svg(placement, heading=name, cell=cell, n=size)
        inner = one[one.index(">", one.index("<svg")) + 1 : one.rindex("</svg>")]
        inner = inner.split("</title>", 1)[1]  # the board's own title goes; it is a heading
        inner = inner.split("</style>", 1)[1]  # one stylesheet for all
        body.append(
            el(
                "g",
                inner,
                class_="solution",
                transform=f"translate({num(4 + c * one_w)} {num(30 + r * one_h)})",
                data_index=k + 1,
                data_queens=" ".join(map(str, placement)),
            )
        )
    return document(
        width,
        height,
        body,
        label=heading,
        style=STYLE + GALLERY_STYLE,
        class_="queens-gallery",
        data_game="queens",
        data_n=size,
        data_count=len(boards),
    )


class _CallableModule(types.ModuleType):
    """``boardgames.queens.svg`` is this module and, called, its :func:`svg`: the package
    exports the function under the module's own name (``boardgames.queens.svg(sol)``), and
    once the module is imported the package's attribute is the module."""

    def __call__(self, placement: Sequence[int], **options: Any) -> SVG:
        return svg(placement, **options)


sys.modules[__name__].__class__ = _CallableModule
