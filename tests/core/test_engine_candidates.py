"""``engine.candidates`` values each move as the root search would: a proven win or loss
after a move counts the move's ply too (issue 48: it was one ply short)."""

from __future__ import annotations

import pytest

from boardgames.core.engine import candidates, think
from boardgames.core.registry import make_game


@pytest.mark.parametrize("rows", [(1, 2), (2, 3), (1, 1, 2)])
def test_the_best_candidate_has_the_root_value(rows: tuple[int, ...]) -> None:
    game = make_game("nim", rows=rows)
    state = game.initial_state()
    depth = sum(rows) + 2
    root = think(game, state, depth=depth)
    best = candidates(game, state, depth=depth, top=99)
    assert best[0][1].value == root.value
    for move, answer in best:  # each move: minus its child's value, one ply further
        child, again = game.play(state, move)
        if game.outcome(child) is None:
            below = think(game, child, depth=depth).value
            further = below - (1 if below > 0 else -1)
            assert answer.value == (further if again else -further), move
