"""The rules of tic-tac-toe, written against the toolkit's ``Game`` protocol, with two of
its optional capabilities: an SVG drawing (``Drawing``) and action ids with observations
(``ActionCodec``, for the PettingZoo, Gymnasium and OpenSpiel adapters).

State: a flat int64 array of 10 values. Indices 0..8 are the cells row by row from the
top left (0 empty, 1 X, 2 O); index 9 is the player to move (0 for X, 1 for O).
A move is the cell index 0..8, written 1..9 for people.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from rich.text import Text

from boardgames.core.capabilities import Mark
from boardgames.core.protocol import GameError, State, quote
from boardgames.core.svg import SVG, document, el, overlay

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
MARKS = " XO"
CELL = 60
STYLE = (
    ".cell{fill:#f8f8f4;stroke:#333;stroke-width:2}.cell[data-move]{cursor:pointer}"
    ".cell[data-move]:hover{fill:#e4ecf7}.x{stroke:#c0392b;stroke-width:6}"
    ".o{fill:none;stroke:#2460a7;stroke-width:6}.last-move,.mark{fill:none;stroke-width:4}"
    ".last-move{stroke:#ffb703}.mark-best,.mark-hint{stroke:#2dc653}.mark-win{stroke:#e03131}"
)


def winner(cells: list[int]) -> int:
    """1 when X has a line, 2 when O has one, else 0."""
    for a, b, c in LINES:
        if cells[a] and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return 0


@dataclass(frozen=True)
class TicTacToe:
    """3x3 tic-tac-toe, X moves first. No options: the plugin's factory takes none."""

    name: str = "tictactoe"

    # --- the Game protocol ---------------------------------------------------------------
    def initial_state(self) -> State:
        return np.zeros(10, dtype=np.int64)

    def to_move(self, state: State) -> int:
        return int(state[9])

    def legal_moves(self, state: State) -> list[int]:
        cells = state[:9].tolist()
        if winner(cells):
            return []
        return [k for k in range(9) if not cells[k]]

    def play(self, state: State, move: int) -> tuple[State, bool]:
        if move not in self.legal_moves(state):
            raise GameError(f"illegal move {move!r}: choose an empty cell of a game not over")
        child = state.copy()
        child[move] = child[9] + 1
        child[9] = 1 - child[9]
        return child, False  # the other player moves next

    def outcome(self, state: State) -> int | None:
        cells = state[:9].tolist()
        if winner(cells):
            return -1  # whoever made the line has just moved: the player to move lost
        return None if 0 in cells else 0

    def evaluate(self, state: State) -> int:
        """Lines still open to the mover minus those open to the opponent."""
        cells = state[:9].tolist()
        me, other = int(state[9]) + 1, 2 - int(state[9])
        score = 0
        for line in LINES:
            marks = {cells[k] for k in line}
            score += (other not in marks) - (me not in marks)
        return score

    def format_move(self, move: int) -> str:
        return str(move + 1)

    def parse_move(self, text: str, state: State) -> int:
        word = text.strip()
        if len(word) != 1 or word not in "123456789":
            raise GameError(
                f"{quote(word)} is not a cell: type 1 to 9 (row by row from the top left), "
                "or hint, undo, quit"
            )
        if self.outcome(state) is not None:
            raise GameError("the game is over: there is no move to play")
        cell = int(word) - 1
        if state[cell]:
            free = " ".join(self.format_move(m) for m in self.legal_moves(state))
            raise GameError(f"cell {word} holds {MARKS[state[cell]]}; the empty cells: {free}")
        return cell

    def render(self, state: State) -> Text:
        """The grid, each empty cell showing its number (faint)."""
        grid = Text()
        for row in range(3):
            for col in range(3):
                k = 3 * row + col
                mark = int(state[k])
                style = ("dim", "bold red", "bold blue")[mark]
                grid.append(f" {MARKS[mark] if mark else k + 1} ", style=style)
                grid.append("|" if col < 2 else "\n")
            if row < 2:
                grid.append("---+---+---\n")
        return grid

    # --- Drawing: every legal move is an element with data-move ---------------------------
    def svg(
        self,
        state: State,
        *,
        last: int | None = None,
        marks: Sequence[Mark] = (),
        heading: str | None = None,
    ) -> SVG:
        """The grid; ``last`` and each mark's cell get a frame that clicks go through."""
        legal = set(self.legal_moves(state))
        body = []
        for k in range(9):
            x, y = (k % 3) * CELL, (k // 3) * CELL
            mark = int(state[k])
            move = k if k in legal else None
            box = {"x": x, "y": y, "width": CELL, "height": CELL}
            body.append(el("rect", **box, class_="cell", data_cell=k + 1, data_move=move))
            a, b = 12, CELL - 12
            if mark == 1:
                body.append(el("line", x1=x + a, y1=y + a, x2=x + b, y2=y + b, class_="x"))
                body.append(el("line", x1=x + b, y1=y + a, x2=x + a, y2=y + b, class_="x"))
            elif mark == 2:
                body.append(el("circle", cx=x + CELL // 2, cy=y + CELL // 2, r=18, class_="o"))
        frames = [(last, "last-move")] if last is not None else []
        for cell, cls in frames + [(c, f"mark mark-{m.kind}") for m in marks for c in m.moves]:
            x, y = (cell % 3) * CELL + 4, (cell // 3) * CELL + 4
            body.append(overlay("rect", x=x, y=y, width=CELL - 8, height=CELL - 8, class_=cls))
        mover = MARKS[int(state[9]) + 1]
        label = f"Tic-tac-toe, {mover} to move" if legal else "Tic-tac-toe, game over"
        return document(
            3 * CELL, 3 * CELL, body, label=heading or label, style=STYLE, class_="tictactoe"
        )

    # --- ActionCodec: action id = cell index, whoever moves -------------------------------
    @property
    def num_actions(self) -> int:
        return 9

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (2, 3, 3)

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
        """Plane 0: ``player``'s marks; plane 1: the opponent's."""
        cells = state[:9].reshape(3, 3)
        return np.stack([cells == player + 1, cells == 2 - player]).astype(np.int64)
