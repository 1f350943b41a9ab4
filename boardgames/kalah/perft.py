"""Perft: the number of move sequences of a given length, the standard check of a move
generator (pure Python), and a probe that predicts how long a deeper count takes."""

from __future__ import annotations

import time
from dataclasses import dataclass

from boardgames.core.protocol import State
from boardgames.kalah.game import Kalah


def perft(game: Kalah, state: State, depth: int, compound: bool = False) -> int:
    """Move sequences of exactly ``depth`` single sowings (or compound moves) from ``state``.

    A finished game has no moves, so a line that ends early counts nothing.
    """
    if depth == 0:
        return 1
    if compound:
        return sum(perft(game, child, depth - 1, True) for _, child in game.compound_moves(state))
    return sum(perft(game, game.play(state, mv)[0], depth - 1) for mv in game.legal_moves(state))


PERFT_PROBE_SECONDS = 0.05
"""The first plies are counted exactly until one takes this long; the estimate of a
deeper count follows from their last branching factor and speed."""
PERFT_SPLIT = 100
"""A deep count is split into the subtrees of the first ply with at least this many
positions (progress is measured in finished subtrees)."""


def perft_children(game: Kalah, state: State, compound: bool) -> list[State]:
    if compound:
        return [child for _, child in game.compound_moves(state)]
    return [game.play(state, mv)[0] for mv in game.legal_moves(state)]


@dataclass
class PerftProbe:
    """Exact counts of the first plies and what they predict for ``depth``."""

    counts: list[int]  # counts[d]: sequences of d moves, d = 0..len - 1
    seconds: float  # the time the last of them took
    depth: int

    @property
    def branching(self) -> float:
        """The last ply's growth factor (sequences of d moves per sequence of d - 1)."""
        k = len(self.counts) - 1
        return self.counts[k] / self.counts[k - 1] if k >= 1 and self.counts[k - 1] else 0.0

    @property
    def sequences(self) -> float:
        """Estimated sequences of ``depth`` moves."""
        k = len(self.counts) - 1
        return self.counts[k] * self.branching ** (self.depth - k)

    @property
    def estimate(self) -> float:
        """Estimated seconds for the full count, at the speed of the last probe."""
        k = len(self.counts) - 1
        rate = self.counts[k] / max(self.seconds, 1e-6)
        return self.sequences / max(rate, 1e-9)


def perft_probe(game: Kalah, state: State, depth: int, compound: bool = False) -> PerftProbe:
    """Count plies 1, 2, ... exactly until one takes :data:`PERFT_PROBE_SECONDS` (or
    ``depth`` is reached, then the last count is the answer)."""
    counts = [1]
    seconds = 0.0
    for d in range(1, depth + 1):
        t = time.perf_counter()
        counts.append(perft(game, state, d, compound))
        seconds = time.perf_counter() - t
        if seconds >= PERFT_PROBE_SECONDS or counts[-1] == 0:
            break
    return PerftProbe(counts, seconds, depth)
