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
from pettingzoo import AECEnv  # type: ignore[import-untyped]  # noqa: E402

from boardgames.envs.aec import RENDER_MODES, BoardAEC, wrap  # noqa: E402

__all__ = ["RENDER_MODES", "env", "raw_env"]


def env(**options: Any) -> AECEnv:
    """The Nim AEC environment, wrapped as PettingZoo wraps its classic games."""
    return wrap(raw_env(**options), illegal_reward=-1)


class raw_env(BoardAEC):
    """Nim for two learning agents; see the module docstring for the options."""

    metadata: ClassVar[dict[str, Any]] = {**BoardAEC.metadata, "name": "nim_v0"}

    def __init__(
        self,
        rows: Sequence[int] | str = (3, 4, 5),
        misere: bool = False,
        render_mode: str | None = None,
    ) -> None:
        super().__init__(rows, misere, render_mode)
        self.game = nim_game(rows, misere)
        n, k = len(self.game.rows), nim_width(self.game)
        chips = spaces.Box(low=0, high=k, shape=(n,), dtype=np.int64)
        state = spaces.Box(low=0, high=k, shape=(n + 1,), dtype=np.int64)
        self._setup(render_mode, chips, n * k, state)

    def view(self, player: int) -> np.ndarray:
        return np.asarray(self.board_state[:-1]).copy()

    def mask(self, player: int) -> np.ndarray:
        return nim_mask(self.game, self.board_state, player)

    def apply(self, player: int, action: int) -> np.ndarray:
        mask = nim_mask(self.game, self.board_state)
        if not 0 <= action < len(mask) or not mask[action]:
            raise ValueError(
                f"action {action} is not legal for {PLAYERS[player]}; legal now: "
                f"{', '.join(map(str, np.flatnonzero(mask)))}"
            )
        return nim_play(self.game, self.board_state, *nim_move(self.game, action))

    def final_rewards(self) -> list[float]:
        winner = nim_winner(self.game, self.board_state)
        return [1.0 if player == winner else -1.0 for player in range(len(PLAYERS))]

    def ansi(self) -> str:
        return nim_ansi(self.game, self.board_state)

    def rgb(self) -> np.ndarray:
        return nim_rgb(self.game, self.board_state)


register_gymnasium()  # Gymnasium is loaded now: its ids cost nothing more
