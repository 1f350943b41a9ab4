"""The shared protocol for deterministic two-player zero-sum games of perfect information.

A game is a frozen dataclass of parameters (rows, pits, seeds, rules, ...) that implements
:class:`Game`. A *state* is a small flat numpy ``int64`` array that holds everything about a
position, the side to move included, so that the same array feeds the Python code and the
jitted kernels. Each game documents how its indices map onto its board. Moves are ints; text
exists only at the CLI and record boundary (``format_move`` / ``parse_move``).

Scores are integers from the point of view of the player to move. A finished game scores
beyond any heuristic value (see :func:`terminal_score`): first by who wins, then by the
margin, then by speed (a faster win scores higher, a slower loss scores higher).

This module must stay free of numba so that ``boardgames --help`` and Nim start fast.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

State = npt.NDArray[np.int64]
"""A position: a flat int64 array; each game says how its indices map onto the board."""

WIN = 1_000_000_000
"""Base score of a won game; every heuristic value must stay below ``HEURISTIC_LIMIT``."""
MARGIN_UNIT = 1_000
"""Score per point of final margin in a won or lost game."""
MAX_PLY = MARGIN_UNIT - 1
"""Plies from the root that a terminal score can encode (longer lines cap here)."""
HEURISTIC_LIMIT = WIN // 2
"""Heuristic evaluations must lie strictly inside ``(-HEURISTIC_LIMIT, HEURISTIC_LIMIT)``."""
INFINITY = 4 * WIN
"""Larger than any score; used as the open search window."""


def terminal_score(result: int, ply: int) -> int:
    """Score of a finished game for the player to move.

    ``result`` is the final margin from the mover's view (positive: the mover won; Nim
    uses +1/-1); ``ply`` is the distance from the search root, so that a faster win (and a
    slower loss) scores higher. A draw scores 0.
    """
    if result == 0:
        return 0
    p = min(ply, MAX_PLY)
    magnitude = WIN + abs(result) * MARGIN_UNIT - p
    return magnitude if result > 0 else -magnitude


def is_terminal_score(score: int) -> bool:
    """True when ``score`` comes from a finished game (a proven win or loss)."""
    return abs(score) > HEURISTIC_LIMIT


def describe_score(score: int) -> str:
    """Human text for a score: ``win by 4 in 7 plies``, ``loss by 2 in 5 plies`` or a number
    (``win by 4`` for a proven score without a ply count: an endgame table's value)."""
    if not is_terminal_score(score):
        return f"{score:+d}"
    rest = abs(score) - WIN
    margin = -(-rest // MARGIN_UNIT)  # ceil: the ply count was subtracted
    plies = margin * MARGIN_UNIT - rest
    word = "win" if score > 0 else "loss"
    if plies == 0:
        return f"{word} by {margin}"
    return f"{word} by {margin} in {plies} {'ply' if plies == 1 else 'plies'}"


def score_margin(score: int) -> int | None:
    """The final margin encoded in a terminal score (signed), or None for a heuristic."""
    if not is_terminal_score(score):
        return None
    margin = -(-(abs(score) - WIN) // MARGIN_UNIT)
    return margin if score > 0 else -margin


class GameError(ValueError):
    """Bad input for a game: an illegal move, a bad setup, unreadable move text.

    The message is one line that says what was wrong and what is allowed; the CLI shows
    it as it is, never a traceback.
    """


@runtime_checkable
class Game(Protocol):
    """What every two-player game provides to the search, the CLI and the tests."""

    name: str

    def initial_state(self) -> State:
        """The start position."""
        ...

    def to_move(self, state: State) -> int:
        """The player to move: 0 (first player) or 1."""
        ...

    def legal_moves(self, state: State) -> list[int]:
        """All legal moves in the game's natural order; empty when the game is over."""
        ...

    def play(self, state: State, move: int) -> tuple[State, bool]:
        """A new state after ``move`` and whether the same player moves again.

        The input state is not modified.
        """
        ...

    def outcome(self, state: State) -> int | None:
        """None while the game goes on; else the final margin for the player to move."""
        ...

    def evaluate(self, state: State) -> int:
        """Heuristic value for the player to move, inside ``±HEURISTIC_LIMIT``."""
        ...

    def format_move(self, move: int) -> str:
        """Move text for people and records."""
        ...

    def parse_move(self, text: str, state: State) -> int:
        """Parse move text; raise :class:`GameError` with a one-line reason when illegal."""
        ...

    def render(self, state: State) -> Any:
        """A rich renderable that draws the position."""
        ...


@dataclass
class SearchResult:
    """What a search returns: the value for the player to move at the root, the best move
    (None when the root has no move), the principal variation and the positions visited."""

    value: int
    best_move: int | None
    pv: list[int] = field(default_factory=list)
    nodes: int = 0
    depth: int | None = None
    strategy: str = ""
