"""Connect Four solved exactly: numba kernels on bitboards, and a pure-Python reference.

Scores follow RULES.md section 6, for the player to move: 0 for a draw, ``1 + share - d``
when the mover wins with their ``d``-th disc, ``share`` their part of the ``W*H`` discs
(``ceil(W*H/2)`` for the first player, ``floor(W*H/2)`` for the second), minus the
opponent's such number when the mover loses (7 x 6: -18..18; :meth:`ConnectFour.win_score`
is the same number). Everywhere here it is Pons' ``ws(k) = (W*H + 1 - k) // 2``, the score
of a win whose winning disc is move ``k`` (counted from 0), on even and odd boards alike:
a win with the mover's next disc scores ``ws(n)``, ``n`` the discs on the board, and
``ws(k + 2) = ws(k) - 1``.

A position is two bitboards (``uint64``): the mover's discs and all discs (the mask),
column after column, ``H + 1`` bits a column (``W * (H + 1) <= 64``); the top bit of each
column stays empty (a guard row), so that no line wraps from one column into the next.

The search (:func:`_search`) is a null-window negamax without recursion (an explicit
stack of frames: numba's recursive calls would pay for every array argument at every
node):

* the mover's immediate win is found before the search, never inside it;
* only non-losing moves are searched: never a move under a cell where the opponent would
  complete four; a single opponent threat is blocked (a forced move), two at once lose;
* the score's static bounds cut first (the mover cannot win before their next move, nor
  lose before the opponent's next one);
* a transposition table of ``uint64`` words: the key ``mover + mask`` (one number per
  position, below ``2**(W*(H+1))``) times an odd constant (:data:`MULT`, a bijection),
  whose top bits choose the slot and whose low bits are stored, so that slot and stored
  bits give the key back (no false hits); an entry keeps a lower and an upper bound and
  the column that cut last;
* move ordering: the table's column, then the number of winning cells (threats) a move
  makes, centre columns first on ties (an insertion sort of at most ``W`` moves); the
  children's table slots are prefetched while they are ordered;
* symmetry where it is cheap: up to :data:`SYMMETRY_PLIES` discs a position and its
  mirror image share an entry (the smaller key of the two), and a position that is its
  own mirror image searches the columns of one half only.

:func:`_solve` finds the exact score by a binary search with null-window probes (is the
score above ``med``?), ``med`` pulled towards 0, where most scores lie; a weak solve asks
only whether the score is above and below 0. The kernels poll a stop flag (an array that
another thread may set) and a node budget every :data:`POLL_NODES` positions, well under
a millisecond of work.

Protocol values (:class:`~boardgames.core.protocol.SearchResult`, see
:func:`protocol_value`): a win of score ``s`` is ``terminal_score(s, p)``, ``p`` the plies
to its winning disc (which ``s`` fixes), so the margin is the RULES.md score and
``describe_score(value, exact=True)`` reads "win by s in p plies"; a loss the same,
negated; a draw 0. A weak solve knows the sign only: a win is ``terminal_score(1, 0)``
with ``exact=False`` ("win by at least 1"), a loss its negation; a draw is 0, exact.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from boardgames.connect4.game import ConnectFour
from boardgames.core.bits import popcount
from boardgames.core.memory import huge_zeros
from boardgames.core.prefetch import prefetch
from boardgames.core.progress import run_in_thread
from boardgames.core.protocol import GameError, SearchResult, State, terminal_score
from boardgames.core.search import SearchStopped

DEFAULT_HASH_MIB = 64
"""Transposition table of a solve, MiB: 8 M entries of 8 bytes."""
MIN_HASH_MIB = 1
SYMMETRY_PLIES = 12
"""Up to this many discs on the board a position and its mirror image share an entry."""
POLL_NODES = 1024
"""The kernels look at the stop flag and the node budget every this many positions."""
STOPPED = 1 << 20
"""What a kernel returns when it was stopped (no score is that large)."""
NO_COLUMN = STOPPED + 1
"""The score :func:`analyse_columns` gives a full column."""
QUICK_NODES = 300_000
"""Positions the pure-Python solver may search (about a second) on a machine whose
kernels are not compiled yet, for a late position (:func:`quick_budget`), before the
kernels are compiled instead; ..."""
QUICK_EMPTY = 26
"""... a position is late with at most this many empty cells (or a board of at most 20
cells); ..."""
TRY_NODES = 20_000
"""... any other position gets this many (a few hundredths of a second): enough for a
position one or two moves from its end."""
WARM_STEP = "boardgames.connect4.solver:warm"
"""The ``cache warm connect4`` step that compiles these kernels."""

OFF = 32
"""Bias of a bound in a table entry (scores lie in -28..28 on every allowed board)."""
NO_LOWER = 0
NO_UPPER = 63
MULT = np.uint64(0x9E3779B97F4A7C15)
"""Odd multiplier of the key: a bijection of 64-bit words."""
MIN_TABLE_BITS = 16
"""At least 2**16 entries: the stored key bits (64 - bits) and 16 bits of data fit."""

# frame columns: fu (uint64) and fi (int64) rows, one per ply of the stack
U_CUR, U_MASK, U_TAG, U_MOVES = 0, 1, 2, 3
I_BETA, I_BEST, I_NEXT, I_COUNT, I_SLOT, I_FLIP, I_COLS, I_SCORES = 0, 1, 2, 3, 4, 5, 7, 16
U_WIDTH = U_MOVES + 9
I_WIDTH = I_SCORES + 9
# geometry array g (uint64): H + 1, bottom row, board cells, one column's H + 1 bits (of a
# key: a full column's key uses its guard bit), width, cells
G_H1, G_BOTTOM, G_BOARD, G_COLUMN, G_WIDTH, G_CELLS = 0, 1, 2, 3, 4, 5
# counters (int64): nodes so far, node budget (0: none), table bits, positions solved
C_NODES, C_LIMIT, C_BITS, C_DONE = 0, 1, 2, 3


# --- bit tricks ---------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _winning(pos, mask, h1, board):
    """The empty cells where a disc of ``pos`` would complete four (any of them, playable
    or not): for each direction, a cell next to three in a line, or between two and one."""
    # vertical: three below
    r = (pos << np.uint64(1)) & (pos << np.uint64(2)) & (pos << np.uint64(3))
    for s in (h1, h1 - np.uint64(1), h1 + np.uint64(1)):  # across, and the two diagonals
        s2 = s + s
        p = (pos << s) & (pos << s2)
        r |= p & (pos << (s2 + s))
        r |= p & (pos >> s)
        p = (pos >> s) & (pos >> s2)
        r |= p & (pos << s)
        r |= p & (pos >> (s2 + s))
    return r & (board ^ mask)


@njit(cache=True, inline="always")
def _mirror(key, width, h1, column):
    """``key`` with the columns in the opposite order (``column``: the low H + 1 bits)."""
    out = np.uint64(0)
    for c in range(width):
        out |= ((key >> (np.uint64(c) * h1)) & column) << (np.uint64(width - 1 - c) * h1)
    return out


@njit(cache=True, inline="always")
def _ws(cells, k):
    """The score of a win whose winning disc is move ``k`` of the game (from 0): Pons'
    ``(W*H + 1 - k) div 2`` (RULES.md 6)."""
    return (cells + 1 - k) // 2


# --- the search ----------------------------------------------------------------------------


@njit(cache=True, nogil=True, boundscheck=False)
def _search(cur0, mask0, n0, beta0, g, cols, colmask, tt, fu, fi, counters, flag):
    """Null-window negamax of the position (``cur0``, ``mask0``, ``n0`` discs) against
    ``beta0``: a value ``v >= beta0`` is a lower bound of the score, ``v < beta0`` an upper
    bound (fail-soft). The mover must not have an immediate win. Returns :data:`STOPPED`
    when the stop flag or the node budget ended it."""
    h1 = g[G_H1]
    bottom = g[G_BOTTOM]
    board = g[G_BOARD]
    column = g[G_COLUMN]
    width = np.int64(g[G_WIDTH])
    cells = np.int64(g[G_CELLS])
    shift = np.uint64(64 - counters[C_BITS])
    tagmask = (np.uint64(1) << shift) - np.uint64(1)
    limit = counters[C_LIMIT]
    nodes = counters[C_NODES]
    one = np.uint64(1)
    d = 0
    fu[0, U_CUR] = cur0
    fu[0, U_MASK] = mask0
    fi[0, I_BETA] = beta0
    v = np.int64(0)
    while True:
        # --- enter node d: a value at once (done) or its moves, ordered ---------------
        nodes += 1
        if nodes % POLL_NODES == 0:
            counters[C_NODES] = nodes  # (read by the progress display meanwhile)
            if flag[0] != 0 or (limit > 0 and nodes >= limit):
                return STOPPED
        cur = fu[d, U_CUR]
        mask = fu[d, U_MASK]
        beta = fi[d, I_BETA]
        n = n0 + d
        done = True
        possible = (mask + bottom) & board
        opp_win = _winning(cur ^ mask, mask, h1, board)
        forced = possible & opp_win
        if forced != 0:
            if forced & (forced - one):
                v = -_ws(cells, n + 1)  # two threats: the opponent wins next move
                possible = np.uint64(0)
            else:
                possible = forced
        nonlosing = possible & ~(opp_win >> one)
        if possible == 0:
            pass
        elif nonlosing == 0:
            v = -_ws(cells, n + 1)
        elif n >= cells - 2:
            v = 0  # no win for the mover now, none for the opponent on the last cell
        else:
            lo = -_ws(cells, n + 3)
            hi = _ws(cells, n + 2)
            if lo >= beta:
                v = lo
            elif hi < beta:
                v = hi
            else:
                key = cur + mask
                flip = 0
                symmetric = False
                if n <= SYMMETRY_PLIES:
                    mk = _mirror(key, width, h1, column)
                    symmetric = mk == key
                    if mk < key:
                        key = mk
                        flip = 1
                h = key * MULT
                slot = np.int64(h >> shift)
                tag = h & tagmask
                e = tt[slot]
                ttcol = -1
                cut = False
                if e != 0 and (e >> np.uint64(16)) == tag:
                    tlo = np.int64(e & np.uint64(63)) - OFF
                    thi = np.int64((e >> np.uint64(6)) & np.uint64(63)) - OFF
                    ttcol = np.int64((e >> np.uint64(12)) & np.uint64(15)) - 1
                    if ttcol >= 0 and flip:
                        ttcol = width - 1 - ttcol
                    if tlo >= beta:
                        v = tlo
                        cut = True
                    elif thi < beta:
                        v = thi
                        cut = True
                if not cut:
                    done = False
                    opp = cur ^ mask
                    count = 0
                    for k in range(width):
                        m = nonlosing & colmask[k]
                        if m == 0:
                            continue
                        c = cols[k]
                        if symmetric and 2 * c > width - 1:
                            continue
                        if c == ttcol:
                            sc = 1 << 20
                        else:
                            sc = popcount(_winning(cur | m, mask | m, h1, board))
                        if n + 1 > SYMMETRY_PLIES:
                            prefetch(tt, np.int64(((opp + (mask | m)) * MULT) >> shift))
                        j = count
                        while j > 0 and fi[d, I_SCORES + j - 1] < sc:
                            fu[d, U_MOVES + j] = fu[d, U_MOVES + j - 1]
                            fi[d, I_COLS + j] = fi[d, I_COLS + j - 1]
                            fi[d, I_SCORES + j] = fi[d, I_SCORES + j - 1]
                            j -= 1
                        fu[d, U_MOVES + j] = m
                        fi[d, I_COLS + j] = c
                        fi[d, I_SCORES + j] = sc
                        count += 1
                    fi[d, I_COUNT] = count
                    fi[d, I_NEXT] = 0
                    fi[d, I_BEST] = -STOPPED
                    fi[d, I_SLOT] = slot
                    fi[d, I_FLIP] = flip
                    fu[d, U_TAG] = tag
        # --- go back up with a value, or down into the next move ------------------------
        while True:
            if done:
                if d == 0:
                    counters[C_NODES] = nodes
                    return v
                d -= 1
                score = -v
                beta = fi[d, I_BETA]
                if score >= beta or fi[d, I_NEXT] == fi[d, I_COUNT]:
                    # a cut (lower bound), or the last move: an upper bound, the best
                    lower = score >= beta
                    if lower:
                        col = fi[d, I_COLS + fi[d, I_NEXT] - 1]
                    else:
                        if score > fi[d, I_BEST]:
                            fi[d, I_BEST] = score
                        score = fi[d, I_BEST]
                        col = -1
                    slot = fi[d, I_SLOT]
                    tag = fu[d, U_TAG]
                    e = tt[slot]
                    if e != 0 and (e >> np.uint64(16)) == tag:
                        elo = np.int64(e & np.uint64(63))
                        ehi = np.int64((e >> np.uint64(6)) & np.uint64(63))
                        ecol = np.int64((e >> np.uint64(12)) & np.uint64(15))
                    else:
                        elo = NO_LOWER
                        ehi = NO_UPPER
                        ecol = 0
                    if lower:
                        elo = max(elo, score + OFF)
                        ecol = (width - 1 - col if fi[d, I_FLIP] else col) + 1
                    else:
                        ehi = min(ehi, score + OFF)
                    tt[slot] = (
                        (tag << np.uint64(16))
                        | (np.uint64(ecol) << np.uint64(12))
                        | (np.uint64(ehi) << np.uint64(6))
                        | np.uint64(elo)
                    )
                    v = score
                    continue
                if score > fi[d, I_BEST]:
                    fi[d, I_BEST] = score
            # down into the next move of node d
            i = fi[d, I_NEXT]
            fi[d, I_NEXT] = i + 1
            m = fu[d, U_MOVES + i]
            cur = fu[d, U_CUR]
            mask = fu[d, U_MASK]
            fu[d + 1, U_CUR] = cur ^ mask
            fu[d + 1, U_MASK] = mask | m
            fi[d + 1, I_BETA] = 1 - fi[d, I_BETA]
            d += 1
            break


@njit(cache=True, nogil=True, boundscheck=False)
def _solve(cur, mask, n, weak, g, cols, colmask, tt, fu, fi, counters, flag):
    """The exact score of a position of a game not over (its sign only when ``weak``);
    :data:`STOPPED` when stopped."""
    h1 = g[G_H1]
    board = g[G_BOARD]
    cells = np.int64(g[G_CELLS])
    possible = (mask + g[G_BOTTOM]) & board
    if _winning(cur, mask, h1, board) & possible:
        return 1 if weak else _ws(cells, n)
    lo = -_ws(cells, n + 1)
    hi = _ws(cells, n + 2)
    if weak:
        lo = max(lo, -1)
        hi = min(hi, 1)
    while lo < hi:
        med = lo + (hi - lo) // 2
        if med <= 0 and int(lo / 2) < med:
            med = int(lo / 2)
        elif med >= 0 and int(hi / 2) > med:
            med = int(hi / 2)
        r = _search(cur, mask, n, med + 1, g, cols, colmask, tt, fu, fi, counters, flag)
        if r == STOPPED:
            return STOPPED
        if r <= med:
            hi = r
        else:
            lo = r
    if weak:
        return 1 if lo > 0 else (-1 if lo < 0 else 0)
    return lo


@njit(cache=True, nogil=True, boundscheck=False)
def solve_batch(curs, masks, ns, weak, g, cols, colmask, tt, fu, fi, counters, flag, out, nodes):
    """Solve positions one after the other: ``out[i]`` the score (the sign when ``weak``)
    of ``(curs[i], masks[i], ns[i])``, ``nodes[i]`` the positions searched; returns how
    many were solved before a stop (all of them unless stopped)."""
    counters[C_DONE] = 0
    for i in range(curs.shape[0]):
        before = counters[C_NODES]
        r = _solve(curs[i], masks[i], ns[i], weak, g, cols, colmask, tt, fu, fi, counters, flag)
        if r == STOPPED:
            return i
        out[i] = r
        nodes[i] = counters[C_NODES] - before
        counters[C_DONE] = i + 1
    return curs.shape[0]


@njit(cache=True, nogil=True, boundscheck=False)
def analyse_columns(cur, mask, n, weak, g, cols, colmask, tt, fu, fi, counters, flag, out):
    """The score of every column for the mover (after playing it; its sign when
    ``weak``) into ``out[column]``, :data:`NO_COLUMN` for a full one; False if stopped."""
    bottom = g[G_BOTTOM]
    board = g[G_BOARD]
    width = np.int64(g[G_WIDTH])
    cells = np.int64(g[G_CELLS])
    possible = (mask + bottom) & board
    mine = _winning(cur, mask, g[G_H1], board)
    for c in range(width):
        out[c] = NO_COLUMN
    for k in range(width):
        m = possible & colmask[k]
        if m == 0:
            continue
        c = cols[k]
        if m & mine:
            out[c] = 1 if weak else _ws(cells, n)
        elif n + 1 == cells:
            out[c] = 0
        else:
            r = _solve(cur ^ mask, mask | m, n + 1, weak, g, cols, colmask, tt, fu, fi, counters,
                       flag)  # fmt: skip
            if r == STOPPED:
                return False
            out[c] = -r
    return True


@njit(cache=True, nogil=True, boundscheck=False)
def keeping_column(cur, mask, n, value, g, cols, colmask, tt, fu, fi, counters, flag):
    """A column whose score for the mover is at least ``value`` (the position's score:
    a best move), centre columns first, each tried by one null-window probe; -1 if none,
    -2 if stopped."""
    bottom = g[G_BOTTOM]
    board = g[G_BOARD]
    h1 = g[G_H1]
    width = np.int64(g[G_WIDTH])
    cells = np.int64(g[G_CELLS])
    possible = (mask + bottom) & board
    mine = _winning(cur, mask, h1, board)
    for k in range(width):
        m = possible & colmask[k]
        if m == 0:
            continue
        if m & mine:
            return cols[k]
        child_cur = cur ^ mask
        child_mask = mask | m
        if n + 1 == cells:
            r = 0
        elif _winning(child_cur, child_mask, h1, board) & ((child_mask + bottom) & board):
            r = _ws(cells, n + 1)  # the opponent wins at once
        else:
            # the child's score is at most -value exactly when a probe at 1 - value fails low
            r = _search(child_cur, child_mask, n + 1, 1 - value, g, cols, colmask, tt, fu, fi,
                        counters, flag)  # fmt: skip
            if r == STOPPED:
                return -2
        if -r >= value:
            return cols[k]
    return -1


# --- positions as bitboards ---------------------------------------------------------------


@dataclass(frozen=True)
class Bitboards:
    """A position of a W x H board: the mover's discs, all discs, and how many."""

    cur: int
    mask: int
    n: int


