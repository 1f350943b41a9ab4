"""The PettingZoo AEC environments: PettingZoo's own API and render tests on every option
set, and the game facts behind them (extra turns, the mover's view, final margins)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the [rl] extra is not installed")

from pettingzoo.test import api_test, render_test

from boardgames.envs import kalah_v0, nim_v0
from boardgames.kalah.game import Kalah

# api_test's advice (a Dict observation, an all-zero mask) is expected for classic games
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:pettingzoo.test.api_test")

KALAH_OPTIONS = [
    {"pits": 4, "seeds": 3},
    {"pits": 3, "seeds": 2, "rules": "etudes"},
    {"pits": 4, "seeds": 3, "capture": "empty", "reward": "result", "opening": 3},
    {"pits": 1, "seeds": 1},
    {"pits": 6, "seeds": 4},
]
NIM_OPTIONS = [{}, {"rows": (1, 2, 3), "misere": True}, {"rows": "1"}, {"rows": [7, 1, 20]}]


@pytest.mark.parametrize("options", KALAH_OPTIONS, ids=str)
def test_kalah_api_and_render(options: dict[str, object]) -> None:
    api_test(kalah_v0.env(**options), num_cycles=200)
    render_test(lambda render_mode: kalah_v0.env(render_mode=render_mode, **options))


@pytest.mark.parametrize("options", NIM_OPTIONS, ids=str)
def test_nim_api_and_render(options: dict[str, object]) -> None:
    api_test(nim_v0.env(**options), num_cycles=200)
    render_test(lambda render_mode: nim_v0.env(render_mode=render_mode, **options))


def test_extra_turn_keeps_the_agent_and_views_are_rotated() -> None:
    """RULES.md 1's worked example: A sows 0 (extra turn), then 1, then B sows 7."""
    env = kalah_v0.env(pits=6, seeds=6)
    env.reset()
    assert env.agent_selection == "player_0"
    env.step(0)
    assert env.agent_selection == "player_0"  # the last stone hit A's store
    assert env.unwrapped.state().tolist() == [0, 7, 7, 7, 7, 7, 1, 6, 6, 6, 6, 6, 6, 0, 0]
    env.step(1)
    assert env.agent_selection == "player_1"
    assert env.unwrapped.state()[:14].tolist() == [0, 0, 8, 8, 8, 8, 2, 7, 7, 6, 6, 6, 6, 0]
    obs = env.observe("player_1")
    # B's own pits 7..12, B's store, then A's pits 0..5 and A's store
    assert obs["observation"].tolist() == [7, 7, 6, 6, 6, 6, 0, 0, 0, 8, 8, 8, 8, 2]
    assert obs["action_mask"].tolist() == [1] * 6
    assert env.observe("player_0")["action_mask"].tolist() == [0] * 6
    env.step(0)  # B's action 0 is pit 7
    assert env.unwrapped.state()[:14].tolist() == [1, 0, 8, 8, 8, 8, 2, 0, 8, 7, 7, 7, 7, 1]
    env.step(0)  # A's capture: all 8 go to A's store
    assert env.unwrapped.state()[:14].tolist() == [0, 0, 8, 8, 8, 8, 10, 0, 8, 7, 7, 0, 7, 1]


@pytest.mark.parametrize("reward", ["margin", "result"])
def test_rewards_are_the_final_margin(reward: str) -> None:
    game = Kalah(4, 3)
    rng = np.random.default_rng(5)
    for _ in range(20):
        env = kalah_v0.env(pits=4, seeds=3, reward=reward)
        env.reset()
        state = game.initial_state()
        totals = {"player_0": 0.0, "player_1": 0.0}
        for agent in env.agent_iter():
            obs, r, term, _, _ = env.last()
            totals[agent] += r
            if term:
                env.step(None)
                continue
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            pit = action if agent == "player_0" else action + 5
            state, _ = game.play(state, pit)
            env.step(action)
        margin = game.outcome(state)
        margin_a = margin if game.to_move(state) == 0 else -margin
        want = float(margin_a) if reward == "margin" else float(np.sign(margin_a))
        assert totals == {"player_0": want, "player_1": -want}


