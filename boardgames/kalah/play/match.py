"""``boardgames kalah match``: two program settings play a series of games.

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

import math
import os
import random
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console

from boardgames.core.cluster import ClusterSpec, Runner, cluster_options, parse_cluster
from boardgames.core.console import make_console, print_json
from boardgames.core.progress import Stopped, exit_stopped
from boardgames.core.protocol import GameError, quote
from boardgames.core.tables import Col, FitTable
from boardgames.kalah.game import MAX_PITS, MAX_SEEDS, MIN_PITS, MIN_SEEDS, Kalah
from boardgames.kalah.play.engine import PRESETS, EngineConfig, presets_help
from boardgames.kalah.rules import RULE_SETS

if TYPE_CHECKING:
    from boardgames.kalah.play.engine import KalahEngine

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

MATCH_COLUMNS = (
    Col("player"),
    Col("W", "right", number=True),
    Col("D", "right", number=True),
    Col("L", "right", number=True),
    Col("avg\nmargin", "right", number=True, drop=3),
    Col("score", "right", number=True),
    Col("95% interval", "right", number=True),
    Col("s/move\navg", "right", number=True, drop=2),
    Col("s/move\nmax", "right", number=True, drop=1),
)
"""The match table's columns; on a narrow terminal the times go first, then the margin."""


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
        if key in NUMBER_KEYS and (not value.isascii() or len(value) > 20):
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
    from boardgames.kalah.play.engine import KalahEngine

    key = (game, spec)
    if key not in _ENGINES:
        from boardgames.kalah.play.program import proof_table

        _ENGINES[key] = KalahEngine(game, parse_spec(spec), tables=lambda: proof_table(game))
    return _ENGINES[key]


def play_game(task: MatchTask) -> GameRecord:
    """Play one game of the match (in whatever process runs it)."""
    game = Kalah(task.pits, task.seeds, task.rules)
    pair = task.index // 2
    a_is_first = task.index % 2 == 0
    engines = {0: _engine(game, task.spec_a), 1: _engine(game, task.spec_b)}
    if not a_is_first:
        engines = {0: engines[1], 1: engines[0]}
    opened = opening(game, task.opening_plies, task.seed * 1_000_003 + pair)
    state = game.initial_state()
    for move in opened:
        state, _ = game.play(state, move)
    record = GameRecord(task.index, "A" if a_is_first else "B", 0, opened, 0)
    while game.outcome(state) is None:
        side = game.to_move(state)
        answer = engines[side].best_move(state)
        state = game.play_compound(state, answer.move)
        is_a = (side == 0) == a_is_first
        (record.a_seconds if is_a else record.b_seconds).append(answer.seconds)
        (record.a_depths if is_a else record.b_depths).append(answer.depth)
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
    """W/D/L, mean margin, score (win 1, draw 1/2) and a 95% normal interval of the score."""
    n = len(records)
    scores = [1.0 if r.margin > 0 else 0.5 if r.margin == 0 else 0.0 for r in records]
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return MatchSummary(
        n,
        sum(r.margin > 0 for r in records),
        sum(r.margin == 0 for r in records),
        sum(r.margin < 0 for r in records),
        sum(r.margin for r in records) / n,
        mean,
        (max(0.0, mean - half), min(1.0, mean + half)),
    )


def _workers(where: dict[str, object]) -> str:
    n = where["workers"]
    return f"{n} worker{'s' if n != 1 else ''}"


def _describe(spec: str) -> str:
    return describe_spec(spec)


def play_task(task: MatchTask) -> dict[str, object]:
    """One game as a task of :mod:`boardgames.core.cluster`: the record as a JSON-ready dict.
    (``play_game`` is looked up when the task runs, so tests can replace it.)"""
    return asdict(play_game(task))


def _run_all(
    tasks: list[MatchTask],
    runner: Runner,
    checkpoint: Path | None,
    job: dict[str, object],
    console: Console,
) -> tuple[list[GameRecord], Stopped | None]:
    """The finished games, in order, and the Ctrl-C that stopped the match early (if one
    did)."""
    from boardgames.core.cluster import Checkpoint

    records: dict[str, GameRecord] = {}

    def keep(key: str, result: dict[str, object]) -> None:
        records[key] = GameRecord(**result)  # type: ignore[arg-type]

    stopped = None
    try:
        runner.run(
            play_task,
            [(f"game-{t.index + 1}", (t,)) for t in tasks],
            label="Playing",
            unit="games",
            checkpoint=Checkpoint(checkpoint, job) if checkpoint is not None else None,
            on_result=keep,
        )
    except Stopped as e:
        stopped = e
    return sorted(records.values(), key=lambda r: r.index), stopped


@click.command("match", epilog=presets_help())
@click.option("--a", "spec_a", default=DEFAULT_PROGRAM, show_default="the default program",
              help="Player a, e.g. time=0.5,eval=tseitin (keys: depth, time, nodes: positions "
                   "examined a move at most, eval, strategy, unit, tt, prove: positions the "
                   "exact solver may use to settle a forced win or loss, 0 never; for "
                   f"strategy=mcts: playouts, c, policy), or a preset ({', '.join(PRESETS)}: "
                   "below).")  # fmt: skip
@click.option("--b", "spec_b", default=CLASSIC_PROGRAM, show_default=True,
              help="Player b, the same way (default: the classic program).")  # fmt: skip
@click.option("--games", default=20, show_default=True, help="Games, in pairs, sides swapped.")
@click.option("--random-opening", "opening_plies", default=4, show_default=True,
              help="Random sowings played before the programs take over.")  # fmt: skip
