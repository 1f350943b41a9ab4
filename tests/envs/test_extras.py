"""A game's environment extras (its plugin's ``envs`` module, the hooks listed in
boardgames/envs/games.py): a toy game registered by the test reaches its own options,
picture, opponents, random start and OpenSpiel parameters through the generic adapters;
Kalah's and Nim's extras load no learning library, OpenSpiel needs neither PettingZoo nor
Gymnasium for them, and their classes pickle by name into a fresh process."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the [rl] extra is not installed")
gymnasium = pytest.importorskip("gymnasium", reason="the [rl] extra is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # type: ignore[import-untyped]  # noqa: E402

import boardgames.envs  # noqa: E402
from boardgames.core import registry  # noqa: E402
from boardgames.core.protocol import State  # noqa: E402
from boardgames.envs.aec import own_env  # noqa: E402
from boardgames.envs.games import Setup, check_int, own_setup  # noqa: E402
from boardgames.envs.labels import PerfectPlayLoss  # noqa: E402
from boardgames.envs.single import env_class  # noqa: E402
from tests.envs.toys import CodedTakeAway  # noqa: E402

pytestmark = [
    pytest.mark.filterwarnings("ignore::UserWarning:pettingzoo.test.api_test"),
    pytest.mark.filterwarnings("ignore:.*alternative render modes:UserWarning"),
]


@dataclass(frozen=True)
class Pile(CodedTakeAway):
    """Take 1 or 2 stones (action ``i`` takes ``i + 1``); whoever takes the last one
    wins."""

    stones: int = 5
    name: str = "pile"
    most: int = 2


@dataclass(frozen=True)
class TakeOne:
    """The toy's own opponent ``one``: always takes a single stone."""

    def __call__(self, game: Any, state: State, rng: np.random.Generator) -> Sequence[int]:
        return [1]


def toy_setup(heap: int = 5, reward: str = "margin") -> Setup:
    """The toy's own options (``heap`` where its plugin says ``stones``)."""
    return Setup(Pile(check_int("heap", heap, 1, 30)), reward=reward, max_margin=1)


def toy_opponent(spec: object, depth: int) -> TakeOne | None:
    if spec == "one":
        return TakeOne()
    if spec in ("program", "random"):
        return None
    raise ValueError(f"opponent must be one of one, program, random, got {spec!r}")


def toy_rgb(game: Pile, state: State) -> np.ndarray:
    return np.full((2, int(state[0]) + 1, 3), 7, dtype=np.uint8)


def toy_random_state(game: Pile, rng: np.random.Generator, mover: int) -> State:
    return np.array([int(rng.integers(1, game.stones + 1)), mover], dtype=np.int64)


def extras_module() -> ModuleType:
    module = ModuleType("toy_pile_envs")
    module.setup = toy_setup  # type: ignore[attr-defined]
    module.opponent = toy_opponent  # type: ignore[attr-defined]
    module.OPPONENT = "one"  # type: ignore[attr-defined]
    module.rgb = toy_rgb  # type: ignore[attr-defined]
    module.random_state = toy_random_state  # type: ignore[attr-defined]
    module.SPIEL_PARAMETERS = {"heap": 4}  # type: ignore[attr-defined]
    return module


@pytest.fixture
def pile(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "toy_pile_envs", extras_module())
    stones = registry.Option("stones", "int", 5, "stones at the start", 1, 30)
    spec = registry.GamePlugin(
        "pile", "Pile", "game", "toy", f"{__name__}:Pile", options=(stones,), envs="toy_pile_envs"
    )
    found = {**registry.plugins(), "pile": spec}
    monkeypatch.setattr(registry, "_loaded", lambda: (found, ()))


