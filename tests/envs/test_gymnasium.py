"""The Gymnasium environments: Gymnasium's own checker, the registered ids, the
opponents (Kalah's programs and Bouton's strategy, players of the games' plugins) and bad
options."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the [rl] extra is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import boardgames.envs  # noqa: E402, F401  (registers the ids: gymnasium is loaded)
from boardgames.core.players import find_player  # noqa: E402
from boardgames.envs.single import KalahEnv, NimEnv  # noqa: E402
from boardgames.kalah.game import Kalah  # noqa: E402
from boardgames.kalah.play.warm import program_ready  # noqa: E402
from boardgames.nim.game import Nim  # noqa: E402
from boardgames.nim.rules import is_safe, winning_moves  # noqa: E402


def known(game: object, player: str) -> None:
    """Skip unless the game's plugin has the player ``player`` (its ``players``)."""
    try:
        find_player(game, player)  # type: ignore[arg-type]
    except ValueError:
        pytest.skip(f"{player} is not a player of {game.name} (yet)")  # type: ignore[attr-defined]


KALAH_OPTIONS = [
    {"pits": 4, "seeds": 3, "opponent": "random"},
    {"pits": 3, "seeds": 2, "rules": "etudes", "opponent": "random", "learner": "second"},
    {"pits": 4, "seeds": 3, "capture": "empty", "reward": "result", "opponent": "random",
     "learner": "random", "opening": 2},
    {"pits": 4, "seeds": 3, "opponent": "classic"},
    {"pits": 3, "seeds": 3, "opponent": "depth=2,eval=store"},
]  # fmt: skip
NIM_OPTIONS = [
    {},
    {"rows": (1, 2, 3), "misere": True, "opponent": "random", "learner": "second"},
    {"rows": "2 5", "start": "random", "learner": "random"},
]


@pytest.mark.parametrize("options", KALAH_OPTIONS, ids=str)
def test_kalah_passes_gymnasiums_checker(options: dict[str, object]) -> None:
    known(Kalah(), str(options["opponent"]))
    check_env(gymnasium.make("boardgames/Kalah-v0", **options).unwrapped, skip_render_check=False)
    for mode in ("ansi", "rgb_array"):
        env = KalahEnv(render_mode=mode, **options)  # type: ignore[arg-type]
        env.reset(seed=1)
        picture = env.render()
        assert isinstance(picture, str) if mode == "ansi" else picture.dtype == np.uint8


@pytest.mark.parametrize("options", NIM_OPTIONS, ids=str)
def test_nim_passes_gymnasiums_checker(options: dict[str, object]) -> None:
    known(Nim(), str(options.get("opponent", "bouton")))
    check_env(gymnasium.make("boardgames/Nim-v0", **options).unwrapped)
    env = NimEnv(render_mode="rgb_array", **options)  # type: ignore[arg-type]
    env.reset(seed=1)
    assert env.render().shape[2] == 3