def geometry(width: int, height: int) -> npt.NDArray[np.uint64]:
    """The kernels' ``g``: H + 1, the bottom row, every cell, the H + 1 bits of a column,
    W, W*H."""
    h1 = height + 1
    bottom = sum(1 << (c * h1) for c in range(width))
    board = bottom * ((1 << height) - 1)
    column = (1 << h1) - 1
    return np.array([h1, bottom, board, column, width, width * height], dtype=np.uint64)


def column_order(width: int) -> list[int]:
    """Columns centre first, then alternately right and left of it: 7 -> 3 4 2 5 1 6 0
    (0-based; 4 -> 2 1 3 0 ... the right middle first on even widths)."""
    order = sorted(range(width), key=lambda c: (abs(2 * c - (width - 1)), -c))
    return order


def to_bitboards(game: ConnectFour, state: State) -> Bitboards:
    """The bitboards of a game state (see :mod:`boardgames.connect4.game` for its cells)."""
    w, h = game.width, game.height
    cells = game.cells
    mover = int(state[cells]) + 1
    cur = mask = 0
    for col in range(w):
        for row in range(h):
            v = int(state[col * h + row])
            if v:
                bit = 1 << (col * (h + 1) + row)
                mask |= bit
                if v == mover:
                    cur |= bit
    return Bitboards(cur, mask, int(state[cells + 1]))


