"""Nim's jitted rule functions for the generic search kernels (core/kernels.py).

The state row is :class:`~boardgames.nim.game.Nim`'s state: the chips left in each row,
then the side to move. Moves are the protocol's ints (``row * MOVE_STRIDE + take``) in the
same order as ``Nim.legal_moves``. ``params`` = ``[rows, misere]``. Nim has no heuristic:
an unfinished position evaluates to 0.

Only the search engine imports this module (numba is never loaded by the Nim commands).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardgames.core.kernels import NOT_OVER, OVER, TURN_PASSES, GameKernels, kernel_tag
from boardgames.core.strategies import KernelSpec
from boardgames.nim.game import Nim

SHIFT = 16  # MOVE_STRIDE == 1 << SHIFT in nim/game.py (checked by the tests)


@njit(cache=True, inline="always")
def gen_moves(states, ply, params, moves):
    """Every (row, take) in row order, then take ascending, into ``moves[ply]``."""
    n = 0
    for row in range(params[0]):
        for take in range(1, states[ply, row] + 1):
            moves[ply, n] = (row << SHIFT) + take
            n += 1
    return n


@njit(cache=True, inline="always")
def apply_move(states, ply, move, params):
    """Take the chips into ``states[ply + 1]``; the turn always passes (OVER when no chip
    is left)."""
    rows = params[0]
    for i in range(rows + 1):
        states[ply + 1, i] = states[ply, i]
    states[ply + 1, move >> SHIFT] -= move & ((1 << SHIFT) - 1)
    states[ply + 1, rows] = 1 - states[ply, rows]
    for i in range(rows):
        if states[ply + 1, i] != 0:
            return TURN_PASSES
    return OVER


@njit(cache=True, inline="always")
def result(states, ply, params):
    """No chips left: the opponent took the last one (normal play: the mover lost)."""
    for row in range(params[0]):
        if states[ply, row] != 0:
            return NOT_OVER
    return 1 if params[1] != 0 else -1


@njit(cache=True, inline="always")
def evaluate(states, ply, params):
    return 0


@njit(cache=True, inline="always")
def priority(states, ply, move, params):
    """Try moves that leave a zero nim-sum first (Bouton's rule as an ordering hint)."""
    x = 0
    for row in range(params[0]):
        x ^= states[ply, row]
    left = states[ply, move >> SHIFT] - (move & ((1 << SHIFT) - 1))
    return 1 if (x ^ states[ply, move >> SHIFT] ^ left) == 0 else 0


def make_params(rows: int, misere: bool) -> np.ndarray:
    return np.array([rows, int(misere)], dtype=np.int64)


_TAG = kernel_tag(__file__)


def kernels() -> GameKernels:
    """Nim's rule functions for :func:`boardgames.core.kernels.build_engine`."""
    return GameKernels(gen_moves, apply_move, result, evaluate, priority, "nim-" + _TAG)


def kernel_spec(game: Nim) -> KernelSpec:
    """What the numba engine needs to search ``game`` (core/strategies.py)."""
    rows = len(game.rows)

    def params(state: np.ndarray) -> np.ndarray:
        return make_params(rows, game.misere)

    return KernelSpec(kernels(), params, rows + 1, rows * game.max_chips, game.max_chips)
