"""The rules of Othello (Reversi) against the toolkit's ``Game`` protocol, with a drawing
(``Drawing``) and action ids with observations (``ActionCodec``).

State: a flat int64 array of ``size * size + 1`` values. Index ``row * size + col`` is the
cell in row ``row`` (0 at the top) and column ``col`` (0 at the left): 0 empty, 1 Black,
2 White. The last index is the player to move (0 Black, 1 White). A move is a cell index,
written column letter then row number (``c4``); a player with no placement while the
other has one must pass: the move ``size * size``, written ``pass``. The game is over when
neither player can place a disc; its score is the disc difference.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from rich.text import Text

from boardgames.core.capabilities import Mark
from boardgames.core.protocol import GameError, State, quote
from boardgames.core.svg import SVG, document, el, overlay, text

DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
CELL = 44
STYLE = (
    ".cell{fill:#2e8b57;stroke:#1b4d32;stroke-width:1.5}.cell[data-move]{cursor:pointer}"
    ".cell[data-move]:hover{fill:#52a877}.d1{fill:#111}.d2{fill:#f4f4f0;stroke:#111}"
    ".pass{fill:#eee;stroke:#333;cursor:pointer}.pass:hover{fill:#dde8f5}"
    ".last-move,.mark{fill:none;stroke-width:3}.last-move{stroke:#ffb703}"
    ".mark-best,.mark-hint{stroke:#74c0fc}.mark-win{stroke:#e03131}"
)


@dataclass(frozen=True)
class Othello:
    """Othello on a ``size`` x ``size`` board (4, 6 or 8), Black first."""

    size: int = 6
    name: str = "othello"

    def __post_init__(self) -> None:
        if self.size not in (4, 6, 8):
            raise ValueError(f"size must be 4, 6 or 8, got {self.size}")

    @property
    def pass_move(self) -> int:
        return self.size * self.size

    # --- the rules -----------------------------------------------------------------------
    def flips(self, cells: list[int], cell: int, me: int) -> list[int]:
        """The opponent's discs that a disc of ``me`` (1 or 2) on empty ``cell`` turns."""
        n, turned = self.size, []
        for dr, dc in DIRECTIONS:
            r, c, run = cell // n + dr, cell % n + dc, []
            while 0 <= r < n and 0 <= c < n and cells[r * n + c] == 3 - me:
                run.append(r * n + c)
                r, c = r + dr, c + dc
            if run and 0 <= r < n and 0 <= c < n and cells[r * n + c] == me:
                turned += run
        return turned

    def placements(self, cells: list[int], me: int) -> list[int]:
        return [k for k in range(self.pass_move) if not cells[k] and self.flips(cells, k, me)]

    def initial_state(self) -> State:
        state = np.zeros(self.pass_move + 1, dtype=np.int64)
        h, n = self.size // 2, self.size
        state[(h - 1) * n + h - 1] = state[h * n + h] = 2
        state[(h - 1) * n + h] = state[h * n + h - 1] = 1
        return state

    def to_move(self, state: State) -> int:
        return int(state[-1])

    def legal_moves(self, state: State) -> list[int]:
        cells, me = state[:-1].tolist(), int(state[-1]) + 1
        mine = self.placements(cells, me)
        if mine or not self.placements(cells, 3 - me):
            return mine  # empty only when neither player can place a disc
        return [self.pass_move]  # a forced pass

    def play(self, state: State, move: int) -> tuple[State, bool]:
        if move not in self.legal_moves(state):
            raise GameError(f"illegal move {move!r}: play a legal move of a game not over")
        child = state.copy()
        if move != self.pass_move:
            me = int(state[-1]) + 1
            child[[move, *self.flips(state[:-1].tolist(), move, me)]] = me
        child[-1] = 1 - child[-1]
        return child, False

    def outcome(self, state: State) -> int | None:
        if self.legal_moves(state):
            return None
        me = int(state[-1]) + 1
        return int(np.count_nonzero(state[:-1] == me) - np.count_nonzero(state[:-1] == 3 - me))

    def evaluate(self, state: State) -> int:
        """Disc difference for the mover, a corner counting 5."""
        n, me = self.size, int(state[-1]) + 1
        weights = np.ones(n * n, dtype=np.int64)
        weights[[0, n - 1, n * n - n, n * n - 1]] = 5
        cells = state[:-1]
        return int(weights @ (cells == me) - weights @ (cells == 3 - me))

    # --- notation ------------------------------------------------------------------------
    def format_move(self, move: int) -> str:
        if move == self.pass_move:
            return "pass"
        return "abcdefgh"[move % self.size] + str(move // self.size + 1)

    def parse_move(self, text: str, state: State) -> int:
        word = text.strip().lower()
        legal = self.legal_moves(state)
        if not legal:
            raise GameError("the game is over: there is no move to play")
        shown = " ".join(self.format_move(m) for m in legal)
        found = re.fullmatch(r"([a-h])([1-8])", word)
        if word == "pass":
            move = self.pass_move
        elif found and "abcdefgh".index(found[1]) < self.size and int(found[2]) <= self.size:
            move = (int(found[2]) - 1) * self.size + "abcdefgh".index(found[1])
        else:
            last = "abcdefgh"[self.size - 1] + str(self.size)
            raise GameError(f"{quote(word)} is not a move: type a cell a1..{last} or pass")
        if move not in legal:
            raise GameError(f"{quote(word)} is not legal here; the legal moves: {shown}")
        return move

    def render(self, state: State) -> Text:
        """The board: Black ●, White ○, a legal placement +."""
        n, legal = self.size, set(self.legal_moves(state))
        board = Text("   " + " ".join("abcdefgh"[:n]) + "\n")
        for row in range(n):
            board.append(f"{row + 1:>2} ")
            for col in range(n):
                k = row * n + col
                mark = "·●○"[int(state[k])] if state[k] or k not in legal else "+"
                board.append(mark + " ", style="bold" if state[k] else "dim")
            board.append("\n")
        return board

    # --- Drawing: every legal move is an element with data-move ---------------------------
    def svg(
        self,
        state: State,
        *,
        last: int | None = None,
        marks: Sequence[Mark] = (),
        heading: str | None = None,
    ) -> SVG:
        """The board; a forced pass is a button under it. ``last`` and each mark get a frame
        drawn with ``overlay``, which clicks go through."""
        n, legal = self.size, set(self.legal_moves(state))
        body = []
        for k in range(n * n):
            x, y = (k % n) * CELL, (k // n) * CELL
            move = k if k in legal else None
            body.append(
                el("rect", x=x, y=y, width=CELL, height=CELL, class_="cell", data_move=move)
            )
            if state[k]:
                body.append(
                    el("circle", cx=x + CELL / 2, cy=y + CELL / 2, r=17, class_=f"d{state[k]}")
                )
        box = {"x": 4, "y": n * CELL + 4, "width": 2 * CELL, "height": 26}
        if self.pass_move in legal:  # the label sits inside the clickable group
            label = text("pass", 4 + CELL, n * CELL + 22, text_anchor="middle")
            body.append(el("g", el("rect", **box, class_="pass"), label, data_move=self.pass_move))
        frames = [(last, "last-move")] if last is not None else []
        for move, cls in frames + [(m_, f"mark mark-{m.kind}") for m in marks for m_ in m.moves]:
            if move == self.pass_move:
                body.append(overlay("rect", **box, class_=cls))
            else:
                x, y = (move % n) * CELL + 3, (move // n) * CELL + 3
                body.append(overlay("rect", x=x, y=y, width=CELL - 6, height=CELL - 6, class_=cls))
        mover = ("Black", "White")[self.to_move(state)]
        label = f"Othello, {mover} to move" if legal else "Othello, game over"
        return document(
            n * CELL, n * CELL + 34, body, label=heading or label, style=STYLE, class_="othello"
        )

    # --- ActionCodec: action id = move (the cell, or size * size for a pass) ---------------
    @property
    def num_actions(self) -> int:
        return self.pass_move + 1

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (2, self.size, self.size)

    @property
    def observation_high(self) -> int:
        return 1

    def action_of(self, state: State, move: int) -> int:
        return move

    def move_of(self, state: State, action: int) -> int | None:
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            return None
        return int(action) if int(action) in self.legal_moves(state) else None

    def observation(self, state: State, player: int) -> np.ndarray:
        """Plane 0: ``player``'s discs; plane 1: the opponent's."""
        cells = state[:-1].reshape(self.size, self.size)
        return np.stack([cells == player + 1, cells == 2 - player]).astype(np.int64)
