"""Step two (optional): Othello's rules as numba kernels, for every numba strategy, Monte
Carlo tree search and the fast engine. Only the search imports this module.

``states[ply]`` is the position ``ply`` moves below the root, each row exactly
:class:`~boardgames_othello.game.Othello`'s state (cells, then the player to move), and
``params[0]`` is the board's side: one compiled set of kernels serves every size. A forced
pass is the move ``size * size``, listed alone, as ``legal_moves`` lists it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from boardgames.core.kernels import NOT_OVER, OVER, TURN_PASSES, GameKernels, kernel_tag
from boardgames.core.strategies import KernelSpec

DR = np.array([-1, -1, -1, 0, 0, 1, 1, 1], dtype=np.int64)
DC = np.array([-1, 0, 1, -1, 1, -1, 0, 1], dtype=np.int64)


@njit(cache=True)
def _flips(states, ply, n, cell, me, turn):
    """How many discs a disc of ``me`` on empty ``cell`` turns; ``turn``: turn them too."""
    total = 0
    for d in range(8):
        r, c, run = cell // n + DR[d], cell % n + DC[d], 0
        while 0 <= r < n and 0 <= c < n and states[ply, r * n + c] == 3 - me:
            r, c, run = r + DR[d], c + DC[d], run + 1
        if run > 0 and 0 <= r < n and 0 <= c < n and states[ply, r * n + c] == me:
            total += run
            if turn:
                for i in range(1, run + 1):
                    states[ply, (cell // n + i * DR[d]) * n + cell % n + i * DC[d]] = me
    return total


@njit(cache=True)
def _can_place(states, ply, n, me):
    for cell in range(n * n):
        if states[ply, cell] == 0 and _flips(states, ply, n, cell, me, False) > 0:
            return True
    return False


@njit(cache=True)
def gen_moves(states, ply, params, moves):
    """``legal_moves``: the placements in cell order, else a pass while the opponent can
    place, else none (the game is over)."""
    n = params[0]
    me = states[ply, n * n] + 1
    count = 0
    for cell in range(n * n):
        if states[ply, cell] == 0 and _flips(states, ply, n, cell, me, False) > 0:
            moves[ply, count] = cell
            count += 1
    if count == 0 and _can_place(states, ply, n, 3 - me):
        moves[ply, 0] = n * n
        count = 1
    return count


@njit(cache=True)
def apply_move(states, ply, move, params):
    """``play`` into the next row; OVER exactly when neither player can place a disc."""
    n = params[0]
    for i in range(n * n + 1):
        states[ply + 1, i] = states[ply, i]
    me = states[ply, n * n] + 1
    if move != n * n:
        states[ply + 1, move] = me
        _flips(states, ply + 1, n, move, me, True)
    states[ply + 1, n * n] = 2 - me
    if _can_place(states, ply + 1, n, 1) or _can_place(states, ply + 1, n, 2):
        return TURN_PASSES
    return OVER


@njit(cache=True)
def _weighted(states, ply, n, corner):
    """Disc difference for the mover, each corner counting ``corner``."""
    me = states[ply, n * n] + 1
    score = 0
    for cell in range(n * n):
        v = states[ply, cell]
        if v != 0:
            r, c = cell // n, cell % n
            w = corner if (r == 0 or r == n - 1) and (c == 0 or c == n - 1) else 1
            score += w if v == me else -w
    return score


@njit(cache=True)
def result(states, ply, params):
    """``outcome``: the disc difference once neither can place, else NOT_OVER."""
    n = params[0]
    if _can_place(states, ply, n, 1) or _can_place(states, ply, n, 2):
        return NOT_OVER
    return _weighted(states, ply, n, 1)


@njit(cache=True)
def evaluate(states, ply, params):
    """``evaluate``: the disc difference, a corner counting 5."""
    return _weighted(states, ply, params[0], 5)


@njit(cache=True)
def priority(states, ply, move, params):
    """Move ordering only: corners first, then edges."""
    n = params[0]
    r, c = move // n, move % n
    if move == n * n:
        return 0
    return (r == 0 or r == n - 1) + (c == 0 or c == n - 1)


_TAG = kernel_tag(__file__)


def kernel_spec(game: Any) -> KernelSpec:
    """The kernels; ``params`` (the side), the row length, the most legal moves in a
    position (the empty cells), and the largest value a cell holds (2: White)."""
    n: int = game.size
    kernels = GameKernels(gen_moves, apply_move, result, evaluate, priority, "othello-" + _TAG)
    return KernelSpec(kernels, lambda state: np.array([n], dtype=np.int64), n * n + 1, n * n - 4, 2)
