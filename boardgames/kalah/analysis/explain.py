"""``boardgames kalah explain``: which program settings would have played a recorded game.

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

``ends="unswept"`` models one reading of the classic program's search instead of the
engine: plain F2 (:func:`boardgames.core.search.alphabeta`, the pure-Python reference) on
the same rules, except that a finished game is scored by the evaluation like any other
position, *before* the stones left in the pits go to their owner (RULES.md 1.4). The
search then thinks a side that keeps stones in its pits at the end does not get them.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import click

from boardgames.cli import InputError
from boardgames.core.console import file_name, make_console, print_json
from boardgames.core.progress import (
    Progress,
    Stopped,
    exit_stopped,
    format_duration,
    interruptible,
    stopped_message,
)
from boardgames.core.protocol import (
    HEURISTIC_LIMIT,
    Game,
    GameError,
    SearchResult,
    State,
    describe_score,
    quote,
    terminal_score,
)
from boardgames.core.tables import Col, FitTable
from boardgames.kalah import rules as kalah_rules
from boardgames.kalah.eval import EVALUATION_FUNCTIONS, EVALUATIONS
from boardgames.kalah.game import PLAYER_NAMES, Kalah

if TYPE_CHECKING:
    from boardgames.kalah.play.engine import EngineConfig, KalahEngine

SAME, TIE, OTHER, DIFFERS = "same", "tie", "other", "differs"
ENDS = ("rules", "unswept")
SWEEP_STRATEGIES = ("alphabeta", "ordered", "tt", "id", "pvs", "mtdf")
"""The depth-limited strategies :func:`sweep` tries by default: the alpha-beta family.
``minimax`` is left out: it keeps the first best move in pit order, as ``alphabeta`` does,
so it always chooses what ``alphabeta`` chooses (at far greater cost)."""
UNSWEPT_STRATEGIES = ("alphabeta", "minimax")
PASS = -1
"""The one move of a finished game in the ``unswept`` model (see :class:`UnsweptKalah`)."""
GROWTH = {"compound": 4.0, "sowing": 3.0}
"""Rough growth of the work per extra level of depth (alpha-beta, natural order, on the
default board), for the sweep's estimate of the time left."""


# --- the unswept model -------------------------------------------------------------------


@dataclass(frozen=True)
class UnsweptKalah:
    """Classic Kalah for :func:`boardgames.core.search.alphabeta`, with one change: a
    finished game is not scored as one. Its stores are left as they are (the stones still
    in the pits are not swept) and its only move is :data:`PASS`, which hands the turn
    over and costs a level, until the depth runs out and the evaluation scores it. For
    the evaluations here (each is one side's score less the other's) that is the
    evaluation of the finished position before the sweep, whatever the depth left.

    States are tuples: the ``2m + 2`` holes, then the side to move. Pits, extra turns and
    captures follow RULES.md 1 (:func:`boardgames.kalah.rules.sow`); the sowing that ends
    the game gives no extra turn, as in the real rules.
    """

    pits: int = 6
    evaluation: str = "store"
    empty_capture: bool = False

    def state(self, state: State) -> tuple[int, ...]:
        """A protocol state of :class:`~boardgames.kalah.game.Kalah` as a model state."""
        return tuple(int(x) for x in state)

    def to_move(self, s: tuple[int, ...]) -> int:
        return s[-1]

    def finished(self, s: tuple[int, ...]) -> bool:
        m = self.pits
        return not any(s[0:m]) or not any(s[m + 1 : 2 * m + 1])

    def legal_moves(self, s: tuple[int, ...]) -> list[int]:
        if self.finished(s):
            return [PASS]
        m, mover = self.pits, s[-1]
        first = 0 if mover == 0 else m + 1
        return [i for i in range(first, first + m) if s[i]]

    def play(self, s: tuple[int, ...], move: int) -> tuple[tuple[int, ...], bool]:
        m, mover = self.pits, s[-1]
        board = list(s[:-1])
        if move == PASS:
            return (*board, 1 - mover), False
        last, _ = kalah_rules.sow(board, m, move, mover)
        store = kalah_rules.store_index(m, mover)
        again = last == store
        if not again and kalah_rules.owner(m, last) == mover and board[last] == 1:
            facing = kalah_rules.opposite(m, last)
            if board[facing] > 0 or self.empty_capture:
                board[store] += board[facing] + 1
                board[facing] = 0
                board[last] = 0
        child = (*board, mover)
        if again and not self.finished(child):
            return child, True
        return (*board, 1 - mover), False

    def outcome(self, s: tuple[int, ...]) -> int | None:
        return None

    def evaluate(self, s: tuple[int, ...]) -> int:
        return EVALUATION_FUNCTIONS[self.evaluation](s, self.pits, s[-1])


