"""A game on an explicit graph, for searches whose every node count, value and line a
test works out by hand: the table search (tests/core/test_search.py) and the selective
search (tests/core/test_selective.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True, eq=False)
class DagGame:
    """A game on an explicit directed acyclic graph: state = [node, player to move].

    ``kids[node]`` lists ``(child, again)`` in move order (a move is the child's number;
    ``again``: the same player moves again). ``final[node]`` is the final margin for the
    player to move there; ``value[node]`` the heuristic value for the player to move.
    Two paths to the same node with the same player to move are a transposition.
    """

    kids: dict[int, tuple[tuple[int, bool], ...]]
    value: dict[int, int] = field(default_factory=dict)
    final: dict[int, int] = field(default_factory=dict)
    name: str = "dag"

    def initial_state(self) -> np.ndarray:
        return np.array([0, 0], dtype=np.int64)

    def to_move(self, state: np.ndarray) -> int:
        return int(state[1])

    def outcome(self, state: np.ndarray) -> int | None:
        return self.final.get(int(state[0]))

    def legal_moves(self, state: np.ndarray) -> list[int]:
        if self.outcome(state) is not None:
            return []
        return [child for child, _ in self.kids.get(int(state[0]), ())]

    def play(self, state: np.ndarray, move: int) -> tuple[np.ndarray, bool]:
        again = dict(self.kids[int(state[0])])[move]
        player = int(state[1]) if again else 1 - int(state[1])
        return np.array([move, player], dtype=np.int64), again

    def evaluate(self, state: np.ndarray) -> int:
        return self.value.get(int(state[0]), 0)

    def format_move(self, move: int) -> str:
        return str(move)

    def parse_move(self, text: str, state: np.ndarray) -> int:
        return int(text)

    def render(self, state: np.ndarray) -> str:
        return str(state)
