"""The computer player's seam: one place that decides how the program searches.

For now it runs the pure-Python reference alpha-beta (core.search.alphabeta, Knuth and
Moore's F2) with depth counted in compound moves (``again_is_ply=False``); a faster engine
can replace :func:`choose_move` without changing its callers.
"""

from __future__ import annotations

import dataclasses

from boardgames.core.protocol import SearchResult, State
from boardgames.core.search import alphabeta
from boardgames.kalah.game import Kalah

DEFAULT_DEPTH = 6
"""Search depth in compound moves; about a second a move or less on the 6 x 6 board
(benchmarks/kalah_move_time.py)."""


def choose_move(
    game: Kalah,
    state: State,
    depth: int | None = DEFAULT_DEPTH,
    *,
    evaluation: str | None = None,
) -> SearchResult:
    """The program's best first sowing in ``state``, its value, PV and node count.

    ``depth`` counts compound moves (None: to the end of the game); ``evaluation`` overrides
    the game's own evaluation function for this search.
    """
    if evaluation is not None and evaluation != game.evaluation:
        game = dataclasses.replace(game, evaluation=evaluation)
    return alphabeta(game, state, depth, again_is_ply=False)


def choose_compound(
    game: Kalah,
    state: State,
    depth: int | None = DEFAULT_DEPTH,
    *,
    evaluation: str | None = None,
) -> tuple[tuple[int, ...], SearchResult]:
    """The program's whole compound move and the search result at the root.

    The compound move is the principal variation's prefix up to where the turn passes or
    the game ends; should the PV stop early while the program still has the move, the
    program searches again from there.
    """
    result = choose_move(game, state, depth, evaluation=evaluation)
    if result.best_move is None:
        return (), result
    player = game.to_move(state)
    pits: list[int] = []
    pv = list(result.pv)
    while game.outcome(state) is None and game.to_move(state) == player:
        if not pv:
            pv = list(choose_move(game, state, depth, evaluation=evaluation).pv)
        move = pv.pop(0)
        pits.append(move)
        state, _ = game.play(state, move)
    return tuple(pits), result