def model_search(
    model: UnsweptKalah, state: tuple[int, ...], depth: int, sowing: bool
) -> SearchResult:
    """Plain F2 (:func:`boardgames.core.search.alphabeta`) on the model, ``depth`` levels
    (compound moves, or sowings with ``sowing``). The reference search reads only
    ``legal_moves``, ``play``, ``outcome`` and ``evaluate``; the model's states are tuples,
    which it never looks into (faster than arrays)."""
    from boardgames.core.search import alphabeta

    return alphabeta(cast("Game", model), cast("State", state), depth, again_is_ply=sowing)


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
        from boardgames.kalah.play.engine import KalahEngine

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
    from boardgames.core.strategies import EXACT_STRATEGIES

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
                from boardgames.kalah.play.engine import EngineConfig, KalahEngine

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
        from boardgames.kalah.play.engine import EngineConfig

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


# --- the command -------------------------------------------------------------------------


def _pits(pits: Sequence[int]) -> str:
    return " ".join(map(str, pits)) or "-"


def _range(text: str, name: str, lo: int, hi: int) -> tuple[int, ...]:
    """``1-8`` or ``5,6,7`` as a tuple of ints in [lo, hi]; UsageError otherwise."""
    values: list[int] = []
    for part in text.split(","):
        part = part.strip()
        a, sep, b = part.partition("-")
        try:
            if not (a.isascii() and a.isdecimal()) or (sep and not (b.isascii() and b.isdecimal())):
                raise ValueError
            first, last = int(a), int(b) if sep else int(a)
        except ValueError:
            raise click.UsageError(
                f"--{name} takes numbers and ranges such as 1-8 or 4,6; got {quote(part)}"
            ) from None
        if not lo <= first <= last <= hi:
            raise click.UsageError(f"--{name} must lie in {lo}-{hi}; got {quote(part)}")
        values.extend(range(first, last + 1))
    return tuple(sorted(set(values)))


def _names(text: str, name: str, allowed: Sequence[str]) -> tuple[str, ...]:
    chosen = tuple(dict.fromkeys(p.strip().lower() for p in text.split(",") if p.strip()))
    bad = [p for p in chosen if p not in allowed]
    if bad or not chosen:
        raise click.UsageError(
            f"--{name} takes a comma-separated list of {', '.join(allowed)}; got {quote(text)}"
        )
    return chosen


def _cell(check: MoveCheck) -> str:
    if check.status == SAME:
        return "[green]=[/]"
    if check.status == TIE:
        return f"[yellow]{_pits(check.chosen)} tie[/]"
    return f"[red]{_pits(check.chosen)}[/]"


def _letter(i: int) -> str:
    return "abcdefghijklmnopqrstuvwxyz"[i] if i < 26 else str(i + 1)


def moves_table(results: Sequence[SettingResult], title: str) -> FitTable:
    """Move by move: what each setting chooses (``=`` the recorded move)."""
    columns = [Col("#", "right", number=True), Col("who", "center"), Col("played", number=True)]
    columns += [Col(_letter(i), number=True) for i in range(len(results))]
    caption = "\n".join(f"{_letter(i)}: {r.description}" for i, r in enumerate(results))
    caption += "\n=: the recorded move; tie: another, as good at its depth"
    table = FitTable(columns, title=title, caption=caption, title_justify="left")
    for k, check in enumerate(results[0].checks):
        table.add_row(
            str(check.move), check.player, _pits(check.played),
            *(_cell(r.checks[k]) for r in results),
        )  # fmt: skip
    return table


def summary_line(result: SettingResult, total: int) -> str:
    """One line: how many moves the setting reproduces and where it first does not."""
    first = result.first_other
    ties = f", {result.ties} tie{'' if result.ties == 1 else 's'}" if result.ties else ""
    text = f"{result.description}: {result.same} of {total} moves the same{ties}"
    if first is None:
        return text + "; every move as recorded."
    worth = ""
    if first.status == OTHER and first.value is not None and first.played_value is not None:
        worth = (
            f": {describe_score(first.played_value)} against "
            f"{describe_score(first.value)} at its depth"
        )
    return (
        f"{text}; first other at move {first.move} ({first.player} played "
        f"{_pits(first.played)}, it plays {_pits(first.chosen)}"
        f"{', a tie' if first.status == TIE else ''}{worth})."
    )


