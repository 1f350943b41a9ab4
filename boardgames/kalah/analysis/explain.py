"""Which program settings would have played a recorded game (``kalah explain`` runs it).

A *setting* is a program spec as ``kalah match`` takes it (``depth=6,eval=store,
strategy=alphabeta``, or a preset such as ``classic``). For every move of a record the
setting is asked for its move in the position before that move (the same side to move),
and the answer is one of:

* ``same``: it chooses exactly the recorded compound move;
* ``tie``: it chooses another move, but at its depth the recorded move is worth as much
  (every sowing of it keeps the value of the position where it was sown), so a program
  that breaks ties differently would have played it;
* ``other``: it chooses another move and the recorded one is worth less at its depth;
* ``differs``: it chooses another move and the setting has no depth-limited value to
  compare the two (a time limit, a node budget, Monte Carlo search).

The value of a sowing is the value of the position it leads to at the depth the program
had left there, exactly as :meth:`~boardgames.kalah.play.engine.KalahEngine.best_move` counts
it: with ``unit=compound`` every sowing of a turn has the whole depth and the turn passing
costs one; with ``unit=sowing`` every sowing costs one and a turn that outlasts the depth
is searched again from where the line stops, at least one deep. The values are those of
plain F2 alpha-beta (``alphabeta``), which every depth-limited strategy shares
(``boardgames compare`` checks it); only the choice among equal moves differs between
strategies (``alphabeta`` and ``minimax`` keep the first in pit order).

:func:`sweep` tries a grid of settings (strategies x depths x evaluations x depth units)
and ranks them by the moves they reproduce and by how far each gets before its first
move that is not the recorded one.

``ends="unswept"`` plays the model of :mod:`boardgames.kalah.analysis.unswept` (one
reading of the classic program's search: a finished game scored before the stones left
in the pits go to their owner, RULES.md 1.4) instead of the engine.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from boardgames.core.protocol import (
    HEURISTIC_LIMIT,
    GameError,
    State,
    describe_score,
    terminal_score,
)
from boardgames.core.strategies import EXACT_STRATEGIES
from boardgames.kalah.analysis.unswept import UnsweptKalah, model_search
from boardgames.kalah.eval import EVALUATIONS
from boardgames.kalah.game import PLAYER_NAMES, Kalah
from boardgames.kalah.play.engine import EngineConfig, KalahEngine

SAME, TIE, OTHER, DIFFERS = "same", "tie", "other", "differs"
ENDS = ("rules", "unswept")
SWEEP_STRATEGIES = ("alphabeta", "ordered", "tt", "id", "pvs", "mtdf")
"""The depth-limited strategies :func:`sweep` tries by default: the alpha-beta family.
``minimax`` is left out: it keeps the first best move in pit order, as ``alphabeta`` does,
so it always chooses what ``alphabeta`` chooses (at far greater cost)."""
UNSWEPT_STRATEGIES = ("alphabeta", "minimax")
GROWTH = {"compound": 4.0, "sowing": 3.0}
"""Rough growth of the work per extra level of depth (alpha-beta, natural order, on the
default board), for the sweep's estimate of the time left."""


# --- one setting -------------------------------------------------------------------------


@dataclass
class MoveCheck:
    """What one setting makes of one recorded move."""

    move: int
    """Its number in the record (1: the first compound move)."""
    player: str
    played: tuple[int, ...]
    chosen: tuple[int, ...]
    status: str
    """:data:`SAME`, :data:`TIE`, :data:`OTHER` or :data:`DIFFERS` (module docstring)."""
    value: int | None = None
    """For a tie or an other: the position's value at the setting's depth (what its own
    choice is worth to it), for the player; a core.protocol score."""
    played_value: int | None = None
    """For a tie or an other: what the recorded move is worth to the setting."""

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "move": self.move,
            "player": self.player,
            "played": list(self.played),
            "chosen": list(self.chosen),
            "status": self.status,
        }
        if self.value is not None and self.played_value is not None:
            data["value"] = describe_score(self.value)
            data["played_value"] = describe_score(self.played_value)
        return data


