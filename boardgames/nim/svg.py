"""Nim positions as SVG pictures (standard library only): rows of chips, chips taken
faint, optionally Bouton's binary table and the chips a winning move takes.

Every row is a ``<g class="row" data-row="1" data-chips="3" data-start="3">`` (rows
numbered from 1, as on screen); its chips are ``<circle class="chip">`` (``chip taken``
for the ones gone, ``last-move`` too for those the last move took; ``chip take mark
mark-<kind>`` for the ones a marked move takes). Every chip still on the board carries
``data-move``, the protocol move that takes it and every chip to its right (``row *
MOVE_STRIDE + take``, row 0-based: the k-th chip from the right end takes k), which the
web page makes clickable; a row too long to draw chip by chip is a bar with one clickable
``<rect class="slot">`` a chip. The binary table, when drawn, is a ``<g class="binary">``
whose cells carry ``data-row``, ``data-bit`` and ``data-value``, and whose column sums
carry ``data-ones`` and ``odd`` or ``even``.
"""

from __future__ import annotations

from collections.abc import Sequence

from boardgames.core.svg import (
    FONT,
    LAST_COLOUR,
    SVG,
    document,
    el,
    mark_style,
    overlay,
    text,
    title,
)

CHIP_R = 11.0
STEP = 27.0
ROW_H = 34.0
MAX_DRAWN = 40
"""Rows longer than this are drawn as a bar, not chip by chip."""
MOVE_STRIDE = 1 << 16
"""A protocol move is ``row * MOVE_STRIDE + take``, as :func:`boardgames.nim.game.encode_move`
makes it (this module cannot import the game: the game imports it)."""

STYLE = f"""
svg {{ font-family: {FONT}; font-size: 13px; }}
.background {{ fill: #fbfaf6; }}
.heading {{ font-size: 15px; font-weight: 600; fill: #2b2b2b; }}
.row-number {{ fill: #2a6f97; font-weight: 600; text-anchor: end; }}
.count {{ fill: #333; font-weight: 700; }}
.chip {{ fill: #f4a259; stroke: #b5651d; stroke-width: 1.5; }}
.chip.taken {{ fill: none; stroke: #c9c2b8; stroke-dasharray: 3 3; }}
.chip.take {{ fill: #8fd694; stroke: #2f9e44; stroke-width: 2.5; }}
{mark_style(".chip.mark-{kind}, .bar.mark-{kind} {{ fill: {colour}; fill-opacity: 0.55; }}")}
.chip.last-move {{ stroke: {LAST_COLOUR}; stroke-width: 2.5; stroke-dasharray: none; }}
.bar.last-move {{ fill: {LAST_COLOUR}; fill-opacity: 0.5; stroke: none; }}
.bar {{ fill: #f4a259; stroke: #b5651d; }}
.bar.taken {{ fill: #eee8df; stroke: #c9c2b8; }}
.slot {{ fill: #fff; fill-opacity: 0; }}
.binary .head {{ fill: #666; font-size: 11px; text-anchor: middle; }}
.binary .bit {{ text-anchor: middle; font-family: ui-monospace, 'DejaVu Sans Mono', monospace; }}
.binary .bit.one {{ fill: #222; font-weight: 700; }}
.binary .bit.zero {{ fill: #b8b2a8; }}
.binary .column.odd {{ fill: #ffe3e3; }}
.binary .column.even {{ fill: #e6f4ea; }}
.binary .sum {{ text-anchor: middle; font-size: 11px; font-weight: 700; }}
.binary .sum.odd {{ fill: #c92a2a; }}
.binary .sum.even {{ fill: #2b8a3e; }}
.binary .rule {{ stroke: #999; }}
.caption {{ fill: #333; }}
.caption.safe {{ fill: #2b8a3e; }}
.caption.unsafe {{ fill: #c92a2a; }}
"""


