"""Kalah boards as SVG pictures (standard library only): a position with its stones, the
last sowing and its captures, marked moves; a whole game as an animation.

The layout is RULES.md's: B's pits right to left on top, A's left to right below, B's
store on the left, A's store on the right. Every hole is a ``<g class="hole pit">`` (or
``hole store``) with ``data-hole`` (its RULES.md index), ``data-owner`` (A or B) and
``data-count``; pits also carry ``data-pit``. Marks are classes on the hole: ``sown``
(the last move dropped a stone there, ``data-sown`` the drops' numbers in order),
``start`` (a pit it was sown from), ``last`` (where its last stone fell), ``captured``
(emptied by a capture), ``last-move`` (a pit the last turn sowed), ``mark mark-<kind>``
(a pit of a marked move; ``best`` too for the best move, with ``data-best`` its place in
that move). A traced sowing is also described on the ``<svg>``: ``data-sown-from``,
``data-path`` (every hole a stone fell into, in order) and ``data-captured``. In a
position's picture every pit the side to move may sow also carries ``data-move`` (the
protocol move: the pit's index), which the web page makes clickable; the rings and
badges drawn in it let clicks through.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from boardgames.core.capabilities import Mark
from boardgames.core.protocol import GameError, State
from boardgames.core.svg import (
    FONT,
    LAST_COLOUR,
    SVG,
    document,
    el,
    escape,
    mark_style,
    num,
    overlay,
    text,
    title,
)
from boardgames.kalah import rules

PLAYERS = ("A", "B")

PIT_R = 27.0
CELL = 66.0
STORE_W = 58.0
PAD = 14.0
BAND = 22.0  # the count band above B's pits and below A's
DROP_SECONDS = 0.18
"""With ``animate``: the time between two stones falling."""
STONE_COLOURS = ("#e9c46a", "#5fa8d3", "#e76f51", "#8ab17d", "#b391d6", "#f4f1de", "#f2a65a")

STYLE = f"""
svg {{ font-family: {FONT}; }}
.frame-bg, .background {{ fill: #fffdf8; }}
.heading {{ font-size: 15px; font-weight: 600; fill: #2b2b2b; }}
.caption {{ font-size: 13px; fill: #333; }}
.caption .who {{ font-weight: 700; }}
.board {{ fill: #b9834d; stroke: #8a5a2b; stroke-width: 2; }}
.hole .cup {{ fill: #6f4520; stroke: #5a361a; stroke-width: 1.5; }}
.stone {{ stroke: rgba(0,0,0,0.3); stroke-width: 0.6; }}
.count {{ font-size: 14px; font-weight: 700; fill: #fff8ec; text-anchor: middle; }}
.count.zero {{ fill: #e8d2b4; font-weight: 400; }}
.number {{ font-size: 12px; fill: #777; text-anchor: middle; }}
.side-label {{ font-size: 12px; fill: #777; }}
.to-move .number, .side-label.to-move {{ fill: #1d6f42; font-weight: 700; }}
.turn {{ fill: #fff4c2; opacity: 0.35; }}
.ring {{ fill: none; stroke-width: 3; }}
.last-move .ring {{ stroke: {LAST_COLOUR}; stroke-width: 3; }}
.sown .ring {{ stroke: #ffd166; stroke-dasharray: 4 3; }}
.start .ring {{ stroke: #ffd166; stroke-dasharray: none; stroke-width: 2; }}
.last .ring {{ stroke: #ffb703; stroke-width: 4; stroke-dasharray: none; }}
.captured .ring {{ stroke: #e63946; stroke-width: 4; stroke-dasharray: none; }}
{mark_style(".mark-{kind} .ring {{ stroke: {colour}; stroke-width: 4; stroke-dasharray: none; }}")}
.best .ring {{ stroke: #2dc653; stroke-width: 4; stroke-dasharray: none; }}
.badge circle {{ fill: #2dc653; stroke: #fff; stroke-width: 1.5; }}
.badge.mark-hint circle {{ fill: #339af0; }}
@keyframes kalah-drop {{ from {{ opacity: 0; }} to {{ opacity: 1; }} }}
.animate .ring {{ animation: kalah-drop 0.2s both; }}
.badge text {{ font-size: 11px; font-weight: 700; fill: #fff; text-anchor: middle; }}
.legend {{ font-size: 11px; fill: #555; }}
"""


@dataclass
class Trace:
    """What a compound move did: the pits it was sown from (relays included), every hole
    a stone was dropped into (in order, repeats kept), where the last stone fell, and the
    holes a capture emptied."""

    sown_from: list[int] = field(default_factory=list)
    passed: list[int] = field(default_factory=list)
    last: int | None = None
    captured: list[int] = field(default_factory=list)


def _path(board: Sequence[int], m: int, pit: int, mover: int) -> list[int]:
    """The holes a sowing from ``pit`` drops its stones into, in order (as rules.sow)."""
    n = 2 * m + 2
    skip = 2 * m + 1 if mover == 0 else m
    out: list[int] = []
    i, stones = pit, board[pit]
    while stones:
        i = (i + 1) % n
        if i != skip:
            out.append(i)
            stones -= 1
    return out


def trace_move(
    m: int,
    rule_set: str,
    board: Sequence[int],
    mover: int,
    pits: Sequence[int],
    empty_capture: bool = False,
) -> tuple[Trace, list[int]]:
    """Replay the compound move ``pits`` of ``mover`` from ``board`` (RULES.md 1 and 2),
    noting what it did; returns the trace and the board after it. The board agrees with
    :meth:`Kalah.play` (tests/svg check that on random games)."""
    b = list(board)
    t = Trace()
    store = rules.store_index(m, mover)
    for pit in pits:
        if rule_set == rules.CLASSIC:
            path = _path(b, m, pit, mover)
            t.sown_from.append(pit)
            t.passed += path
            last, _ = rules.sow(b, m, pit, mover)
            t.last = last
            if last != store and rules.owner(m, last) == mover and b[last] == 1:
                facing = rules.opposite(m, last)
                if b[facing] > 0 or empty_capture:
                    t.captured += [last, facing] if b[facing] else [last]
                    b[store] += b[facing] + 1
                    b[facing] = b[last] = 0
            if rules.side_stones(b, m, 0) == 0 or rules.side_stones(b, m, 1) == 0:
                for p in (0, 1):
                    s = rules.store_index(m, p)
                    for i in rules.pit_range(m, p):
                        b[s] += b[i]
                        b[i] = 0
            continue
        lo, hi = (m + 1, 2 * m) if mover == 0 else (0, m - 1)
        while True:
            path = _path(b, m, pit, mover)
            t.sown_from.append(pit)
            t.passed += path
            last, into = rules.sow(b, m, pit, mover)
            t.last = last
            if lo <= last <= hi and b[last] in (2, 3):
                i = last
                while lo <= i <= hi and b[i] in (2, 3):
                    t.captured.append(i)
                    b[store] += b[i]
                    b[i] = 0
                    i -= 1
            if rules.more_than_half(b, m):
                break
            if last != store and rules.owner(m, last) == mover and b[last] > 1 and into > 0:
                pit = last
                continue
            if rules.side_stones(b, m, 1 - mover) == 0:
                for i in rules.pit_range(m, mover):
                    b[store] += b[i]
                    b[i] = 0
            break
    return t, b


def _centres(m: int) -> dict[int, tuple[float, float]]:
    """Centre of every hole (RULES.md index), relative to the board's top-left corner."""
    row_b = BAND + PIT_R + 4
    row_a = row_b + 2 * PIT_R + 14
    out: dict[int, tuple[float, float]] = {}
    x0 = PAD + STORE_W + 8
    for k in range(m):
        x = x0 + CELL * k + CELL / 2
        out[k] = (x, row_a)
        out[2 * m - k] = (x, row_b)
    mid = (row_a + row_b) / 2
    out[2 * m + 1] = (PAD + STORE_W / 2, mid)
    out[m] = (x0 + CELL * m + 8 + STORE_W / 2, mid)
    return out


def board_size(m: int) -> tuple[float, float]:
    """Width and height of the board itself (without labels)."""
    width = 2 * PAD + 2 * STORE_W + 16 + CELL * m
    height = 2 * BAND + 4 * PIT_R + 14 + 8
    return width, height


def _darker(colour: str, factor: float = 0.62) -> str:
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{int(c * factor):02x}" for c in rgb)


STONE_DEFS = el(
    "defs",
    *(
        el(
            "radialGradient",
            el("stop", offset="0", stop_color="#ffffff"),
            el("stop", offset="0.3", stop_color=colour),
            el("stop", offset="1", stop_color=_darker(colour)),
            id=f"kalah-stone-{k}",
            cx="0.35",
            cy="0.32",
            r="0.75",
        )
        for k, colour in enumerate(STONE_COLOURS)
    ),
)
"""Glass-like stones: one radial gradient a colour (the same in every Kalah picture)."""


def _stone(x: float, y: float, r: float, k: int) -> str:
    shade = (k * 3 + k // 7) % len(STONE_COLOURS)
    return (
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" class="stone" '
        f'fill="url(#kalah-stone-{shade})"/>'
    )


def _pit_stones(cx: float, cy: float, n: int, radius: float) -> list[str]:
    """Up to 40 stones in a round pit, laid out as a sunflower (no two on top of each
    other); the count says how many there are."""
    shown = min(n, 40)
    if shown == 0:
        return []
    if shown == 1:
        return [_stone(cx, cy, min(6.5, radius * 0.5), 0)]
    c = radius / math.sqrt(shown + 0.6)
    r = min(6.2, c * 0.86)
    out = []
    for k in range(shown):
        d = c * math.sqrt(k + 0.5)
        a = k * 2.39996323  # the golden angle
        out.append(_stone(cx + d * math.cos(a), cy + d * math.sin(a), r, k))
    return out


def _store_stones(cx: float, cy: float, n: int, w: float, h: float) -> list[str]:
    """Up to 120 stones packed in rows in a store of ``w`` x ``h``."""
    shown = min(n, 120)
    if shown == 0:
        return []
    d = min(12.0, math.sqrt(w * h / shown) * 0.92)
    cols = max(1, int(w // d))
    rows_needed = math.ceil(shown / cols)
    top = cy - (rows_needed - 1) * d * 0.87 / 2
    out = []
    for k in range(shown):
        row, col = divmod(k, cols)
        in_row = min(cols, shown - row * cols)
        shift = (d / 2) * (row % 2) if in_row < cols or cols > 1 else 0
        x = cx - (in_row - 1) * d / 2 + col * d + (shift if in_row < cols else 0)
        out.append(_stone(x, top + row * d * 0.87, d * 0.45, k))
    return out


@dataclass(frozen=True)
class Marks:
    """What to mark on a board besides its stones."""

    to_move: int | None = None
    trace: Trace | None = None
    marked: tuple[Mark, ...] = ()
    caption: str = ""
    legal: tuple[int, ...] = ()
    """The pits the side to move may sow: each gets ``data-move``."""
    last: tuple[int, ...] = ()
    """The pits the last turn sowed (class ``last-move``)."""
    animate: bool = False
    """Light the traced sowing's holes one after another, in the order stones fell."""


def board_body(board: Sequence[int], m: int, marks: Marks, x0: float, y0: float) -> list[str]:
    """The board, its holes, labels and marks, with the board's top-left at (x0, y0); the
    pit numbers sit above and below it, the caption under them."""
    width, height = board_size(m)
    centres = _centres(m)
    parts: list[str] = [
        el("rect", x=x0, y=y0, width=width, height=height, rx=26, class_="board"),
    ]
    if marks.to_move is not None:
        row_y = centres[0][1] if marks.to_move == 0 else centres[m + 1][1]
        xl = centres[0][0] - CELL / 2 + 2
        parts.append(
            el(
                "rect",
                x=x0 + xl,
                y=y0 + row_y - PIT_R - 6,
                width=CELL * m - 4,
                height=2 * PIT_R + 12,
                rx=PIT_R + 6,
                class_="turn",
            )
        )
    trace = marks.trace
    drops: dict[int, list[int]] = {}  # hole -> the numbers of the stones that fell there
    for k, hole in enumerate(trace.passed if trace else (), 1):
        drops.setdefault(hole, []).append(k)
    starts = set(trace.sown_from) if trace else set()
    captured = set(trace.captured) if trace else set()
    kinds: dict[int, list[str]] = {}  # hole -> the kinds of the marks on it
    order: dict[tuple[int, str], list[int]] = {}  # (hole, kind) -> places in the move
    for mark in marks.marked:
        for k, pit in enumerate(mark.moves, 1):
            if mark.kind not in kinds.setdefault(pit, []):
                kinds[pit].append(mark.kind)
            order.setdefault((pit, mark.kind), []).append(k)
    for i in range(2 * m + 2):
        cx, cy = centres[i]
        cx, cy = cx + x0, cy + y0
        owner = rules.owner(m, i)
        store = i in (m, 2 * m + 1)
        count = board[i]
        classes = ["hole", "store" if store else "pit", f"owner-{PLAYERS[owner]}"]
        for name, hit in (
            ("sown", i in drops),
            ("start", i in starts),
            ("last", trace is not None and i == trace.last),
            ("captured", i in captured),
            ("last-move", i in marks.last),
            ("best", "best" in kinds.get(i, ())),
        ):
            if hit:
                classes.append(name)
        if i in kinds:
            classes += ["mark", *(f"mark-{kind}" for kind in kinds[i])]
        delay = None
        if marks.animate and (i in drops or i in captured):
            fell = drops[i][0] if i in drops else len(trace.passed if trace else ()) + 1
            delay = f"animation-delay: {num(round(fell * DROP_SECONDS, 3))}s"
        inner: list[str] = []
        what = f"{PLAYERS[owner]}'s store" if store else f"pit {i} ({PLAYERS[owner]})"
        inner.append(title(f"{what}: {count} stone{'s' * (count != 1)}"))
        if store:
            sh = 2 * PIT_R * 2 + 14 - 4
            inner.append(
                el(
                    "rect",
                    x=cx - STORE_W / 2,
                    y=cy - sh / 2,
                    width=STORE_W,
                    height=sh,
                    rx=STORE_W / 2,
                    class_="cup",
                )
            )
            inner += _store_stones(cx, cy, count, STORE_W - 14, sh - 30)
            ring = overlay(
                "rect",
                x=cx - STORE_W / 2 - 3,
                y=cy - sh / 2 - 3,
                width=STORE_W + 6,
                height=sh + 6,
                rx=STORE_W / 2 + 3,
                class_="ring",
                style=delay,
            )
            count_y = y0 + (BAND - 6 if owner == 1 else height - 7)
        else:
            inner.append(el("circle", cx=cx, cy=cy, r=PIT_R, class_="cup"))
            inner += _pit_stones(cx, cy, count, PIT_R - 5)
            ring = overlay("circle", cx=cx, cy=cy, r=PIT_R + 3, class_="ring", style=delay)
            count_y = cy - PIT_R - 7 if owner == 1 else cy + PIT_R + 17
        if len(classes) > 3:
            inner.append(ring)
        inner.append(text(count, cx, count_y, class_="count zero" if count == 0 else "count"))
        numbered = next((k for k in ("best", "hint") if (i, k) in order), None)
        if numbered is not None:
            label = ",".join(map(str, order[i, numbered]))
            bx, by = cx + PIT_R * 0.72, cy - PIT_R * 0.72
            inner.append(
                overlay(
                    "g",
                    el("circle", cx=bx, cy=by, r=6 + 3 * len(label)),
                    text(label, bx, by + 4),
                    class_=f"badge mark-{numbered}",
                )
            )
        extra: dict[str, str | int | None] = {"data_pit": None if store else i}
        if i in marks.legal:
            extra["data_move"] = i
        if (i, "best") in order:
            extra["data_best"] = " ".join(map(str, order[i, "best"]))
        if i in drops:
            extra["data_sown"] = " ".join(map(str, drops[i]))
        parts.append(
            el(
                "g",
                *inner,
                class_=" ".join(classes),
                data_hole=i,
                data_owner=PLAYERS[owner],
                data_count=count,
                **extra,
            )
        )
    # pit numbers: B's above the board, A's below; side labels
    for player in (0, 1):
        labels = []
        for i in rules.pit_range(m, player):
            cx, cy = centres[i]
            y = y0 - 6 if player == 1 else y0 + height + 15
            labels.append(text(i, x0 + cx, y, class_="number"))
        cls = "pit-numbers" + (" to-move" if marks.to_move == player else "")
        parts.append(el("g", *labels, class_=cls, data_player=PLAYERS[player]))
    left_x = x0 + centres[2 * m + 1][0]
    right_x = x0 + centres[m][0]
    for player, x, y, anchor in (
        (1, left_x, y0 - 6, "middle"),
        (0, right_x, y0 + height + 15, "middle"),
    ):
        cls = "side-label" + (" to-move" if marks.to_move == player else "")
        parts.append(text(f"{PLAYERS[player]}'s store", x, y, text_anchor=anchor, class_=cls))
    if marks.caption:
        parts.append(text(marks.caption, x0, y0 + height + 38, class_="caption"))
    return parts


def text_width(line: str, size: float) -> float:
    """About how wide ``line`` is in a sans-serif font of ``size`` pixels."""
    return len(line) * size * 0.56


def caption_text(board: Sequence[int], m: int, to_move: int | None, over: bool) -> str:
    """``A to move`` or ``Game over: A 32, B 40``."""
    if over or to_move is None:
        return f"Game over: A {board[m]}, B {board[2 * m + 1]}"
    return f"{PLAYERS[to_move]} to move"


def _legend(marks: Marks) -> str:
    words = []
    if marks.trace is not None:
        words.append("yellow: the last move's sowing")
        if marks.trace.captured:
            words.append("red: captured")
    elif marks.last:
        words.append("yellow: the last move")
    kinds = {m.kind for m in marks.marked}
    if "best" in kinds:
        words.append("green: the best move (in order)")
    if "hint" in kinds:
        words.append("blue: a hint")
    return "; ".join(words)


def draw(
    board: Sequence[int],
    m: int,
    *,
    to_move: int | None = None,
    over: bool = False,
    trace: Trace | None = None,
    last: Sequence[int] = (),
    marks: Sequence[Mark] = (),
    heading: str | None = None,
    rule_set: str = rules.CLASSIC,
    animate: bool = False,
) -> SVG:
    """A picture of one position (see the module docstring for its classes): ``trace``
    the last sowing, ``last`` the pits the last turn sowed, ``marks`` moves to mark;
    ``animate`` lights the traced holes in the order the stones fell."""
    width, height = board_size(m)
    top = 24 + (26 if heading else 0)
    caption = caption_text(board, m, to_move, over)
    legal = (
        ()
        if over or to_move is None
        else tuple(i for i in rules.pit_range(m, to_move) if board[i] > 0)
    )
    shown = Marks(
        None if over else to_move,
        trace,
        tuple(marks),
        caption,
        legal,
        tuple(last),
        animate and trace is not None,
    )
    legend = _legend(shown)
    total_h = top + height + 50 + (16 if legend else 0)
    width = max(width, text_width(heading or "", 15), text_width(legend, 11))
    body = [STONE_DEFS]
    body.append(el("rect", x=0, y=0, width=width + 2 * 12, height=total_h, class_="background"))
    if heading:
        body.append(text(heading, 12, 24, class_="heading"))
    body += board_body(board, m, shown, 12, top)
    if legend:
        body.append(text(legend, 12, top + height + 56, class_="legend"))
    label = heading or f"Kalah board, {caption}"
    sowing: dict[str, str] = {}
    if trace is not None:
        sowing = {
            "data_sown_from": " ".join(map(str, trace.sown_from)),
            "data_path": " ".join(map(str, trace.passed)),
            "data_captured": " ".join(map(str, trace.captured)),
        }
    return document(
        width + 24,
        total_h,
        body,
        label=label,
        style=STYLE,
        class_="kalah-board animate" if shown.animate else "kalah-board",
        data_game="kalah",
        data_pits=m,
        data_rules=rule_set,
        data_to_move="" if over or to_move is None else PLAYERS[to_move],
        **sowing,
    )


# --- a whole game as an animation --------------------------------------------------------


@dataclass(frozen=True)
class Frame:
    """One picture of an animation: the board after ``move`` (0: the start), who moved
    and with which pits, the side to move now, whether the game is over, the trace."""

    board: tuple[int, ...]
    move: int
    player: int | None
    pits: tuple[int, ...]
    to_move: int
    over: bool
    trace: Trace | None


def animation(
    frames: Sequence[Frame],
    m: int,
    *,
    heading: str,
    seconds: float = 1.6,
    hold: float = 3.0,
    rule_set: str = rules.CLASSIC,
) -> SVG:
    """The frames as one SVG that plays them in turn with CSS keyframes (``seconds`` a
    frame, the last one held ``hold`` seconds longer, then again from the start). Each
    frame is a ``<g class="frame" data-move="k">``; a viewer without animation shows the
    start, and with reduced motion asked for, the final position."""
    if not frames:
        raise GameError("an animation needs at least one frame")
    width, height = board_size(m)
    top = 50.0
    total_h = top + height + 50
    n = len(frames)
    cycle = n * seconds + hold
    share = 100 * seconds / cycle
    css = [
        STYLE,
        ".frame { visibility: hidden; }",
        ".frame.first { visibility: visible; }",
        f"@keyframes frame {{ 0% {{ visibility: visible; }} {share:.4f}% {{ visibility: "
        "hidden; } 100% { visibility: hidden; } }",
        f"@keyframes last-frame {{ 0% {{ visibility: visible; }} "
        f"{100 * (seconds + hold) / cycle:.4f}% {{ visibility: hidden; }} "
        "100% { visibility: hidden; } }",
        f".animated .frame {{ animation: frame {num(cycle)}s step-end infinite; }}",
        ".animated .frame.first { visibility: hidden; }",
        ".animated .frame.final { animation-name: last-frame; }",
        "@media (prefers-reduced-motion: reduce) { .animated .frame { animation: none; "
        "visibility: hidden; } .animated .frame.final { visibility: visible; } }",
    ]
    width = max(width, text_width(heading, 15), text_width("Move 99: A 1 2 3 — Game over", 13))
    body = [STONE_DEFS]
    body.append(el("rect", x=0, y=0, width=width + 24, height=total_h, class_="background"))
    body.append(text(heading, 12, 24, class_="heading"))
    groups = []
    for k, f in enumerate(frames):
        if f.move == 0:
            what = "Start"
        else:
            assert f.player is not None
            what = f"Move {f.move}: {PLAYERS[f.player]} {' '.join(map(str, f.pits))}"
        caption = what + " — " + caption_text(f.board, m, f.to_move, f.over)
        marks = Marks(None if f.over else f.to_move, f.trace, (), caption)
        classes = ["frame"]
        if k == 0:
            classes.append("first")
        if k == n - 1:
            classes.append("final")
        groups.append(
            el(
                "g",
                el(
                    "rect",
                    x=0,
                    y=top - 20,
                    width=width + 24,
                    height=total_h - top + 20,
                    class_="frame-bg",
                ),
                *board_body(f.board, m, marks, 12, top),
                class_=" ".join(classes),
                data_move=f.move,
                data_player="" if f.player is None else PLAYERS[f.player],
                data_pits=" ".join(map(str, f.pits)),
                data_board=" ".join(map(str, f.board)),
                style=f"animation-delay: {num(round(k * seconds, 3))}s",
            )
        )
    body += groups
    return document(
        width + 24,
        total_h,
        body,
        label=heading,
        style="\n".join(css),
        class_="kalah-board animated",
        data_game="kalah",
        data_pits=m,
        data_rules=rule_set,
        data_frames=n,
        data_seconds=num(seconds),
    )


def frames_of_game(
    m: int,
    rule_set: str,
    start: State,
    steps: Sequence[tuple[int, Sequence[int], State]],
    outcome_over: Sequence[bool],
    empty_capture: bool = False,
) -> list[Frame]:
    """The frames of a game: the start, then one per compound move ``(player, pits,
    state after)``; ``outcome_over[k]`` says whether the game is over after move k+1."""
    size = 2 * m + 2
    board0 = tuple(int(x) for x in start[:size])
    frames = [Frame(board0, 0, None, (), int(start[size]), False, None)]
    before = list(board0)
    for k, (player, pits, state) in enumerate(steps):
        trace, _ = trace_move(m, rule_set, before, player, pits, empty_capture)
        board = tuple(int(x) for x in state[:size])
        frames.append(
            Frame(board, k + 1, player, tuple(pits), int(state[size]), outcome_over[k], trace)
        )
        before = list(board)
    return frames


__all__ = [
    "Frame",
    "Marks",
    "Trace",
    "animation",
    "board_body",
    "draw",
    "escape",
    "frames_of_game",
    "trace_move",
]
