"""A take-away game for the environment tests: take 1 to ``most`` stones from a pile;
whoever takes the last one wins. State: stones left, player to move. The tests register it
as a plugin of their own (tests/envs/test_games.py, tests/envs/test_extras.py)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boardgames.core.protocol import GameError, State


@dataclass(frozen=True)
class TakeAway:
    """Take 1 to ``most`` stones from a pile; whoever takes the last one wins. State:
    stones left, player to move. No action ids."""

    stones: int = 7
    name: str = "plain"
    most: int = 3

    def initial_state(self) -> State:
        return np.array([self.stones, 0], dtype=np.int64)

    def to_move(self, state: State) -> int:
        return int(state[1])

    def legal_moves(self, state: State) -> list[int]:
        return list(range(1, min(self.most, int(state[0])) + 1))

    def play(self, state: State, move: int) -> tuple[State, bool]:
        if move not in self.legal_moves(state):
            raise GameError(f"illegal move {move}")
        return np.array([state[0] - move, 1 - state[1]], dtype=np.int64), False

    def outcome(self, state: State) -> int | None:
        return None if state[0] else -1

    def evaluate(self, state: State) -> int:
        return 0

    def format_move(self, move: int) -> str:
        return f"take {move}"

    def parse_move(self, text: str, state: State) -> int:
        return int(text)

    def render(self, state: State) -> str:
        return f"{int(state[0])} stones left"


@dataclass(frozen=True)
class CodedTakeAway(TakeAway):
    """The same with action ids: action ``i`` takes ``i + 1`` stones."""

    name: str = "takeaway"

    @property
    def num_actions(self) -> int:
        return self.most

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (1,)

    @property
    def observation_high(self) -> int:
        return self.stones

    def action_of(self, state: State, move: int) -> int:
        return move - 1

    def move_of(self, state: State, action: int) -> int | None:
        return action + 1 if action + 1 in self.legal_moves(state) else None

    def observation(self, state: State, player: int) -> State:
        return np.array(state[:1], dtype=np.int64)
