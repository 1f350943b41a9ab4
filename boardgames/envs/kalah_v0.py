"""Kalah as a PettingZoo AEC environment, laid out as PettingZoo's classic games.

``env(**options)`` is :class:`raw_env` wrapped as PettingZoo wraps its classic games (an
illegal move ends the game with the lowest reward for the mover, out-of-range actions
are refused, the AEC call order is enforced). Options:

- ``pits`` (1-12, default 6), ``seeds`` (1-20 stones a pit, default 4), ``rules``
  (``classic`` or ``etudes``), ``capture`` (classic: ``opposite`` as in RULES.md 1.3, or
  ``empty``: a last stone in an own empty pit is always captured);
- ``reward``: ``margin`` (the final margin in stones, default) or ``result`` (+1/0/-1);
- ``opening``: random sowings played at reset, drawn from the reset's seed (default 0);
- ``render_mode``: ``ansi`` (a string), ``rgb_array`` (an H x W x 3 uint8 array) or
  ``human`` (the text printed).

Agents ``player_0`` (A, moves first) and ``player_1`` (B). One action is one sowing
(:mod:`boardgames.envs.boards`: action ``i`` sows the agent's ``i``-th pit from its own
left); after an extra turn the same agent acts again. ``observe(agent)`` gives
``{"observation": the holes from the agent's side, "action_mask": int8}``. Rewards come at
the end of the game only, zero-sum. ``state()`` is the toolkit's own state array.

Kalah is turn-based with extra turns, so there is no ``parallel_env`` (nor in PettingZoo's
own classic games): a parallel step would need every agent to act at once.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from boardgames.envs import register_gymnasium, require
from boardgames.envs.boards import (
    MAX_OPENING,
    PLAYERS,
    REWARDS,
    check_choice,
    check_int,
    kalah_action,
    kalah_ansi,
    kalah_game,
    kalah_margin,
    kalah_mask,
    kalah_pit,
    kalah_reward_range,
    kalah_rgb,
    kalah_view,
    random_opening,
    reward_of,
)

require("pettingzoo")

from gymnasium import spaces  # noqa: E402
from gymnasium.utils import EzPickle, seeding  # noqa: E402
from pettingzoo import AECEnv  # type: ignore[import-untyped]  # noqa: E402
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]  # noqa: E402

RENDER_MODES = ("ansi", "rgb_array", "human")
"""``human`` prints the ``ansi`` text to stdout and returns None."""


def env(**options: Any) -> AECEnv:
    """The Kalah AEC environment, wrapped as PettingZoo wraps its classic games."""
    raw = raw_env(**options)
    low, _ = kalah_reward_range(raw.game, raw.reward)
    wrapped: AECEnv = wrappers.TerminateIllegalWrapper(raw, illegal_reward=low)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv, EzPickle):
    """Kalah for two learning agents; see the module docstring for the options."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "kalah_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        pits: int = 6,
        seeds: int = 4,
        rules: str = "classic",
        capture: str = "opposite",
        reward: str = "margin",
        opening: int = 0,
        render_mode: str | None = None,
    ) -> None:
        EzPickle.__init__(self, pits, seeds, rules, capture, reward, opening, render_mode)
        super().__init__()
        self.game = kalah_game(pits, seeds, rules, capture)
        self.reward = check_choice("reward", reward, REWARDS)
        self.opening = check_int("opening", opening, 0, MAX_OPENING)
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.render_mode = render_mode
        m, total = self.game.pits, self.game.total_stones
        self.possible_agents = list(PLAYERS)
        self.agents = list(PLAYERS)
        board = spaces.Box(low=0, high=total, shape=(2 * m + 2,), dtype=np.int64)
        mask = spaces.Box(low=0, high=1, shape=(m,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": board, "action_mask": mask}) for a in PLAYERS
        }
        self.action_spaces = {a: spaces.Discrete(m) for a in PLAYERS}
        self.state_space = spaces.Box(low=0, high=total, shape=(2 * m + 3,), dtype=np.int64)
        self.np_random, _ = seeding.np_random(None)
        self.board_state = self.game.initial_state()
        self.agent_selection = PLAYERS[0]

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = PLAYERS.index(agent)
        return {
            "observation": kalah_view(self.game, self.board_state, player),
            "action_mask": kalah_mask(self.game, self.board_state, player),
        }

    def state(self) -> np.ndarray:
        """The toolkit's state: the holes in RULES.md numbering, then the side to move."""
        return self.board_state.copy()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:  # else the generator goes on: each game a new opening
            self.np_random, _ = seeding.np_random(seed)
            for i, agent in enumerate(PLAYERS):
                self.action_spaces[agent].seed(seed + i)
        self.board_state = random_opening(self.game, self.np_random, self.opening)
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
        player = PLAYERS.index(agent)
        legal = self.game.legal_moves(self.board_state)
        pit = kalah_pit(self.game, player, int(action)) if action is not None else -1
        if pit not in legal:
            allowed = ", ".join(str(kalah_action(self.game, p)) for p in legal)
            raise ValueError(f"action {action} is not legal for {agent}; legal now: {allowed}")
        self._cumulative_rewards[agent] = 0.0
        self.board_state, _ = self.game.play(self.board_state, pit)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.game.outcome(self.board_state) is not None:
            for i, a in enumerate(PLAYERS):
                margin = kalah_margin(self.game, self.board_state, i)
                self.rewards[a] = reward_of(margin, self.reward)
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = PLAYERS[self.game.to_move(self.board_state)]
        self._accumulate_rewards()

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            return None
        if self.render_mode == "human":
            print(kalah_ansi(self.game, self.board_state))
            return None
        if self.render_mode == "ansi":
            return kalah_ansi(self.game, self.board_state)
        return kalah_rgb(self.game, self.board_state)

    def close(self) -> None:
        pass


register_gymnasium()  # Gymnasium is loaded now: its ids cost nothing more
