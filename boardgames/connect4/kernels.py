"""Connect Four's jitted rule functions for the generic search kernels (core/kernels.py).

The state row is :class:`~boardgames.connect4.game.ConnectFour`'s state (board cells
``col * H + row``, then the side to move, the discs played and the won flag); moves are
columns, 0-based, left to right as ``ConnectFour.legal_moves``. ``params`` = ``[W, H, n]``
followed by the game's ``n`` lines of four (``ConnectFour.windows``, four cell indices
each), which the evaluation walks exactly as ``ConnectFour.evaluate`` does.

Only the search engine imports this module (numba is never loaded to play or draw).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardgames.connect4.game import PARITY, TEMPO, WEIGHTS, ConnectFour
from boardgames.core.kernels import NOT_OVER, OVER, TURN_PASSES, GameKernels, kernel_tag
from boardgames.core.strategies import KernelSpec

WIN_BONUS = 1 << 12
"""Move-ordering bonus of a move that completes four; one that blocks four gets half."""


@njit(cache=True, inline="always")
def _height(states, ply, col, h):
    row = 0
    while row < h and states[ply, col * h + row] != 0:
        row += 1
    return row


@njit(cache=True, inline="always")
def _makes_four(states, ply, col, row, disc, w, h):
    """Whether ``disc`` at (col, row) of ``states[ply]`` lies in a line of four (the
    cell itself is not read): three below it, or a run through it across or along
    either diagonal."""
    at = col * h + row
    if row >= 3 and states[ply, at - 1] == states[ply, at - 2] == states[ply, at - 3] == disc:
        return True
    for dr in (0, 1, -1):  # across, up to the right, down to the right
        n = 1
        c = col + 1
        r = row + dr
        while c < w and 0 <= r < h and states[ply, c * h + r] == disc:
            n += 1
            c += 1
            r += dr
        c = col - 1
        r = row - dr
        while c >= 0 and 0 <= r < h and states[ply, c * h + r] == disc:
            n += 1
            c -= 1
            r -= dr
        if n >= 4:
            return True
    return False


@njit(cache=True, inline="always")
def gen_moves(states, ply, params, moves):
    """The columns that are not full, left to right; none once the game is over."""
    w, h = params[0], params[1]
    cells = w * h
    if states[ply, cells + 2] != 0 or states[ply, cells + 1] == cells:
        return 0
    n = 0
    for col in range(w):
        if states[ply, col * h + h - 1] == 0:
            moves[ply, n] = col
            n += 1
    return n


@njit(cache=True, inline="always")
def apply_move(states, ply, move, params):
    """Drop the mover's disc into column ``move`` of ``states[ply + 1]``; OVER when it
    completes four or fills the board."""
    w, h = params[0], params[1]
    cells = w * h
    for i in range(cells + 3):
        states[ply + 1, i] = states[ply, i]
    row = _height(states, ply, move, h)
    disc = states[ply, cells] + 1
    states[ply + 1, move * h + row] = disc
    states[ply + 1, cells] = 2 - disc
    states[ply + 1, cells + 1] += 1
    # four of the mover's discs: at least three of them on the board already, so at least
    # six discs in all (a line is not looked for before)
    if states[ply, cells + 1] >= 6 and _makes_four(states, ply, move, row, disc, w, h):
        states[ply + 1, cells + 2] = 1
        return OVER
    if states[ply + 1, cells + 1] == cells:
        return OVER
    return TURN_PASSES


@njit(cache=True, inline="always")
def result(states, ply, params):
    """The opponent's last disc completed four: minus its win score (``ConnectFour.
    win_score``: ``(W*H + 2 - discs) div 2``, RULES.md 6); a full board: 0."""
    cells = params[0] * params[1]
    discs = states[ply, cells + 1]
    if states[ply, cells + 2] != 0:
        return -((cells + 2 - discs) // 2)
    if discs == cells:
        return 0
    return NOT_OVER


@njit(cache=True, inline="always")
def evaluate(states, ply, params):
    """Lines of four open to one player only, weighted by their discs (``WEIGHTS``), a
    threat on its owner's row parity ``PARITY`` more, the mover ``TEMPO`` a disc on the
    board: exactly ``ConnectFour.evaluate`` (the two numbers end ``params``)."""
    h = params[1]
    n = params[2]
    parity = params[4 + 4 * n]
    cells = params[0] * h
    me = states[ply, cells] + 1
    score = params[3 + 4 * n] * states[ply, cells + 1]  # the mover's tempo
    for k in range(n):
        mine = 0
        theirs = 0
        row = 0
        for j in range(4):
            cell = params[3 + 4 * k + j]
            v = states[ply, cell]
            if v == me:
                mine += 1
            elif v != 0:
                theirs += 1
            else:
                row = cell % h
        good = row % 2 == 0  # an odd row counted from 1: the first player's
        if theirs == 0:
            score += WEIGHTS[mine]
            if mine == 3 and good == (me == 1):
                score += parity
        elif mine == 0:
            score -= WEIGHTS[theirs]
            if theirs == 3 and good != (me == 1):
                score -= parity
    return score


@njit(cache=True, inline="always")
def priority(states, ply, move, params):
    """Central columns first; a move that completes four before all, then one that
    stops the opponent's four."""
    w, h = params[0], params[1]
    row = _height(states, ply, move, h)
    disc = states[ply, w * h] + 1
    bonus = w - abs(2 * move - (w - 1))
    if _makes_four(states, ply, move, row, disc, w, h):
        bonus += WIN_BONUS
    elif _makes_four(states, ply, move, row, 3 - disc, w, h):
        bonus += WIN_BONUS // 2
    return bonus


def make_params(game: ConnectFour) -> np.ndarray:
    """``[W, H, n, the n lines' cells..., TEMPO, PARITY]`` for ``game``."""
    lines = game.windows
    head = np.array([game.width, game.height, len(lines)], dtype=np.int64)
    tail = np.array([TEMPO, PARITY], dtype=np.int64)
    return np.concatenate([head, lines.ravel(), tail])


_TAG = kernel_tag(__file__)


def kernels() -> GameKernels:
    """Connect Four's rule functions for :func:`boardgames.core.kernels.build_engine`."""
    return GameKernels(gen_moves, apply_move, result, evaluate, priority, "connect4-" + _TAG)


def kernel_spec(game: ConnectFour) -> KernelSpec:
    """What the numba engine needs to search ``game`` (core/strategies.py): the state
    row has ``W*H + 3`` cells, at most ``W`` moves, and the disc count (up to ``W*H``)
    is the largest value a cell holds."""
    params = make_params(game)

    def params_of(state: np.ndarray) -> np.ndarray:
        return params

    return KernelSpec(kernels(), params_of, game.cells + 3, game.width, game.cells)