def test_nim_winner_takes_the_last_chip_or_loses_it_in_misere() -> None:
    for misere in (False, True):
        env = nim_v0.env(rows=(2,), misere=misere)
        env.reset()
        env.step(1)  # player_0 takes both chips
        assert env.rewards == {"player_0": -1.0 if misere else 1.0,
                               "player_1": 1.0 if misere else -1.0}  # fmt: skip


def test_seed_makes_openings_reproducible() -> None:
    def start(seed: int) -> list[int]:
        env = kalah_v0.env(pits=6, seeds=4, opening=6)
        env.reset(seed=seed)
        return env.unwrapped.state().tolist()

    assert start(3) == start(3)
    assert len({tuple(start(s)) for s in range(8)}) > 1


def test_illegal_moves() -> None:
    raw = kalah_v0.raw_env(pits=4, seeds=3)
    raw.reset()
    raw.step(0)  # A's pit 0: 3 stones to pits 1-3, the turn passes
    with pytest.raises(
        ValueError, match="action 4 is not legal for player_1; legal now: 0, 1, 2, 3"
    ) as e:
        raw.step(4)  # no such pit
    assert "\n" not in str(e.value)
    wrapped = kalah_v0.env(pits=4, seeds=3)
    wrapped.reset()
    wrapped.step(3)  # A's pit 3: 3 stones, the last one into B's pits
    wrapped.step(3)  # B's pit 8: its last stone lands in A's pit 1
    assert wrapped.agent_selection == "player_0"
    assert wrapped.observe("player_0")["action_mask"].tolist() == [1, 1, 1, 0]
    wrapped.step(3)  # A's pit 3 is empty: the game ends, A gets the lowest reward
    assert wrapped.rewards == {"player_0": -24.0, "player_1": 0.0}
    assert all(wrapped.terminations.values())


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"pits": 0}, "pits must be between 1 and 12, got 0"),
        ({"seeds": 21}, "seeds must be between 1 and 20, got 21"),
        ({"pits": 2.5}, "pits must be a whole number, got '2.5'"),
        ({"rules": "oware"}, "rules must be one of classic, etudes"),
        ({"capture": "never"}, "capture must be one of opposite, empty"),
        ({"rules": "etudes", "capture": "empty"}, "classic-rules variant"),
        ({"reward": "score"}, "reward must be one of margin, result"),
        ({"opening": -1}, "opening must be between 0 and 200, got -1"),
        ({"render_mode": "svg"}, "render_mode must be one of ansi, rgb_array, human"),
    ],
)
def test_bad_kalah_options_are_one_clear_value_error(
    options: dict[str, object], message: str
) -> None:
    """The plugin's options, checked by ``Option.convert`` (the messages of every Kalah
    command)."""
    with pytest.raises(ValueError, match=message) as e:
        kalah_v0.env(**options)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rows": ()}, "rows: give at least one whole number"),
        ({"rows": (3, 0)}, "rows must be between 1 and 20, got 0"),
        ({"rows": (3, 21)}, "rows must be between 1 and 20, got 21"),
        ({"rows": "3 x"}, "rows must be a whole number, got 'x'"),
        ({"rows": tuple(range(1, 16))}, "15 rows given; a layout has 1 to 14 rows"),
        ({"misere": "maybe"}, "misere must be on or off, got 'maybe'"),
    ],
)
def test_bad_nim_options_are_one_clear_value_error(
    options: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message) as e:
        nim_v0.env(**options)
    assert "\n" not in str(e.value)


def test_rgb_picture_marks_the_mover() -> None:
    env = kalah_v0.env(pits=4, seeds=3, render_mode="rgb_array")
    env.reset()
    first = env.render()
    env.step(0)  # the turn passes to B: the bar moves from the bottom to the top
    second = env.render()
    assert first.shape == second.shape and first.dtype == np.uint8
    yellow = np.array([230, 200, 40], dtype=np.uint8)
    h = first.shape[0]
    assert (first[h - 5] == yellow).all(axis=1).any() and not (first[5] == yellow).all(axis=1).any()
    assert (second[5] == yellow).all(axis=1).any()
