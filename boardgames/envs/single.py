"""Gymnasium environments: one learner against a fixed opponent.

- :class:`KalahEnv` (``boardgames/Kalah-v0``): the learner against a Kalah program given
  as a ``kalah match`` player spec (``classic``, ``tseitin``, ``time=0.05``,
  ``strategy=mcts,playouts=200``, ...; the match's own parser reads it) or ``random``.
- :class:`NimEnv` (``boardgames/Nim-v0``): the learner against Bouton's strategy (the
  classic program: a winning move when there is one, else one chip from the fullest row)
  or ``random``.

One ``step`` is one move of the learner (a Kalah sowing: after an extra turn the learner
acts again); the opponent's reply (a whole compound move) is played inside the step.
The observation is the board from the learner's side (:mod:`boardgames.envs.boards`),
``info["action_mask"]`` the int8 mask of its legal actions. The reward is 0 until the
game ends, then the final margin for the learner (Kalah ``reward="margin"``) or +1/0/-1.
An illegal action ends the episode with the lowest reward and ``info["illegal"]``.
Importing this module registers the Gymnasium ids.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from boardgames.core.protocol import State
from boardgames.envs import register_gymnasium, require
from boardgames.envs.boards import (
    MAX_OPENING,
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
    nim_action,
    nim_ansi,
    nim_game,
    nim_mask,
    nim_move,
    nim_play,
    nim_rgb,
    nim_width,
    nim_winner,
    random_opening,
    reward_of,
)
from boardgames.kalah.play.engine import EngineConfig
from boardgames.kalah.play.match import parse_spec
from boardgames.kalah.play.program import program_compound
from boardgames.nim.rules import program_move

require("gymnasium")
import gymnasium  # noqa: E402
from gymnasium import spaces  # noqa: E402

RENDER_MODES = ("ansi", "rgb_array")
SIDES = ("first", "second", "random")
"""Which side the learner plays: first (Kalah's A), second (B), or drawn at each reset."""
RANDOM = "random"


def _side(learner: str, rng: np.random.Generator) -> int:
    if learner == "random":
        return int(rng.integers(2))
    return SIDES.index(learner)


class KalahEnv(gymnasium.Env):  # type: ignore[misc]
    """Kalah: the learner against a program (a match spec) or a random player.

    Options as :mod:`boardgames.envs.kalah_v0` (``pits``, ``seeds``, ``rules``,
    ``capture``, ``reward``, ``opening``, ``render_mode``), and ``opponent`` (a ``kalah
    match`` spec or ``random``; default ``classic``) and ``learner`` (``first``,
    ``second`` or ``random``).
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        pits: int = 6,
        seeds: int = 4,
        rules: str = "classic",
        capture: str = "opposite",
        reward: str = "margin",
        opponent: str = "classic",
        learner: str = "first",
        opening: int = 0,
        render_mode: str | None = None,
    ) -> None:
        self.game = kalah_game(pits, seeds, rules, capture)
        self.reward = check_choice("reward", reward, REWARDS)
        self.learner_option = check_choice("learner", learner, SIDES)
        self.opening = check_int("opening", opening, 0, MAX_OPENING)
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.render_mode = render_mode
        if not isinstance(opponent, str):
            raise ValueError(f"opponent must be a kalah match spec or 'random', got {opponent!r}")
        self.opponent = opponent
        self.config: EngineConfig | None = (
            None if opponent.strip().lower() == RANDOM else parse_spec(opponent)
        )
        m, total = self.game.pits, self.game.total_stones
        self.observation_space = spaces.Box(low=0, high=total, shape=(2 * m + 2,), dtype=np.int64)
        self.action_space = spaces.Discrete(m)
        self.reward_range = kalah_reward_range(self.game, self.reward)
        self.state: State = self.game.initial_state()
        self.side = 0
        self.after_learner: State = self.state
        """The position right after the learner's last sowing (before any reply)."""

    # --- the opponent ------------------------------------------------------------------
    def _reply(self) -> list[int]:
        """The opponent plays until the learner is to move or the game is over."""
        pits: list[int] = []
        while self.game.outcome(self.state) is None and self.game.to_move(self.state) != self.side:
            if self.config is None:
                legal = self.game.legal_moves(self.state)
                move: tuple[int, ...] = (int(legal[int(self.np_random.integers(len(legal)))]),)
            else:
                move, _ = program_compound(self.game, self.state, self.config)
            for pit in move:
                self.state, _ = self.game.play(self.state, pit)
                pits.append(pit)
        return pits

    def _obs(self) -> np.ndarray:
        return kalah_view(self.game, self.state, self.side)

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": kalah_mask(self.game, self.state, self.side), **extra}

    # --- the Gymnasium API -----------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        for _ in range(100):
            self.side = _side(self.learner_option, self.np_random)
            self.state = random_opening(self.game, self.np_random, self.opening)
            replies = self._reply()
            if self.game.outcome(self.state) is None:
                break
        else:
            raise ValueError("on this board the game ends before the learner moves")
        self.after_learner = self.state.copy()
        return self._obs(), self._info(opponent_moves=replies, side=self.side)

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        legal = self.game.legal_moves(self.state)
        pit = kalah_pit(self.game, self.side, int(action))
        if pit not in legal:
            low = self.reward_range[0]
            allowed = [kalah_action(self.game, p) for p in legal]
            return self._obs(), low, True, False, self._info(illegal=True, legal=allowed)
        self.state, again = self.game.play(self.state, pit)
        self.after_learner = self.state.copy()
        replies = [] if again else self._reply()
        if self.game.outcome(self.state) is None:
            return self._obs(), 0.0, False, False, self._info(opponent_moves=replies)
        margin = kalah_margin(self.game, self.state, self.side)
        info = self._info(opponent_moves=replies, margin=margin)
        return self._obs(), reward_of(margin, self.reward), True, False, info

    def render(self) -> str | np.ndarray | None:
        if self.render_mode == "ansi":
            return kalah_ansi(self.game, self.state)
        if self.render_mode == "rgb_array":
            return kalah_rgb(self.game, self.state)
        return None


OPPONENTS = ("bouton", "random")
STARTS = ("initial", "random")


class NimEnv(gymnasium.Env):  # type: ignore[misc]
    """Nim: the learner against Bouton's strategy or a random player.

    Options: ``rows`` (default ``(3, 4, 5)``), ``misere``, ``opponent`` (``bouton`` or
    ``random``), ``learner`` (``first``, ``second``, ``random``), ``start`` (``initial``:
    the starting rows; ``random``: every row drawn from 0 to its starting count, not all
    empty, the learner to move, so that a learner meets every position), ``render_mode``.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        rows: Sequence[int] | str = (3, 4, 5),
        misere: bool = False,
        opponent: str = "bouton",
        learner: str = "first",
        start: str = "initial",
        render_mode: str | None = None,
    ) -> None:
        self.game = nim_game(rows, misere)
        self.opponent = check_choice("opponent", opponent, OPPONENTS)
        self.learner_option = check_choice("learner", learner, SIDES)
        self.start = check_choice("start", start, STARTS)
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.render_mode = render_mode
        n, k = len(self.game.rows), nim_width(self.game)
        self.observation_space = spaces.Box(low=0, high=k, shape=(n,), dtype=np.int64)
        self.action_space = spaces.Discrete(n * k)
        self.reward_range = (-1.0, 1.0)
        self.state: State = self.game.initial_state()
        self.side = 0

    def _reply(self) -> list[int]:
        moves: list[int] = []
        while self.game.outcome(self.state) is None and self.game.to_move(self.state) != self.side:
            rows = self.game.rows_of(self.state)
            if self.opponent == "bouton":
                move, _ = program_move(rows, self.game.misere)
                row, take = move.row, move.take
            else:
                legal = np.flatnonzero(nim_mask(self.game, self.state))
                row, take = nim_move(
                    self.game, int(legal[int(self.np_random.integers(len(legal)))])
                )
            self.state = nim_play(self.game, self.state, row, take)
            moves.append(nim_action(self.game, row, take))
        return moves

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": nim_mask(self.game, self.state, self.side), **extra}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.side = _side(self.learner_option, self.np_random)
        if self.start == "random":
            rows = [0] * len(self.game.rows)
            while not any(rows):
                rows = [int(self.np_random.integers(r + 1)) for r in self.game.rows]
            self.state = self.game.state_from_rows(rows, self.side)
            replies: list[int] = []
        else:
            self.state = self.game.initial_state()
            replies = self._reply()
        return self.state[:-1].copy(), self._info(opponent_moves=replies, side=self.side)

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        mask = nim_mask(self.game, self.state)
        if not 0 <= int(action) < len(mask) or not mask[int(action)]:
            info = self._info(illegal=True)
            return self.state[:-1].copy(), -1.0, True, False, info
        self.state = nim_play(self.game, self.state, *nim_move(self.game, int(action)))
        replies = self._reply()
        obs = self.state[:-1].copy()
        if self.game.outcome(self.state) is None:
            return obs, 0.0, False, False, self._info(opponent_moves=replies)
        won = nim_winner(self.game, self.state) == self.side
        return obs, 1.0 if won else -1.0, True, False, self._info(opponent_moves=replies)

    def render(self) -> str | np.ndarray | None:
        if self.render_mode == "ansi":
            return nim_ansi(self.game, self.state)
        if self.render_mode == "rgb_array":
            return nim_rgb(self.game, self.state)
        return None


register_gymnasium()
