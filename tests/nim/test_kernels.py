"""Nim's jitted rules against nim/game.py, and the numba exhaustive search against Bouton."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from boardgames.core.kernels import AGAIN, NOT_OVER, OVER
from boardgames.core.strategies import numba_searcher
from boardgames.nim import kernels as nk
from boardgames.nim.game import MOVE_STRIDE, Nim
from boardgames.nim.rules import is_safe


def test_move_encoding_matches_the_game() -> None:
    assert 1 << nk.SHIFT == MOVE_STRIDE


@pytest.mark.parametrize("misere", [False, True])
def test_kernels_equal_python_rules(misere: bool) -> None:
    game = Nim((3, 4, 5, 2), misere)
    params = nk.make_params(4, misere)
    stack = np.zeros((2, 5), dtype=np.int64)
    moves = np.zeros((2, 14), dtype=np.int64)
    for rows in itertools.product(range(4), range(5), range(6), range(3)):
        state = game.state_from_rows(rows, sum(rows) % 2)
        stack[0] = state
        r = nk.result(stack, 0, params)
        assert (None if r == NOT_OVER else r) == game.outcome(state)
        n = nk.gen_moves(stack, 0, params, moves)
        assert list(moves[0, :n]) == game.legal_moves(state)
        for move in game.legal_moves(state):
            child, again = game.play(state, move)
            code = nk.apply_move(stack, 0, move, params)
            assert code != AGAIN and not again
            assert (code == OVER) == (game.outcome(child) is not None)
            assert list(stack[1]) == list(child)


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("strategy", ["alphabeta", "tt", "pvs", "mtdf"])
def test_numba_exhaustive_search_agrees_with_bouton(strategy: str, misere: bool) -> None:
    """Bouton's theorem (RULES.md 4): the mover wins exactly when the position is unsafe."""
    game = Nim((3, 4, 5), misere)
    searcher = numba_searcher(game)
    for rows in itertools.product(range(4), range(5), range(6)):
        result = searcher.run(strategy, game.state_from_rows(rows), None)
        assert (result.value > 0) == (not is_safe(rows, misere)), rows
