"""Connect Four's heuristic gets the sign of the opening right (issue 49).

The truth is the solver's: from the empty 7 x 6 board the seven columns score
``-2 -1 0 +1 0 -1 -2`` for the first player (published by Pons' and Tromp's solvers and
checked here against this project's solver with ``-m slow``). Before the mover's tempo
and the threats' row parity, searches of 7 to 13 plies from the empty board swung between
``+31, best 4`` and ``-6, best 3`` with the parity of their depth, and after ``1`` the
second player's win read as ``-22``.
"""

from __future__ import annotations

import pytest

from boardgames.connect4.game import ConnectFour
from boardgames.core.strategies import numba_searcher

GAME = ConnectFour()
FIRST_MOVES = (-2, -1, 0, 1, 0, -1, -2)
"""Each first column's score for the first player (the solver's, RULES.md section 6)."""


def search(moves: str, depth: int) -> tuple[int, int]:
    """A fixed-depth heuristic search (the program's numba engine): value for the mover
    and best column (0-based)."""
    searcher = numba_searcher(GAME)
    searcher.ws.clear_heuristics(table=True)
    result, stopped = searcher.limited("mtdf", GAME.parse_position(moves), depth, 2**62)
    assert not stopped and result.best_move is not None
    return result.value, result.best_move


@pytest.mark.parametrize("depth", range(8, 14))
def test_the_empty_board_is_good_for_the_first_player_at_every_depth(depth: int) -> None:
    value, best = search("", depth)
    assert value > 0 and best == 3  # the middle column, a win: whatever the depth's parity


@pytest.mark.parametrize("depth", [12, 13])
def test_after_an_edge_opening_the_second_player_is_ahead(depth: int) -> None:
    value, _ = search("1", depth)  # the case: -22 at depth 13
    assert value > 0


@pytest.mark.parametrize("depth", [8, 10, 11, 12])
def test_the_first_moves_are_ordered_as_the_solver_orders_them(depth: int) -> None:
    values = [-search(str(c + 1), depth)[0] for c in range(GAME.width)]
    assert values.index(max(values)) == 3  # the centre, the only win, first
    for c, truth in enumerate(FIRST_MOVES):
        if truth != 0:
            assert (values[c] > 0) == (truth > 0), (c + 1, values)
    # worse columns score less: the edges below the columns next to the centre
    assert values[0] < values[2] and values[6] < values[4]


@pytest.mark.slow
def test_first_move_scores_are_the_solvers() -> None:
    from boardgames.connect4 import solver

    scores, _ = solver.analyse(GAME, GAME.initial_state())
    assert tuple(scores) == FIRST_MOVES