SWEEP_COLUMNS = (
    Col("strategy"),
    Col("depth", "right", number=True),
    Col("eval"),
    Col("unit"),
    Col("same", "right", number=True),
    Col("ties", "right", number=True, drop=1),
    Col("first\nother", "right", number=True),
    Col("it plays", drop=2),
)


def sweep_table(ranked: Sequence[SettingResult], total: int, top: int, title: str) -> FitTable:
    """The ``top`` best settings of a sweep."""
    table = FitTable(SWEEP_COLUMNS, title=title, title_justify="left")
    for r in ranked[:top]:
        first = r.first_other
        table.add_row(
            r.strategy, str(r.depth), r.evaluation, r.unit, f"{r.same}/{total}",
            str(r.ties), "-" if first is None else str(first.move),
            "" if first is None else _pits(first.chosen) + (" tie" if first.status == TIE else ""),
        )  # fmt: skip
    return table


def sweep_lines(ranked: Sequence[SettingResult], total: int) -> list[str]:
    """The sweep's conclusions in words."""
    if not ranked:
        return []
    best = ranked[0]
    tops = [r for r in ranked if r.same == best.same]
    longest = max(r.run for r in ranked)
    runners = [r for r in ranked if r.run == longest]
    lines = [
        f"{len(ranked)} settings tried. Most moves the same: {best.same} of {total}, by "
        f"{len(tops)} setting{'s' if len(tops) != 1 else ''} (best: {best.description})."
    ]
    if longest == total:
        lines.append(f"{len(runners)} setting(s) play every move as recorded.")
    else:
        nxt = runners[0].checks[longest]
        lines.append(
            f"No setting plays every move up to move {longest + 1} ({nxt.player}: "
            f"{_pits(nxt.played)}): the longest run from the start is {longest} moves, by "
            f"{len(runners)} setting{'s' if len(runners) != 1 else ''}."
        )
    missing = never_played(ranked)
    if missing:
        shown = ", ".join(f"{c.move} ({c.player}: {_pits(c.played)})" for c in missing)
        lines.append(f"Moves no setting plays: {shown}.")
    return lines


@click.command("explain")
@click.argument("file", type=click.Path(dir_okay=False), callback=file_name("game.klh"))
@click.option(
    "--program",
    "specs",
    multiple=True,
    metavar="SPEC",
    help="A program setting as kalah match takes it (depth=6,eval=store,strategy=alphabeta "
    "or a preset such as classic); give it more than once to compare settings.",
)
@click.option(
    "--search",
    "do_sweep",
    is_flag=True,
    help="Try a grid of settings (--strategies x --depths x --evals x --units) and rank "
    "them by the moves they reproduce.",
)
@click.option("--strategies", default=",".join(SWEEP_STRATEGIES), show_default=True,
              help="Strategies of the grid (minimax chooses what alphabeta chooses).")  # fmt: skip
@click.option("--depths", default="1-8", show_default=True, help="Depths of the grid.")
@click.option("--evals", default=",".join(EVALUATIONS), show_default=True,
              help="Evaluations of the grid.")  # fmt: skip
@click.option("--units", default="compound,sowing", show_default=True,
              help="Depth units of the grid: compound (a turn a level) or sowing.")  # fmt: skip
@click.option(
    "--ends",
    default="rules",
    show_default=True,
    help="rules: the engine (a finished game scores its final margin, above any "
    "evaluation); unswept: plain F2 in pure Python that scores a finished game by the "
    "evaluation before the stones left in the pits go to their owner (a reading of the "
    "classic program; alphabeta only); rules,unswept: each setting both ways.",
)
@click.option("--top", type=click.IntRange(1, 10_000), default=12, show_default=True,
              help="Settings shown in the table of --search (--json has all).")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead.")