def test_the_ids_are_found_with_the_module_prefix_in_a_fresh_process() -> None:
    code = (
        "import gymnasium; "
        "e = gymnasium.make('boardgames.envs:boardgames/Nim-v0'); "
        "print(e.reset(seed=0)[0].tolist())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[3, 4, 5]"


def test_the_ids_are_registered_whatever_the_import_order() -> None:
    code = (
        "import boardgames.envs, boardgames.envs.kalah_v0, gymnasium; "
        "print(gymnasium.make('boardgames/Kalah-v0', pits=3, seeds=1, opponent='random')"
        ".reset(seed=0)[0].tolist())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[1, 1, 1, 0, 1, 1, 1, 0]"


def test_importing_the_package_loads_no_learning_library() -> None:
    code = (
        "import sys, boardgames.envs; "
        "print(sorted(m for m in ('gymnasium', 'pettingzoo', 'pyspiel') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("spec", ["depth=3,eval=store", "classic"])
def test_the_kalah_opponent_is_the_match_program(spec: str) -> None:
    """Each reply is the whole compound move of the player ``spec`` (Kalah's program of
    ``kalah match``), listed as B's action ids (pit ``5 + i`` is B's action ``i`` on 4
    pits)."""
    game = Kalah(4, 3)
    known(game, spec)
    if spec == "classic" and not program_ready("classic"):
        pytest.skip("Kalah's program is not compiled here: its reference search is timed")
    env = KalahEnv(pits=4, seeds=3, opponent=spec)
    player = find_player(game, spec)
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        before = env.state.copy()
        _, reward, done, _, info = env.step(action)
        state, again = game.play(before, action)
        if not again and game.outcome(state) is None:
            move = player.choose(game, state).moves()
            assert tuple(info["opponent_moves"][: len(move)]) == tuple(p - 5 for p in move)
    margin = game.outcome(env.state)
    assert reward == (margin if game.to_move(env.state) == 0 else -margin)


def test_an_extra_turn_gives_the_learner_the_next_step() -> None:
    env = KalahEnv(pits=6, seeds=6, opponent="random")
    env.reset(seed=0)
    obs, _, done, _, info = env.step(0)  # RULES.md 1: A's sowing 0 ends in its store
    assert info["opponent_moves"] == [] and not done
    assert obs.tolist() == [0, 7, 7, 7, 7, 7, 1, 6, 6, 6, 6, 6, 6, 0]


def test_an_illegal_action_ends_the_episode_with_the_lowest_reward() -> None:
    env = KalahEnv(pits=4, seeds=3, opponent="random")
    env.reset(seed=0)
    _, reward, done, _, info = env.step(9)  # no such pit
    assert (reward, done, info["illegal"]) == (-24.0, True, True)
    for seed in range(20):
        _, info = env.reset(seed=seed)
        _, _, _, _, info = env.step(0)
        empty = np.flatnonzero(info["action_mask"] == 0)
        if empty.size:
            _, reward, done, _, info = env.step(int(empty[0]))
            assert (reward, done, info["illegal"]) == (-24.0, True, True)
            return
    pytest.fail("no empty pit after 20 games")


def test_a_safe_start_always_loses_to_bouton() -> None:
    """Bouton's theorem: 1, 2, 3 has nim-sum 0, so the first player loses whatever it does."""
    known(Nim(), "bouton")
    env = NimEnv(rows=(1, 2, 3), opponent="bouton")
    rng = np.random.default_rng(1)
    for episode in range(30):
        obs, info = env.reset(seed=episode)
        done = False
        while not done:
            assert is_safe(obs.tolist())  # Bouton always hands back a safe position
            obs, reward, done, _, info = env.step(
                int(rng.choice(np.flatnonzero(info["action_mask"])))
            )
        assert reward == -1.0


def test_bouton_moves_win_from_every_unsafe_start() -> None:
    known(Nim(), "bouton")
    env = NimEnv(rows=(3, 4, 5), opponent="bouton", start="random")
    for episode in range(40):
        obs, _ = env.reset(seed=episode)
        if is_safe(obs.tolist()):
            continue
        done = False
        while not done:
            move = winning_moves(obs.tolist())[0]
            obs, reward, done, _, _ = env.step(move.row * 5 + move.take - 1)
        assert reward == 1.0


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"opponent": "depth=x"}, "opponent: depth"),
        ({"opponent": "wizard"}, "opponent: no player 'wizard' for kalah; players: random"),
        ({"opponent": 3}, "opponent must be a player's name or spec, got 3"),
        ({"learner": "A"}, "learner must be one of first, second, random"),
        ({"pits": 13}, "pits must be between 1 and 12, got 13"),
        ({"depth": 7}, "depth must be from 1 to 6, got 7"),
    ],
)
def test_bad_kalah_options(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message) as e:
        gymnasium.make("boardgames/Kalah-v0", **{"opponent": "random", **options})
    assert "\n" not in str(e.value)


def test_bad_nim_options() -> None:
    with pytest.raises(ValueError, match="opponent: no player 'wizard' for nim; players: random"):
        NimEnv(opponent="wizard")
    with pytest.raises(ValueError, match="start must be one of initial, random"):
        NimEnv(opponent="random", start="middle")