def parse_bitboards(width: int, height: int, moves: str) -> Bitboards:
    """The bitboards after the columns ``moves`` (digits 1..W, RULES.md notation), checked
    by the game's own parser (a GameError with one line when it is not a position)."""
    game = ConnectFour(width, height)
    return to_bitboards(game, game.parse_position(moves))


# --- the pure-Python reference ----------------------------------------------------------


class NodeLimit(Exception):
    """The pure-Python solver searched more positions than it was allowed."""


class ReferenceSolver:
    """Plain negamax with alpha-beta in pure Python, on the kernels' score convention: a
    check of the mover's immediate win, centre columns first, and (``table``) a
    dictionary of bounds. No compile: what a fresh machine answers with while the kernels
    are compiled, and the kernels' referee in the tests (its four-in-a-line test is
    another method than theirs: it shifts the position onto itself)."""

    def __init__(
        self,
        width: int,
        height: int,
        *,
        table: bool = True,
        node_limit: int | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> None:
        self.width, self.height = width, height
        self.h1 = height + 1
        self.cells = width * height
        self.half = (self.cells + 1) // 2  # no score is larger
        self.order = column_order(width)
        self.bottoms = [1 << (c * self.h1) for c in range(width)]
        self.tops = [1 << (c * self.h1 + height - 1) for c in range(width)]
        self.table: dict[tuple[int, int], tuple[int, int]] | None = {} if table else None
        self.node_limit = node_limit
        self.stop = stop
        self.nodes = 0

    def win(self, n: int) -> int:
        """The score of a win with the next disc after ``n`` discs (RULES.md 6: Pons'
        ``(W*H + 1 - n) div 2``)."""
        return (self.cells + 1 - n) // 2

    def four(self, pos: int) -> bool:
        """Whether ``pos`` holds four in a line."""
        return _four(pos, self.h1)

    def moves(self, mask: int) -> list[int]:
        """The cell each playable column takes, centre columns first."""
        return [
            (mask + self.bottoms[c]) & ~mask & (self.bottoms[c] * ((1 << self.height) - 1))
            for c in self.order
            if not mask & self.tops[c]
        ]

    def solve(self, board: Bitboards) -> int:
        """The exact score of a position whose game is not over."""
        return self.negamax(board.cur, board.mask, board.n, -self.half - 1, self.half + 1)

    def negamax(self, cur: int, mask: int, n: int, alpha: int, beta: int) -> int:
        """The score if it lies inside (alpha, beta); else a bound beyond the window."""
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise NodeLimit
        if self.stop is not None and self.nodes % 4096 == 0 and self.stop():
            raise SearchStopped
        if n == self.cells:
            return 0
        moves = self.moves(mask)
        win = self.win(n)
        for m in moves:
            if self.four(cur | m):
                return win
        if win - 1 <= alpha:  # the mover cannot win before their next move
            return win - 1
        key = (cur, mask)
        a0 = alpha
        if self.table is not None:
            lo, hi = self.table.get(key, (-self.half - 1, self.half + 1))
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
            if alpha >= beta:
                return alpha
        b0 = beta
        best = -self.half - 1
        for m in moves:
            v = -self.negamax(cur ^ mask, mask | m, n + 1, -beta, -alpha)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        if self.table is not None:
            lo, hi = self.table.get(key, (-self.half - 1, self.half + 1))
            if best >= b0:
                lo = max(lo, best)
            elif best <= a0:
                hi = min(hi, best)
            else:
                lo = hi = best
            self.table[key] = (lo, hi)
        return best

    def best(self, board: Bitboards) -> tuple[int, int]:
        """The exact score of a position whose game is not over and a column that keeps
        it (the first one in centre-first order)."""
        cur, mask, n = board.cur, board.mask, board.n
        moves = [
            (c, (mask + self.bottoms[c]) & ~mask & (self.bottoms[c] * ((1 << self.height) - 1)))
            for c in self.order
            if not mask & self.tops[c]
        ]
        for c, m in moves:
            if self.four(cur | m):
                return self.win(n), c
        alpha, beta = -self.half - 1, self.half + 1
        best, col = -self.half - 2, moves[0][0]
        for c, m in moves:
            v = -self.negamax(cur ^ mask, mask | m, n + 1, -beta, -alpha)
            if v > best:
                best, col = v, c
                alpha = max(alpha, v)
        return best, col

    def analyse(self, board: Bitboards) -> list[int | None]:
        """The score of each column for the mover, None for a full one."""
        out: list[int | None] = [None] * self.width
        for c in range(self.width):
            if board.mask & self.tops[c]:
                continue
            col = self.bottoms[c] * ((1 << self.height) - 1)
            m = (board.mask + self.bottoms[c]) & ~board.mask & col
            if self.four(board.cur | m):
                out[c] = self.win(board.n)
            elif board.n + 1 == self.cells:
                out[c] = 0
            else:
                child = Bitboards(board.cur ^ board.mask, board.mask | m, board.n + 1)
                out[c] = -self.solve(child)
        return out


# --- the solver object ----------------------------------------------------------------------


def table_bits(hash_mib: float) -> int:
    """log2 of the entries of a table of at most ``hash_mib`` MiB (8-byte entries)."""
    entries = max(1, int(hash_mib * 2**20) // 8)
    return max(MIN_TABLE_BITS, entries.bit_length() - 1)


class Solver:
    """The kernels' solver for one board size, its transposition table kept from one solve
    to the next (an entry is a bound of its position's exact score, whatever the root)."""

    def __init__(self, width: int, height: int, hash_mib: float = DEFAULT_HASH_MIB) -> None:
        ConnectFour(width, height)  # checks the size
        self.width, self.height = width, height
        self.g = geometry(width, height)
        order = column_order(width)
        self.cols = np.array(order, dtype=np.int64)
        h1 = height + 1
        self.colmask = np.array([((1 << height) - 1) << (c * h1) for c in order], dtype=np.uint64)
        self.bits = table_bits(hash_mib)
        self.tt = huge_zeros(1 << self.bits, np.uint64)
        depth = width * height + 2
        self.fu = np.zeros((depth, U_WIDTH), dtype=np.uint64)
        self.fi = np.zeros((depth, I_WIDTH), dtype=np.int64)
        self.counters = np.zeros(4, dtype=np.int64)
        self.counters[C_BITS] = self.bits
        self.flag = np.zeros(1, dtype=np.int64)
        self.lock = threading.Lock()
        self.last = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))

    @property
    def nodes(self) -> int:
        """Positions searched since the counter was last reset."""
        return int(self.counters[C_NODES])

    @property
    def solved(self) -> list[int]:
        """The scores :meth:`solve_many` found, also when it was stopped: those of its
        first positions."""
        return [int(v) for v in self.last[0][: int(self.counters[C_DONE])]]

    def clear(self) -> None:
        """Forget the table (each entry) and the node count."""
        self.tt[:] = 0
        self.counters[C_NODES] = 0

    def _args(self) -> tuple[Any, ...]:
        return (self.g, self.cols, self.colmask, self.tt, self.fu, self.fi, self.counters,
                self.flag)  # fmt: skip

    def run(
        self,
        work: Callable[[], Any],
        stop: Callable[[], bool] | None = None,
        tick: Callable[[], None] | None = None,
        node_limit: int = 0,
    ) -> Any:
        """``work()`` (a kernel call) in a helper thread while this one polls ``stop`` (and
        calls ``tick``) every 20 ms and sees Ctrl-C: either sets the kernels' stop flag,
        which they see within a millisecond. ``node_limit`` > 0: a budget of positions."""
        self.flag[0] = 0
        self.counters[C_LIMIT] = self.counters[C_NODES] + node_limit if node_limit else 0

        def halt() -> None:
            self.flag[0] = 1

        def poll() -> None:
            if tick is not None:
                tick()
            if stop is not None and stop():
                halt()

        try:
            return run_in_thread(work, stop=halt, tick=poll, every=0.02)
        finally:
            self.counters[C_LIMIT] = 0

    def solve_many(
        self,
        boards: list[Bitboards],
        weak: bool = False,
        *,
        stop: Callable[[], bool] | None = None,
        tick: Callable[[int], None] | None = None,
        node_limit: int = 0,
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The scores (signs when ``weak``) of positions whose games are not over, and the
        positions searched for each; SearchStopped when ``stop`` (or Ctrl-C: then
        KeyboardInterrupt) or the node budget ended it, the scores found before it in
        :attr:`last`. ``tick(solved so far)`` every 20 ms."""
        k = len(boards)
        curs = np.array([b.cur for b in boards], dtype=np.uint64)
        masks = np.array([b.mask for b in boards], dtype=np.uint64)
        ns = np.array([b.n for b in boards], dtype=np.int64)
        out = np.zeros(k, dtype=np.int64)
        nodes = np.zeros(k, dtype=np.int64)
        self.counters[C_DONE] = 0
        self.last = (out, nodes)
        args = self._args()

        def work() -> int:
            return int(solve_batch(*(curs, masks, ns, weak, *args, out, nodes)))

        counted = (lambda: tick(int(self.counters[C_DONE]))) if tick is not None else None
        solved = self.run(work, stop, counted, node_limit)
        if solved < k:
            raise SearchStopped(f"stopped after {solved} of {k} positions")
        return out, nodes

    def analyse(
        self, board: Bitboards, weak: bool = False, stop: Callable[[], bool] | None = None
    ) -> list[int | None]:
        """The score (sign when ``weak``) of each column for the mover, None for a full one."""
        out = np.zeros(self.width, dtype=np.int64)
        args = self._args()
        finished = self.run(
            lambda: analyse_columns(*(board.cur, board.mask, board.n, weak, *args, out)), stop
        )
        if not finished:
            raise SearchStopped("stopped while scoring the columns")
        return [None if v == NO_COLUMN else int(v) for v in out]

    def best_column(
        self,
        board: Bitboards,
        value: int,
        weak: bool = False,
        stop: Callable[[], bool] | None = None,
        node_limit: int = 0,
    ) -> int:
        """A column that keeps ``value``, the position's exact score (``weak``: its sign;
        any column keeps a loss then)."""
        want = -(self.width * self.height) if weak and value < 0 else value
        args = self._args()
        col = int(self.run(lambda: keeping_column(board.cur, board.mask, board.n, want, *args),
                           stop, node_limit=node_limit))  # fmt: skip
        if col == -2:
            raise SearchStopped("stopped while finding the best move")
        if col < 0:
            raise RuntimeError(f"no column keeps the score {value}: the solver is wrong")
        return col


_SOLVERS: dict[tuple[int, int, int], Solver] = {}
_SOLVERS_LOCK = threading.Lock()
KEEP_SOLVERS = 2
"""Solvers (each with its table) a process keeps, the most recently used: a long-running
process (the web page) that meets many board sizes holds at most this many tables."""


def solver_for(width: int, height: int, hash_mib: float = DEFAULT_HASH_MIB) -> Solver:
    """This process's solver of a board size and table size (its table kept between
    solves, for the :data:`KEEP_SOLVERS` sizes used last); a new one when that one is busy
    in another thread."""
    key = (width, height, table_bits(hash_mib))
    with _SOLVERS_LOCK:
        found = _SOLVERS.pop(key, None)
        if found is None:
            found = Solver(width, height, hash_mib)
        _SOLVERS[key] = found  # the most recent last
        while len(_SOLVERS) > KEEP_SOLVERS:
            del _SOLVERS[next(iter(_SOLVERS))]
    if found.lock.locked():
        return Solver(width, height, hash_mib)
    return found


# --- compiled or not --------------------------------------------------------------------------


def kernels_loaded() -> bool:
    """True when this process has the kernels compiled or loaded already."""
    return all(k.signatures for k in (solve_batch, analyse_columns, keeping_column))


def kernels_ready() -> bool:
    """True when the kernels answer at once: loaded in this process, or compiled into the
    cache by ``boardgames cache warm connect4`` (:mod:`boardgames.core.warmup`)."""
    if kernels_loaded():
        return True
    from boardgames.core import warmup

    return warmup.step_ready("connect4", WARM_STEP)


def quick_budget(width: int, height: int, n: int) -> int:
    """Positions the pure-Python solver may search on a position of ``n`` discs while the
    kernels are not compiled: :data:`QUICK_NODES` late in the game (at most
    :data:`QUICK_EMPTY` empty cells) or on a board of at most 20 cells, else
    :data:`TRY_NODES`."""
    late = width * height - n <= QUICK_EMPTY or width * height <= 20
    return QUICK_NODES if late else TRY_NODES


def warm() -> None:
    """``cache warm connect4``'s step: compile (or load) every kernel of this module."""
    s = Solver(4, 4, MIN_HASH_MIB)
    board = parse_bitboards(4, 4, "1234")
    s.solve_many([board])
    s.analyse(board)
    s.best_column(board, 0)