def explain(
    file: Path,
    specs: tuple[str, ...],
    do_sweep: bool,
    strategies: str,
    depths: str,
    evals: str,
    units: str,
    ends: str,
    top: int,
    as_json: bool,
) -> None:
    """Which program settings would have played the moves of a game record.

    For every move: would the setting have chosen exactly the recorded compound move from
    the position before it? "=" yes; "tie": it chooses another, but the recorded move is
    worth as much at its depth (another order among equal moves would play it); else the
    move it chooses. With --search it tries a grid of settings and ranks them by the moves
    they reproduce and by the first move where each chooses another; the progress and an
    estimate of the time left are on stderr, Ctrl-C stops (status 130). Example:

    \b
        boardgames kalah explain docs/games/strange-game.txt --program classic,depth=6
        boardgames kalah explain game.klh --search --depths 4-7 --evals store
    """
    from boardgames.kalah.play.match import parse_spec
    from boardgames.kalah.record import read_record, replay

    if not specs and not do_sweep:
        raise click.UsageError("give --program SPEC (one or more) or --search")
    models = _names(ends, "ends", ENDS)
    grid = None
    if do_sweep:
        from boardgames.core.strategies import EXACT_STRATEGIES

        grid = Grid(
            _names(strategies, "strategies", EXACT_STRATEGIES),
            _range(depths, "depths", 1, 20),
            _names(evals, "evals", EVALUATIONS),
            _names(units, "units", ("compound", "sowing")),
            models,
        )
        if not grid.settings():
            raise click.UsageError("--ends unswept plays --strategies alphabeta or minimax only")
    configs = []
    for spec in specs:
        try:
            configs.append(parse_spec(spec))
        except GameError as e:
            raise click.UsageError(f"--program {quote(spec)}: {e}") from None
    try:
        record = read_record(file)
        steps, _ = replay(record)
    except GameError as e:
        raise InputError(f"{file}: {e}") from None
    game = record.game
    if not steps:
        raise InputError(f"{file}: the record holds no moves")
    if "unswept" in models:
        for spec, config in zip(specs, configs, strict=True):
            try:
                check_unswept(game, config)
            except GameError as e:
                raise click.UsageError(f"--program {quote(spec)}: {e}") from None
        if grid is not None and game.rules != "classic":
            raise click.UsageError("the unswept model is of the classic rules")
    explainer = Explainer(game, record.first, [s.pits for s in steps])
    err = make_console(stderr=True)
    total = len(steps)
    results: list[SettingResult] = []
    ranked: list[SettingResult] = []
    t0 = time.perf_counter()
    try:
        with interruptible(lambda: stopped_message(time.perf_counter() - t0)):
            for model in models:
                for spec, config in zip(specs, configs, strict=True):
                    label = f"Checking {spec}" + (" (unswept)" if model == "unswept" else "")
                    with Progress(label, total, "moves", console=err) as bar:
                        results.append(
                            explainer.explain(config, spec, model, lambda k: bar.update(k))
                        )
            if grid is not None:
                ranked = _sweep_with_progress(explainer, grid, err)
    except Stopped as e:
        exit_stopped(e, err)
    if as_json:
        print_json(_json(file, game, explainer, results, ranked, grid))
        return
    out = make_console()
    if results:
        out.print(moves_table(results, f"Moves of {file}"))
        for r in results:
            out.print(summary_line(r, total), highlight=False)
    if grid is not None:
        title = f"{file}: {len(ranked)} settings, best first"
        out.print(sweep_table(ranked, total, top, title))
        for line in sweep_lines(ranked, total):
            out.print(line, highlight=False)


def _sweep_with_progress(explainer: Explainer, grid: Grid, err: Any) -> list[SettingResult]:
    """:func:`sweep` with a progress bar and an estimate of the time left on stderr; a
    Ctrl-C says how far it got."""
    n = len(grid.settings())
    share = [0.0]
    t0 = time.perf_counter()

    def stopped() -> str:
        return (
            f"Stopped (Ctrl-C) after {format_duration(time.perf_counter() - t0)}: the sweep "
            f"of {n} settings was {share[0]:.0%} done."
        )

    # the bar counts settings, each weighted by its rough cost (deeper ones cost more)
    with (
        Progress(f"Trying {n} settings", n, "settings", console=err) as bar,
        interruptible(stopped),
    ):

        def on_progress(done: float, total: float, detail: str) -> None:
            share[0] = done / total if total else 1.0
            bar.update(share[0] * n, detail=detail)

        return sweep(explainer, grid, on_progress)


def _json(
    file: Path,
    game: Kalah,
    explainer: Explainer,
    results: Sequence[SettingResult],
    ranked: Sequence[SettingResult],
    grid: Grid | None,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "file": str(file),
        "rules": game.rules,
        "pits": game.pits,
        "seeds": game.seeds,
        "moves": [
            {"move": k, "player": PLAYER_NAMES[game.to_move(s)], "played": list(p)}
            for k, (s, p) in enumerate(zip(explainer.positions, explainer.moves, strict=True), 1)
        ],
        "programs": [r.as_dict() for r in results],
    }
    if grid is not None:
        total = len(explainer.moves)
        data["search"] = {
            "grid": dataclasses.asdict(grid),
            "settings": [r.as_dict() for r in ranked],
            "longest_run": max((r.run for r in ranked), default=0),
            "most_same": max((r.same for r in ranked), default=0),
            "no_setting_plays": [c.move for c in never_played(ranked)],
            "moves": total,
        }
    return data
