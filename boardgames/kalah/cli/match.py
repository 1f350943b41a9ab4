"""``boardgames kalah match``: two program settings play a scored match
(:mod:`boardgames.kalah.play.match` plays the games)."""

from __future__ import annotations

import os
import time
from dataclasses import asdict
from pathlib import Path

import click
from rich.console import Console

from boardgames.cli.options import cluster_options, json_option
from boardgames.core.cluster import Checkpoint, ClusterSpec, Runner, parse_cluster
from boardgames.core.console import make_console, print_json
from boardgames.core.progress import Stopped, stopped_message
from boardgames.core.protocol import GameError
from boardgames.core.tables import Col, FitTable
from boardgames.kalah.cli.options import board_options
from boardgames.kalah.game import Kalah
from boardgames.kalah.play.engine import PRESETS, presets_help
from boardgames.kalah.play.match import (
    CLASSIC_PROGRAM,
    DEFAULT_PROGRAM,
    MAX_JOBS,
    GameRecord,
    MatchTask,
    describe_spec,
    engine_ready,
    has_reference,
    parse_spec,
    play_task,
    summarise,
)

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


def _workers(where: dict[str, object]) -> str:
    n = where["workers"]
    return f"{n} worker{'s' if n != 1 else ''}"


def _describe(spec: str) -> str:
    return describe_spec(spec)


def _run_all(
    tasks: list[MatchTask],
    runner: Runner,
    checkpoint: Path | None,
    job: dict[str, object],
    console: Console,
) -> tuple[list[GameRecord], Stopped | None]:
    """The finished games, in order, and the Ctrl-C that stopped the match early (if one
    did)."""

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


def _announce_compile(game: Kalah, specs: tuple[str, str], err: Console) -> None:
    """On a first run (the engine's kernels not compiled on this machine) start their
    compile in the background and say what plays meanwhile: the pure-Python reference for
    a player that has one, else the engine once compiled in each worker."""
    configs = [parse_spec(spec) for spec in specs]
    if all(engine_ready(game, c) for c in configs):
        return
    if all(has_reference(c) for c in configs):
        err.print(
            "The compiled engine is not ready on this machine yet (a first run): it compiles "
            "in the background while the pure-Python reference search plays at the same "
            "settings.",
            highlight=False,
        )
    else:
        err.print(
            "Compiling the engine (a first run on this machine: about a minute; "
            "`boardgames cache warm kalah` does it ahead).",
            highlight=False,
        )


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
@board_options
@click.option("--jobs", type=int, default=None, show_default="one per core",
              help="Worker processes on this machine (1: play in this process); the same as "
                   "--cluster local:JOBS.")  # fmt: skip
@cluster_options("the games", otherwise="the --jobs worker processes here")
@json_option()
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
    score (win 1, draw 1/2) with a 95% confidence interval (Wilson's). Example:

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
    _announce_compile(Kalah(pits, seeds, rules), (spec_a, spec_b), err)
    t0 = time.perf_counter()
    with Runner(cluster, err) as runner:
        where = runner.as_dict()
        records, stopped = _run_all(tasks, runner, checkpoint, job, err)
    elapsed = time.perf_counter() - t0
    if stopped is not None:
        err.print(stopped_message(elapsed, len(records), games, "games"), highlight=False)
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
                "reference_moves": sum(r.reference_moves for r in records),
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
    by_reference = sum(r.reference_moves for r in records)
    if by_reference:
        moves = sum(r.moves for r in records)
        out.print(
            f"{by_reference} of {moves} moves were played by the pure-Python reference search "
            "at the same settings while the compiled engine compiled (a first run on this "
            "machine); the next match uses the engine.",
            highlight=False,
        )
    if stopped is not None:
        raise SystemExit(130)