def draw(
    rows: Sequence[int],
    start: Sequence[int],
    *,
    binary: bool = False,
    marks: Sequence[tuple[str, int, int]] = (),
    last: tuple[int, int] | None = None,
    to_move: int | None = None,
    heading: str | None = None,
    caption: str = "",
    caption_class: str = "",
) -> SVG:
    """A Nim position: ``rows`` the chips left, ``start`` the starting layout (the chips
    gone are drawn faint); ``binary`` adds the binary table with its column parities;
    ``marks`` are ``(kind, row, count)`` (row 0-based): the chips a marked move takes;
    ``last = (row, count)`` the chips the last move took."""
    rows = [int(r) for r in rows]
    start = [max(int(s), r) for s, r in zip(start, rows, strict=True)]
    widest = max([*start, 1])
    chips_w = STEP * min(widest, MAX_DRAWN) if widest <= MAX_DRAWN else 420.0
    left = 44.0
    top = 44.0 if heading else 18.0
    bits = max(1, max(rows + start).bit_length())
    table_x = left + chips_w + 52
    col_w = 22.0
    width = table_x + (bits * col_w + 20 if binary else 0) + 12
    height = top + ROW_H * len(rows) + (40 if binary else 10) + (22 if caption else 0)
    body = [el("rect", x=0, y=0, width=width, height=height, class_="background")]
    if heading:
        body.append(text(heading, 12, 26, class_="heading"))
    head_h = 18.0 if binary else 0.0
    y0 = top + head_h
    for i, (left_now, first) in enumerate(zip(rows, start, strict=True)):
        cy = y0 + ROW_H * i + ROW_H / 2
        taking = [(kind, count) for kind, row, count in marks if row == i]
        gone = last[1] if last is not None and last[0] == i else 0
        parts = [
            title(f"row {i + 1}: {left_now} chip{'s' * (left_now != 1)} left of {first}"),
            text(i + 1, left - 14, cy + 5, class_="row-number"),
        ]
        if widest <= MAX_DRAWN:
            for k in range(first):
                if k < left_now:
                    kinds = [f"mark-{kind}" for kind, n in taking if k >= left_now - n]
                    cls = " ".join(["chip", *(["take", "mark"] if kinds else []), *kinds])
                else:
                    cls = "chip taken" + (" last-move" if k < left_now + gone else "")
                move = i * MOVE_STRIDE + left_now - k if k < left_now else None
                parts.append(
                    el(
                        "circle",
                        cx=left + STEP * k + CHIP_R,
                        cy=cy,
                        r=CHIP_R,
                        class_=cls,
                        data_move=move,
                    )
                )
        else:
            parts += _bar_row(i, left_now, first, taking, gone, left, cy, chips_w / widest)
        parts.append(text(left_now, left + chips_w + 14, cy + 5, class_="count"))
        body.append(
            el("g", *parts, class_="row", data_row=i + 1, data_chips=left_now, data_start=first)
        )
    if binary:
        body.append(_binary(rows, bits, table_x, top, y0, col_w))
    if caption:
        body.append(text(caption, 12, height - 10, class_=f"caption {caption_class}".strip()))
    return document(
        width,
        height,
        body,
        label=heading or f"Nim: rows {' '.join(map(str, rows))}",
        style=STYLE,
        class_="nim-board",
        data_game="nim",
        data_rows=len(rows),
        data_to_move="" if to_move is None else to_move,
    )


def _bar_row(
    i: int,
    left_now: int,
    first: int,
    taking: list[tuple[str, int]],
    gone: int,
    x0: float,
    cy: float,
    scale: float,
) -> list[str]:
    """A row too long for chips: bars, one clickable slot a chip left, the marks over."""

    def bar(lo: int, n: int, cls: str) -> str:
        x, w = x0 + lo * scale, n * scale
        return overlay("rect", x=x, y=cy - 9, width=w, height=18, rx=4, class_=cls)

    parts = [bar(0, first, "bar taken")] + ([bar(0, left_now, "bar")] if left_now else [])
    for k in range(left_now):
        move = i * MOVE_STRIDE + left_now - k
        x = x0 + k * scale
        parts.append(el("rect", x=x, y=cy - 9, width=scale, height=18, class_="slot",
                        data_move=move))  # fmt: skip
    parts += [bar(left_now - n, n, f"bar take mark mark-{kind}") for kind, n in taking]
    return parts + ([bar(left_now, gone, "bar last-move")] if gone else [])


def _binary(rows: Sequence[int], bits: int, x0: float, top: float, y0: float, col_w: float) -> str:
    """Bouton's table: each row's count in binary, the ones of each column summed, odd
    columns shaded red, even ones green."""
    parts = []
    bottom = y0 + ROW_H * len(rows)
    for j in range(bits):
        bit = bits - 1 - j
        x = x0 + j * col_w
        ones = sum((r >> bit) & 1 for r in rows)
        parity = "odd" if ones % 2 else "even"
        parts.append(
            el(
                "rect",
                x=x + 1,
                y=y0,
                width=col_w - 2,
                height=ROW_H * len(rows),
                rx=3,
                class_=f"column {parity}",
                data_bit=bit,
                data_ones=ones,
            )
        )
        parts.append(text(1 << bit, x + col_w / 2, top + 10, class_="head"))
        parts.append(
            text(
                ones,
                x + col_w / 2,
                bottom + 16,
                class_=f"sum {parity}",
                data_bit=bit,
                data_ones=ones,
            )
        )
        for i, r in enumerate(rows):
            value = (r >> bit) & 1
            cy = y0 + ROW_H * i + ROW_H / 2
            parts.append(
                text(
                    value,
                    x + col_w / 2,
                    cy + 5,
                    class_=f"bit {'one' if value else 'zero'}",
                    data_row=i + 1,
                    data_bit=bit,
                    data_value=value,
                )
            )
    parts.append(
        el("line", x1=x0, y1=bottom + 2, x2=x0 + bits * col_w, y2=bottom + 2, class_="rule")
    )
    return el("g", *parts, class_="binary")