@dataclass
class SettingResult:
    """One setting's verdict on every move of a record."""

    spec: str
    description: str
    strategy: str
    depth: int | None
    evaluation: str
    unit: str
    ends: str
    checks: list[MoveCheck] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def same(self) -> int:
        """Moves it chooses exactly as recorded."""
        return sum(c.status == SAME for c in self.checks)

    @property
    def ties(self) -> int:
        """Moves where it chooses another, equally good at its depth."""
        return sum(c.status == TIE for c in self.checks)

    @property
    def first_other(self) -> MoveCheck | None:
        """The first move it does not choose as recorded (None: it plays them all)."""
        return next((c for c in self.checks if c.status != SAME), None)

    @property
    def run(self) -> int:
        """Moves it reproduces from the first before it chooses another."""
        first = self.first_other
        return len(self.checks) if first is None else first.move - 1

    def as_dict(self) -> dict[str, Any]:
        first = self.first_other
        return {
            "spec": self.spec,
            "settings": self.description,
            "strategy": self.strategy,
            "depth": self.depth,
            "evaluation": self.evaluation,
            "unit": self.unit,
            "ends": self.ends,
            "same": self.same,
            "ties": self.ties,
            "first_other": None if first is None else first.as_dict(),
            "seconds": round(self.seconds, 3),
            "moves": [c.as_dict() for c in self.checks],
        }


def _one_ply_up(score: int) -> int:
    """A score of a child position as seen one single move higher: a finished game is one
    ply further away (core.protocol.terminal_score), a heuristic score is the same."""
    if score > HEURISTIC_LIMIT:
        return score - 1
    if score < -HEURISTIC_LIMIT:
        return score + 1
    return score


class _Values:
    """Depth-limited values of one evaluation and depth unit, remembered by position and
    depth, so that the settings of a sweep that share them search each position once."""

    def __init__(self, search: Callable[[Any, int], int], evaluate: Callable[[Any], int]):
        self._search = search
        self._evaluate = evaluate
        self._known: dict[tuple[bytes | tuple[int, ...], int], int] = {}

    def __call__(self, state: Any, depth: int) -> int:
        """The value of ``state`` for its side to move, ``depth`` levels deep (0: the
        evaluation)."""
        key = (state.tobytes() if hasattr(state, "tobytes") else state, depth)
        if key not in self._known:
            self._known[key] = self._evaluate(state) if depth <= 0 else self._search(state, depth)
        return self._known[key]


class _Decider:
    """A setting on one game: its move in a position, and whether a recorded move ties."""

    unit: str = "compound"
    depth: int | None = None
    values: _Values | None = None

    def choose(self, state: State) -> tuple[int, ...]:
        raise NotImplementedError

    def play(self, state: Any, pit: int) -> tuple[Any, bool]:
        raise NotImplementedError

    def convert(self, state: State) -> Any:
        return state

    def finished_score(self, state: Any) -> int | None:
        """The score of a finished game one move below the node for the side to move at
        ``state`` (None: the game goes on)."""
        return None

    def to_move(self, state: Any) -> int:
        return int(state[-1])

    def ties(self, state: State, pits: Sequence[int]) -> bool:
        """True when every sowing of ``pits`` keeps the value of the position it is sown
        in, at the depth this setting had left there (module docstring)."""
        return self.weigh(state, pits)[0]

    def weigh(self, state: State, pits: Sequence[int]) -> tuple[bool, int, int]:
        """Whether ``pits`` ties (:meth:`ties`), the value of ``state`` at this setting's
        depth and the value of the last sowing of ``pits`` there (the position it leads
        to, at the depth left), both for the player of ``pits``."""
        assert self.values is not None and self.depth is not None
        values, depth, compound = self.values, self.depth, self.unit == "compound"
        s = self.convert(state)
        player = self.to_move(s)
        keeps, root, value = True, 0, 0
        for i, pit in enumerate(pits):
            left = depth if compound else max(1, depth - i)
            best = values(s, left)
            if i == 0:
                root = best
            child, again = self.play(s, pit)
            done = self.finished_score(child)
            if done is not None:
                score = done
            else:
                below = left if (again and compound) else left - 1
                score = _one_ply_up(values(child, below))
            value = score if self.to_move(child) == player else -score
            keeps = keeps and value == best
            s = child
        return keeps, root, value


