"""The OpenSpiel games: OpenSpiel's random-simulation check, its alpha-beta against the
exact solver, and one random game played through OpenSpiel, PettingZoo and the toolkit's
own Kalah giving the same positions and returns."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")

import boardgames.envs.spiel  # noqa: E402, F401  (registers the games)
from boardgames.kalah.exact.solver import Solver  # noqa: E402
from boardgames.kalah.game import Kalah  # noqa: E402
from boardgames.nim.rules import is_safe  # noqa: E402

GAMES = [
    "python_boardgames_kalah",
    "python_boardgames_kalah(pits=4,seeds=3)",
    "python_boardgames_kalah(pits=3,seeds=2,rules=etudes)",
    "python_boardgames_kalah(pits=4,seeds=3,capture=empty,reward=result)",
    "python_boardgames_kalah(pits=1,seeds=1)",
    "python_boardgames_nim",
    "python_boardgames_nim(rows=1;2;3,misere=True)",
    "python_boardgames_nim(rows=7;)",  # one row: a ; keeps it text
]


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_simulation(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=10, serialize=False, verbose=False)


@pytest.mark.parametrize(("pits", "seeds", "rules"), [(2, 2, "classic"), (3, 2, "classic"),
                                                      (2, 3, "etudes")])  # fmt: skip
def test_openspiel_alpha_beta_equals_the_exact_solver(pits: int, seeds: int, rules: str) -> None:
    from open_spiel.python.algorithms import minimax

    game = pyspiel.load_game(f"python_boardgames_kalah(pits={pits},seeds={seeds},rules={rules})")
    value, _ = minimax.alpha_beta_search(game)
    kalah = Kalah(pits, seeds, rules)
    assert value == Solver(pits, rules, hash_mb=1).value(kalah.initial_state())


def test_openspiel_nim_values_follow_bouton() -> None:
    from open_spiel.python.algorithms import minimax

    for rows in ("1;2;3", "2;3", "1;1;1", "3;4;5"):
        game = pyspiel.load_game(f"python_boardgames_nim(rows={rows})")
        value, _ = minimax.alpha_beta_search(game)
        counts = [int(r) for r in rows.split(";")]
        assert value == (-1.0 if is_safe(counts) else 1.0)


@pytest.mark.parametrize(("pits", "seeds", "rules", "capture"),
                         [(4, 3, "classic", "opposite"), (6, 4, "classic", "empty"),
                          (3, 3, "etudes", "opposite")])  # fmt: skip
def test_the_same_game_through_openspiel_pettingzoo_and_kalah(
    pits: int, seeds: int, rules: str, capture: str
) -> None:
    from boardgames.envs import kalah_v0

    kalah = Kalah(pits, seeds, rules, empty_capture=capture == "empty")
    rng = np.random.default_rng(pits * 100 + seeds)
    for _ in range(5):
        spiel = pyspiel.load_game(
            f"python_boardgames_kalah(pits={pits},seeds={seeds},rules={rules},capture={capture})"
        ).new_initial_state()
        zoo = kalah_v0.env(pits=pits, seeds=seeds, rules=rules, capture=capture)
        zoo.reset()
        state = kalah.initial_state()
        while not spiel.is_terminal():
            player = spiel.current_player()
            action = int(rng.choice(spiel.legal_actions()))
            agent = f"player_{player}"
            assert zoo.agent_selection == agent
            mask = zoo.observe(agent)["action_mask"]
            assert np.flatnonzero(mask).tolist() == spiel.legal_actions()
            spiel.apply_action(action)
            zoo.step(action)
            state, _ = kalah.play(state, action + (pits + 1) * player)
            assert spiel.board.tolist() == state.tolist() == zoo.unwrapped.state().tolist()
            assert spiel.current_player() in (kalah.to_move(state), pyspiel.PlayerId.TERMINAL)
        margin = kalah.outcome(state)
        margin_a = margin if kalah.to_move(state) == 0 else -margin
        assert spiel.returns() == [margin_a, -margin_a]
        assert zoo.rewards == {"player_0": margin_a, "player_1": -margin_a}


def test_observation_tensor_is_the_board_from_the_observers_side() -> None:
    game = pyspiel.load_game("python_boardgames_kalah(pits=4,seeds=3)")
    state = game.new_initial_state()
    state.apply_action(0)  # A sows pit 0: 0 4 4 4 0 | 3 3 3 3 0
    assert state.observation_tensor(0) == [0, 4, 4, 4, 0, 3, 3, 3, 3, 0]
    assert state.observation_tensor(1) == [3, 3, 3, 3, 0, 0, 4, 4, 4, 0]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("python_boardgames_kalah(pits=13)", "pits must be between 1 and 12, got 13"),
        ("python_boardgames_kalah(rules=oware)", "rules must be one of classic, etudes"),
        ("python_boardgames_kalah(capture=never)", "capture must be one of opposite, empty"),
        ("python_boardgames_nim(rows=3;0)", "rows must be between 1 and 20, got 0"),
        ("python_boardgames_connect4(reward=margin)", "reward must be one of result"),
    ],
)
def test_bad_parameters_are_one_clear_error(name: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pyspiel.load_game(name)