# --- protocol answers ------------------------------------------------------------------------


def plies_to_end(width: int, height: int, n: int, score: int) -> int:
    """Plies from a position of ``n`` discs to the winning disc of a game of ``score``
    (for the mover; not 0): the move ``k`` (from 0) of the winner's parity with
    ``(W*H + 1 - k) div 2 = |score|``."""
    k = width * height + 1 - 2 * abs(score)  # or one less
    if (k - n - (score < 0)) % 2:
        k -= 1
    return k - n + 1


def protocol_value(width: int, height: int, n: int, score: int, weak: bool = False) -> int:
    """The protocol value of a score (see the module doc): ``terminal_score(s, plies)`` for
    a RULES.md score ``s`` (negative: a loss), 0 for a draw; ``weak``: ``score`` is a sign
    and a win or loss is ``terminal_score(±1, 0)``, a bound (win by at least 1)."""
    if score == 0:
        return 0
    if weak:
        return terminal_score(1 if score > 0 else -1, 0)
    return terminal_score(score, plies_to_end(width, height, n, score))


@dataclass
class Solved:
    """A position's score (RULES.md; its sign when weak), a best column (None: game over),
    the line that keeps the score (as far as it was found), positions searched and which
    solver answered (``numba`` or ``python``)."""

    score: int
    best: int | None
    pv: list[int]
    nodes: int
    engine: str
    weak: bool = False


