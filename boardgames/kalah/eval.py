"""Kalah evaluation functions for depth-limited search.

Each function takes ``(board, m, to_move)``: ``board`` is any integer sequence (list or
numpy array; a whole game state works) whose indices ``0..2m+1`` are the holes in the
RULES.md numbering, ``m`` the pits a side, ``to_move`` 0 (A) or 1 (B). Only indices
``0..2m+1`` are read. Each returns an ``int`` from the view of the side to move, written
below as "a" (the side to move) and "b" (its opponent): Ka, Kb are their stores.

On every supported board (at most 12 pits and 2 * 12 * 20 = 480 stones) the values stay
far inside ``±HEURISTIC_LIMIT`` (5e8): store below 500, rechenberg below 500 * 12 * 26,
tseitin below 1000 * (480 + 34.6 + 80) + 1. A finished game therefore always scores
beyond them (core.protocol.terminal_score).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

EVALUATIONS = ("store", "rechenberg", "tseitin")

EVALUATION_HELP = {
    "store": "own store minus the opponent's (the classic program's).",
    "rechenberg": "Ka*Da - Kb*Db: stores times pit activity (sum over a side's pits).",
    "tseitin": "(Ka + 17.3/(H-Ka) - 40/Da) - (Kb + 17.3/(H-Kb) - 40/Db), H = half + 1.",
}


def store(board: Sequence[int], m: int, to_move: int) -> int:
    """``Ka - Kb``: the side to move's store minus the opponent's store."""
    a, b = (m, 2 * m + 1) if to_move == 0 else (2 * m + 1, m)
    return int(board[a]) - int(board[b])


def activity(m: int, pit_offset: int, stones: int) -> int:
    """Activity of a pit: what its sowing would do, as Rechenberg counted it.

    ``pit_offset`` is the pit's place on its owner's side (0 = leftmost, m-1 next to the
    store), ``stones`` what it holds. An empty pit has activity 0. Otherwise: the stones its
    sowing (RULES.md 1.1: owner's later pits, owner's store, opponent's pits, owner's pits,
    ...; the opponent's store skipped; laps drop into the start pit too) would drop on its
    owner's pits (store excluded) minus the stones it would drop on the opponent's pits,
    plus ``m + 1``. Captures and relays are ignored.

    A full lap of ``2m + 1`` holes drops ``m`` stones on each side, so only the remainder
    ``r = stones mod (2m + 1)`` matters: first up to ``m - 1 - pit_offset`` own pits, then
    the store, then up to ``m`` opponent's pits, then own pits again.
    """
    if stones <= 0:
        return 0
    r = stones % (2 * m + 1)
    own = min(r, m - 1 - pit_offset)
    r -= own
    r -= min(r, 1)  # the store
    opp = min(r, m)
    r -= opp
    own += r
    return own - opp + m + 1


def side_activity(board: Sequence[int], m: int, player: int) -> int:
    """Da or Db: the sum of the activities of ``player``'s ``m`` pits."""
    first = 0 if player == 0 else m + 1
    return sum(activity(m, k, int(board[first + k])) for k in range(m))


def rechenberg(board: Sequence[int], m: int, to_move: int) -> int:
    """``Ka * Da - Kb * Db`` (plain ints), D the side's summed pit :func:`activity`."""
    a, b = to_move, 1 - to_move
    ka = int(board[m if a == 0 else 2 * m + 1])
    kb = int(board[m if b == 0 else 2 * m + 1])
    return ka * side_activity(board, m, a) - kb * side_activity(board, m, b)


def tseitin(board: Sequence[int], m: int, to_move: int) -> int:
    """Tseitin's formula, rounded to an int of thousandths.

    ``H = total // 2 + 1`` (total = all stones on the board, 37 on the default board: the
    smallest store that holds more than half). In float64, evaluated in this order::

        wa = Ka + 17.3 / max(H - Ka, 0.5) - 40.0 / max(Da, 0.5)
        wb = Kb + 17.3 / max(H - Kb, 0.5) - 40.0 / max(Db, 0.5)
        W = wa - wb
        return int(math.floor(1000.0 * W + 0.5))

    The two ``max(..., 0.5)`` settle the undefined cases: a store that has reached H (the
    game is won for it) counts 17.3 / 0.5 = 34.6, more than any store below H can; a side
    whose activity is 0 (all its pits empty) pays 40 / 0.5 = 80, more than any side with
    activity (non-empty pits have activity of at least 1). Ints convert to float64 exactly.
    """
    a, b = to_move, 1 - to_move
    ka = int(board[m if a == 0 else 2 * m + 1])
    kb = int(board[m if b == 0 else 2 * m + 1])
    total = sum(int(x) for x in board[: 2 * m + 2])
    h = total // 2 + 1
    da = side_activity(board, m, a)
    db = side_activity(board, m, b)
    wa = ka + 17.3 / max(h - ka, 0.5) - 40.0 / max(da, 0.5)
    wb = kb + 17.3 / max(h - kb, 0.5) - 40.0 / max(db, 0.5)
    w = wa - wb
    return math.floor(1000.0 * w + 0.5)  # == int(math.floor(...)), an int


EVALUATION_FUNCTIONS: dict[str, Callable[[Sequence[int], int, int], int]] = {
    "store": store,
    "rechenberg": rechenberg,
    "tseitin": tseitin,
}
"""The evaluations by name (the ``--eval`` choices)."""
