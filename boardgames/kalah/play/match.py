"""Match play: two program settings play a series of games (``kalah match`` runs it).

A player spec is ``key=value`` pairs separated by commas, for example
``depth=5,eval=store,strategy=alphabeta`` or ``time=0.5,eval=tseitin``. Keys: ``depth``,
``time`` (seconds a move), ``nodes`` (positions examined a move, at most), ``eval``,
``strategy``, ``unit`` (compound or sowing), ``tt`` (table MiB) and ``prove`` (positions
the exact solver may visit to settle a value that ends in a finished game; 0: never, the
value stays a bound); with ``strategy=mcts`` (Monte Carlo tree search) ``playouts``, ``c``
(exploration) and ``policy`` (random or priority); anything not given takes the default
program's value (:class:`~boardgames.kalah.play.engine.EngineConfig`). A preset name
(:data:`~boardgames.kalah.play.engine.PRESETS`: ``classic``, ``tseitin``, ``rechenberg``)
stands for its spec, alone or with keys that change it (``classic,depth=7``).

Games come in pairs with the same opening (``--random-opening K`` random sowings, seeded)
and the sides swapped, so neither spec profits from a lucky opening or from moving first.
Games are tasks of :mod:`boardgames.core.cluster`: worker processes on this machine
(``--jobs``, default one per core) or a Dask cluster (``--cluster``), resumable with
``--checkpoint``.
"""

from __future__ import annotations

import random
import time
from dataclasses import asdict, dataclass, field

from boardgames.core.protocol import GameError, State, quote
from boardgames.kalah.game import Kalah
from boardgames.kalah.play.engine import MCTS, PRESETS, EngineConfig, KalahEngine
from boardgames.kalah.play.program import choose_compound, proof_table, reference_within

SPEC_KEYS = (
    "depth", "time", "nodes", "eval", "strategy", "unit", "tt", "prove", "playouts", "c", "policy",
)  # fmt: skip
NUMBER_KEYS = ("depth", "time", "nodes", "tt", "prove", "playouts", "c")
INT_KEYS = {"depth": "depth", "nodes": "nodes", "prove": "prove_nodes", "playouts": "playouts"}
"""Whole-number keys and the EngineConfig fields they set."""
MAX_JOBS = 256
CLASSIC_PROGRAM = "classic"
"""The seed's program (``PRESETS["classic"]``): the default opponent of a match."""
DEFAULT_PROGRAM = ""


def _spec_values(text: str, *, presets: bool) -> tuple[str | None, dict[str, object]]:
    """The preset named in ``text`` (if any) and the EngineConfig fields its ``key=value``
    parts set; GameError with the allowed keys and presets."""
    values: dict[str, object] = {}
    preset: str | None = None
    seen: set[str] = set()
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        key, sep, value = part.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not sep and presets and key in PRESETS:
            if preset is not None:
                raise GameError(f"player spec names two presets ({preset}, {key}); give one")
            preset = key
            continue
        if not sep or key not in SPEC_KEYS or not value:
            raise GameError(
                f"bad player spec part {quote(part)}: use key=value with keys "
                f"{', '.join(SPEC_KEYS)}, or a preset ({', '.join(PRESETS)}), "
                "e.g. depth=5,eval=store or classic"
            )
        if key in seen:
            raise GameError(f"player spec gives {key} twice; give each key once")
        seen.add(key)
        if key in NUMBER_KEYS and (not value.isascii() or len(value) > 40):
            if value.isascii() and value.replace(".", "", 1).isdigit():
                raise GameError(f"{key} is far too large: {len(value)} digits")
            raise GameError(f"{key} needs a number written with 0-9, got {quote(value)}")
        try:
            if key in INT_KEYS:
                values[INT_KEYS[key]] = int(value)
            elif key in ("time", "tt", "c"):
                values[{"tt": "tt_mib", "c": "exploration"}.get(key, key)] = float(value)
            else:
                values["evaluation" if key == "eval" else key] = value
        except ValueError:
            raise GameError(f"{key} needs a number, got {quote(value)}") from None
    return preset, values


def parse_spec(text: str) -> EngineConfig:
    """An :class:`EngineConfig` from ``key=value,...`` or a preset name (optionally with
    keys that change it: ``classic,depth=7``); GameError with the allowed keys and presets."""
    preset, values = _spec_values(text, presets=True)
    if preset is not None:
        values = {**_spec_values(PRESETS[preset][0], presets=False)[1], **values}
    return EngineConfig(**values)  # type: ignore[arg-type]


def describe_spec(text: str) -> str:
    """What a spec plays, for captions and records: ``classic (depth 5, eval store,
    alphabeta)`` for a preset, else the settings in words."""
    preset = text.strip().lower()
    config = parse_spec(text)
    if preset in PRESETS:
        return f"{preset} ({config.describe()})"
    return config.describe()


@dataclass
class GameRecord:
    """One finished game, from the view of spec ``a``."""

    index: int
    a_side: str
    margin: int
    opening: list[int]
    moves: int
    a_seconds: list[float] = field(default_factory=list)
    b_seconds: list[float] = field(default_factory=list)
    a_depths: list[int] = field(default_factory=list)
    b_depths: list[int] = field(default_factory=list)
    reference_moves: int = 0
    """Moves played by the pure-Python reference search while the compiled engine was
    compiling in the background (a first run on this machine)."""


