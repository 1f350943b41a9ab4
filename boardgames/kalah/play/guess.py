"""MTD(f)'s first guess for the exact solver: the store lead a short search expects.

The exact solver (:mod:`boardgames.kalah.exact.solver`) finds the value by null-window
tests around a guess; the closer the guess, the fewer tests. Any guess gives the same exact
value, so the solver itself knows nothing of the engine: the layers above it (the solve
command, the review, the job-level solve) pass one of these. One class serves them all:

- :meth:`FirstGuess.within` searches for a time (the solve command's guess: 0.05 s up to
  30 stones in the pits, else 0.3 s);
- :meth:`FirstGuess.at_depth` searches to a fixed depth, so the guess, and with it the
  positions the solver visits, does not depend on the machine's speed (the review, and the
  job-level solve's ordering of children).

Both take the mean of the last two depths' values: they swing with the parity of the
depth (6 and 9 for 6 x 4, whose value is 8).
"""

from __future__ import annotations

import time

from boardgames.core.protocol import State, score_margin
from boardgames.kalah.exact.index import pit_stones
from boardgames.kalah.game import Kalah
from boardgames.kalah.play.engine import EngineAnswer, EngineConfig, KalahEngine

SMALL_STONES = 30
"""Up to this many stones in the pits the timed guess searches ``SMALL_SECONDS``."""
SMALL_SECONDS = 0.05
SECONDS = 0.3
"""The timed guess's search time with more stones in the pits."""


class FirstGuess:
    """First guesses of the final margin (store lead) for the side to move, by the engine's
    depth-limited search with the store evaluation and no proofs; callable (the timed
    guess), as :meth:`Solver.solve`'s ``guess`` takes it."""

    def __init__(self, game: Kalah) -> None:
        """``game``: the board and rules (its seeds and evaluation do not matter)."""
        self.game = game
        self._engines: dict[tuple[int | None, float | None], KalahEngine] = {}

    def engine(self, depth: int | None = None, seconds: float | None = None) -> KalahEngine:
        """The engine (store evaluation, no proofs) to ``depth`` or for ``seconds``, made
        once; each of its searches starts from an empty table."""
        key = (depth, seconds)
        if key not in self._engines:
            config = EngineConfig(depth=depth, time=seconds, evaluation="store", prove_nodes=0)
            self._engines[key] = KalahEngine(self.game, config)
        return self._engines[key]

    def _finished(self, state: State) -> int | None:
        """The store lead of the side to move if the game is over, else None."""
        if self.game.outcome(state) is None:
            return None
        m = self.game.pits
        own, opp = (m, 2 * m + 1) if int(state[2 * m + 2]) == 0 else (2 * m + 1, m)
        return int(state[own] - state[opp])

    def within(self, state: State, seconds: float | None = None) -> int:
        """The guess of a search of ``seconds`` (default by the stones in the pits)."""
        over = self._finished(state)
        if over is not None:
            return over
        if seconds is None:
            seconds = (
                SMALL_SECONDS if pit_stones(state, self.game.pits) <= SMALL_STONES else SECONDS
            )
        engine = self.engine(seconds=seconds)
        answers = [engine.search(state)]
        if answers[0].depth > 1:  # the depth below: its table is filled, so it is quick
            answers.append(engine.search(state, depth=answers[0].depth - 1))
        return _mean_margin(answers)

    def at_depth(self, state: State, depth: int, *, two_depths: bool = True) -> int:
        """The guess of searches to ``depth`` and (``two_depths``) ``depth - 1``
        compound moves; the same on every machine."""
        depths = {max(1, depth - 1), depth} if two_depths else {depth}
        return _mean_margin([self.engine(depth=d).search(state, d) for d in depths])

    __call__ = within

    def warm_up(self) -> float:
        """Load (or compile) the engine's kernels; the seconds it took."""
        t0 = time.perf_counter()
        self.engine(depth=1)
        return time.perf_counter() - t0


def _mean_margin(answers: list[EngineAnswer]) -> int:
    margins = []
    for a in answers:
        margin = score_margin(a.value)
        margins.append(a.value if margin is None else margin)
    return sum(margins) // len(margins)
