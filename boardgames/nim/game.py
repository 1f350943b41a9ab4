"""Nim as a game of the shared protocol, with its setup limits and its rich board."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from rich.table import Table
from rich.text import Text

from boardgames.core.capabilities import Mark, as_marks, deprecated_keyword
from boardgames.core.protocol import GameError, State, quote
from boardgames.core.svg import SVG
from boardgames.nim import rules as nim_rules
from boardgames.nim import svg as nim_svg

DEFAULT_ROWS = (3, 4, 5)
DEFAULT_MAX_ROWS = 14
DEFAULT_MAX_CHIPS = 20
HARD_MAX_ROWS = 100
HARD_MAX_CHIPS = 1000

MOVE_STRIDE = 1 << 16
"""A move is ``row * MOVE_STRIDE + take`` (row 0-based), so moves sort by row, then take."""

CHIP = "●"
TAKEN = "○"


def encode_move(row: int, take: int) -> int:
    return row * MOVE_STRIDE + take


def decode_move(move: int) -> tuple[int, int]:
    """(row, take), row 0-based."""
    return divmod(move, MOVE_STRIDE)


def check_limits(max_rows: int, max_chips: int) -> None:
    """The limits themselves must be sane (they bound the board that is drawn)."""
    if not 1 <= max_rows <= HARD_MAX_ROWS:
        raise GameError(f"--max-rows must be between 1 and {HARD_MAX_ROWS}, got {max_rows}")
    if not 1 <= max_chips <= HARD_MAX_CHIPS:
        raise GameError(f"--max-chips must be between 1 and {HARD_MAX_CHIPS}, got {max_chips}")


MAX_DIGITS = 9
"""Longest number read from the user: beyond every limit, and Python refuses to convert
numbers of more than 4300 digits (a ValueError, not a clear message)."""


def _is_int(word: str) -> bool:
    """A whole number in ASCII digits, maybe negative (``str.isdigit`` also accepts '²'
    and ``int()`` the Arabic-Indic '٣'; RULES.md writes numbers with 0-9)."""
    return re.fullmatch(r"-?[0-9]+", word) is not None


def _chips(word: str) -> int:
    """A row count that :func:`_is_int` accepted; too many digits is a GameError."""
    if len(word.lstrip("-")) > MAX_DIGITS:
        raise GameError(
            f"{quote(word)} is far more chips than a row may hold (at most {HARD_MAX_CHIPS})"
        )
    return int(word)


def parse_rows(text: str | list[str] | tuple[str, ...]) -> tuple[int, ...]:
    """Row counts from text such as ``"3 4 5"`` (or already split words), digits 0-9."""
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    if not words:
        raise GameError("give the rows as chip counts, for example: 3 4 5")
    bad = next((w for w in words if not _is_int(w)), None)
    if bad is not None:
        raise GameError(
            f"{quote(bad)} is not a number of chips; give whole numbers written with the "
            "digits 0-9, such as 3 4 5"
        )
    return tuple(_chips(w) for w in words)


@dataclass(frozen=True)
class Nim:
    """Nim with a starting layout of rows; normal play unless ``misere``.

    State layout (int64 array of ``len(rows) + 1``): index ``i < len(rows)`` holds the chips
    left in row ``i`` (row ``i + 1`` on screen); the last index holds the player to move
    (0 moves first).
    """

    has_evaluation: ClassVar[bool] = False
    """Nim has no heuristic (``evaluate`` is 0): its values come from search to the end."""
    rows: tuple[int, ...] = DEFAULT_ROWS
    misere: bool = False
    max_rows: int = DEFAULT_MAX_ROWS
    max_chips: int = DEFAULT_MAX_CHIPS
    name: str = "nim"

    def __post_init__(self) -> None:
        check_limits(self.max_rows, self.max_chips)
        if not 1 <= len(self.rows) <= self.max_rows:
            raise GameError(f"{len(self.rows)} rows given; a layout has 1 to {self.max_rows} rows")
        for i, r in enumerate(self.rows, 1):
            if not 1 <= r <= self.max_chips:
                raise GameError(
                    f"row {i} has {r} chips; a row holds 1 to {self.max_chips} chips at the start"
                )

    # --- protocol -------------------------------------------------------------------
    def initial_state(self) -> State:
        return np.array([*self.rows, 0], dtype=np.int64)

    def state_from_rows(self, rows: tuple[int, ...] | list[int], to_move: int = 0) -> State:
        """A position with the given chips left (each 0..starting count is not required)."""
        if len(rows) != len(self.rows):
            start = " ".join(map(str, self.rows))
            raise GameError(
                f"expected {len(self.rows)} rows (the start {start}), got {len(rows)}"
                ' (give the start with --rows, e.g. --rows "7 7")'
            )
        return np.array([*rows, to_move], dtype=np.int64)

    def parse_position(self, text: str) -> State:
        """A position from the chips left in each row, ``"3 0 5"`` (the first player to
        move; in Nim the mover does not change the analysis); empty: the start."""
        if not text.strip():
            return self.initial_state()
        rows = parse_rows(text)
        over = next(
            (
                i
                for i, (r, s) in enumerate(zip(rows, self.rows, strict=False), 1)
                if not 0 <= r <= s
            ),
            None,
        )
        if len(rows) == len(self.rows) and over is not None:
            raise GameError(
                f"row {over} has {rows[over - 1]} chips; it started with {self.rows[over - 1]}"
                " (give the start with --rows)"
            )
        return self.state_from_rows(rows)

    def position_options(self, text: str) -> dict[str, Any]:
        """The start a position implies when it does not fit this game's (another count of
        rows, or a row above its start): the position itself (an empty row as 1 chip)."""
        try:
            rows = parse_rows(text)
        except GameError:
            return {}
        fits = len(rows) == len(self.rows) and all(
            r <= s for r, s in zip(rows, self.rows, strict=True)
        )
        return {} if fits else {"rows": tuple(max(1, r) for r in rows)}

    def format_position(self, state: State) -> str:
        """The chips left in each row, as :meth:`parse_position` reads them."""
        return " ".join(map(str, self.rows_of(state)))

    def rows_of(self, state: State) -> tuple[int, ...]:
        return tuple(int(x) for x in state[:-1])

    def to_move(self, state: State) -> int:
        return int(state[-1])

    def legal_moves(self, state: State) -> list[int]:
        return [
            encode_move(row, take)
            for row in range(len(state) - 1)
            for take in range(1, int(state[row]) + 1)
        ]

    def play(self, state: State, move: int) -> tuple[State, bool]:
        row, take = decode_move(move)
        if not 0 <= row < len(state) - 1 or not 1 <= take <= state[row]:
            raise GameError(f"illegal move {self.format_move(move)}")
        child = state.copy()
        child[row] -= take
        child[-1] = 1 - child[-1]
        return child, False

    def outcome(self, state: State) -> int | None:
        if state[:-1].any():
            return None
        # The opponent took the last chip: in normal play the mover has lost.
        return 1 if self.misere else -1

    def evaluate(self, state: State) -> int:
        """Nim has no heuristic: an unfinished position is worth 0 until searched out."""
        return 0

    def format_move(self, move: int) -> str:
        row, take = decode_move(move)
        return f"{row + 1} {take}"

    def parse_move(self, text: str, state: State) -> int:
        """Parse ``ROW COUNT`` (row 1-based): take COUNT chips from ROW."""
        words = text.replace(",", " ").split()
        n = len(state) - 1
        if len(words) != 2 or not all(_is_int(w) for w in words):
            raise GameError(
                "type a row and a count with the digits 0-9 ('2 3' takes 3 chips from row 2), "
                "or hint, undo, new, quit"
            )
        if len(words[0]) > MAX_DIGITS or not 1 <= int(words[0]) <= n:
            shown = words[0] if len(words[0]) <= MAX_DIGITS else quote(words[0])
            raise GameError(f"there is no row {shown}; rows are numbered 1 to {n}")
        row = int(words[0])
        # a count too long to convert is out of range like any other: -1 stands for it
        take = int(words[1]) if len(words[1]) <= MAX_DIGITS else -1
        left = int(state[row - 1])
        if left == 0:
            raise GameError(f"row {row} is empty; choose a row that still has chips")
        if not 1 <= take <= left:
            raise GameError(
                f"row {row} has {left} chip{'s' if left != 1 else ''}; take 1 to {left}"
            )
        return encode_move(row - 1, take)

    def render(self, state: State) -> Table:
        return render_rows(self.rows_of(state), self.rows)

    # --- action ids (boardgames.core.capabilities.ActionCodec) -----------------------------
    @property
    def num_actions(self) -> int:
        """Action ``row * K + take - 1`` takes ``take`` chips from ``row`` (0-based), ``K``
        the largest starting row."""
        return len(self.rows) * max(self.rows)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (len(self.rows),)

    @property
    def observation_high(self) -> int:
        return max(self.rows)

    def action_of(self, state: State, move: int) -> int:
        row, take = decode_move(move)
        return row * max(self.rows) + take - 1

    def move_of(self, state: State, action: int) -> int | None:
        """The move of ``action``, or None when it takes more chips than its row holds."""
        if not 0 <= action < self.num_actions:
            return None
        row, take = divmod(action, max(self.rows))
        return encode_move(row, take + 1) if take < state[row] else None

    def observation(self, state: State, player: int) -> State:
        """The chips left in each row (the same for both players)."""
        return np.array(state[:-1], dtype=np.int64)

    def svg(
        self,
        state: State,
        *,
        last: int | None = None,
        marks: Sequence[Mark] = (),
        heading: str | None = None,
        binary: bool = False,
        hint: bool = False,
        move: int | None = None,
    ) -> SVG:
        """The position as an SVG picture (a ``str`` that shows itself in Jupyter): rows
        of chips, the chips taken since the start faint, those ``last`` took ringed.
        ``marks`` colour the chips each marked move would take. ``binary`` adds Bouton's
        table (each row in binary, the ones of every column, odd columns red) and says
        whether the position is safe. ``hint=True`` (a hint mark on the first winning
        move) and ``move`` (a best mark) are old spellings. Classes and ``data-*``
        attributes: :mod:`boardgames.nim.svg`."""
        rows = self.rows_of(state)
        marks = as_marks(marks)
        if move is not None:
            deprecated_keyword("Nim", "move", 'marks=[Mark(move, "best")]')
            marks += (Mark(move, "best"),)
        if hint:
            deprecated_keyword("Nim", "hint", 'marks=[Mark(move, "hint")]')
            winning = nim_rules.winning_moves(rows, self.misere)
            marks += tuple(Mark(encode_move(w.row, w.take), "hint") for w in winning[:1])
        taking = []
        for mark in marks:
            row, count = decode_move(mark.moves[0])
            if len(mark.moves) != 1 or not 0 <= row < len(rows) or not 1 <= count <= rows[row]:
                raise GameError(f"cannot mark {mark.move}: not a legal move here")
            taking.append((mark.kind, row, count))
        gone = None
        if last is not None:
            row, count = decode_move(last)
            if not 0 <= row < len(rows) or not 1 <= count <= self.rows[row] - rows[row]:
                raise GameError(f"no move {self.format_move(last)} can have led here")
            gone = (row, count)
        caption, cls = "", ""
        if not any(rows):
            caption = "No chips left: the game is over."
        elif binary:
            s = nim_rules.nim_sum(rows)
            if nim_rules.is_safe(rows, self.misere):
                caption, cls = f"nim-sum {s}: safe, no winning move for the side to move", "safe"
            else:
                caption, cls = f"nim-sum {s}: unsafe, the side to move can win", "unsafe"
        return nim_svg.draw(
            rows,
            self.rows,
            binary=binary,
            marks=taking,
            last=gone,
            to_move=self.to_move(state),
            heading=heading,
            caption=caption,
            caption_class=cls,
        )


class RowsTable(Table):
    """The rich table of :func:`render_rows`; in Jupyter it shows itself as a picture."""

    rows_left: tuple[int, ...] = ()
    rows_start: tuple[int, ...] = ()

    def _repr_svg_(self) -> str:
        return nim_svg.draw(self.rows_left, self.rows_start)


def render_rows(rows: tuple[int, ...], start: tuple[int, ...]) -> Table:
    """The board: row numbers, chips left as glyphs, taken chips faint, counts."""
    table = RowsTable(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.rows_left, table.rows_start = tuple(rows), tuple(start)
    table.add_column("row", justify="right", style="cyan")
    table.add_column("chips")
    table.add_column("left", justify="right", style="bold")
    for i, (left, first) in enumerate(zip(rows, start, strict=True), 1):
        chips = Text()
        chips.append(" ".join(CHIP * left), style="bold yellow")
        if first > left:
            chips.append((" " if left else "") + " ".join(TAKEN * (first - left)), style="dim")
        table.add_row(str(i), chips, str(left))
    return table