ENGINE_NODES = 1_500_000
"""A caller that gives a ``stop`` but no node budget (the generic program, which gives
the solver its whole time) gets this budget (a fraction of a second): a position the
solver cannot settle in it is left to the program's own search, which then still has
most of its time; ..."""
ENGINE_PYTHON_NODES = 20_000
"""... and the pure-Python solver (kernels not compiled yet) this many (about 0.1 s)."""


def solve_position(
    game: ConnectFour,
    state: State,
    *,
    weak: bool = False,
    stop: Callable[[], bool] | None = None,
    hash_mib: float = DEFAULT_HASH_MIB,
    node_limit: int = 0,
    pv: bool = True,
    compile: bool = True,
    progress: Callable[[int], None] | None = None,
    python_nodes: int | None = None,
) -> Solved:
    """The exact score of ``state`` (its sign when ``weak``), a best move and its line.

    The kernels answer when they are compiled (or ``compile``: they are compiled first).
    Before that the position is tried in pure Python, up to :func:`quick_budget`
    positions. SearchStopped when ``stop`` fired, the node budget
    ran out, or the kernels are not compiled and ``compile`` is False. ``progress``: told
    the positions the kernels searched so far, every 20 ms. ``python_nodes``: the pure-Python
    solver's budget, if less than :func:`quick_budget`."""
    w, h = game.width, game.height
    over = game.outcome(state)
    if over is not None:
        return Solved(over if not weak else (over > 0) - (over < 0), None, [], 0, "rules", weak)
    board = to_bitboards(game, state)
    if not kernels_ready():
        budget = quick_budget(w, h, board.n)
        if python_nodes is not None:
            budget = min(budget, python_nodes)
        solved = _solve_python(w, h, board, weak, stop, pv, budget)
        if solved is not None:
            return solved
        if not compile:
            raise SearchStopped("the solver's kernels are not compiled yet")
    solver = solver_for(w, h, hash_mib)
    with solver.lock:
        start = solver.nodes
        tick = None if progress is None else (lambda done: progress(solver.nodes - start))
        scores, _ = solver.solve_many([board], weak, stop=stop, tick=tick, node_limit=node_limit)
        score = int(scores[0])
        spent = solver.nodes - start
        left = max(1, node_limit - spent) if node_limit else 0
        line = _line(solver, board, score, weak, stop, left, max(1_000_000, spent), pv)
        return Solved(score, line[0], line, solver.nodes - start, "numba", weak)


