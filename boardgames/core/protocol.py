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
THINK_SECONDS = (0.01, 86_400)
"""The time a program may be given a move, in seconds, wherever one is given on the
command line (``--time``, ``time=S`` in a player's spec): at least 0.01, at most a day."""
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


def describe_score(score: int, exact: bool = False) -> str:
    """Human text for a score.

    ``exact``: the score is the position's value under perfect play (a solver's, an endgame
    table's, or a search to the end of the game): ``win by 4 in 7 plies``, ``win by 4``
    (no ply count: a solver's or table's value), ``draw``. Otherwise a score from a
    finished game is a bound (see :func:`score_bound`): ``win by at least 4``, ``loss by at
    least 2``; and a heuristic value is a signed number.
    """
    if not is_terminal_score(score):
        return "draw" if exact and score == 0 else f"{score:+d}"
    rest = abs(score) - WIN
    margin = -(-rest // MARGIN_UNIT)  # ceil: the ply count was subtracted
    plies = margin * MARGIN_UNIT - rest
    word = "win" if score > 0 else "loss"
    if not exact:
        return f"{word} by at least {margin}"
    if plies == 0:
        return f"{word} by {margin}"
    return f"{word} by {margin} in {plies} {'ply' if plies == 1 else 'plies'}"


def short_score(score: int, exact: bool = False) -> str:
    """A score in a few characters, for tables: ``+12`` (heuristic), ``win 6`` / ``loss 6``
    / ``draw`` (exact), ``win ≥6`` / ``loss ≥6`` (bounds: by at least that margin)."""
    margin = score_margin(score)
    if margin is None:
        return "draw" if exact and score == 0 else f"{score:+d}"
    word = "win" if margin > 0 else "loss"
    return f"{word} {abs(margin)}" if exact else f"{word} ≥{abs(margin)}"


def score_bound(score: int, exact: bool) -> str | None:
    """What a score says of the true value when it is not ``exact``.

    In a depth-limited search a finished game at the root is a bound, not the value: the
    winner took the first forced win it saw over unexplored lines that may win by more, and
    the loser a line it cannot see losing over a proven loss. So a won score is a lower
    bound of the mover's margin (``"lower"``: wins by at least that), a lost one an upper
    bound (``"upper"``: loses by at least that). None for an exact or heuristic score.
    """
    if exact or not is_terminal_score(score):
        return None
    return "lower" if score > 0 else "upper"


def score_margin(score: int) -> int | None:
    """The final margin encoded in a terminal score (signed), or None for a heuristic."""
    if not is_terminal_score(score):
        return None
    margin = -(-(abs(score) - WIN) // MARGIN_UNIT)
    return margin if score > 0 else -margin


def quote(text: str, limit: int = 24) -> str:
    """``text`` in quotes for a one-line message, cut to ``limit`` characters (hostile
    input can be megabytes long)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


class GameError(ValueError):
    """Bad input for a game: an illegal move, a bad setup, unreadable move text.

    The message is one line that says what was wrong and what is allowed; the CLI shows
    it as it is, never a traceback.
    """


@runtime_checkable
class Game(Protocol):
    """What every two-player game provides to the search, the CLI and the tests."""

    @property
    def name(self) -> str:
        """The package name (``boardgames.<name>``), e.g. ``"kalah"``."""
        ...

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
        """Heuristic value for the player to move, inside ``±HEURISTIC_LIMIT``. A game with
        no heuristic returns 0 and sets the class attribute ``has_evaluation = False``
        (``boardgames games`` then lists no "evaluation" capability)."""
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
    exact: bool = False
    """True when ``value`` is the value under perfect play, not a depth-limited one."""
