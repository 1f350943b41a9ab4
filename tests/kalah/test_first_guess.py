"""MTD(f)'s first guess (kalah/play/guess.py) and the solver's ``guess`` argument.

The solver knows nothing of the engine: whoever calls it may pass a guess (a number or a
function of the position). Any guess must give the same exact value; only the number of
null-window passes may change.
"""

from __future__ import annotations

import pytest

from boardgames.core.compare import random_positions
from boardgames.core.protocol import score_margin
from boardgames.kalah.exact.solver import Solver
from boardgames.kalah.game import Kalah
from boardgames.kalah.play.engine import EngineConfig, KalahEngine
from boardgames.kalah.play.guess import FirstGuess


@pytest.mark.parametrize(
    "game", [Kalah(3, 3), Kalah(4, 2), Kalah(3, 3, "etudes"), Kalah(3, 2, empty_capture=True)]
)
def test_any_guess_gives_the_same_exact_value(game: Kalah) -> None:
    guess = FirstGuess(game)
    solver = Solver(game.pits, game.rules, hash_mb=1, empty_capture=game.empty_capture)
    fresh = Solver(game.pits, game.rules, empty_capture=game.empty_capture)
    for state in random_positions(game, 12, seed=game.pits * 10 + game.seeds):
        values = {
            solver.solve(state, guess=g).value
            for g in (None, 0, -40, 40, guess, lambda s: guess.at_depth(s, 2))
        }
        assert values == {fresh.value(state)}


def test_a_finished_position_is_guessed_as_its_store_lead() -> None:
    game = Kalah(3, 3)
    state = game.make_state([0, 0, 0, 10, 1, 2, 3, 2], to_move=1)  # A's side is empty
    assert game.outcome(state) is not None
    assert FirstGuess(game).within(state) == 2 - 10  # B's store less A's


def test_the_guess_at_a_depth_is_the_engines_value_there() -> None:
    game = Kalah(4, 3)
    guess = FirstGuess(game)
    engine = KalahEngine(game, EngineConfig(depth=3, evaluation="store", prove_nodes=0))
    for state in random_positions(game, 8, seed=7):
        value = engine.search(state, 3).value
        margin = score_margin(value)
        expected = value if margin is None else margin
        assert guess.at_depth(state, 3, two_depths=False) == expected
        lower = engine.search(state, 2).value
        lower = lower if score_margin(lower) is None else score_margin(lower)
        assert guess.at_depth(state, 3) == (expected + lower) // 2


def test_the_engines_are_made_once_per_setting() -> None:
    guess = FirstGuess(Kalah(3, 3))
    assert guess.engine(depth=4) is guess.engine(depth=4)
    assert guess.engine(depth=4) is not guess.engine(depth=5)
    assert guess.engine(depth=4).config.evaluation == "store"
    assert not guess.engine(depth=4).config.proves