def _line(
    solver: Solver,
    board: Bitboards,
    score: int,
    weak: bool,
    stop: Callable[[], bool] | None,
    node_limit: int,
    budget: int,
    whole: bool,
) -> list[int]:
    """Moves that keep ``score`` (a sign when ``weak``) from ``board``: the first one
    (within ``node_limit`` positions, 0: no limit), then (``whole``) as many as ``budget``
    more positions find, to the end of the game."""
    w, h = solver.width, solver.height
    h1 = h + 1
    line: list[int] = []
    cur, mask, n, value = board.cur, board.mask, board.n, score
    start = solver.nodes
    while n < w * h:
        limit = node_limit if not line else budget - (solver.nodes - start)
        if line and limit <= 0:
            break
        try:
            col = solver.best_column(Bitboards(cur, mask, n), value, weak, stop, limit)
        except SearchStopped:
            if not line:
                raise
            break
        line.append(col)
        cell = (mask + (1 << (col * h1))) & ~mask
        if _four(cur | cell, h1) or not whole:
            break
        cur, mask, n, value = cur ^ mask, mask | cell, n + 1, -value
    return line


def _four(pos: int, h1: int) -> bool:
    """Whether ``pos`` (bitboard, columns of ``h1`` bits) holds four in a line."""
    for s in (1, h1, h1 - 1, h1 + 1):
        m = pos & (pos >> s)
        if m & (m >> (2 * s)):
            return True
    return False


