"""Connect Four (RULES.md section 6) as a game of the shared protocol.

State: a flat int64 array of ``W*H + 3`` cells (``W`` columns, ``H`` rows):

- ``col * H + row`` (``row`` 0 at the bottom): 0 empty, 1 a disc of the first player
  ("1"), 2 a disc of the second ("2");
- ``W*H`` (``to_move``): the player to move, 0 or 1;
- ``W*H + 1``: the discs on the board (the moves played);
- ``W*H + 2``: 1 when the last move completed four in a line, else 0.

The same array feeds the numba kernels (:mod:`boardgames.connect4.kernels`). It holds the
position, not the order of the moves that led to it, so that a position reached by
different orders is one state (equal arrays, one transposition-table entry);
:meth:`ConnectFour.format_position` writes back one move string that leads to it.

A move is a column, 0-based (``W`` moves at most); its text is the column digit 1..W.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from rich.text import Text

from boardgames.core.capabilities import Mark, as_marks, deprecated_keyword
from boardgames.core.protocol import GameError, State, quote
from boardgames.core.svg import FONT, SVG, document, el, mark_style, num, overlay, text, title

MIN_SIZE, MAX_SIZE = 4, 9
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
"""The four line directions as (column step, row step)."""
WEIGHTS = (0, 1, 4, 32, 256)
"""Heuristic worth of a line of four cells holding k discs of one player and none of the
other (k = 0..4); the kernels use the same tuple."""
TEMPO = 2
"""The mover's bonus for each disc on the board: without it a search's value swings with
the parity of its depth (the side that moved last looks better, the more so the fuller
the board: searches of 7 to 12 plies from the empty board then disagree in sign)."""
PARITY = 32
"""Extra worth of a threat (three discs and an empty cell in a line) on a row of the
owner's parity: an odd row (1, 3, 5 from the bottom) for the first player, an even one
for the second. Zugzwang fills the board from below, so those are the threats that
decide most games (Allis, 1988)."""
MARKS = (("X", "bold red"), ("O", "bold yellow"))
PLAYERS = ("1", "2")
COLOURS = ("red", "yellow")


@dataclass(frozen=True)
class ConnectFour:
    """Connect Four on a board of ``width`` columns and ``height`` rows (layout above)."""

    width: int = 7
    height: int = 6
    name: str = "connect4"

    def __post_init__(self) -> None:
        w, h = self.width, self.height
        if not (MIN_SIZE <= w <= MAX_SIZE and MIN_SIZE <= h <= MAX_SIZE) or w * (h + 1) > 64:
            raise GameError(
                f"a Connect Four board is 4 to 9 columns by 4 to 9 rows with "
                f"columns x (rows + 1) at most 64, got {w} x {h}"
            )

    # --- layout ------------------------------------------------------------------------
    @property
    def cells(self) -> int:
        """Cells of the board (``W * H``); the state's extra cells follow them."""
        return self.width * self.height

    @functools.cached_property
    def windows(self) -> npt.NDArray[np.int64]:
        """Every line of four cells on the board, as an ``(n, 4)`` array of cell indices."""
        w, h = self.width, self.height
        lines = [
            [(c + k * dc) * h + r + k * dr for k in range(4)]
            for dc, dr in DIRECTIONS
            for c in range(w)
            for r in range(h)
            if 0 <= c + 3 * dc < w and 0 <= r + 3 * dr < h
        ]
        return np.array(lines, dtype=np.int64)

    def win_score(self, discs: int) -> int:
        """The margin of a win completed with the ``discs``-th disc of the game (RULES.md
        6): 1 + the discs the winner still holds, of ``ceil(W*H/2)`` for the first player
        and ``floor(W*H/2)`` for the second; Pons' ``(W*H + 1 - m) div 2``, ``m`` the
        discs played before it. Even boards: ``W*H/2 + 1 - s``, ``s`` the winner's discs."""
        return (self.cells + 2 - discs) // 2

    def height_of(self, state: State, col: int) -> int:
        """The discs in column ``col`` (the row a new disc lands in)."""
        h = self.height
        return int(np.count_nonzero(state[col * h : (col + 1) * h]))

    def makes_four(self, state: State, col: int, row: int, disc: int) -> bool:
        """Whether a ``disc`` (1 or 2) at (``col``, ``row``) is in a line of four of its
        colour (the cell itself is not read)."""
        w, h = self.width, self.height
        for dc, dr in DIRECTIONS:
            n = 1
            for sign in (1, -1):
                c, r = col + sign * dc, row + sign * dr
                while 0 <= c < w and 0 <= r < h and state[c * h + r] == disc:
                    n += 1
                    c, r = c + sign * dc, r + sign * dr
            if n >= 4:
                return True
        return False

    # --- protocol ----------------------------------------------------------------------
    def initial_state(self) -> State:
        return np.zeros(self.cells + 3, dtype=np.int64)

    def to_move(self, state: State) -> int:
        return int(state[self.cells])

    def legal_moves(self, state: State) -> list[int]:
        """The columns that are not full, left to right; none once the game is over."""
        n, h = self.cells, self.height
        if state[n + 2] or state[n + 1] == n:
            return []
        return [c for c in range(self.width) if state[c * h + h - 1] == 0]

    def play(self, state: State, move: int) -> tuple[State, bool]:
        if move not in self.legal_moves(state):
            raise GameError(f"illegal move {move!r} (a 0-based column): {self._allowed(state)}")
        n, col = self.cells, int(move)
        row = self.height_of(state, col)
        disc = int(state[n]) + 1
        child = state.copy()
        child[col * self.height + row] = disc
        child[n] = 2 - disc
        child[n + 1] += 1
        child[n + 2] = int(self.makes_four(state, col, row, disc))
        return child, False

    def outcome(self, state: State) -> int | None:
        """The mover's final margin: minus the opponent's win score when the opponent's
        last disc completed four, 0 for a full board, None while the game goes on."""
        n = self.cells
        if state[n + 2]:
            return -self.win_score(int(state[n + 1]))
        return 0 if state[n + 1] == n else None

    def evaluate(self, state: State) -> int:
        """Each line of four still open to one player only scores :data:`WEIGHTS` of its
        discs, for the mover and against them (central cells lie on more lines); a threat
        on a row of its owner's parity :data:`PARITY` more; the mover :data:`TEMPO` a disc."""
        windows = self.windows
        vals = state[windows]
        me = self.to_move(state) + 1
        mine = (vals == me).sum(axis=1)
        theirs = (vals == 3 - me).sum(axis=1)
        weights = np.array(WEIGHTS, dtype=np.int64)
        score = int(weights[mine[theirs == 0]].sum() - weights[theirs[mine == 0]].sum())
        # the empty cell's row of each line with three discs of one player
        rows = ((windows % self.height) * (vals == 0)).sum(axis=1)
        good = rows % 2 == 0  # an odd row counted from 1: the first player's
        mine_good = good if me == 1 else ~good
        score += PARITY * int(((mine == 3) & (theirs == 0) & mine_good).sum())
        score -= PARITY * int(((theirs == 3) & (mine == 0) & ~mine_good).sum())
        return score + TEMPO * int(state[self.cells + 1])

    def format_move(self, move: int) -> str:
        return str(int(move) + 1)

    def parse_move(self, text: str, state: State) -> int:
        """A column digit ``1``..``W``; GameError saying which columns are legal now."""
        word = text.strip()
        if not self.legal_moves(state):
            raise GameError(f"the game is over ({self._result(state)}): no column can be played")
        if len(word) != 1 or not "1" <= word <= str(self.width):
            raise GameError(f"{quote(word)} is not a column: {self._allowed(state)}")
        col = int(word) - 1
        if col not in self.legal_moves(state):
            raise GameError(self._allowed(state, full=col))
        return col

    def _allowed(self, state: State, full: int | None = None) -> str:
        legal = " ".join(self.format_move(m) for m in self.legal_moves(state)) or "none"
        gone = "" if full is None else f"; column {full + 1} is full"
        return f"columns are 1 to {self.width}{gone}; legal now: {legal}"

    def _result(self, state: State) -> str:
        n = self.cells
        if state[n + 2]:
            return f"{PLAYERS[1 - int(state[n])]} has won"
        return "a draw" if state[n + 1] == n else f"{PLAYERS[int(state[n])]} to move"

    def render(self, state: State) -> Text:
        """Rows top to bottom, ``X`` for 1 and ``O`` for 2, column numbers under them."""
        w, h = self.width, self.height
        board = Text()
        for row in range(h - 1, -1, -1):
            for col in range(w):
                v = int(state[col * h + row])
                mark, style = MARKS[v - 1] if v else (".", "dim")
                board.append(" " + mark, style=style)
            board.append("\n")
        board.append("".join(f" {c + 1}" for c in range(w)) + "\n", style="cyan")
        mover = self.to_move(state)
        if self.outcome(state) is None:
            board.append(f"{PLAYERS[mover]} ({MARKS[mover][0]}) to move")
        else:
            board.append(f"The game is over: {self._result(state)}.")
        return board

    # --- position notation -------------------------------------------------------------
    def parse_position(self, text: str) -> State:
        """The position after the columns played in ``text`` (``4453``; empty: the start)."""
        word = text.strip()
        state = self.initial_state()
        for i, ch in enumerate(word, 1):
            at = f"character {i} of {quote(word)}"
            if not self.legal_moves(state):
                raise GameError(f"{at} continues a finished game ({self._result(state)})")
            if not "1" <= ch <= str(self.width):
                raise GameError(f"{at} ({ch!r}) names no column; columns are 1 to {self.width}")
            if state[int(ch) * self.height - 1]:
                raise GameError(f"{at} plays into column {ch}, which is full")
            state, _ = self.play(state, int(ch) - 1)
        return state

    def format_position(self, state: State) -> str:
        """A move string that leads to ``state`` (one of them when several orders do)."""
        return "".join(self.format_move(c) for c in self.moves_to(state))

    def moves_to(self, state: State) -> list[int]:
        """One order of columns that leads from the start to ``state``; GameError when no
        game reaches it. Discs are taken off the top, last mover first, backtracking (with
        a memory of dead ends) where an order of colours runs into a wall."""
        w, h, n = self.width, self.height, self.cells
        unreachable = GameError("this position cannot be reached by playing Connect Four")
        if len(state) != n + 3:
            raise unreachable
        cols = []
        for c in range(w):
            column = [int(v) for v in state[c * h : (c + 1) * h]]
            top = column.index(0) if 0 in column else h
            if any(column[top:]) or any(v not in (1, 2) for v in column[:top]):
                raise unreachable
            cols.append(column[:top])
        total = sum(map(len, cols))
        won = bool(state[n + 2])
        if (total, total % 2) != (state[n + 1], state[n]) or won != self._four(cols, total):
            raise unreachable
        dead: set[tuple[int, ...]] = set()

        def back(heights: tuple[int, ...], k: int) -> list[int] | None:
            if k == 0:
                return []
            disc = 2 - k % 2  # the k-th disc is the first player's when k is odd
            for c in range(w):
                if heights[c] and cols[c][heights[c] - 1] == disc:
                    below = (*heights[:c], heights[c] - 1, *heights[c + 1 :])
                    if below in dead or (k == total and won and self._four(cols, below)):
                        continue
                    line = back(below, k - 1)
                    if line is not None:
                        return [*line, c]
                    dead.add(below)
            return None

        line = back(tuple(map(len, cols)), total)
        if line is None:
            raise unreachable
        return line

    def _four(self, cols: list[list[int]], heights: tuple[int, ...] | int) -> bool:
        """Whether the bottom ``heights[c]`` discs of each column hold four in a line (an
        int: all the discs)."""
        h = self.height
        tall = [len(c) for c in cols] if isinstance(heights, int) else heights
        for line in self.windows.tolist():
            discs = {cols[i // h][i % h] if i % h < tall[i // h] else 0 for i in line}
            if len(discs) == 1 and 0 not in discs:
                return True
        return False

    # --- picture -----------------------------------------------------------------------
    def winning_cells(self, state: State) -> tuple[int, ...]:
        """The cells (state indices) of every line of four of the player who moved last,
        when that move won; else none."""
        n = self.cells
        if not state[n + 2]:
            return ()
        disc = 2 - int(state[n])  # the last mover's
        lines = self.windows[(state[self.windows] == disc).all(axis=1)]
        return tuple(sorted({int(c) for c in lines.ravel()}))

    def svg(
        self,
        state: State,
        *,
        last: int | None = None,
        marks: Sequence[Mark] = (),
        heading: str | None = None,
        move: int | None = None,
        best: int | None = None,
    ) -> SVG:
        """The position as an SVG picture: a blue board, red discs for 1 and yellow for 2.

        ``last`` is the column played last (its top disc ringed, class ``last-move``).
        Marks: ``best``, ``hint`` and ``arrow`` name a column (an arrow above it);
        ``win`` and ``threat`` name cells (``col * height + row``, ringed); a won game's
        line of four is marked ``win`` unless a ``win`` mark is given. Each legal column
        is a ``<g class="column" data-move="c">`` covering the whole column, on top of
        the discs; discs are ``<circle class="disc p1|p2">``, empty cells ``<circle
        class="hole">``, with ``data-col`` and ``data-row`` (1-based, row 1 at the
        bottom). ``move`` and ``best`` are the old names of ``last`` and a best mark."""
        if move is not None:
            deprecated_keyword("ConnectFour", "move", "last")
            last = move if last is None else last
        marks = as_marks(marks)
        if best is not None:
            deprecated_keyword("ConnectFour", "best", 'marks=[Mark(column, "best")]')
            marks += (Mark(best, "best"),)
        if self.outcome(state) is not None and not any(m.kind == "win" for m in marks):
            cells = self.winning_cells(state)
            marks += (Mark(cells, "win"),) if cells else ()
        w, h = self.width, self.height
        size, left, top = 56.0, 16.0, 64.0
        width, height = 2 * left + w * size, top + h * size + 56

        def centre(col: int, row: int) -> tuple[float, float]:
            return left + (col + 0.5) * size, top + (h - row - 0.5) * size

        body = [el("rect", x=0, y=0, width=width, height=height, class_="background")]
        label = heading or f"Connect Four {w}x{h}"
        body.append(text(label, left, 24, class_="heading"))
        body.append(
            el("rect", x=left, y=top, width=w * size, height=h * size, rx=10, class_="board")
        )
        for col in range(w):
            for row in range(h):
                v = int(state[col * h + row])
                x, y = centre(col, row)
                cls = f"disc p{v}" if v else "hole"
                body.append(el("circle", cx=x, cy=y, r=size * 0.4, class_=cls,
                               data_col=col + 1, data_row=row + 1))  # fmt: skip
            body.append(text(col + 1, centre(col, 0)[0], top + h * size + 20, class_="number"))
        for col in self.legal_moves(state):
            rect = el("rect", x=left + col * size, y=top - 28, width=size, height=h * size + 28)
            body.append(el("g", title(f"play column {col + 1}"), rect, class_="column",
                           data_move=col))  # fmt: skip
        # over the columns, clicks passing through
        if last is not None:
            if not 0 <= last < w or not self.height_of(state, last):
                raise GameError(f"column {last + 1} has no disc to mark as the last move")
            x, y = centre(last, self.height_of(state, last) - 1)
            body.append(overlay("circle", cx=x, cy=y, r=size * 0.22, class_="last last-move",
                                data_col=last + 1))  # fmt: skip
        for mark in marks:
            body += self._mark(mark, centre, size)
        mover = self.to_move(state)
        caption = (
            f"{PLAYERS[mover]} ({COLOURS[mover]}) to move"
            if self.outcome(state) is None
            else f"The game is over: {self._result(state)}."
        )
        body.append(text(caption, left, height - 12, class_="caption"))
        return document(width, height, body, label=label, style=STYLE, class_="connect4")

    def _mark(
        self, mark: Mark, centre: Callable[[int, int], tuple[float, float]], size: float
    ) -> list[str]:
        """A mark's arrow (a column) or rings (cells), with a line through a won four."""
        h, cls = self.height, f"{mark.kind} mark mark-{mark.kind}"
        if mark.kind in ("win", "threat"):
            if any(not 0 <= c < self.cells for c in mark.moves):
                raise GameError(f"a {mark.kind} mark names cells 0 to {self.cells - 1}")
            parts = []
            for cell in mark.moves:
                x, y = centre(cell // h, cell % h)
                parts.append(overlay("circle", cx=x, cy=y, r=size * 0.44, class_=cls,
                                     data_col=cell // h + 1, data_row=cell % h + 1))  # fmt: skip
            for a, *mid, b in self.windows.tolist() if mark.kind == "win" else []:
                if {a, *mid, b} <= set(mark.moves):
                    (x1, y1), (x2, y2) = centre(a // h, a % h), centre(b // h, b % h)
                    parts.append(overlay("line", x1=x1, y1=y1, x2=x2, y2=y2, class_="win-line"))
            return parts
        col = mark.moves[0]
        if len(mark.moves) != 1 or not 0 <= col < self.width:
            raise GameError(f"a {mark.kind} mark names one column, 1 to {self.width}")
        x = centre(col, 0)[0]
        tip = ((x - 10, 40), (x + 10, 40), (x, 58))
        points = " ".join(f"{num(a)},{num(b)}" for a, b in tip)
        return [overlay("polygon", points=points, class_=cls, data_col=col + 1)]

    # --- actions and observations (ActionCodec) ----------------------------------------
    @property
    def num_actions(self) -> int:
        return self.width

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """Two planes of ``H`` rows (top row first, as drawn) by ``W`` columns: the
        observer's discs, then the opponent's."""
        return (2, self.height, self.width)

    @property
    def observation_high(self) -> int:
        return 1

    def action_of(self, state: State, move: int) -> int:
        return int(move)

    def move_of(self, state: State, action: int) -> int | None:
        """The column ``action`` when it is a legal move now, else None (also for a value
        that is not a whole number)."""
        if isinstance(action, bool):
            return None
        try:
            col = operator.index(action)
        except TypeError:
            return None
        return col if col in self.legal_moves(state) else None

    def observation(self, state: State, player: int) -> npt.NDArray[np.int64]:
        grid = state[: self.cells].reshape(self.width, self.height).T[::-1]
        return np.stack([grid == player + 1, grid == 2 - player]).astype(np.int64)


STYLE = f"""
svg {{ font-family: {FONT}; font-size: 14px; }}
.background {{ fill: #fbfaf6; }}
.heading {{ font-size: 16px; font-weight: 600; fill: #2b2b2b; }}
.board {{ fill: #1f5fbf; }}
.hole {{ fill: #fbfaf6; }}
.disc.p1 {{ fill: #d62828; stroke: #8d1b1b; stroke-width: 2; }}
.disc.p2 {{ fill: #f7c948; stroke: #b08900; stroke-width: 2; }}
.last {{ fill: none; stroke: #fff; stroke-width: 3; }}
{mark_style("polygon.mark-{kind} {{ fill: {colour}; }} circle.mark-{kind} {{ stroke: {colour}; }}")}
polygon.mark {{ stroke: #fff; stroke-width: 1.5; }}
circle.mark {{ fill: none; stroke-width: 4; }}
circle.mark-win {{ stroke: #fff; }}
circle.mark-threat {{ stroke-dasharray: 5 4; }}
.win-line {{ stroke: #fff; stroke-width: 5; stroke-linecap: round; opacity: 0.8; }}
.number {{ fill: #555; text-anchor: middle; }}
.column rect {{ fill: #fff; fill-opacity: 0; cursor: pointer; }}
.column:hover rect {{ fill-opacity: 0.18; }}
.caption {{ fill: #333; }}
"""
