"""The ``unswept`` model of ``kalah explain``: one reading of the classic program's search.

``ends="unswept"`` models one reading of the classic program's search instead of the
engine: plain F2 (:func:`boardgames.core.search.alphabeta`, the pure-Python reference) on
the same rules, except that a finished game is scored by the evaluation like any other
position, *before* the stones left in the pits go to their owner (RULES.md 1.4). The
search then thinks a side that keeps stones in its pits at the end does not get them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from boardgames.core.protocol import (
    Game,
    SearchResult,
    State,
)
from boardgames.core.search import alphabeta
from boardgames.kalah import rules as kalah_rules
from boardgames.kalah.eval import EVALUATION_FUNCTIONS

PASS = -1
"""The one move of a finished game in the ``unswept`` model (see :class:`UnsweptKalah`)."""


@dataclass(frozen=True)
class UnsweptKalah:
    """Classic Kalah for :func:`boardgames.core.search.alphabeta`, with one change: a
    finished game is not scored as one. Its stores are left as they are (the stones still
    in the pits are not swept) and its only move is :data:`PASS`, which hands the turn
    over and costs a level, until the depth runs out and the evaluation scores it. For
    the evaluations here (each is one side's score less the other's) that is the
    evaluation of the finished position before the sweep, whatever the depth left.

    States are tuples: the ``2m + 2`` holes, then the side to move. Pits, extra turns and
    captures follow RULES.md 1 (:func:`boardgames.kalah.rules.sow`); the sowing that ends
    the game gives no extra turn, as in the real rules.
    """

    pits: int = 6
    evaluation: str = "store"
    empty_capture: bool = False

    def state(self, state: State) -> tuple[int, ...]:
        """A protocol state of :class:`~boardgames.kalah.game.Kalah` as a model state."""
        return tuple(int(x) for x in state)

    def to_move(self, s: tuple[int, ...]) -> int:
        return s[-1]

    def finished(self, s: tuple[int, ...]) -> bool:
        m = self.pits
        return not any(s[0:m]) or not any(s[m + 1 : 2 * m + 1])

    def legal_moves(self, s: tuple[int, ...]) -> list[int]:
        if self.finished(s):
            return [PASS]
        m, mover = self.pits, s[-1]
        first = 0 if mover == 0 else m + 1
        return [i for i in range(first, first + m) if s[i]]

    def play(self, s: tuple[int, ...], move: int) -> tuple[tuple[int, ...], bool]:
        m, mover = self.pits, s[-1]
        board = list(s[:-1])
        if move == PASS:
            return (*board, 1 - mover), False
        last, _ = kalah_rules.sow(board, m, move, mover)
        store = kalah_rules.store_index(m, mover)
        again = last == store
        if not again and kalah_rules.owner(m, last) == mover and board[last] == 1:
            facing = kalah_rules.opposite(m, last)
            if board[facing] > 0 or self.empty_capture:
                board[store] += board[facing] + 1
                board[facing] = 0
                board[last] = 0
        child = (*board, mover)
        if again and not self.finished(child):
            return child, True
        return (*board, 1 - mover), False

    def outcome(self, s: tuple[int, ...]) -> int | None:
        return None

    def evaluate(self, s: tuple[int, ...]) -> int:
        return EVALUATION_FUNCTIONS[self.evaluation](s, self.pits, s[-1])


def model_search(
    model: UnsweptKalah, state: tuple[int, ...], depth: int, sowing: bool
) -> SearchResult:
    """Plain F2 (:func:`boardgames.core.search.alphabeta`) on the model, ``depth`` levels
    (compound moves, or sowings with ``sowing``). The reference search reads only
    ``legal_moves``, ``play``, ``outcome`` and ``evaluate``; the model's states are tuples,
    which it never looks into (faster than arrays)."""

    return alphabeta(cast("Game", model), cast("State", state), depth, again_is_ply=sowing)
