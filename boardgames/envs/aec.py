"""What the PettingZoo AEC environments of every game share (kalah_v0, nim_v0).

:class:`BoardAEC` keeps PettingZoo's bookkeeping once: the spaces, ``reset`` with its
seeding and reward, termination and info dicts, ``step``'s dead-agent step and reward
accumulation, ``render``'s three modes. A game's environment gives its rules through a few
hooks (:meth:`BoardAEC.first_state`, :meth:`~BoardAEC.view`, :meth:`~BoardAEC.mask`,
:meth:`~BoardAEC.apply`, :meth:`~BoardAEC.final_rewards`, :meth:`~BoardAEC.ansi`,
:meth:`~BoardAEC.rgb`), all on the game's own state array.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from boardgames.envs import require
from boardgames.envs.boards import PLAYERS, check_choice

require("pettingzoo")

from gymnasium import spaces  # noqa: E402
from gymnasium.utils import EzPickle, seeding  # noqa: E402
from pettingzoo import AECEnv  # type: ignore[import-untyped]  # noqa: E402
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]  # noqa: E402

RENDER_MODES = ("ansi", "rgb_array", "human")
"""``human`` prints the ``ansi`` text to stdout and returns None."""


def wrap(raw: AECEnv, illegal_reward: float) -> AECEnv:
    """``raw`` wrapped as PettingZoo wraps its classic games: an illegal move ends the game
    with ``illegal_reward`` for the mover, out-of-range actions are refused, the AEC call
    order is enforced."""
    wrapped: AECEnv = wrappers.TerminateIllegalWrapper(raw, illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class BoardAEC(AECEnv, EzPickle):
    """A two-player turn-based game as an AEC environment (agents ``player_0``, who moves
    first, and ``player_1``); rewards at the end of the game only."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "board_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }
    game: Any
    board_state: np.ndarray

    def __init__(self, *options: Any) -> None:
        """``options``: the game's constructor arguments, for pickling (``EzPickle``)."""
        EzPickle.__init__(self, *options)
        AECEnv.__init__(self)

    def _setup(
        self,
        render_mode: str | None,
        observation: spaces.Space,
        actions: int,
        state_space: spaces.Space,
    ) -> None:
        """Called by the game's ``__init__`` once ``self.game`` is set."""
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.render_mode = render_mode
        self.possible_agents = list(PLAYERS)
        self.agents = list(PLAYERS)
        mask = spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": observation, "action_mask": mask}) for a in PLAYERS
        }
        self.action_spaces = {a: spaces.Discrete(actions) for a in PLAYERS}
        self.state_space = state_space
        self.np_random, _ = seeding.np_random(None)
        self.board_state = self.game.initial_state()
        self.agent_selection = PLAYERS[0]

    # --- the game's hooks ------------------------------------------------------------------

    def first_state(self) -> np.ndarray:
        """The state a reset starts from (``self.np_random`` is seeded by then)."""
        return np.asarray(self.game.initial_state())

    def view(self, player: int) -> np.ndarray:
        """The observation of ``player``."""
        raise NotImplementedError

    def mask(self, player: int) -> np.ndarray:
        """The legal actions of ``player`` now (int8, one per action)."""
        raise NotImplementedError

    def apply(self, player: int, action: int) -> np.ndarray:
        """The state after ``player``'s legal ``action`` (a ValueError saying what is legal
        for an illegal one)."""
        raise NotImplementedError

    def final_rewards(self) -> list[float]:
        """Each player's reward when the game is over."""
        raise NotImplementedError

    def ansi(self) -> str:
        raise NotImplementedError

    def rgb(self) -> np.ndarray:
        raise NotImplementedError

    # --- PettingZoo's API ------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = PLAYERS.index(agent)
        return {"observation": self.view(player), "action_mask": self.mask(player)}

    def state(self) -> np.ndarray:
        """The toolkit's own state array of the game."""
        return self.board_state.copy()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:  # else the generator goes on: each game a new draw
            self.np_random, _ = seeding.np_random(seed)
            for i, agent in enumerate(PLAYERS):
                self.action_spaces[agent].seed(seed + i)
        self.board_state = self.first_state()
        self.agents = list(PLAYERS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = PLAYERS[self.game.to_move(self.board_state)]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            legal = ", ".join(map(str, np.flatnonzero(self.mask(PLAYERS.index(agent)))))
            raise ValueError(f"action None is not legal for {agent}; legal now: {legal}")
        self.board_state = self.apply(PLAYERS.index(agent), int(action))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.game.outcome(self.board_state) is not None:
            for a, reward in zip(PLAYERS, self.final_rewards(), strict=True):
                self.rewards[a] = reward
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = PLAYERS[self.game.to_move(self.board_state)]
        self._accumulate_rewards()

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            return None
        if self.render_mode == "human":
            print(self.ansi())
            return None
        return self.ansi() if self.render_mode == "ansi" else self.rgb()

    def close(self) -> None:
        pass
