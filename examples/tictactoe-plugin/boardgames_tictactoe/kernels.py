"""Step two (optional): tic-tac-toe's rules as numba kernels, for every numba strategy,
Monte Carlo tree search and the fast engine. Only the search imports this module.

The search keeps a stack of state rows: ``states[ply]`` is the position ``ply`` moves
below the root, each row exactly :class:`~boardgames_tictactoe.game.TicTacToe`'s state
(cells 0..8, then the player to move). Every function must agree with the Python rules:
``gen_moves`` lists ``legal_moves`` in the same order, ``apply_move`` writes the same row
as ``play``, ``result`` is ``outcome`` (``NOT_OVER`` for None) and ``evaluate`` is
``evaluate``; ``boardgames.testing.check_game`` checks all of it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardgames.core.kernels import AGAIN, NOT_OVER, OVER, TURN_PASSES, GameKernels, kernel_tag
from boardgames.core.strategies import KernelSpec

LINES = np.array(
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]],
    dtype=np.int64,
)
_ = AGAIN  # tic-tac-toe never gives a player two moves in a row


@njit(cache=True)
def _winner(states, ply):
    for k in range(8):
        a = states[ply, LINES[k, 0]]
        if a != 0 and a == states[ply, LINES[k, 1]] and a == states[ply, LINES[k, 2]]:
            return a
    return 0


@njit(cache=True)
def gen_moves(states, ply, params, moves):
    """The empty cells in order, none once someone has a line: ``legal_moves``."""
    if _winner(states, ply):
        return 0
    n = 0
    for cell in range(9):
        if states[ply, cell] == 0:
            moves[ply, n] = cell
            n += 1
    return n


@njit(cache=True)
def apply_move(states, ply, move, params):
    """``play`` into the next row. OVER exactly when the game ends: the search reads
    ``result`` only after OVER, so a missed end would score as unfinished."""
    for i in range(10):
        states[ply + 1, i] = states[ply, i]
    states[ply + 1, move] = states[ply, 9] + 1
    states[ply + 1, 9] = 1 - states[ply, 9]
    if _winner(states, ply + 1):
        return OVER
    for cell in range(9):
        if states[ply + 1, cell] == 0:
            return TURN_PASSES
    return OVER  # a full board: a draw


@njit(cache=True)
def result(states, ply, params):
    """``outcome``: -1 after a line (the mover lost), 0 on a full board, else NOT_OVER."""
    if _winner(states, ply):
        return -1
    for cell in range(9):
        if states[ply, cell] == 0:
            return NOT_OVER
    return 0


@njit(cache=True)
def evaluate(states, ply, params):
    """``evaluate``: lines open to the mover minus lines open to the opponent."""
    me = states[ply, 9] + 1
    other = 3 - me
    score = 0
    for k in range(8):
        mine = theirs = False
        for j in range(3):
            v = states[ply, LINES[k, j]]
            mine |= v == me
            theirs |= v == other
        score += int(not theirs) - int(not mine)
    return score


@njit(cache=True)
def priority(states, ply, move, params):
    """Move ordering only: the centre, then the corners."""
    return 2 if move == 4 else 1 if move % 2 == 0 else 0


_TAG = kernel_tag(__file__)


def kernel_spec(game: object) -> KernelSpec:
    """What the numba engine needs: the kernels, ``params`` (the settings as an int64
    array; none here), the row length, the most moves in a position, and the largest
    value a cell holds (cells hold 0..2 and the mover 0..1: it sizes the hash table)."""
    kernels = GameKernels(gen_moves, apply_move, result, evaluate, priority, "ttt-" + _TAG)
    return KernelSpec(kernels, lambda state: np.zeros(1, dtype=np.int64), 10, 9, 2)
