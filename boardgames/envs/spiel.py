"""OpenSpiel games: ``python_boardgames_kalah`` and ``python_boardgames_nim``, registered
with ``pyspiel.register_game`` when this module is imported, so that OpenSpiel's
algorithms (and ``pyspiel.load_game``) run on any board::

    import pyspiel
    import boardgames.envs.spiel  # registers the games
    game = pyspiel.load_game("python_boardgames_kalah(pits=4,seeds=3)")

Kalah parameters: ``pits`` (1-12), ``seeds`` (1-20), ``rules`` (``classic``/``etudes``),
``capture`` (``opposite``/``empty``), ``reward`` (``margin``: the returns are the final
margins; ``result``: +1/0/-1). One action is one sowing, numbered as in the PettingZoo and
Gymnasium environments (the mover's ``i``-th pit from its own left); after an extra turn
the same player moves again. Nim parameters: ``rows`` (chip counts separated by ``;``,
default ``3;4;5``) and ``misere``; action ``row * K + take - 1``.

The observation tensor is the board from the observer's side (float32), as the other
environments observe it. ``max_game_length`` is a proven bound, not a guess: every
sowing either adds a stone to a store (at most ``n`` times, ``n`` stones) or stays on the
mover's side and moves stones towards its store, lowering the stones' total distance to
their stores (at most ``n * pits``); so a game has at most ``n + (n + 1) * n * pits``
sowings.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardgames.envs import require
from boardgames.envs.boards import (
    PLAYERS,
    REWARDS,
    check_choice,
    kalah_action,
    kalah_ansi,
    kalah_game,
    kalah_margin,
    kalah_pit,
    kalah_reward_range,
    kalah_view,
    nim_ansi,
    nim_game,
    nim_move,
    nim_play,
    nim_width,
    nim_winner,
)

require("pyspiel", "pip install open_spiel")
import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]  # noqa: E402

KALAH = "python_boardgames_kalah"
NIM = "python_boardgames_nim"
KALAH_DEFAULTS: dict[str, Any] = {
    "pits": 6,
    "seeds": 4,
    "rules": "classic",
    "capture": "opposite",
    "reward": "margin",
}
NIM_DEFAULTS: dict[str, Any] = {"rows": "3;4;5", "misere": False}


def _game_type(short: str, long: str, params: dict[str, Any]) -> Any:
    return pyspiel.GameType(
        short_name=short,
        long_name=long,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


KALAH_TYPE = _game_type(KALAH, "Kalah (boardgames)", KALAH_DEFAULTS)
NIM_TYPE = _game_type(NIM, "Nim (boardgames)", NIM_DEFAULTS)


def max_sowings(stones: int, pits: int) -> int:
    """The proven bound on a Kalah game's sowings (module docstring)."""
    return stones + (stones + 1) * stones * pits


class KalahGame(pyspiel.Game):  # type: ignore[misc]
    """Kalah for OpenSpiel; parameters as :data:`KALAH_DEFAULTS`."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**KALAH_DEFAULTS, **(params or {})}
        self.kalah = kalah_game(p["pits"], p["seeds"], p["rules"], p["capture"])
        self.reward = check_choice("reward", p["reward"], REWARDS)
        low, high = kalah_reward_range(self.kalah, self.reward)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.kalah.pits,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=max_sowings(self.kalah.total_stones, self.kalah.pits),
        )
        super().__init__(KALAH_TYPE, info, p)

    def new_initial_state(self) -> KalahState:
        return KalahState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        return KalahObserver(self.kalah, params)


class KalahState(pyspiel.State):  # type: ignore[misc]
    """A Kalah position; ``board`` is the toolkit's state array (RULES.md numbering, then
    the side to move)."""

    def __init__(self, game: KalahGame) -> None:
        super().__init__(game)
        self.kalah = game.kalah
        self.reward = game.reward
        self.board = self.kalah.initial_state()

    def current_player(self) -> int:
        if self.kalah.outcome(self.board) is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.kalah.to_move(self.board)

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(kalah_action(self.kalah, p) for p in self.kalah.legal_moves(self.board))

    def _apply_action(self, action: int) -> None:
        pit = kalah_pit(self.kalah, self.kalah.to_move(self.board), action)
        self.board, _ = self.kalah.play(self.board, pit)

    def _action_to_string(self, player: int, action: int) -> str:
        return f"{PLAYERS[player]} sows pit {kalah_pit(self.kalah, player, action)}"

    def is_terminal(self) -> bool:
        return self.kalah.outcome(self.board) is not None

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        margin = kalah_margin(self.kalah, self.board, 0)
        r = float(margin) if self.reward == "margin" else float(np.sign(margin))
        return [r, -r]

    def __str__(self) -> str:
        return kalah_ansi(self.kalah, self.board)


class KalahObserver:
    """OpenSpiel's PyObserver for Kalah: the holes from the observer's side."""

    def __init__(self, kalah: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.kalah = kalah
        self.tensor = np.zeros(kalah.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: KalahState, player: int) -> None:
        self.tensor[:] = kalah_view(self.kalah, state.board, player)

    def string_from(self, state: KalahState, player: int) -> str:
        return (
            f"{PLAYERS[player]}: {' '.join(map(str, kalah_view(self.kalah, state.board, player)))}"
        )


class NimGame(pyspiel.Game):  # type: ignore[misc]
    """Nim for OpenSpiel; parameters as :data:`NIM_DEFAULTS`."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**NIM_DEFAULTS, **(params or {})}
        self.nim = nim_game(str(p["rows"]), p["misere"])
        n, k = len(self.nim.rows), nim_width(self.nim)
        info = pyspiel.GameInfo(
            num_distinct_actions=n * k,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=sum(self.nim.rows),
        )
        super().__init__(NIM_TYPE, info, p)

    def new_initial_state(self) -> NimState:
        return NimState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        return NimObserver(self.nim, params)


class NimState(pyspiel.State):  # type: ignore[misc]
    """A Nim position; ``board`` is the toolkit's state (rows, then the player to move)."""

    def __init__(self, game: NimGame) -> None:
        super().__init__(game)
        self.nim = game.nim
        self.board = self.nim.initial_state()

    def current_player(self) -> int:
        if self.nim.outcome(self.board) is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.nim.to_move(self.board)

    def _legal_actions(self, player: int) -> list[int]:
        k = nim_width(self.nim)
        return [r * k + t for r, left in enumerate(self.board[:-1]) for t in range(int(left))]

    def _apply_action(self, action: int) -> None:
        self.board = nim_play(self.nim, self.board, *nim_move(self.nim, action))

    def _action_to_string(self, player: int, action: int) -> str:
        row, take = nim_move(self.nim, action)
        return f"take {take} from row {row + 1}"

    def is_terminal(self) -> bool:
        return self.nim.outcome(self.board) is not None

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        return [1.0, -1.0] if nim_winner(self.nim, self.board) == 0 else [-1.0, 1.0]

    def __str__(self) -> str:
        return nim_ansi(self.nim, self.board)


class NimObserver:
    """OpenSpiel's PyObserver for Nim: the chips left in each row."""

    def __init__(self, nim: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.tensor = np.zeros(len(nim.rows), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: NimState, player: int) -> None:
        self.tensor[:] = state.board[:-1]

    def string_from(self, state: NimState, player: int) -> str:
        return " ".join(map(str, state.board[:-1]))


pyspiel.register_game(KALAH_TYPE, KalahGame)
pyspiel.register_game(NIM_TYPE, NimGame)
