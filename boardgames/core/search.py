"""Pure-Python reference searches for any game of the :mod:`~boardgames.core.protocol`.

These are the yardstick for the jitted kernels: simple, readable, and exact.

* :func:`minimax` - plain negamax, no pruning.
* :func:`alphabeta` - Knuth and Moore's procedure F2: fail-hard window, children in the
  game's natural order, a strictly better value replaces the best move, so the first of
  several equally good moves is kept.
* :func:`alphabeta_tt` - F2 plus a transposition table (bounds keyed by the state's bytes)
  whose move is tried first. Table cut-offs only use entries searched to the same remaining
  depth, so the value equals :func:`alphabeta`'s at every depth.
* :func:`selective` - best-first selective deepening within a budget of positions: no fixed
  depth; it looks deeper along the lines where each side to move does best. Not a
  depth-limited value, so it is not one of :data:`REFERENCE_STRATEGIES`.

Depth is counted in plies. A move after which the same player moves again (Kalah's extra
turn) neither flips the sign of the score nor, by default, costs a ply: a compound move is
one ply. With ``again_is_ply=True`` every single move costs a ply. ``depth=None`` searches
to the end of the game; a search whose leaves are all finished games is exact, at any
depth (``SearchResult.exact``: no value came from the evaluation at the horizon).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass

from boardgames.core.protocol import (
    HEURISTIC_LIMIT,
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
    """Positions visited, and how many values came from the evaluation at the horizon
    (none: every line was played to its end, so the value is exact)."""

    __slots__ = ("horizon", "nodes")

    def __init__(self) -> None:
        self.nodes = 0
        self.horizon = 0


def _leaf(game: Game, state: State, depth: Depth, ply: int, count: _Counter) -> int | None:
    """Score of a finished game or of a depth-0 position; None when the search goes on."""
    result = game.outcome(state)
    if result is not None:
        return terminal_score(result, ply)
    if depth is not None and depth <= 0:
        count.horizon += 1
        return game.evaluate(state)
    return None


def minimax(
    game: Game,
    state: State,
    depth: Depth,
    *,
    again_is_ply: bool = False,
    stop: Callable[[], bool] | None = None,
) -> SearchResult:
    """Plain negamax without pruning; visits every position of the depth-limited tree.

    ``stop`` is asked every 256 positions; when it says True the search raises
    :class:`SearchStopped`."""
    count = _Counter()

    def search(s: State, d: Depth, ply: int) -> tuple[int, list[int]]:
        count.nodes += 1
        if stop is not None and not count.nodes & 255 and stop():
            raise SearchStopped(count.nodes)
        leaf = _leaf(game, s, d, ply, count)
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
    return SearchResult(
        value, pv[0] if pv else None, pv, count.nodes, depth, "minimax", exact=not count.horizon
    )


def alphabeta(
    game: Game,
    state: State,
    depth: Depth,
    *,
    alpha: int = -INFINITY,
    beta: int = INFINITY,
    again_is_ply: bool = False,
    stop: Callable[[], bool] | None = None,
) -> SearchResult:
    """Knuth-Moore F2 (fail-hard alpha-beta) in the game's natural move order.

    ``stop`` is asked every 256 positions; when it says True the search raises
    :class:`SearchStopped`."""
    count = _Counter()

    def f2(s: State, d: Depth, ply: int, a: int, b: int) -> tuple[int, list[int]]:
        count.nodes += 1
        if stop is not None and not count.nodes & 255 and stop():
            raise SearchStopped(count.nodes)
        leaf = _leaf(game, s, d, ply, count)
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
    return SearchResult(
        value,
        pv[0] if pv else None,
        pv,
        count.nodes,
        depth,
        "alphabeta",
        exact=not count.horizon and alpha == -INFINITY and beta == INFINITY,  # not a bound
    )


EXACT, LOWER, UPPER = 0, 1, 2


class SearchStopped(Exception):
    """A search cut short by its ``stop`` function; ``args[0]`` is the positions visited."""


@dataclass
class _Entry:
    depth: Depth
    value: int  # terminal scores stored relative to the node (see _to_table)
    flag: int
    move: int | None
    horizon: bool = False  # the subtree had a value from the evaluation at the horizon


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
    stop: Callable[[], bool] | None = None,
) -> SearchResult:
    """F2 with a transposition table: the table's move first, bounds reused at equal depth.

    ``table`` may be passed in to keep it between calls (for example across the positions
    of a game); by default a fresh one is used, so results do not depend on earlier calls.
    ``stop`` is asked every 256 positions; when it says True the search raises
    :class:`SearchStopped` (Ctrl-C, a Cancel, a deadline).
    """
    count = _Counter()
    tt: dict[bytes, _Entry] = {} if table is None else table

    def f2(s: State, d: Depth, ply: int, a: int, b: int) -> tuple[int, list[int]]:
        count.nodes += 1
        if stop is not None and not count.nodes & 255 and stop():
            raise SearchStopped(count.nodes)
        leaf = _leaf(game, s, d, ply, count)
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
                    count.horizon += entry.horizon
                    return v, ([entry.move] if entry.move is not None else [])
        moves = game.legal_moves(s)
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        m, best_pv = a, []
        best_move = None
        horizon = count.horizon
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
        tt[key] = _Entry(
            d,
            _to_table(m, ply),
            flag,
            best_move if best_move is not None else first,
            count.horizon > horizon,
        )
        return m, best_pv

    with _deep_recursion():
        value, pv = f2(state, depth, 0, -INFINITY, INFINITY)
    return SearchResult(
        value, pv[0] if pv else None, pv, count.nodes, depth, "tt", exact=not count.horizon
    )


class _Line:
    """A position of :func:`selective`'s tree: its value for the side to move there (the
    static value until it is expanded, then backed up from its children), whether that
    value is settled (``solved``: no expansion below can change what it says) and exact,
    and ``size``, the positions of its subtree (itself included)."""

    __slots__ = ("children", "depth", "exact", "ply", "size", "solved", "state", "value")

    def __init__(self, game: Game, state: State, ply: int, depth: int) -> None:
        self.state = state
        self.ply = ply
        self.depth = depth
        self.children: list[tuple[int, bool, _Line]] | None = None
        self.size = 1
        result = game.outcome(state)
        self.solved = self.exact = result is not None
        self.value = terminal_score(result, ply) if result is not None else game.evaluate(state)

    def back_up(self) -> None:
        """Value and status from the children (negamax; an extra turn keeps the sign).

        Solved: every child is solved, or one is a proven win for the side to move here
        (other children may win by more, so the value is then a bound, not exact)."""
        assert self.children is not None
        best = -INFINITY
        every = exact = True
        won = False
        self.size = 1 + sum(child.size for _, _, child in self.children)
        for _, again, child in self.children:
            v = child.value if again else -child.value
            best = max(best, v)
            every = every and child.solved
            exact = exact and child.exact
            won = won or (child.solved and v > HEURISTIC_LIMIT)
        self.value = best
        self.solved = every or won
        self.exact = exact

    def best_child(self, open_only: bool = False) -> tuple[int, _Line]:
        """The move and child of the best value for the side to move here; the first such
        in the game's move order (a strictly better one replaces it).

        ``open_only``: where to look deeper, among the children that are not solved; of
        equally good ones, the one with the smallest subtree (then the first), so a coarse
        evaluation with many ties does not send every round down the same line."""
        assert self.children is not None
        best, pick = -INFINITY, None
        for move, again, child in self.children:
            if open_only and child.solved:
                continue
            v = child.value if again else -child.value
            if pick is None or v > best or (open_only and v == best and child.size < pick[1].size):
                best, pick = v, (move, child)
        assert pick is not None
        return pick


def selective(game: Game, state: State, nodes: int, *, again_is_ply: bool = False) -> SearchResult:
    """Best-first selective deepening: at most ``nodes`` positions examined, no fixed depth.

    The search keeps its tree. Each round it walks down from the root, at every position
    taking the move that is best so far for the side to move there (on a tie the one with
    fewer positions below it, then the first in move order; children whose value is
    settled are passed over), and expands the
    position where the walk ends: every move from it is played and the resulting positions
    are scored (a finished game by :func:`~boardgames.core.protocol.terminal_score`, any
    other by ``game.evaluate``). The new values are backed up to the root by negamax (a
    move after which the same player moves again keeps the sign). So the search goes
    deeper along the lines where each side to move does best, and stays shallow where a
    side's moves look bad for it. With ``again_is_ply=False`` (the default, as in the
    other searches) an extra turn belongs to its move: an expansion also expands, at once,
    every position in which the same player moves again, so a leaf never sits in the
    middle of a player's turn.

    Positions examined: the root and every position an expansion produces, each looked at
    once (game over? else evaluated). An expansion that would take the count past
    ``nodes`` is not started, and the search ends there; it ends earlier when the root's
    value is settled (every line ends in a finished game, or a proven win is found).

    Returns the root's backed-up value and best line (``pv``; ``best_move`` None when
    even the root's moves did not fit in the budget), ``nodes`` examined, and as
    ``depth`` the deepest position examined (moves from the root, counted as the other
    searches count depth). A won or lost value is exact (``exact``) only when every line
    below the root was played to its end; otherwise it is a bound.
    """
    if nodes < 1:
        raise ValueError(f"selective search needs a budget of at least 1 position, got {nodes}")
    root = _Line(game, state, 0, 0)
    count = _Counter()
    count.nodes = 1
    deepest = [0]

    def expand(line: _Line) -> bool:
        """Expand ``line`` (and, unless again_is_ply, the extra turns below it); False when
        the budget stopped it (then some or all of it stays unexpanded)."""
        moves = game.legal_moves(line.state)
        if count.nodes + len(moves) > nodes:
            return False
        children = []
        for move in moves:
            child, again = game.play(line.state, move)
            count.nodes += 1
            depth = line.depth + (0 if again and not again_is_ply else 1)
            deepest[0] = max(deepest[0], depth)
            children.append((move, again, _Line(game, child, line.ply + 1, depth)))
        line.children = children
        complete = True
        if not again_is_ply:
            for _, again, sub in children:
                if again and not sub.solved and not expand(sub):
                    complete = False
                    break
        line.back_up()
        return complete

    with _deep_recursion():
        while not root.solved:
            path = [root]
            line = root
            while line.children is not None:
                line = line.best_child(open_only=True)[1]
                path.append(line)
            finished = expand(line)
            for above in reversed(path[:-1]):
                above.back_up()
            if not finished:
                break
    pv: list[int] = []
    line = root
    while line.children is not None:
        move, line = line.best_child()
        pv.append(move)
    return SearchResult(
        root.value,
        pv[0] if pv else None,
        pv,
        count.nodes,
        deepest[0],
        "selective",
        exact=root.exact,
    )


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
