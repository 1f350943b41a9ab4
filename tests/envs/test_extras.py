"""A game's environment extras (the :class:`~boardgames.envs.games.EnvExtras` its plugin
names in ``envs``): a toy game registered by the test reaches its picture, its reward in
margins, its own player as the default opponent, its random start and its OpenSpiel
parameters through the generic adapters, with its plugin's options everywhere; Kalah's
and Nim's extras load no learning library, OpenSpiel needs neither PettingZoo nor
Gymnasium for them, and their classes pickle by name into a fresh process."""

from __future__ import annotations

import subprocess
import sys
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
from boardgames.core.engine import Answer  # noqa: E402
from boardgames.core.protocol import State  # noqa: E402
from boardgames.envs.aec import own_env  # noqa: E402
from boardgames.envs.games import EnvExtras, extras, setup  # noqa: E402
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
    """The toy's own player ``one``: always takes a single stone."""

    name: str = "one"
    description: str = "takes one stone"

    def choose(self, game: Any, state: State, *, stop: Any = None) -> Answer:
        return Answer(1, 0, False, 1, 1, 0.0, "toy", [1])


class PilePlayers:
    """The toy's own players (its plugin's ``players``)."""

    def named(self, game: Any) -> dict[str, Any]:
        return {"one": TakeOne()}

    def parse(self, game: Any, text: str) -> Any:
        return None


def toy_rgb(game: Pile, state: State) -> np.ndarray:
    return np.full((2, int(state[0]) + 1, 3), 7, dtype=np.uint8)


def toy_random_state(game: Pile, rng: np.random.Generator, mover: int) -> State:
    return np.array([int(rng.integers(1, game.stones + 1)), mover], dtype=np.int64)


def extras_module() -> ModuleType:
    module = ModuleType("toy_pile_envs")
    module.ENVS = EnvExtras(  # type: ignore[attr-defined]
        rgb=toy_rgb,
        random_state=toy_random_state,
        max_margin=lambda game: 1,
        max_game_length=lambda game: game.stones,
        default_reward="margin",
        default_opponent="one",
    )
    module.PLAYERS = PilePlayers()  # type: ignore[attr-defined]
    module.NOT_EXTRAS = {"rgb": toy_rgb}  # type: ignore[attr-defined]
    return module


def register(monkeypatch: pytest.MonkeyPatch, envs: str) -> None:
    monkeypatch.setitem(sys.modules, "toy_pile_envs", extras_module())
    stones = registry.Option("stones", "int", 5, "stones at the start", 1, 30)
    spec = registry.GamePlugin(
        "pile",
        "Pile",
        "game",
        "toy",
        f"{__name__}:Pile",
        options=(stones,),
        envs=envs,
        players="toy_pile_envs:PLAYERS",
    )
    found = {**registry.plugins(), "pile": spec}
    monkeypatch.setattr(registry, "_loaded", lambda: (found, ()))


@pytest.fixture
def pile(monkeypatch: pytest.MonkeyPatch) -> None:
    register(monkeypatch, "toy_pile_envs:ENVS")


@pytest.mark.usefixtures("pile")
def test_the_extras_reach_every_adapter() -> None:
    # the plugin's options everywhere; the picture is the game's own
    zoo = boardgames.envs.make("pile", stones=3, render_mode="rgb_array")
    zoo.reset(seed=0)
    assert zoo.render().shape == (2, 4, 3)
    allowed = "stones, reward, opening, render_mode"
    with pytest.raises(ValueError, match=f"pile has no option 'heap'; its options: {allowed}$"):
        boardgames.envs.make("pile", heap=3)
    env, raw_env = own_env("somewhere.pile_v0")
    assert raw_env.__module__ == "somewhere.pile_v0" and raw_env.__name__ == "raw_env"
    api_test(env(stones=4), num_cycles=10)
    assert raw_env(stones=6).game == Pile(6)
    assert (raw_env().setup.reward, raw_env().setup.max_game_length) == ("margin", 5)
    with pytest.raises(ValueError, match="pile has no option 'heap'"):
        raw_env(heap=3)
    cls = env_class("pile")
    assert cls.__name__ == "PileEnv" and boardgames.envs.single.PileEnv is cls
    gym = cls(stones=4, render_mode="rgb_array")
    check_env(gym)
    assert setup("pile", {"stones": 4}).draw is not None
    # the game's own player is the default opponent: it takes one stone a turn
    _, info = gym.reset(seed=0)
    _, _, _, _, info = gym.step(0)
    assert info["opponent_moves"] == [0] and gym.render().shape == (2, 3, 3)
    with pytest.raises(ValueError, match=r"opponent: no player 'wizard' for pile; players: .*one"):
        cls(opponent="wizard")
    assert isinstance(cls().opponent, TakeOne) and not isinstance(
        cls(opponent="random").opponent, TakeOne
    )
    # start="random": the extras' position, the learner to move
    starts = {int(cls(start="random", learner="second").reset(seed=s)[0][0]) for s in range(20)}
    assert len(starts) > 2
    with pytest.raises(ValueError, match="start must be one of initial, random"):
        cls(start="middle")


@pytest.mark.usefixtures("pile")
def test_the_openspiel_parameters_are_the_plugins_options_and_reward() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")
    from open_spiel.python.algorithms import minimax  # type: ignore[import-untyped]

    from boardgames.envs import spiel

    spiel.register()
    assert spiel.parameters("pile") == {"stones": 5, "reward": "margin"}
    game = pyspiel.load_game("python_boardgames_pile(stones=3)")
    assert minimax.alpha_beta_search(game)[0] == -1.0  # 3 stones: the mover loses
    assert game.max_game_length() == 3
    assert pyspiel.load_game("python_boardgames_pile").new_initial_state().board[0] == 5
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("python_boardgames_pile(heap=3)")


def test_extras_that_are_not_an_envextras_are_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    register(monkeypatch, "toy_pile_envs:NOT_EXTRAS")
    from boardgames.core.registry import PluginError

    with pytest.raises(PluginError, match=r"^game 'pile': its envs '.*' is .*, not an EnvExtras$"):
        boardgames.envs.make("pile")


def test_a_game_without_extras_gets_the_defaults() -> None:
    """Connect Four names no extras: the grid picture, +1/0/-1, ``program`` by default."""
    assert registry.plugin("connect4").envs is None and extras("connect4") == EnvExtras()
    env = boardgames.envs.single.GameEnv("connect4", width=4, height=4)
    assert env.setup.reward == "result" and env.opponent.name == "depth=2"
    with pytest.raises(ValueError, match="reward must be one of result, got 'margin'"):
        boardgames.envs.make("connect4", reward="margin")


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