def _solve_python(
    w: int,
    h: int,
    board: Bitboards,
    weak: bool,
    stop: Callable[[], bool] | None,
    pv: bool,
    budget: int,
) -> Solved | None:
    """The pure-Python answer, None when it would take more than ``budget`` positions."""
    ref = ReferenceSolver(w, h, node_limit=budget, stop=stop)
    try:
        best, col = ref.best(board)
    except NodeLimit:
        return None
    line = [col]
    if pv:
        cur, mask, n = board.cur, board.mask, board.n
        while True:
            cell = (mask + (1 << (col * (h + 1)))) & ~mask
            if ref.four(cur | cell) or n + 1 == w * h:
                break
            cur, mask, n = cur ^ mask, mask | cell, n + 1
            try:
                _, col = ref.best(Bitboards(cur, mask, n))
            except NodeLimit:
                break
            line.append(col)
    value = (best > 0) - (best < 0) if weak else best
    return Solved(value, line[0], line, ref.nodes, "python", weak)


def solve(
    game: ConnectFour,
    state: State,
    *,
    weak: bool = False,
    stop: Callable[[], bool] | None = None,
    hash_mib: float = DEFAULT_HASH_MIB,
    node_limit: int | None = None,
) -> SearchResult:
    """The plugin's solver (:class:`~boardgames.core.registry.GamePlugin` ``solver``): the
    exact value of ``state`` as a protocol score (:func:`protocol_value`), a best move and
    its line. With a ``stop`` and no ``node_limit`` the solver gets :data:`ENGINE_NODES`
    positions; it never compiles the kernels then (it starts their compile in the
    background, and meanwhile tries the position in pure Python for
    :data:`ENGINE_PYTHON_NODES` positions). SearchStopped when it stops without an
    answer."""
    if not isinstance(game, ConnectFour):
        raise GameError(f"the Connect Four solver cannot solve {type(game).__name__}")
    limit = node_limit if node_limit is not None else (ENGINE_NODES if stop else 0)
    if (
        stop is not None
        and game.outcome(state) is None
        and kernels_ready()
        and not kernels_loaded()
    ):
        # compiled on this machine but not yet loaded by this process (about a second):
        # loaded in the background, so that a program's first move keeps its time; this
        # once the position is tried in pure Python
        _load_in_background()
        board = to_bitboards(game, state)
        quick = _solve_python(game.width, game.height, board, weak, stop, True, ENGINE_PYTHON_NODES)
        if quick is None:
            raise SearchStopped("the solver's kernels are still loading")
        s = quick
    else:
        s = _solve_engine(game, state, weak, stop, hash_mib, limit)
    n = int(state[game.cells + 1])
    value = protocol_value(game.width, game.height, n, s.score, weak)
    exact = not weak or s.score == 0
    return SearchResult(value, s.best, s.pv, s.nodes, None, "solver", exact)