class _EngineDecider(_Decider):
    """A setting played by the numba engine (:class:`~boardgames.kalah.play.engine.KalahEngine`)."""

    def __init__(self, game: Kalah, config: EngineConfig, values: _Values | None) -> None:
        self.game = game
        self.config = config
        self.engine: KalahEngine = KalahEngine(game, config)
        self.unit = config.unit
        self.depth = config.depth
        self.values = values if depth_limited(config) else None

    def choose(self, state: State) -> tuple[int, ...]:
        return tuple(self.engine.best_move(state).move)

    def play(self, state: State, pit: int) -> tuple[State, bool]:
        return self.game.play(state, pit)

    def finished_score(self, state: State) -> int | None:
        result = self.game.outcome(state)
        return None if result is None else terminal_score(result, 1)


class _UnsweptDecider(_Decider):
    """A setting played by plain F2 on :class:`UnsweptKalah` (pure Python)."""

    def __init__(self, game: Kalah, config: EngineConfig, values: _Values) -> None:
        self.model = UnsweptKalah(game.pits, config.evaluation, game.empty_capture)
        self.unit = config.unit
        self.depth = config.depth
        self.values = values

    def convert(self, state: State) -> tuple[int, ...]:
        return self.model.state(state)

    def play(self, state: tuple[int, ...], pit: int) -> tuple[tuple[int, ...], bool]:
        return self.model.play(state, pit)

    def choose(self, state: State) -> tuple[int, ...]:
        """The compound move, as KalahEngine.best_move makes it: the principal variation
        while the turn lasts, searched again from where it stops."""
        model, sowing = self.model, self.unit == "sowing"
        assert self.depth is not None
        s = self.convert(state)
        player = model.to_move(s)
        pv = list(model_search(model, s, self.depth, sowing).pv)
        pits: list[int] = []
        while not model.finished(s) and model.to_move(s) == player:
            if not pv:
                d = max(1, self.depth - len(pits)) if sowing else self.depth
                pv = list(model_search(model, s, d, sowing).pv)
            pit = pv.pop(0)
            pits.append(pit)
            s, again = model.play(s, pit)
            if not again:
                break
        return tuple(pits)


def depth_limited(config: EngineConfig) -> bool:
    """True when ``config`` searches to a fixed depth and nothing else limits it, so that
    its values are plain alpha-beta's at that depth (and ties can be told)."""
    return (
        config.depth is not None
        and config.time is None
        and getattr(config, "nodes", None) is None
        and config.strategy in EXACT_STRATEGIES
    )


class Explainer:
    """Checks settings against one recorded game (the positions before each move)."""

    def __init__(self, game: Kalah, first: int, moves: Sequence[tuple[int, ...]]) -> None:
        self.game = game
        self.moves = [tuple(p) for p in moves]
        self.positions: list[State] = []
        state = game.initial_state(first)
        for pits in self.moves:
            self.positions.append(state)
            state = game.play_compound(state, pits)
        self._values: dict[tuple[str, str, str], _Values] = {}

    def values(self, evaluation: str, unit: str, ends: str) -> _Values:
        """The shared depth-limited values of one evaluation, depth unit and model."""
        key = (evaluation, unit, ends)
        if key not in self._values:
            sowing = unit == "sowing"
            if ends == "unswept":
                model = UnsweptKalah(self.game.pits, evaluation, self.game.empty_capture)

                def search_model(s: Any, depth: int) -> int:
                    return model_search(model, s, depth, sowing).value

                self._values[key] = _Values(search_model, model.evaluate)
            else:
                config = EngineConfig(
                    depth=1, strategy="alphabeta", evaluation=evaluation, unit=unit, prove_nodes=0
                )
                engine = KalahEngine(self.game, config)

                def search_engine(s: Any, depth: int) -> int:
                    return engine.search(s, depth).value

                self._values[key] = _Values(search_engine, engine.game.evaluate)
        return self._values[key]

    def decider(self, config: EngineConfig, ends: str = "rules") -> _Decider:
        """The object that plays ``config`` here (GameError if the model cannot)."""
        if ends == "unswept":
            check_unswept(self.game, config)
            return _UnsweptDecider(
                self.game, config, self.values(config.evaluation, config.unit, ends)
            )
        values = None
        if depth_limited(config):
            values = self.values(config.evaluation, config.unit, ends)
        return _EngineDecider(self.game, config, values)

    def explain(
        self,
        config: EngineConfig,
        spec: str = "",
        ends: str = "rules",
        progress: Callable[[int], None] | None = None,
    ) -> SettingResult:
        """Every move checked against ``config`` (``progress(k)`` after move ``k``)."""
        t0 = time.perf_counter()
        decider = self.decider(config, ends)
        description = config.describe() + (", finished games unswept" if ends == "unswept" else "")
        result = SettingResult(
            spec or description, description, config.strategy, config.depth,
            config.evaluation, config.unit, ends,
        )  # fmt: skip
        game = self.game
        for k, (state, played) in enumerate(zip(self.positions, self.moves, strict=True), 1):
            chosen = decider.choose(state)
            best = worth = None
            if chosen[: len(played)] == played:  # (a last move may stop mid-turn)
                status = SAME
            elif decider.values is None:
                status = DIFFERS
            else:
                keeps, best, worth = decider.weigh(state, played)
                status = TIE if keeps else OTHER
            player = PLAYER_NAMES[game.to_move(state)]
            result.checks.append(MoveCheck(k, player, played, chosen, status, best, worth))
            if progress is not None:
                progress(k)
        result.seconds = time.perf_counter() - t0
        return result


