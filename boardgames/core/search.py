"""Pure-Python reference searches for any game of the :mod:`~boardgames.core.protocol`.

These are the yardstick for the jitted kernels: simple, readable, and exact.

* :func:`minimax` - plain negamax, no pruning.
* :func:`alphabeta` - Knuth and Moore's procedure F2: fail-hard window, children in the
  game's natural order, a strictly better value replaces the best move, so the first of
  several equally good moves is kept.
* :func:`alphabeta_tt` - F2 plus a transposition table (bounds keyed by the state's bytes)
  whose move is tried first. Table cut-offs only use entries searched to the same remaining
  depth, so the value equals :func:`alphabeta`'s at every depth.

Depth is counted in plies. A move after which the same player moves again (Kalah's extra
turn) neither flips the sign of the score nor, by default, costs a ply: a compound move is
one ply. With ``again_is_ply=True`` every single move costs a ply. ``depth=None`` searches
to the end of the game; a search whose leaves are all finished games is exact.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass

from boardgames.core.protocol import (
    INFINITY,
    Game,
    SearchResult,
    State,
    is_terminal_score,
    terminal_score,
)

Depth = int | None


def _child_depth(depth: Depth, again: bool, again_is_ply: bool) -> Depth:
    if depth is None or (again and not again_is_ply):
        return depth
    return depth - 1


class _Counter:
    __slots__ = ("nodes",)

    def __init__(self) -> None:
        self.nodes = 0


def _leaf(game: Game, state: State, depth: Depth, ply: int) -> int | None:
    """Score of a finished game or of a depth-0 position; None when the search goes on."""
    result = game.outcome(state)
    if result is not None:
        return terminal_score(result, ply)
    if depth is not None and depth <= 0:
        return game.evaluate(state)
    return None


def minimax(game: Game, state: State, depth: Depth, *, again_is_ply: bool = False) -> SearchResult:
    """Plain negamax without pruning; visits every position of the depth-limited tree."""
    count = _Counter()

    def search(s: State, d: Depth, ply: int) -> tuple[int, list[int]]:
        count.nodes += 1
        leaf = _leaf(game, s, d, ply)
        if leaf is not None:
            return leaf, []
        best, best_pv = -INFINITY, []
        for move in game.legal_moves(s):
            child, again = game.play(s, move)
            value, pv = search(child, _child_depth(d, again, again_is_ply), ply + 1)
            if not again:
                value = -value
            if value > best:
                best, best_pv = value, [move, *pv]
        return best, best_pv

    with _deep_recursion():
        value, pv = search(state, depth, 0)
    return SearchResult(value, pv[0] if pv else None, pv, count.nodes, depth, "minimax")


def alphabeta(
    game: Game,
    state: State,
    depth: Depth,
    *,
    alpha: int = -INFINITY,
    beta: int = INFINITY,
    again_is_ply: bool = False,
) -> SearchResult:
    """Knuth-Moore F2 (fail-hard alpha-beta) in the game's natural move order."""
    count = _Counter()

    def f2(s: State, d: Depth, ply: int, a: int, b: int) -> tuple[int, list[int]]:
        count.nodes += 1
        leaf = _leaf(game, s, d, ply)
        if leaf is not None:
            return leaf, []
        m, best_pv = a, []
        for move in game.legal_moves(s):
            child, again = game.play(s, move)
            cd = _child_depth(d, again, again_is_ply)
            if again:
                t, pv = f2(child, cd, ply + 1, m, b)
            else:
                t, pv = f2(child, cd, ply + 1, -b, -m)
                t = -t
            if t > m:
                m, best_pv = t, [move, *pv]
                if m >= b:
                    break
        return m, best_pv

    with _deep_recursion():
        value, pv = f2(state, depth, 0, alpha, beta)
    return SearchResult(value, pv[0] if pv else None, pv, count.nodes, depth, "alphabeta")


EXACT, LOWER, UPPER = 0, 1, 2


@dataclass
class _Entry:
    depth: Depth
    value: int  # terminal scores stored relative to the node (see _to_table)
    flag: int
    move: int | None


def _to_table(value: int, ply: int) -> int:
    """Make a terminal score relative to the node, so it can be reused at another ply."""
    if is_terminal_score(value):
        return value + ply if value > 0 else value - ply
    return value


def _from_table(value: int, ply: int) -> int:
    if is_terminal_score(value):
        return value - ply if value > 0 else value + ply
    return value


def alphabeta_tt(
    game: Game,
    state: State,
    depth: Depth,
    *,
    table: dict[bytes, _Entry] | None = None,
    again_is_ply: bool = False,
) -> SearchResult:
    """F2 with a transposition table: the table's move first, bounds reused at equal depth.

    ``table`` may be passed in to keep it between calls (for example across the positions
    of a game); by default a fresh one is used, so results do not depend on earlier calls.
    """
    count = _Counter()
    tt: dict[bytes, _Entry] = {} if table is None else table

    def f2(s: State, d: Depth, ply: int, a: int, b: int) -> tuple[int, list[int]]:
        count.nodes += 1
        leaf = _leaf(game, s, d, ply)
        if leaf is not None:
            return leaf, []
        key = s.tobytes()
        entry = tt.get(key)
        first: int | None = None
        if entry is not None:
            first = entry.move
            if entry.depth == d:
                v = _from_table(entry.value, ply)
                if (
                    entry.flag == EXACT
                    or (entry.flag == LOWER and v >= b)
                    or (entry.flag == UPPER and v <= a)
                ):
                    return v, ([entry.move] if entry.move is not None else [])
        moves = game.legal_moves(s)
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        m, best_pv = a, []
        best_move = None
        for move in moves:
            child, again = game.play(s, move)
            cd = _child_depth(d, again, again_is_ply)
            if again:
                t, pv = f2(child, cd, ply + 1, m, b)
            else:
                t, pv = f2(child, cd, ply + 1, -b, -m)
                t = -t
            if t > m:
                m, best_pv, best_move = t, [move, *pv], move
                if m >= b:
                    break
        flag = UPPER if m <= a else LOWER if m >= b else EXACT
        tt[key] = _Entry(d, _to_table(m, ply), flag, best_move if best_move is not None else first)
        return m, best_pv

    with _deep_recursion():
        value, pv = f2(state, depth, 0, -INFINITY, INFINITY)
    return SearchResult(value, pv[0] if pv else None, pv, count.nodes, depth, "tt")


class _deep_recursion:
    """Raise Python's recursion limit while a deep search runs."""

    def __enter__(self) -> None:
        self.old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(self.old, 20_000))

    def __exit__(self, *exc: object) -> None:
        sys.setrecursionlimit(self.old)


SearchFunction = Callable[..., SearchResult]

REFERENCE_STRATEGIES: dict[str, SearchFunction] = {
    "minimax": minimax,
    "alphabeta": alphabeta,
    "tt": alphabeta_tt,
}
"""The pure-Python strategies by name; all return the same value at the same depth."""
