"""Kalah's capabilities for the generic layers: its players, its exact solver and its
commentary (the plugin's ``players``, ``solver`` and ``commentary`` paths).

- :data:`PLAYERS`: the strong program (:class:`KalahProgram`: the numba engine of
  :mod:`boardgames.kalah.play.engine` with compound moves, Tseitin's evaluation, the endgame
  tables and proofs by the exact solver) under the generic levels ``strong`` and
  ``perfect``, the named programs of the article this toolkit descends from
  (:data:`~boardgames.kalah.play.engine.PRESETS`: ``classic``, ``tseitin``,
  ``rechenberg``), and every ``kalah match`` spec (``depth=5,eval=store``);
- :func:`solve`: the exact value of a position: the endgame tables where they hold it,
  else the exact solver within the time it is given;
- :data:`COMMENTARY`: "moves again" after a last stone in the own store, and the moment a
  store holds more than half of the stones (RULES.md 1.5).

On a machine where the kernels are not compiled yet, nothing here compiles in the
foreground: the program plays the pure-Python reference search and the solver declines,
while ``cache warm kalah`` compiles in the background.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from boardgames.core.engine import Answer
from boardgames.core.protocol import GameError, SearchResult, State, terminal_score
from boardgames.core.search import SearchStopped
from boardgames.kalah.game import PLAYER_NAMES, Kalah, score_text

if TYPE_CHECKING:
    from boardgames.kalah.exact.solver import Solver
    from boardgames.kalah.play.engine import EngineConfig

Stop = Callable[[], bool] | None

STRONG_SECONDS = 1.0
PERFECT_SECONDS = 10.0
"""The time a move of the ``strong`` and ``perfect`` levels (as the generic levels)."""


@dataclass(frozen=True)
class KalahProgram:
    """Kalah's own program under ``config``: its whole compound move a turn.

    The compiled engine once its kernels are ready on this machine
    (:func:`boardgames.kalah.play.program.program_compound`: the endgame tables first,
    then MTD(f) with proofs), else the pure-Python reference search within the same time.
    ``stop`` ends a timed search early (the deepest finished depth is played)."""

    config: EngineConfig
    name: str = "program"
    description: str = "Kalah's program"

    def choose(self, game: Any, state: State, *, stop: Stop = None) -> Answer:
        from boardgames.core.engine import Cancelled
        from boardgames.kalah.play.program import (
            ENDGAME_STRATEGY,
            engine_for,
            program_compound,
            reference_within,
            value_text,
        )

        t0 = time.perf_counter()
        from boardgames.kalah.play.warm import kernels_ready

        if kernels_ready(game, self.config):
            engine = engine_for(game, self.config)
            pits, r = _stoppable(engine, stop, lambda: program_compound(game, state, self.config))
            engine_name = "numba"
            if r.strategy == ENDGAME_STRATEGY:
                note = "exact: endgame tables"
            elif r.exact:
                note = "exact: solved"
            else:
                note = f"{self.config.describe()}, depth {r.depth}, {r.nodes:,} positions"
        else:
            if stop is not None and stop():
                raise Cancelled("stopped before the search started")
            pits, r = reference_within(game, state, self.config)
            engine_name = "python"
            note = f"reference search at depth {r.depth} while the fast engine loads"
        if not pits:
            raise GameError("the game is over: there is no move to find")
        return Answer(
            pits[0], r.value, r.exact, r.depth, r.nodes, time.perf_counter() - t0,
            engine_name, list(r.pv) or list(pits), turn=tuple(pits), note=note,
            words=value_text(r.value, self.config.evaluation, r.exact),
        )  # fmt: skip


@dataclass(frozen=True)
class KalahPerfect:
    """Perfect play wherever it can be had in the time: the endgame tables, then the exact
    solver for a share of the time (:func:`solve`); where neither settles the position,
    Kalah's program (tables and proofs included) for the rest of the time."""

    seconds: float
    name: str = "perfect"
    description: str = "Kalah's exact solver first, then its program"
    solver_share: float = 0.3

    def choose(self, game: Any, state: State, *, stop: Stop = None) -> Answer:
        from boardgames.core.engine import Cancelled

        t0 = time.perf_counter()
        asked = stop or (lambda: False)
        end = t0 + self.seconds * self.solver_share
        try:
            r = solve(game, state, stop=lambda: asked() or time.perf_counter() > end)
        except SearchStopped:
            if asked():
                raise Cancelled("stopped before a move was found") from None
        else:
            turn = tuple(r.pv) or ((r.best_move,) if r.best_move is not None else ())
            how = "endgame tables" if r.strategy != "solver" else "solved"
            return Answer(
                turn[0], r.value, True, None, r.nodes, time.perf_counter() - t0, "solver",
                list(turn), turn=turn, note=f"exact: {how}",
            )  # fmt: skip
        rest = _config(time=round(self.seconds * (1 - self.solver_share), 3))
        answer = KalahProgram(rest, self.name).choose(game, state, stop=stop)
        answer.seconds = time.perf_counter() - t0
        return answer


def _stoppable(engine: Any, stop: Stop, work: Callable[[], Any]) -> Any:
    """``work()`` (a move of ``engine``) with ``stop`` watched: when it fires, the search is
    aborted within 20 ms and :class:`~boardgames.core.engine.Cancelled` raised."""
    from boardgames.core.engine import Cancelled, aborting

    if stop is None:
        return work()
    ws = getattr(getattr(engine, "searcher", None), "ws", None)
    engine.stop = stop  # Monte Carlo tree search asks it before every batch
    try:
        result = work() if ws is None else aborting(ws, stop, work)
    except SearchStopped:
        raise Cancelled("stopped before a move was found") from None
    finally:
        engine.stop = None
    if stop():
        raise Cancelled("stopped before the search finished")
    return result