@dataclass(frozen=True)
class MatchTask:
    index: int
    pits: int
    seeds: int
    rules: str
    spec_a: str
    spec_b: str
    opening_plies: int
    seed: int


def opening(game: Kalah, plies: int, seed: int) -> list[int]:
    """``plies`` random sowings from the start (fewer if the game would end)."""
    rng = random.Random(seed)
    s = game.initial_state()
    moves: list[int] = []
    for _ in range(plies):
        legal = game.legal_moves(s)
        if not legal:
            break
        move = rng.choice(legal)
        child, _ = game.play(s, move)
        if game.outcome(child) is not None:
            break
        moves.append(move)
        s = child
    return moves


_ENGINES: dict[tuple[Kalah, str], KalahEngine] = {}
"""Engines of this process, by game and spec (each worker builds its own)."""


def _engine(game: Kalah, spec: str) -> KalahEngine:
    key = (game, spec)
    if key not in _ENGINES:
        _ENGINES[key] = KalahEngine(game, parse_spec(spec), tables=lambda: proof_table(game))
    return _ENGINES[key]


def has_reference(config: EngineConfig) -> bool:
    """The pure-Python reference plays ``config``'s search while the engine compiles: a
    full-width alpha-beta by compound moves to its depth (or within its time); a node
    budget, Monte Carlo tree search or depth in sowings have no such stand-in."""
    return config.strategy != MCTS and config.nodes is None and config.unit == "compound"


def _reference_move(game: Kalah, state: State, config: EngineConfig) -> tuple[tuple[int, ...], int]:
    """The reference's compound move and the depth it searched: to ``config``'s depth
    exactly when it sets one (the engine's minimax value at that depth; among equal moves
    perhaps another), else within its time."""
    if config.depth is not None:
        pits, _ = choose_compound(game, state, config.depth, evaluation=config.evaluation)
        return pits, config.depth
    pits, result = reference_within(game, state, config)
    return pits, result.depth or 0


def engine_ready(game: Kalah, config: EngineConfig) -> bool:
    """The engine's kernels are compiled (else a background compile is under way or
    started): see :func:`boardgames.kalah.play.warm.kernels_ready`."""
    from boardgames.kalah.play.warm import kernels_ready

    return kernels_ready(game, config)


def play_game(task: MatchTask) -> GameRecord:
    """Play one game of the match (in whatever process runs it)."""
    game = Kalah(task.pits, task.seeds, task.rules)
    pair = task.index // 2
    a_is_first = task.index % 2 == 0
    specs = {0: task.spec_a, 1: task.spec_b} if a_is_first else {0: task.spec_b, 1: task.spec_a}
    configs = {side: parse_spec(spec) for side, spec in specs.items()}
    opened = opening(game, task.opening_plies, task.seed * 1_000_003 + pair)
    state = game.initial_state()
    for move in opened:
        state, _ = game.play(state, move)
    record = GameRecord(task.index, "A" if a_is_first else "B", 0, opened, 0)
    while game.outcome(state) is None:
        side = game.to_move(state)
        config = configs[side]
        if has_reference(config) and not engine_ready(game, config):
            t0 = time.perf_counter()
            pits, depth = _reference_move(game, state, config)
            seconds = time.perf_counter() - t0
            record.reference_moves += 1
        else:
            answer = _engine(game, specs[side]).best_move(state)
            pits, seconds, depth = answer.move, answer.seconds, answer.depth
        state = game.play_compound(state, pits)
        is_a = (side == 0) == a_is_first
        (record.a_seconds if is_a else record.b_seconds).append(seconds)
        (record.a_depths if is_a else record.b_depths).append(depth)
        record.moves += 1
    margin_to_move = game.outcome(state)
    assert margin_to_move is not None
    margin_a_side = margin_to_move if game.to_move(state) == 0 else -margin_to_move
    record.margin = margin_a_side if a_is_first else -margin_a_side
    return record


@dataclass
class MatchSummary:
    games: int
    wins: int
    draws: int
    losses: int
    average_margin: float
    score: float
    ci95: tuple[float, float]


def summarise(records: list[GameRecord]) -> MatchSummary:
    """W/D/L, mean margin, score (win 1, draw 1/2) and its 95% Wilson score interval
    (:func:`boardgames.core.match.score_interval`)."""
    from boardgames.core.match import score_interval

    n = len(records)
    scores = [1.0 if r.margin > 0 else 0.5 if r.margin == 0 else 0.0 for r in records]
    mean = sum(scores) / n
    return MatchSummary(
        n,
        sum(r.margin > 0 for r in records),
        sum(r.margin == 0 for r in records),
        sum(r.margin < 0 for r in records),
        sum(r.margin for r in records) / n,
        mean,
        score_interval(mean, n),
    )


def play_task(task: MatchTask) -> dict[str, object]:
    """One game as a task of :mod:`boardgames.core.cluster`: the record as a JSON-ready dict.
    (``play_game`` is looked up when the task runs, so tests can replace it.)"""
    return asdict(play_game(task))
