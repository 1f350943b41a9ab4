"""An exact solver in pure Python for small boards: nothing to compile.

What ``kalah solve`` answers with on a fresh machine while the numba solver
(:mod:`boardgames.kalah.exact.solver`) is compiled in the background: MTD(f) over a
fail-soft alpha-beta with a transposition table of bounds, on the rules' own list
functions (:mod:`boardgames.kalah.rules`). The value is the final margin for the side to
move under perfect play, the same number the numba solver finds (the tests compare them
on many positions); the search gives up after ``node_limit`` positions instead, so a board
too big for it costs a bounded, short time before the caller compiles.

Bounds from the stores alone prune: with ``T`` stones in all and the stores at ``s`` (the
mover's) and ``o``, the final margin lies in ``[2s - T, T - 2o]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from boardgames.kalah import rules

INFINITY = 1 << 30


class NodeLimit(Exception):
    """The search examined more positions than it was allowed."""


@dataclass
class QuickResult:
    """The exact value (final margin for the side to move), a best compound move's first
    sowing (None when the game is over) and the positions examined."""

    value: int
    best: int | None
    nodes: int
    passes: int


class QuickSolver:
    """Exact values of one board and rule set, in pure Python (see the module doc)."""

    def __init__(self, pits: int, rule_set: str, empty_capture: bool = False) -> None:
        self.m = pits
        self.classic = rule_set == rules.CLASSIC
        self.rules = rule_set
        self.empty_capture = empty_capture
        self.table: dict[tuple[int, ...], tuple[int, int, int]] = {}
        self.nodes = 0
        self.node_limit = 0

    # --- moves --------------------------------------------------------------------------

    def children(self, key: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
        """(pit, position after it) for every legal sowing; position = board + [mover]."""
        m = self.m
        mover = key[-1]
        board = list(key[:-1])
        first = 0 if mover == 0 else m + 1
        out = []
        for pit in range(first, first + m):
            if board[pit] == 0:
                continue
            b = board.copy()
            if self.classic:
                again = rules.classic_move(b, m, mover, pit, self.empty_capture)
            else:
                rules.etudes_move(b, m, mover, pit)
                again = False
            b.append(mover if again else 1 - mover)
            out.append((pit, tuple(b)))
        return out

    def _order(
        self, key: tuple[int, ...], kids: list[tuple[int, tuple[int, ...]]], hint: int
    ) -> list[tuple[int, tuple[int, ...]]]:
        mover = key[-1]
        store = rules.store_index(self.m, mover)

        def score(item: tuple[int, tuple[int, ...]]) -> int:
            pit, child = item
            if pit == hint:
                return -(1 << 20)
            extra = child[-1] == mover and not self._over(child)
            return -(child[store] - key[store]) * 4 - (2 if extra else 0)

        return sorted(kids, key=score)

    def _over(self, key: Sequence[int]) -> bool:
        return rules.is_over(key[:-1], self.m, key[-1], self.rules)

    # --- search -------------------------------------------------------------------------

    def _search(self, key: tuple[int, ...], alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise NodeLimit
        m = self.m
        mover = key[-1]
        board = key[:-1]
        margin = rules.final_margin(board, m, mover, self.rules)
        if margin is not None:
            return margin
        total = sum(board)
        own, opp = board[rules.store_index(m, mover)], board[rules.store_index(m, 1 - mover)]
        low, high = 2 * own - total, total - 2 * opp
        hint = -1
        entry = self.table.get(key)
        if entry is not None:
            low, high = max(low, entry[0]), min(high, entry[1])
            hint = entry[2]
        if low >= beta:
            return low
        if high <= alpha:
            return high
        if low == high:
            return low
        a0, b0 = alpha, beta
        alpha, beta = max(alpha, low), min(beta, high)
        best, best_pit = -INFINITY, -1
        for pit, child in self._order(key, self.children(key), hint):
            if child[-1] == mover:
                v = self._search(child, alpha, beta)
            else:
                v = -self._search(child, -beta, -alpha)
            if v > best:
                best, best_pit = v, pit
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        # fail-soft: best is exact inside (a0, b0), a lower bound at or above b0, an upper
        # bound at or below a0 (the window was narrowed only by proven bounds)
        lo, hi = low, high
        if best >= b0:
            lo = max(lo, best)
        elif best <= a0:
            hi = min(hi, best)
        else:
            lo = hi = best
        self.table[key] = (lo, hi, best_pit)
        return best

    def solve(self, board: Sequence[int], mover: int, node_limit: int = 10**9) -> QuickResult:
        """The exact value of ``board`` (holes as RULES.md numbers them) with ``mover`` to
        move; :class:`NodeLimit` past ``node_limit`` positions (over every pass)."""
        key = (*map(int, board), int(mover))
        self.nodes, self.node_limit = 0, node_limit
        m = self.m
        guess = key[rules.store_index(m, mover)] - key[rules.store_index(m, 1 - mover)]
        lower, upper, passes = -INFINITY, INFINITY, 0
        while lower < upper:  # MTD(f)
            beta = max(guess, lower + 1)
            guess = self._search(key, beta - 1, beta)
            passes += 1
            if guess < beta:
                upper = guess
            else:
                lower = guess
        return QuickResult(guess, self.best_move(key, guess), self.nodes, passes)

    def best_move(self, key: tuple[int, ...], value: int) -> int | None:
        """A sowing that keeps ``value`` (the position's exact value), or None."""
        mover = key[-1]
        for pit, child in self._order(key, self.children(key), -1):
            v = self._value(child) if child[-1] == mover else -self._value(child)
            if v == value:
                return pit
        return None

    def _value(self, key: tuple[int, ...]) -> int:
        lower, upper = -INFINITY, INFINITY
        guess = 0
        while lower < upper:
            beta = max(guess, lower + 1)
            guess = self._search(key, beta - 1, beta)
            if guess < beta:
                upper = guess
            else:
                lower = guess
        return guess

    def best_line(self, board: Sequence[int], mover: int, value: int) -> list[int]:
        """The sowings of the compound move that keeps ``value``: the mover's pits until
        the turn passes or the game ends."""
        key = (*map(int, board), int(mover))
        line: list[int] = []
        while not self._over(key) and key[-1] == mover:
            pit = self.best_move(key, value)
            if pit is None:
                break
            line.append(pit)
            key = dict(self.children(key))[pit]
        return line
