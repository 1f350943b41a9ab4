"""Nim as a PettingZoo AEC environment, laid out as PettingZoo's classic games.

``env(**options)`` is :class:`raw_env` wrapped as PettingZoo wraps its classic games (an
illegal move ends the game with reward -1 for the mover). Options: ``rows`` (1-14 rows of
1-20 chips, default ``(3, 4, 5)``; a sequence or text such as ``"3 4 5"``), ``misere``
(the last chip loses), ``render_mode`` (``ansi``, ``rgb_array`` or ``human``: the text
printed).

Agents ``player_0`` (moves first) and ``player_1``. Action ``row * K + take - 1`` takes
``take`` chips from row ``row`` (0-based), ``K`` the largest starting row.
``observe(agent)`` gives ``{"observation": chips left in each row, "action_mask": int8}``.
Reward +1 to the winner and -1 to the loser at the end. Nim is turn-based: no
``parallel_env``. Nothing is random in Nim; ``reset(seed=...)`` seeds the action spaces.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from boardgames.envs import register_gymnasium, require
from boardgames.envs.boards import (
    PLAYERS,
    check_choice,
    nim_ansi,
    nim_game,
    nim_mask,
    nim_move,
    nim_play,
    nim_rgb,
    nim_width,
    nim_winner,
)

require("pettingzoo")

from gymnasium import spaces  # noqa: E402
from gymnasium.utils import EzPickle, seeding  # noqa: E402
from pettingzoo import AECEnv  # type: ignore[import-untyped]  # noqa: E402
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]  # noqa: E402

RENDER_MODES = ("ansi", "rgb_array", "human")
"""``human`` prints the ``ansi`` text to stdout and returns None."""


def env(**options: Any) -> AECEnv:
    """The Nim AEC environment, wrapped as PettingZoo wraps its classic games."""
    wrapped: AECEnv = wrappers.TerminateIllegalWrapper(raw_env(**options), illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv, EzPickle):
    """Nim for two learning agents; see the module docstring for the options."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "nim_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        rows: Sequence[int] | str = (3, 4, 5),
        misere: bool = False,
        render_mode: str | None = None,
    ) -> None:
        EzPickle.__init__(self, rows, misere, render_mode)
        super().__init__()
        self.game = nim_game(rows, misere)
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.render_mode = render_mode
        n, k = len(self.game.rows), nim_width(self.game)
        self.possible_agents = list(PLAYERS)
        self.agents = list(PLAYERS)
        chips = spaces.Box(low=0, high=k, shape=(n,), dtype=np.int64)
        mask = spaces.Box(low=0, high=1, shape=(n * k,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": chips, "action_mask": mask}) for a in PLAYERS
        }
        self.action_spaces = {a: spaces.Discrete(n * k) for a in PLAYERS}
        self.state_space = spaces.Box(low=0, high=k, shape=(n + 1,), dtype=np.int64)
        self.np_random, _ = seeding.np_random(None)
        self.board_state = self.game.initial_state()
        self.agent_selection = PLAYERS[0]

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return {
            "observation": self.board_state[:-1].copy(),
            "action_mask": nim_mask(self.game, self.board_state, PLAYERS.index(agent)),
        }

    def state(self) -> np.ndarray:
        """The toolkit's state: chips left in each row, then the player to move."""
        return self.board_state.copy()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
            for i, agent in enumerate(PLAYERS):
                self.action_spaces[agent].seed(seed + i)
        self.board_state = self.game.initial_state()
        self.agents = list(PLAYERS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = PLAYERS[0]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        mask = nim_mask(self.game, self.board_state)
        if action is None or not 0 <= int(action) < len(mask) or not mask[int(action)]:
            raise ValueError(
                f"action {action} is not legal for {agent}; legal now: "
                f"{', '.join(map(str, np.flatnonzero(mask)))}"
            )
        self._cumulative_rewards[agent] = 0.0
        self.board_state = nim_play(self.game, self.board_state, *nim_move(self.game, int(action)))
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.game.outcome(self.board_state) is not None:
            winner = nim_winner(self.game, self.board_state)
            self.rewards[PLAYERS[winner]] = 1.0
            self.rewards[PLAYERS[1 - winner]] = -1.0
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = PLAYERS[int(self.board_state[-1])]
        self._accumulate_rewards()

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            return None
        if self.render_mode == "human":
            print(nim_ansi(self.game, self.board_state))
            return None
        if self.render_mode == "ansi":
            return nim_ansi(self.game, self.board_state)
        return nim_rgb(self.game, self.board_state)

    def close(self) -> None:
        pass


register_gymnasium()  # Gymnasium is loaded now: its ids cost nothing more
