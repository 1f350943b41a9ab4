"""The program's seam: its choice is a best move of the reference search, and complete."""

from __future__ import annotations

import random

import pytest

from boardgames.core.protocol import score_margin
from boardgames.core.search import minimax
from boardgames.kalah.game import Kalah
from boardgames.kalah.play.program import choose_compound, choose_move


def random_position(rng: random.Random, game: Kalah, plies: int):
    s = game.initial_state(rng.randint(0, 1))
    for _ in range(plies):
        moves = game.legal_moves(s)
        if not moves:
            break
        s, _ = game.play(s, rng.choice(moves))
    return s


@pytest.mark.parametrize("evaluation", ["store", "rechenberg", "tseitin"])
@pytest.mark.parametrize("rule_set", ["classic", "etudes"])
def test_value_equals_minimax(evaluation: str, rule_set: str) -> None:
    rng = random.Random(len(evaluation) + len(rule_set))
    game = Kalah(4, 3, rule_set)
    for _ in range(15):
        s = random_position(rng, game, rng.randint(0, 12))
        if not game.legal_moves(s):
            continue
        depth = rng.randint(1, 3)
        result = choose_move(game, s, depth, evaluation=evaluation)
        reference = minimax(Kalah(4, 3, rule_set, evaluation), s, depth)
        assert result.value == reference.value


def test_compound_is_a_whole_legal_turn() -> None:
    rng = random.Random(3)
    game = Kalah()
    for _ in range(20):
        s = random_position(rng, game, rng.randint(0, 30))
        if not game.legal_moves(s):
            continue
        pits, result = choose_compound(game, s, 3)
        assert pits[0] == result.best_move
        assert pits in dict(game.compound_moves(s))


def test_exact_search_on_a_small_board_finds_the_win() -> None:
    # 2 pits: A 0-1, store 2, B 3-4, store 5. A to move on 1 1 5 | 1 1 1. Sowing 1 ends
    # in the store (extra turn); then 0 lands in the emptied pit 1 facing pit 3 (1 stone):
    # capture 2, A's side is empty, B's last stone (pit 4) goes to B's store: A 8, B 2,
    # won by 6.
    game = Kalah(2, 1)
    s = game.make_state([1, 1, 5, 1, 1, 1], 0)
    pits, result = choose_compound(game, s, None)
    assert pits == (1, 0)
    assert score_margin(result.value) == 6
    assert result.value == minimax(game, s, None).value