_LOADING: list[threading.Thread] = []


def _load_in_background() -> None:
    """Load the compiled kernels from the cache in a background thread (once)."""
    with _SOLVERS_LOCK:
        if not _LOADING:
            thread = threading.Thread(target=warm, name="connect4-kernels", daemon=True)
            _LOADING.append(thread)
            thread.start()


def _solve_engine(
    game: ConnectFour,
    state: State,
    weak: bool,
    stop: Callable[[], bool] | None,
    hash_mib: float,
    limit: int,
) -> Solved:
    """:func:`solve`'s answer from :func:`solve_position`; a compile of the kernels
    started in the background when a stopped search found them not compiled."""
    try:
        return solve_position(
            game, state, weak=weak, stop=stop, hash_mib=hash_mib, node_limit=limit,
            compile=stop is None, python_nodes=ENGINE_PYTHON_NODES if stop else None,
        )  # fmt: skip
    except SearchStopped:
        if stop is not None and not kernels_ready():
            from boardgames.core import warmup

            warmup.warm_in_background("connect4")
        raise


def analyse(
    game: ConnectFour,
    state: State,
    *,
    weak: bool = False,
    stop: Callable[[], bool] | None = None,
    hash_mib: float = DEFAULT_HASH_MIB,
    compile: bool = True,
) -> tuple[list[int | None], str]:
    """The score (its sign when ``weak``) of every column for the player to move, as the
    RULES.md score of the position after it from the mover's view; None for a column that
    cannot be played. Also which solver answered (``numba`` or ``python``)."""
    if game.outcome(state) is not None:
        raise GameError("the game is over: no column can be played")
    board = to_bitboards(game, state)
    w, h = game.width, game.height
    if not kernels_ready():
        ref = ReferenceSolver(w, h, node_limit=quick_budget(w, h, board.n), stop=stop)
        try:
            scores = ref.analyse(board)
            if weak:
                scores = [None if s is None else (s > 0) - (s < 0) for s in scores]
            return scores, "python"
        except NodeLimit:
            pass
    if not compile and not kernels_ready():
        raise SearchStopped("the solver's kernels are not compiled yet")
    solver = solver_for(w, h, hash_mib)
    with solver.lock:
        return solver.analyse(board, weak, stop), "numba"


def solve_chunk(
    width: int, height: int, weak: bool, hash_mib: float, positions: list[str]
) -> list[int]:
    """A task of ``connect4 solve - --cluster`` (:mod:`boardgames.core.cluster`): the scores
    (signs when ``weak``) of positions given in RULES.md notation, none of them a finished
    game (the command checks them first). Pure: the same positions always give the same
    scores; the worker's table is kept from task to task."""
    boards = [parse_bitboards(width, height, p) for p in positions]
    solver = solver_for(width, height, hash_mib)
    with solver.lock:
        scores, _ = solver.solve_many(boards, weak)
    return [int(v) for v in scores]


def warm_chunk(width: int, height: int, hash_mib: float) -> None:
    """Each worker's warm-up before ``solve_chunk`` tasks: load the kernels, make the table."""
    solver = solver_for(width, height, hash_mib)
    with solver.lock:
        solver.solve_many([parse_bitboards(width, height, "112233")])  # 1 wins at once