def _config(**values: Any) -> EngineConfig:
    from boardgames.kalah.play.engine import EngineConfig

    return EngineConfig(**values)


class KalahPlayers:
    """Kalah's players (:class:`boardgames.core.players.GamePlayers`)."""

    def named(self, game: Any) -> dict[str, Any]:
        from boardgames.kalah.play.engine import PRESETS
        from boardgames.kalah.play.match import describe_spec, parse_spec

        found: dict[str, Any] = {
            "strong": KalahProgram(
                _config(time=STRONG_SECONDS), "strong",
                f"Kalah's program, {STRONG_SECONDS:g} s a move (tables and proofs when exact)",
            ),
            "perfect": KalahPerfect(
                PERFECT_SECONDS,
                description=f"up to {PERFECT_SECONDS:g} s a move: the endgame tables and the "
                "exact solver first (perfect wherever they settle the position), then "
                "Kalah's program",
            ),
            "program": KalahProgram(_config(), "program", "Kalah's program, its default time"),
        }  # fmt: skip
        for name, (_spec, what) in PRESETS.items():
            found[name] = KalahProgram(parse_spec(name), name, f"{describe_spec(name)}: {what}")
        return found

    def parse(self, game: Any, text: str) -> Any:
        from boardgames.kalah.play.match import describe_spec, parse_spec

        if "=" not in text and "," not in text:
            return None
        config = parse_spec(text)
        return KalahProgram(config, text, f"Kalah's program ({describe_spec(text)})")


PLAYERS = KalahPlayers()


# --- the exact solver ------------------------------------------------------------------

_SOLVERS: dict[tuple[int, str, bool], Solver] = {}
_SOLVER_LOCK = threading.Lock()
"""Held while one of :data:`_SOLVERS` searches."""


def _solver_ready() -> bool:
    from boardgames.core import warmup
    from boardgames.kalah.play.warm import SOLVER_STEP

    if warmup.step_ready("kalah", SOLVER_STEP):
        return True
    # no background compile will come (switched off, no cache folder): compile here
    return not warmup.warm_in_background("kalah")


def solve(game: Any, state: State, *, weak: bool = False, stop: Stop = None) -> SearchResult:
    """The exact value of ``state`` (the final margin for the mover under perfect play, as
    a proven score) and a best compound move: from the endgame tables where they hold the
    position, else from the exact solver until ``stop`` says to stop
    (:class:`~boardgames.core.search.SearchStopped`). ``weak`` is accepted for the
    protocol: the value is always the margin."""
    from boardgames.kalah.play.program import endgame_compound
    from boardgames.kalah.play.warm import program_ready

    if game.outcome(state) is not None:
        raise GameError("the game is over: there is nothing to solve")
    if not _solver_ready():
        raise SearchStopped("the exact solver is being compiled in the background")
    if program_ready(game.rules):
        exact = endgame_compound(game, state)
        if exact is not None:
            return exact[1]
    from boardgames.core.progress import run_in_thread
    from boardgames.kalah.exact.solver import SearchStopped as SolverStopped
    from boardgames.kalah.exact.solver import Solver

    # One search at a time on this process's solvers: their buffers and table are shared
    # (two threads in one Solver crash). Busy: decline at once, the caller searches.
    if not _SOLVER_LOCK.acquire(blocking=False):
        raise SearchStopped("the exact solver is busy with another position")
    try:
        key = (game.pits, game.rules, game.empty_capture)
        if key not in _SOLVERS:
            _SOLVERS[key] = Solver(
                game.pits, game.rules, hash_mb=64, empty_capture=game.empty_capture
            )
        solver = _SOLVERS[key]
        asked = stop or (lambda: False)

        def tick() -> None:
            if asked():
                raise SearchStopped("stopped")

        try:
            result = run_in_thread(
                lambda: solver.solve(state), stop=solver.interrupt, tick=tick, every=0.02
            )
        except SolverStopped:
            raise SearchStopped("stopped") from None
    finally:
        _SOLVER_LOCK.release()
    pits = list(result.best)
    score = terminal_score(result.value, 0)
    return SearchResult(
        score, pits[0] if pits else None, pits, result.nodes, 0, "solver", exact=True
    )


# --- commentary ------------------------------------------------------------------------


def _half_holder(game: Kalah, state: State) -> tuple[int, int, int] | None:
    """(player, store, total) when a store holds more than half of all stones."""
    b = game.board(state)
    m, total = game.pits, sum(b)
    for player, store in ((0, b[m]), (1, b[2 * m + 1])):
        if 2 * store > total:
            return player, int(store), int(total)
    return None


class KalahCommentary:
    """Kalah's words about a sowing (:class:`boardgames.core.commentary.Commentary`)."""

    def after(self, game: Any, before: State, move: int, after: State) -> str | None:
        words = []
        mover = game.to_move(before)
        over = game.outcome(after) is not None
        if not over and game.to_move(after) == mover:
            words.append(f"Last stone in the store: {PLAYER_NAMES[mover]} moves again.")
        holder = None if over else _half_holder(game, after)
        if holder is not None and _half_holder(game, before) is None:
            player, store, total = holder
            words.append(
                f"{PLAYER_NAMES[player]} has more than half of the stones ({store} of "
                f"{total}) and can no longer lose; playing on for the score."
            )
        return " ".join(words) or None

    def why(self, game: Any, state: State, move: int) -> str | None:
        return None

    def final(self, game: Any, state: State) -> str | None:
        """``Final score: A 40, B 32: A wins by 8.``"""
        if game.final_stores(state) is None:
            return None
        scores, result = score_text(game, state)
        return f"Final score: {scores}: {result}."


COMMENTARY = KalahCommentary()
