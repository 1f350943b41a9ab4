"""Any registered game with action ids as a PettingZoo AEC environment.

``make(name, **options)`` (also :func:`boardgames.envs.make`) is :class:`GameAEC` wrapped
as PettingZoo wraps its classic games: an illegal action ends the game with the lowest
reward for the mover (``TerminateIllegalWrapper``), and :class:`CheckedOrder` enforces the
AEC call order and refuses, with a one-line ``ValueError``, an action that is not an
integer id of the action space, an action for an agent whose game is over, and a step
after the end (it says to reset). ``options`` are the game's plugin options, ``reward``
(the game's default: Kalah ``margin``, the final margin in stones; else ``result``,
+1/0/-1), ``opening`` (random moves at each reset, drawn from the reset's seed) and
``render_mode`` (``ansi``: the board as text; ``rgb_array``: an H x W x 3 uint8 picture;
``human``: the text printed): :func:`boardgames.envs.games.setup`.

Agents ``player_0`` (moves first) and ``player_1``; the same agent acts again after an
extra turn. ``observe(agent)`` gives ``{"observation": the game's observation for the
agent, "action_mask": int8}`` (all 0 unless it is the agent's turn). Rewards come at the
end, zero-sum. ``state()`` is the toolkit's own state array. An environment pickles and
deep-copies mid-game, and the copy plays on. There is no ``parallel_env``: the games are
turn-based.

:func:`own_env` makes the ``env`` and ``raw_env`` of a module ``boardgames.envs.<name>_v0``
(``kalah_v0``, ``nim_v0``): game ``<name>`` with the same options, the module finding the
game by its own name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, cast

import numpy as np

from boardgames.envs.games import PLAYERS, Setup, action_id, check_choice, setup
from boardgames.envs.libs import register_gymnasium, require

require("pettingzoo")

from gymnasium import spaces  # noqa: E402
from gymnasium.utils import seeding  # noqa: E402
from pettingzoo import AECEnv  # type: ignore[import-untyped]  # noqa: E402
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]  # noqa: E402

RENDER_MODES = ("ansi", "rgb_array", "human")
"""``human`` prints the ``ansi`` text to stdout and returns None."""
INT64 = np.iinfo(np.int64)


class GameAEC(AECEnv):  # type: ignore[misc]
    """A two-player game as an AEC environment; rewards at the end of the game only.

    ``game``: a registered game's name with its ``options``
    (:func:`~boardgames.envs.games.setup`) or a ready :class:`~boardgames.envs.games.Setup`.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  (PettingZoo's class attribute)
        "render_modes": list(RENDER_MODES),
        "name": "boardgames_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        game: str | Setup,
        *,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if isinstance(game, Setup):
            if options:
                raise ValueError("give a Setup or a game name with options, not both")
            self.setup = game
        else:
            self.setup = setup(game, options, adapter=("render_mode",))
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.render_mode = render_mode
        self.game: Any = self.setup.game
        self.metadata = {**type(self).metadata, "name": f"{self.setup.name}_v0"}
        codec = self.game
        mask = spaces.Box(low=0, high=1, shape=(codec.num_actions,), dtype=np.int8)
        view = spaces.Box(
            low=0, high=codec.observation_high, shape=codec.observation_shape, dtype=np.int64
        )
        self.possible_agents = list(PLAYERS)
        self.agents: list[str] = []  # until reset
        self.observation_spaces = {
            a: spaces.Dict({"observation": view, "action_mask": mask}) for a in PLAYERS
        }
        self.action_spaces = {a: spaces.Discrete(codec.num_actions) for a in PLAYERS}
        start = self.game.initial_state()
        self.state_space = spaces.Box(INT64.min, INT64.max, shape=start.shape, dtype=np.int64)
        self.np_random, _ = seeding.np_random(None)
        self.board_state = start
        self.agent_selection = PLAYERS[0]

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = PLAYERS.index(agent)
        return {
            "observation": np.asarray(self.game.observation(self.board_state, player)),
            "action_mask": self.setup.mask(self.board_state, player),
        }

    def state(self) -> np.ndarray:
        """The toolkit's own state array of the game."""
        return np.array(self.board_state, copy=True)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:  # else the generator goes on: each game a new draw
            self.np_random, _ = seeding.np_random(seed)
            for i, agent in enumerate(PLAYERS):
                self.action_spaces[agent].seed(seed + i)
        self.board_state = self.setup.first_state(self.np_random)
        self.agents = list(PLAYERS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = PLAYERS[self.game.to_move(self.board_state)]

    def check_step(self, action: object) -> int | None:
        """``action`` as an int id (None for a finished agent's step); a one-line
        ValueError for a step after the end, a live action for a finished agent, or an
        action that is not an integer id in the action space."""
        if not self.agents:
            raise ValueError("no game is under way (over or not begun): call reset() to start one")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(
                    f"the game is over: step(None) for {agent} and each finished agent, "
                    "then call reset()"
                )
            return None
        number = action_id(action)
        if not 0 <= number < self.game.num_actions:
            raise self.not_legal(number)
        return number

    def not_legal(self, number: int) -> ValueError:
        return ValueError(
            f"action {number} is not legal for {self.agent_selection}; legal now: "
            f"{self.setup.legal_text(self.board_state)}"
        )

    def step(self, action: object) -> None:
        number = self.check_step(action)
        if number is None:
            self._was_dead_step(None)
            return
        agent = self.agent_selection
        move = self.game.move_of(self.board_state, number)
        if move is None:
            raise self.not_legal(number)
        self.board_state, _ = self.game.play(self.board_state, move)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.game.outcome(self.board_state) is not None:
            for player, a in enumerate(PLAYERS):
                self.rewards[a] = self.setup.reward_of(self.board_state, player)
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = PLAYERS[self.game.to_move(self.board_state)]
        self._accumulate_rewards()

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            return None
        if self.render_mode == "human":
            print(self.setup.text(self.board_state))
            return None
        if self.render_mode == "ansi":
            return self.setup.text(self.board_state)
        return self.setup.picture(self.board_state)

    def close(self) -> None:
        pass


class CheckedOrder(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order enforcing, and :meth:`GameAEC.check_step` before every step once
    the environment is reset (so that a bad action never reaches the inner wrappers)."""

    def step(self, action: object) -> None:
        if self._has_reset:
            self.unwrapped.check_step(action)
        super().step(action)


def wrap(raw: GameAEC) -> AECEnv:
    """``raw`` wrapped as PettingZoo wraps its classic games (module docstring)."""
    return CheckedOrder(wrappers.TerminateIllegalWrapper(raw, illegal_reward=raw.setup.low))


def make(name: str, **options: Any) -> AECEnv:
    """Registered game ``name``'s AEC environment, wrapped (module docstring)."""
    return wrap(GameAEC(name, **options))


class NamedAEC(GameAEC):
    """The environment of one game, named in ``game_name`` (:func:`own_env` makes one
    subclass a game), taking the same options as :func:`make`."""

    game_name: ClassVar[str]

    def __init__(self, render_mode: str | None = None, **options: Any) -> None:
        super().__init__(self.game_name, render_mode=render_mode, **options)


def own_env(module: str) -> tuple[Callable[..., AECEnv], type[NamedAEC]]:
    """``env`` and ``raw_env`` of the module ``boardgames.envs.<name>_v0``: ``raw_env`` is
    game ``<name>`` (a class of that module, so that it pickles), and ``env(**options)``
    is ``raw_env`` wrapped as every game's environment is."""
    name = module.rpartition(".")[2].removesuffix("_v0")
    attributes = {
        "game_name": name,
        "__module__": module,
        "__doc__": f"{name} for two learning agents ({module}).",
        "metadata": {**GameAEC.metadata, "name": f"{name}_v0"},
    }
    raw = cast("type[NamedAEC]", type("raw_env", (NamedAEC,), attributes))

    def env(**options: Any) -> AECEnv:
        return wrap(raw(**options))

    env.__module__, env.__qualname__ = module, "env"
    env.__doc__ = f"The {name} AEC environment, wrapped as PettingZoo wraps its classic games."
    return env, raw


register_gymnasium()  # Gymnasium is loaded now: its ids cost nothing more