def check_unswept(game: Kalah, config: EngineConfig) -> None:
    """GameError unless the unswept model can play ``config`` on ``game``."""
    if game.rules != "classic":
        raise GameError("the unswept model is of the classic rules (its end is RULES.md 1.4)")
    if config.strategy not in UNSWEPT_STRATEGIES or not depth_limited(config):
        raise GameError(
            "the unswept model is plain F2 to a fixed depth: give depth=N and "
            "strategy=alphabeta (no time, no nodes)"
        )


# --- the sweep ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Grid:
    """The settings :func:`sweep` tries."""

    strategies: tuple[str, ...] = SWEEP_STRATEGIES
    depths: tuple[int, ...] = tuple(range(1, 9))
    evaluations: tuple[str, ...] = EVALUATIONS
    units: tuple[str, ...] = ("compound", "sowing")
    ends: tuple[str, ...] = ("rules",)
    """:data:`ENDS`: the engine, and/or the unswept model (which plays ``alphabeta`` only:
    the grid's other strategies are not tried with it)."""

    def settings(self) -> list[tuple[EngineConfig, str]]:
        """Every setting of the grid and its ``ends`` (the exact solver off: the classic
        programs had none)."""
        return [
            (EngineConfig(depth=d, strategy=s, evaluation=e, unit=u, prove_nodes=0), ends)
            for ends in self.ends
            for e in self.evaluations
            for u in self.units
            for d in self.depths
            for s in self.strategies
            if ends == "rules" or s in UNSWEPT_STRATEGIES
        ]

    def weight(self, config: EngineConfig, ends: str = "rules") -> float:
        """Rough relative cost of one setting (for the estimate of the time left; the
        pure-Python model is about 30 times slower than the engine)."""
        assert config.depth is not None
        return GROWTH[config.unit] ** config.depth * (30 if ends == "unswept" else 1)


def rank(results: Iterable[SettingResult]) -> list[SettingResult]:
    """Most moves reproduced first; then the longest run from the first move; then the
    most ties; then the cheapest (shallowest) setting."""
    return sorted(
        results,
        key=lambda r: (-r.same, -r.run, -r.ties, r.depth or 0, r.evaluation, r.unit),
    )


def sweep(
    explainer: Explainer,
    grid: Grid,
    on_progress: Callable[[float, float, str], None] | None = None,
) -> list[SettingResult]:
    """Every setting of ``grid`` checked against the game, ranked (:func:`rank`).
    ``on_progress(done, total, detail)`` after every move of every setting (work in
    :meth:`Grid.weight` units)."""
    settings = grid.settings()
    total = sum(grid.weight(c, ends) for c, ends in settings)
    done = 0.0
    results = []
    moves = max(1, len(explainer.moves))
    for config, ends in settings:
        weight = grid.weight(config, ends)
        base = done
        label = config.describe() + (", unswept" if ends == "unswept" else "")

        def tick(k: int, base: float = base, weight: float = weight, label: str = label) -> None:
            if on_progress is not None:
                on_progress(base + weight * k / moves, total, label)

        results.append(explainer.explain(config, ends=ends, progress=tick))
        done = base + weight
    return rank(results)


def never_played(results: Sequence[SettingResult]) -> list[MoveCheck]:
    """The recorded moves that no setting of ``results`` chooses (a check of each, from
    the first setting)."""
    if not results:
        return []
    out = []
    for k, check in enumerate(results[0].checks):
        if all(r.checks[k].status != SAME for r in results):
            out.append(check)
    return out
