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
from pettingzoo import AECEnv  # type: ignore[import-untyped]  # noqa: E402

from boardgames.envs.aec import RENDER_MODES, BoardAEC, wrap  # noqa: E402

__all__ = ["RENDER_MODES", "env", "raw_env"]


def env(**options: Any) -> AECEnv:
    """The Kalah AEC environment, wrapped as PettingZoo wraps its classic games."""
    raw = raw_env(**options)
    low, _ = kalah_reward_range(raw.game, raw.reward)
    return wrap(raw, illegal_reward=low)


class raw_env(BoardAEC):
    """Kalah for two learning agents; see the module docstring for the options."""

    metadata: ClassVar[dict[str, Any]] = {**BoardAEC.metadata, "name": "kalah_v0"}

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
        super().__init__(pits, seeds, rules, capture, reward, opening, render_mode)
        self.game = kalah_game(pits, seeds, rules, capture)
        self.reward = check_choice("reward", reward, REWARDS)
        self.opening = check_int("opening", opening, 0, MAX_OPENING)
        m, total = self.game.pits, self.game.total_stones
        board = spaces.Box(low=0, high=total, shape=(2 * m + 2,), dtype=np.int64)
        state = spaces.Box(low=0, high=total, shape=(2 * m + 3,), dtype=np.int64)
        self._setup(render_mode, board, m, state)

    def first_state(self) -> np.ndarray:
        return random_opening(self.game, self.np_random, self.opening)

    def view(self, player: int) -> np.ndarray:
        return kalah_view(self.game, self.board_state, player)

    def mask(self, player: int) -> np.ndarray:
        return kalah_mask(self.game, self.board_state, player)

    def apply(self, player: int, action: int) -> np.ndarray:
        legal = self.game.legal_moves(self.board_state)
        pit = kalah_pit(self.game, player, action)
        if pit not in legal:
            allowed = ", ".join(str(kalah_action(self.game, p)) for p in legal)
            raise ValueError(
                f"action {action} is not legal for {PLAYERS[player]}; legal now: {allowed}"
            )
        state, _ = self.game.play(self.board_state, pit)
        return np.asarray(state)

    def final_rewards(self) -> list[float]:
        return [
            reward_of(kalah_margin(self.game, self.board_state, i), self.reward)
            for i in range(len(PLAYERS))
        ]

    def ansi(self) -> str:
        return kalah_ansi(self.game, self.board_state)

    def rgb(self) -> np.ndarray:
        return kalah_rgb(self.game, self.board_state)


register_gymnasium()  # Gymnasium is loaded now: its ids cost nothing more