@pytest.mark.usefixtures("pile")
def test_the_hooks_reach_every_adapter() -> None:
    # make() takes the plugin's options; the picture is the game's own everywhere
    zoo = boardgames.envs.make("pile", stones=3, render_mode="rgb_array")
    zoo.reset(seed=0)
    assert zoo.render().shape == (2, 4, 3)
    with pytest.raises(ValueError, match="pile has no option 'heap'; its options: stones"):
        boardgames.envs.make("pile", heap=3)
    # <name>_v0, the Gymnasium id and OpenSpiel take the setup hook's own options
    env, raw_env = own_env("somewhere.pile_v0")
    assert raw_env.__module__ == "somewhere.pile_v0" and raw_env.__name__ == "raw_env"
    api_test(env(heap=4), num_cycles=10)
    assert raw_env(heap=6).game == Pile(6) and raw_env().setup.reward == "margin"
    with pytest.raises(ValueError, match="pile has no option 'stones'; its options: heap, reward"):
        raw_env(stones=3)
    cls = env_class("pile")
    assert cls.__name__ == "PileEnv" and boardgames.envs.single.PileEnv is cls
    gym = cls(heap=4, render_mode="rgb_array")
    check_env(gym)
    assert own_setup("pile", {"heap": 4}).draw is not None
    # the game's own opponent is the default: it takes one stone a turn
    _, info = gym.reset(seed=0)
    _, _, _, _, info = gym.step(0)
    assert info["opponent_moves"] == [0] and gym.render().shape == (2, 3, 3)
    with pytest.raises(ValueError, match="opponent must be one of one, program, random"):
        cls(opponent="wizard")
    assert isinstance(cls().opponent, TakeOne) and not isinstance(
        cls(opponent="random").opponent, TakeOne
    )
    # start="random": the hook's position, the learner to move
    starts = {int(cls(start="random", learner="second").reset(seed=s)[0][0]) for s in range(20)}
    assert len(starts) > 2
    with pytest.raises(ValueError, match="start must be one of initial, random"):
        cls(start="middle")


@pytest.mark.usefixtures("pile")
def test_the_openspiel_parameters_of_a_games_extras() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")
    from open_spiel.python.algorithms import minimax  # type: ignore[import-untyped]

    from boardgames.envs import spiel

    spiel.register()
    game = pyspiel.load_game("python_boardgames_pile(heap=3)")
    assert minimax.alpha_beta_search(game)[0] == -1.0  # 3 stones: the mover loses
    assert pyspiel.load_game("python_boardgames_pile").new_initial_state().board[0] == 4
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("python_boardgames_pile(stones=3)")


def test_a_game_without_a_generic_start_or_labels_says_so_in_one_line() -> None:
    with pytest.raises(ValueError, match="connect4 has no random start") as e:
        boardgames.envs.single.GameEnv("connect4", opponent="random", start="random")
    assert "\n" not in str(e.value)
    with pytest.raises(ValueError, match=r"wraps a Kalah environment \(boardgames/Kalah-v0\)"):
        PerfectPlayLoss(gymnasium.make("boardgames/Connect4-v0", opponent="random"))


def test_the_games_extras_load_no_learning_library() -> None:
    code = (
        "import sys, boardgames.kalah.envs, boardgames.nim.envs\n"
        "print(sorted(m for m in ('gymnasium', 'pettingzoo', 'pyspiel', "
        "'boardgames.kalah.play.program', 'boardgames.kalah.analysis.dataset') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_openspiel_needs_neither_pettingzoo_nor_gymnasium() -> None:
    pytest.importorskip("pyspiel", reason="open_spiel is not installed")
    code = (
        "import sys; sys.modules['gymnasium'] = sys.modules['pettingzoo'] = None\n"
        "import pyspiel, boardgames.envs.spiel\n"
        "print(pyspiel.load_game('python_boardgames_kalah(pits=3,seeds=2)').max_utility(),\n"
        "      pyspiel.load_game('python_boardgames_nim(rows=7;)').num_distinct_actions())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["12.0", "7"]


def test_the_own_classes_pickle_by_name_into_a_fresh_process() -> None:
    code = (
        "import pickle, sys, gymnasium, boardgames.envs\n"
        "from boardgames.envs import kalah_v0, nim_v0\n"
        "gym = gymnasium.make('boardgames/Nim-v0', rows=(2, 3), opponent='random').unwrapped\n"
        "gym.reset(seed=0); gym.step(0)\n"
        "zoo = kalah_v0.env(pits=3, seeds=2); zoo.reset(seed=0); zoo.step(1)\n"
        "sys.stdout.buffer.write(pickle.dumps((gym, zoo, nim_v0.raw_env(rows='1 2'))))"
    )
    data = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True).stdout
    code = (
        "import pickle, sys\n"
        "gym, zoo, raw = pickle.loads(sys.stdin.buffer.read())\n"
        "print(type(gym).__name__, type(zoo.unwrapped).__module__, raw.metadata['name'],\n"
        "      gym.state.tolist(), zoo.unwrapped.state().tolist())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], input=data, capture_output=True, check=True
    ).stdout.decode()
    name, module, raw_name, *_ = out.split()
    assert (name, module, raw_name) == ("NimEnv", "boardgames.envs.kalah_v0", "nim_v0")


def test_the_old_names_still_import() -> None:
    from boardgames.envs import kalah_v0, nim_v0, single

    assert single.KalahEnv is env_class("kalah") and single.NimEnv is env_class("nim")
    assert kalah_v0.raw_env.game_name == "kalah" and nim_v0.raw_env.game_name == "nim"
