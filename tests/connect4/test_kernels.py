"""Connect Four's jitted rules against connect4/game.py, and the numba search against the
Python reference search."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardgames.connect4 import kernels as ck
from boardgames.connect4.game import ConnectFour
from boardgames.core.kernels import AGAIN, NOT_OVER, OVER, PASS
from boardgames.core.protocol import State
from boardgames.core.search import alphabeta
from boardgames.core.strategies import kernel_spec, numba_searcher, run_strategy

SIZES = [(7, 6), (4, 4), (9, 6), (5, 9), (8, 7), (6, 5)]


def random_positions(game: ConnectFour, games: int, seed: int) -> list[State]:
    """Every position of ``games`` random games (finished ones included)."""
    rng = random.Random(seed)
    seen = []
    for _ in range(games):
        state = game.initial_state()
        seen.append(state)
        while legal := game.legal_moves(state):
            state, _ = game.play(state, rng.choice(legal))
            seen.append(state)
    return seen


@pytest.mark.parametrize("size", SIZES)
def test_kernels_equal_python_rules(size: tuple[int, int]) -> None:
    game = ConnectFour(*size)
    params = ck.make_params(game)
    stack = np.zeros((2, game.cells + 3), dtype=np.int64)
    moves = np.zeros((2, game.width), dtype=np.int64)
    over = 0
    for state in random_positions(game, 40, seed=sum(size)):
        stack[0] = state
        r = ck.result(stack, 0, params)
        assert (None if r == NOT_OVER else r) == game.outcome(state)
        n = ck.gen_moves(stack, 0, params, moves)
        assert moves[0, :n].tolist() == game.legal_moves(state)
        if r != NOT_OVER:
            over += 1
            continue
        assert ck.evaluate(stack, 0, params) == game.evaluate(state)
        for move in game.legal_moves(state):
            child, again = game.play(state, move)
            code = ck.apply_move(stack, 0, move, params)
            assert code != AGAIN and not again
            assert code == (PASS if game.outcome(child) is None else OVER)
            assert stack[1].tolist() == child.tolist()
    assert over == 40


def test_priority_puts_wins_then_blocks_then_the_centre_first() -> None:
    game = ConnectFour()
    params = ck.make_params(game)
    stack = np.zeros((1, game.cells + 3), dtype=np.int64)

    def order(moves: str) -> list[int]:
        stack[0] = game.parse_position(moves)
        return sorted(range(7), key=lambda m: -ck.priority(stack, 0, m, params))

    assert order("") == [3, 2, 4, 1, 5, 0, 6]
    assert order("112233")[0] == 3  # 1 completes four
    assert order("11223")[0] == 3  # 2 must block
    assert order("162636")[:2] == [3, 5]  # 1's own win before blocking 2's column 6
    assert order("1626367")[:2] == [5, 3]  # and the same for 2


def test_kernel_spec_fits_every_state() -> None:
    for size in SIZES:
        game = ConnectFour(*size)
        spec = kernel_spec(game)
        assert (spec.cells, spec.max_moves) == (game.cells + 3, game.width)
        states = random_positions(game, 10, seed=1)
        assert max(int(s.max()) for s in states) <= spec.max_value
        assert spec.params(states[0]).tolist() == ck.make_params(game).tolist()


@pytest.fixture(scope="module")
def searched() -> ConnectFour:
    """The game, its numba engine compiled once for the module."""
    game = ConnectFour()
    numba_searcher(game)
    return game


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_numba_alphabeta_equals_python_alphabeta(searched: ConnectFour, depth: int) -> None:
    game = searched
    rng = random.Random(depth)
    positions = [game.parse_position(text) for text in ("", "112233", "4453", "11223")]
    positions += rng.sample(random_positions(game, 5, seed=7), 6)
    for state in positions:
        fast = run_strategy("alphabeta", game, state, depth, engine="numba")
        slow = alphabeta(game, state, depth)
        assert (fast.value, fast.best_move) == (slow.value, slow.best_move)
        assert fast.nodes == slow.nodes
    assert run_strategy("alphabeta", game, positions[1], 2).best_move == 3
