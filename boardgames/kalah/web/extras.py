"""Kalah's additions to the web page's generic tabs (:data:`WEB`, the plugin's ``web``).

- :func:`animate`: a sowing stone by stone. The rules module itself is run on a board
  that notes every change it makes (:class:`TraceBoard`): a pit emptied to sow it, a
  stone dropped, a capture, the stones a capture or the end of the game puts in a store.
  Each change is a frame (a picture of :mod:`boardgames.kalah.svg`, the same size as the
  position's), its marks those of the sowing so far; a long sowing drops several stones
  a frame (at most :data:`MAX_FRAMES` frames).
- :func:`read_record`: a ``.klh`` record (RULES.md section 3, the classic Russian
  printout too) read and replayed, for the Play tab's *Open a game record* and the
  Review tab (the plugin's ``records`` writes them: *Download record*).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, SupportsIndex

from boardgames.core.protocol import State
from boardgames.core.svg import document, el
from boardgames.kalah import rules as kalah_rules
from boardgames.kalah import svg as kalah_svg
from boardgames.kalah.game import PLAYER_NAMES, Kalah
from boardgames.kalah.plugin import PLUGIN
from boardgames.kalah.record import parse_record, replay
from boardgames.web.extras import Frame, RecordRead, WebExtras

MAX_FRAMES = 40
"""Frames a sowing is shown in at most (more stones: several drop in one frame)."""
BEATS = {"take": 2.0, "drop": 1.0, "store": 2.0, "capture": 2.0}
"""How long each kind of change stays on the board, in beats (the page's speed)."""


# --- a sowing, stone by stone --------------------------------------------------------------


class TraceBoard(list[int]):
    """A board list that notes every change the rules make to it: ``(hole, new count)``."""

    def __init__(self, board: list[int]) -> None:
        super().__init__(board)
        self.changes: list[tuple[int, int]] = []

    def __setitem__(self, index: SupportsIndex | slice, value: Any) -> None:
        if isinstance(index, slice):  # the rules never assign slices; keep them honest
            raise TypeError("slice assignment is not traced")
        super().__setitem__(index, value)
        self.changes.append((int(index), int(value)))


@dataclass(frozen=True)
class Change:
    """One change a sowing makes: ``hole`` now holds ``count``; ``what`` is ``take`` (a
    pit emptied to sow it), ``drop`` (one stone), ``capture`` (a hole emptied by a capture
    or the end's sweep) or ``store`` (several stones into a store at once)."""

    hole: int
    count: int
    what: str


def trace_sowing(game: Kalah, state: State, pit: int) -> list[Change]:
    """Every change one sowing of the side to move makes, in order, as the rules module
    makes it (a sweep of an empty pit, which changes nothing, is left out)."""
    board = TraceBoard(game.board(state))
    mover = game.to_move(state)
    if game.rules == kalah_rules.CLASSIC:
        kalah_rules.classic_move(board, game.pits, mover, pit, game.empty_capture)
    else:
        kalah_rules.etudes_move(board, game.pits, mover, pit)
    before = game.board(state)
    changes = []
    for k, (hole, count) in enumerate(board.changes):
        old = before[hole]
        if count == old:
            continue
        if count == old + 1:
            what = "drop"
        elif count > old:
            what = "store"
        else:  # emptied: to be sown (a drop follows) or taken away
            following = board.changes[k + 1 : k + 2]
            sown = following and following[0][1] == before[following[0][0]] + 1
            what = "take" if sown and following[0][0] != hole else "capture"
        changes.append(Change(hole, count, what))
        before[hole] = count
    return changes


def _groups(changes: list[Change]) -> list[list[Change]]:
    """The changes shown together in one frame: one each, or several drops in a row when
    the sowing would take more than :data:`MAX_FRAMES` frames."""
    others = sum(1 for c in changes if c.what != "drop")
    drops = len(changes) - others
    room = max(1, MAX_FRAMES - others)
    per = max(1, math.ceil(drops / room))
    out: list[list[Change]] = []
    for change in changes:
        last = out[-1] if out else None
        if (
            change.what == "drop"
            and last is not None
            and last[-1].what == "drop"
            and len(last) < per
        ):
            last.append(change)
        else:
            out.append([change])
    return out


def frame_svg(game: Kalah, board: list[int], trace: kalah_svg.Trace, caption: str) -> str:
    """A picture of the board during a sowing, the size of the position's picture: its
    marks the sowing's so far (the pits sown from, the holes sown into, the last, the
    captured); no hole can be clicked."""
    m = game.pits
    width, height = kalah_svg.board_size(m)
    top = 24.0
    total_h = top + height + 50
    marks = kalah_svg.Marks(to_move=None, trace=trace, caption=caption)
    body = [
        kalah_svg.STONE_DEFS,
        el("rect", x=0, y=0, width=width + 24, height=total_h, class_="background"),
        *kalah_svg.board_body(board, m, marks, 12, top),
    ]
    return str(
        document(
            width + 24,
            total_h,
            body,
            label=f"Kalah board: {caption}",
            style=kalah_svg.STYLE,
            class_="kalah-board sowing",
            data_game="kalah",
            data_pits=m,
        )
    )


def animate(game: Kalah, state: State, move: int) -> list[Frame]:
    """The frames of the sowing ``move`` (a pit of the side to move) played in ``state``:
    the pit emptied, each stone dropped, each capture, the stones put in a store."""
    changes = trace_sowing(game, state, move)
    who = PLAYER_NAMES[game.to_move(state)]
    board = game.board(state)
    trace = kalah_svg.Trace()
    frames = []
    in_hand = 0
    for group in _groups(changes):
        for change in group:
            board[change.hole] = change.count
            if change.what == "take":
                in_hand = board_before(changes, change, game.board(state))
                trace.sown_from.append(change.hole)
            elif change.what == "drop":
                in_hand -= 1
                trace.passed.append(change.hole)
                trace.last = change.hole
            elif change.what == "capture":
                trace.captured.append(change.hole)
            else:
                trace.last = change.hole
        kind = group[-1].what
        hand = f"{in_hand} stone{'s' * (in_hand != 1)} in hand"
        if kind == "take":
            caption = f"{who} sows pit {group[-1].hole}: {hand}"
        elif kind == "drop":
            caption = f"{who} sows pit {trace.sown_from[-1]}: {hand}"
        elif kind == "capture":
            caption = f"{who} sows pit {move}: pit {group[-1].hole} is emptied"
        else:
            caption = f"{who} sows pit {move}: {board[group[-1].hole]} stones in the store"
        shown = kalah_svg.Trace(
            list(trace.sown_from), list(trace.passed), trace.last, list(trace.captured)
        )
        frames.append(Frame(frame_svg(game, board, shown, caption), BEATS[kind]))
    return frames


def board_before(changes: list[Change], change: Change, start: list[int]) -> int:
    """The stones a pit held when ``change`` emptied it to sow them."""
    board = list(start)
    for c in changes:
        if c is change:
            return board[c.hole]
        board[c.hole] = c.count
    return 0


# --- records ---------------------------------------------------------------------------------

_RECORD_LINE = re.compile(
    "^\\s*(?:(?:Rules|Pits|Seeds|Player\\s+[AB]|First|Final|Note)\\s*:"
    "|[0-9]+\\)\\s*[AB\u0410\u0412]\\s*:|Игрок|Первым|Камней)",
    re.IGNORECASE | re.MULTILINE,
)
"""A line only a Kalah record holds: a header, a numbered move line, the classic printout's."""


def read_record(text: str) -> RecordRead | None:
    """A ``.klh`` record read and replayed (GameError names the line at fault), or None
    when ``text`` holds no line of a Kalah record."""
    if _RECORD_LINE.search(text) is None:
        return None
    record = parse_record(text)
    steps, _ = replay(record)
    game = record.game
    values = {
        "pits": game.pits,
        "seeds": game.seeds,
        "rules": game.rules,
        "capture": "empty" if game.empty_capture else "opposite",
    }
    names = {o.name for o in PLUGIN.options}
    start = None if record.first == 0 else game.format_position(game.initial_state(1))
    players = record.players
    said = f"{len(record.moves)} turns (A: {players[0]}, B: {players[1]})"
    return RecordRead(
        options={k: v for k, v in values.items() if k in names},
        position=start,
        moves=[pit for step in steps for pit in step.pits],
        players=(players[0], players[1]),
        said=said,
    )


WEB = WebExtras(animate=animate, read_record=read_record)
"""What Kalah's plugin names (``web``)."""