@click.option("--seed", default=1, show_default=True, help="Seed of the random openings.")
@click.option("--pits", default=6, show_default=True, help=f"Pits a side ({MIN_PITS}-{MAX_PITS}).")
@click.option("--seeds", default=6, show_default=True,
              help=f"Stones a pit at the start ({MIN_SEEDS}-{MAX_SEEDS}).")  # fmt: skip
@click.option("--rules", type=click.Choice(RULE_SETS), default="classic", show_default=True)
@click.option("--jobs", type=int, default=None, show_default="one per core",
              help="Worker processes on this machine (1: play in this process); the same as "
                   "--cluster local:JOBS.")  # fmt: skip
@cluster_options("the games")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead.")
def match(
    spec_a: str,
    spec_b: str,
    games: int,
    opening_plies: int,
    seed: int,
    pits: int,
    seeds: int,
    rules: str,
    jobs: int | None,
    cluster: ClusterSpec | None,
    checkpoint: Path | None,
    as_json: bool,
) -> None:
    """Let two program settings play each other and score the match.

    Sides alternate and each opening is played twice, once with each side first. The
    table gives a's wins, draws and losses, the average final margin (a minus b) and a's
    score (win 1, draw 1/2) with a 95% confidence interval. Example:

    \b
        boardgames kalah match --a depth=5,eval=tseitin --b depth=5,eval=rechenberg

    Games are tasks of the cluster layer: worker processes here (--jobs), or any Dask
    cluster (--cluster). With depth- or node-limited players a game is the same wherever
    it runs, so a match on a cluster equals the local one and --checkpoint can resume it
    (with a time limit a move depends on the machine's speed). A checkpoint is for one pair of
    players, board, rules, opening length and seed; rerun with more --games to extend it.
    """
    try:
        Kalah(pits, seeds, rules)
        desc_a, desc_b = _describe(spec_a), _describe(spec_b)
    except GameError as e:
        raise click.UsageError(str(e)) from None
    if not 1 <= games <= 100_000:
        raise click.UsageError(f"--games must be 1 to 100000, got {games}")
    if not 0 <= opening_plies <= 200:
        raise click.UsageError(f"--random-opening must be 0 to 200 sowings, got {opening_plies}")
    if jobs is not None and not 1 <= jobs <= MAX_JOBS:
        raise click.UsageError(f"--jobs must be 1 to {MAX_JOBS} processes, got {jobs}")
    if cluster is not None and jobs is not None:
        raise click.UsageError("give --jobs (processes here) or --cluster, not both")
    jobs = min(jobs or os.cpu_count() or 1, games)
    if cluster is None and jobs > 1:
        cluster = parse_cluster(f"local:{jobs}")
    tasks = [
        MatchTask(i, pits, seeds, rules, spec_a, spec_b, opening_plies, seed) for i in range(games)
    ]
    job: dict[str, object] = {
        "command": "kalah match", "a": spec_a, "b": spec_b, "pits": pits, "seeds": seeds,
        "rules": rules, "random_opening": opening_plies, "seed": seed,
    }  # fmt: skip
    err = make_console(stderr=True)
    t0 = time.perf_counter()
    try:
        with Runner(cluster, err) as runner:
            where = runner.as_dict()
            records, stopped = _run_all(tasks, runner, checkpoint, job, err)
    except Stopped as e:  # while the cluster started
        exit_stopped(e, err)
    elapsed = time.perf_counter() - t0
    if stopped is not None:
        err.print(f"Stopped (Ctrl-C) after {len(records)} of {games} games.")
        if not records:
            raise SystemExit(130)
        games = len(records)
    summary = summarise(records)
    a_times = [s for r in records for s in r.a_seconds]
    b_times = [s for r in records for s in r.b_seconds]
    if as_json:
        print_json(
            {
                "a": spec_a, "b": spec_b, "a_settings": desc_a, "b_settings": desc_b,
                "pits": pits, "seeds": seeds, "rules": rules,
                "random_opening": opening_plies, "seed": seed,
                **asdict(summary),
                "a_max_seconds_per_move": max(a_times, default=0.0),
                "b_max_seconds_per_move": max(b_times, default=0.0),
                "seconds": elapsed,
                **where,
                "results": [
                    {"game": r.index + 1, "a_side": r.a_side, "margin": r.margin,
                     "opening": r.opening, "moves": r.moves}
                    for r in records
                ],
            }
        )  # fmt: skip
        return
    out = make_console()
    table = FitTable(
        MATCH_COLUMNS,
        title=f"Kalah {pits}x{seeds} {rules}: {games} game{'s' if games != 1 else ''}, sides "
        f"alternated, random openings of {opening_plies} sowings (seed {seed})",
        caption=f"a: {desc_a}\nb: {desc_b}",
    )
    for name, times, sign in (("a", a_times, 1), ("b", b_times, -1)):
        w, lo = (summary.wins, summary.losses) if sign > 0 else (summary.losses, summary.wins)
        score = summary.score if sign > 0 else 1 - summary.score
        ci = summary.ci95 if sign > 0 else (1 - summary.ci95[1], 1 - summary.ci95[0])
        table.add_row(
            name,
            str(w),
            str(summary.draws),
            str(lo),
            f"{sign * summary.average_margin:+.2f}",
            f"{score:.3f}",
            f"{ci[0]:.3f}-{ci[1]:.3f}",
            f"{sum(times) / max(len(times), 1):.3f}",
            f"{max(times, default=0.0):.3f}",
        )
    out.print(table)
    ran_on = "in this process" if cluster is None else f"on {_workers(where)} ({cluster})"
    out.print(f"{games} game{'s' if games != 1 else ''} in {elapsed:.1f} s {ran_on}.")
    if stopped is not None:
        raise SystemExit(130)
