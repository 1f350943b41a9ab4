"""Matches between two players (:mod:`boardgames.core.players`) on any two-player game.

Games come in pairs from the same opening (a few random moves, seeded) with the sides
swapped, so that neither player profits from a lucky opening or from moving first. The
result is counted from player ``a``'s side: wins, draws, losses and the margins.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from boardgames.core.protocol import State

Stop = Callable[[], bool] | None


def score_interval(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% for ``z`` = 1.96) of a match score ``score`` (win 1,
    draw 1/2, loss 0, averaged) over ``games`` games. Unlike the normal interval it stays
    sensible at 0 and 1: two games lost give 0.000-0.658, not 0.000-0.000. (Draws count
    as half a win, so the variance is taken at most: the interval errs wide.)"""
    if games <= 0:
        return 0.0, 1.0
    z2 = z * z
    centre = (score + z2 / (2 * games)) / (1 + z2 / games)
    half = z / (1 + z2 / games) * math.sqrt(score * (1 - score) / games + z2 / (4 * games**2))
    return max(0.0, centre - half), min(1.0, centre + half)


def play_out(
    game: Any, start: State, sides: tuple[Any, Any], *, stop: Stop = None
) -> tuple[State, list[int], list[float]]:
    """Play from ``start`` to the end with ``sides[p]`` choosing for player ``p``: the final
    position, the moves and each side's seconds in all."""
    state, moves, seconds = start, [], [0.0, 0.0]
    while game.outcome(state) is None:
        player = game.to_move(state)
        t0 = time.perf_counter()
        answer = sides[player].choose(game, state, stop=stop)
        seconds[player] += time.perf_counter() - t0
        for move in answer.moves():
            if game.outcome(state) is not None or game.to_move(state) != player:
                break
            state, _ = game.play(state, move)
            moves.append(move)
    return state, moves, seconds


def openings(game: Any, plies: int, count: int, seed: int = 0) -> list[list[int]]:
    """``count`` different openings of ``plies`` random moves each (fewer if the game has
    fewer), none of which ends the game; the same seed gives the same openings."""
    rng = random.Random(seed)
    found: list[list[int]] = []
    seen: set[tuple[int, ...]] = set()
    for _ in range(count * 50):
        if len(found) == count:
            break
        state, line = game.initial_state(), []
        for _ in range(plies):
            legal = game.legal_moves(state)
            child_moves = [m for m in legal if game.outcome(game.play(state, m)[0]) is None]
            if not child_moves:
                break
            move = rng.choice(child_moves)
            line.append(move)
            state, _ = game.play(state, move)
        if tuple(line) not in seen:
            seen.add(tuple(line))
            found.append(line)
    return found


@dataclass
class MatchResult:
    """A match's games from player ``a``'s side."""

    a: str
    b: str
    games: list[dict[str, Any]] = field(default_factory=list)

    @property
    def wins(self) -> int:
        return sum(g["margin"] > 0 for g in self.games)

    @property
    def draws(self) -> int:
        return sum(g["margin"] == 0 for g in self.games)

    @property
    def losses(self) -> int:
        return sum(g["margin"] < 0 for g in self.games)

    @property
    def margin(self) -> int:
        """The margins added up (``a``'s side)."""
        return sum(int(g["margin"]) for g in self.games)

    def as_json(self) -> dict[str, Any]:
        return {
            "a": self.a, "b": self.b, "wins": self.wins, "draws": self.draws,
            "losses": self.losses, "margin": self.margin, "games": self.games,
        }  # fmt: skip


def margin_for(game: Any, state: State, player: int) -> int:
    """The final margin of a finished game for ``player``."""
    result = int(game.outcome(state))
    return result if game.to_move(state) == player else -result


def match(
    game: Any,
    a: Any,
    b: Any,
    lines: list[list[int]],
    *,
    stop: Stop = None,
    done: Callable[[int, int], None] | None = None,
) -> MatchResult:
    """Two games from each opening of ``lines``, ``a`` first in one and second in the
    other; ``done(games played, games in all)`` after each game."""
    result = MatchResult(a.name, b.name)
    total = 2 * len(lines)
    for line in lines:
        start = game.initial_state()
        for move in line:
            start, _ = game.play(start, move)
        for a_plays in (0, 1):
            sides = (a, b) if a_plays == 0 else (b, a)
            final, moves, seconds = play_out(game, start, sides, stop=stop)
            result.games.append(
                {
                    "opening": [game.format_move(m) for m in line],
                    "a_plays": a_plays,
                    "margin": margin_for(game, final, a_plays),
                    "moves": len(moves),
                    "a_seconds": round(seconds[a_plays], 3),
                    "b_seconds": round(seconds[1 - a_plays], 3),
                }
            )
            if done is not None:
                done(len(result.games), total)
    return result
