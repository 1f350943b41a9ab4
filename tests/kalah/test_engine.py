"""The strong program's API against the Python reference program (program.py)."""

from __future__ import annotations

import pytest

from boardgames.core.compare import random_positions
from boardgames.core.protocol import GameError, is_terminal_score, score_margin
from boardgames.core.search import alphabeta
from boardgames.kalah.game import Kalah
from boardgames.kalah.play import program
from boardgames.kalah.play.engine import EngineConfig, KalahEngine


def openings(game: Kalah, count: int, seed: int) -> list:
    return random_positions(game, count, seed, plies=(0, 24))


@pytest.mark.parametrize(
    ("rules", "evaluation"),
    [("classic", "store"), ("classic", "tseitin"), ("etudes", "rechenberg")],
)
def test_alphabeta_engine_plays_the_reference_programs_compound_move(rules, evaluation):
    game = Kalah(6, 4, rules)
    config = EngineConfig(depth=3, evaluation=evaluation, strategy="alphabeta", prove_nodes=0)
    engine = KalahEngine(game, config)
    for state in openings(game, 6, 11):
        pits, ref = program.choose_compound(game, state, 3, evaluation=evaluation)
        answer = engine.best_move(state)
        assert answer.move == pits
        assert answer.value == ref.value


@pytest.mark.parametrize("strategy", ["mtdf", "pvs", "id", "tt"])
@pytest.mark.parametrize("unit", ["compound", "sowing"])
def test_engine_value_is_exact_and_its_compound_move_is_legal(strategy: str, unit: str) -> None:
    game = Kalah(5, 4, "classic", "tseitin")
    cfg = EngineConfig(depth=4, strategy=strategy, unit=unit, prove_nodes=0)
    engine = KalahEngine(game, cfg)
    for state in openings(game, 5, 5):
        ref = alphabeta(game, state, 4, again_is_ply=unit == "sowing")
        answer = engine.best_move(state)
        assert answer.value == ref.value
        assert answer.depth == 4 and answer.complete
        after = game.play_compound(state, answer.move)  # raises unless one whole turn
        assert game.outcome(after) is not None or game.to_move(after) != game.to_move(state)


def test_time_limited_engine_deepens_and_answers_a_legal_move() -> None:
    game = Kalah()
    engine = KalahEngine(game, EngineConfig(time=0.2))
    state = game.initial_state()
    answer = engine.best_move(state)
    assert answer.depth >= 2
    game.play_compound(state, answer.move)


def test_engine_sees_the_end_of_the_game() -> None:
    """Three stones left in the pits: four compound moves see the end of the game; the
    search alone gives a bound, the solver's proof the exact value."""
    game = Kalah(6, 4)
    state = game.make_state([0, 0, 0, 0, 1, 1, 20, 0, 0, 0, 0, 0, 1, 25], 0)
    answer = KalahEngine(game, EngineConfig(depth=4, prove_nodes=0)).best_move(state)
    assert is_terminal_score(answer.value) and not answer.exact
    assert answer.value == alphabeta(game, state, 4).value
    proved = KalahEngine(game, EngineConfig(depth=4)).best_move(state)
    assert proved.exact
    assert score_margin(proved.value) == score_margin(alphabeta(game, state, None).value)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"strategy": "magic"}, "unknown strategy"),
        ({"evaluation": "x"}, "unknown evaluation"),
        ({"unit": "ply"}, "depth unit"),
        ({"depth": 0}, "depth must be"),
        ({"time": -1}, "time must be"),
        ({"time": 1, "strategy": "alphabeta", "depth": 3}, "iterative strategy"),
        ({"strategy": "alphabeta"}, "needs a depth"),
        ({"tt_mib": 0}, "table size"),
        ({"strategy": "mcts", "depth": 3}, "no depth"),
        ({"strategy": "mcts", "playouts": 0}, "playouts must be"),
        ({"strategy": "mcts", "exploration": -1.0}, "exploration"),
        ({"strategy": "mcts", "exploration": float("nan")}, "exploration"),
        ({"strategy": "mcts", "policy": "greedy"}, "playout policy"),
        ({"depth": 4, "playouts": 100}, "playouts are for"),
    ],
)
def test_bad_config_is_one_clear_error(kwargs: dict, message: str) -> None:
    with pytest.raises(GameError, match=message):
        EngineConfig(**kwargs)


def test_no_move_when_the_game_is_over() -> None:
    game = Kalah(2, 1)
    state = game.make_state([0, 0, 1, 0, 0, 1], 0)
    with pytest.raises(GameError, match="over"):
        KalahEngine(game, EngineConfig(depth=2)).best_move(state)


def test_mcts_program_plays_whole_turns_and_repeats_itself_for_a_seed() -> None:
    game = Kalah(6, 3)
    engine = KalahEngine(game, EngineConfig(strategy="mcts", playouts=2000, seed=4))
    state = game.initial_state()
    first = engine.best_move(state)
    assert engine.best_move(state).move == first.move  # same seed, same search
    assert first.mcts is not None and first.mcts.playouts == 2000
    while game.outcome(state) is None:
        answer = engine.best_move(state)
        after = game.play_compound(state, answer.move)  # raises unless one whole turn
        assert game.outcome(after) is not None or game.to_move(after) != game.to_move(state)
        state = after
