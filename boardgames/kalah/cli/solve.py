"""``boardgames kalah solve``: the exact value of a position under perfect play."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from boardgames.cli.options import json_option
from boardgames.core import warmup
from boardgames.core.console import make_console, print_json
from boardgames.core.progress import (
    DAY,
    Progress,
    format_count,
    format_duration,
    interruptible,
    stopped_message,
)
from boardgames.kalah.cli.options import plural, position, position_options, setup_text
from boardgames.kalah.cli.solve_jobs import job_options, run_job_solve
from boardgames.kalah.cli.solve_jobs import wanted as job_solve_wanted
from boardgames.kalah.cli.tables import endgame_option, load_table, table_stones
from boardgames.kalah.exact import sizing
from boardgames.kalah.exact.index import pit_stones
from boardgames.kalah.exact.quick import NodeLimit, QuickSolver
from boardgames.kalah.exact.sizing import (
    SOLVE_RATE,
    TINY_POSITIONS,
    default_hash_mb,
    estimate_positions,
)
from boardgames.kalah.game import PLAYER_NAMES, Kalah, score_text
from boardgames.kalah.play.guess import FirstGuess
from boardgames.kalah.play.warm import GUESS_STEP, SOLVER_STEP

if TYPE_CHECKING:  # numba loads only where a solve runs
    import numpy as np
    from rich.console import Console

    from boardgames.core.cluster import ClusterSpec
    from boardgames.kalah.exact.solver import Solver, SolveResult
    from boardgames.kalah.play.guess import FirstGuess


@click.command()
@position_options("Solve this position instead of the start: all holes in RULES.md order.")
@click.option(
    "--hash",
    "hash_mb",
    type=click.FloatRange(1, 65536),
    default=None,
    help="Transposition table size in MiB  [default: 64 up to 30 stones in the pits, "
    "else 256; bigger tables keep more but every probe costs more]",
)
@endgame_option
@click.option(
    "--empty-capture",
    is_flag=True,
    help="Classic-rules variant of 'Solving Kalah' (Irving et al. 2000): a last stone in an "
    "own empty pit is captured even when the pit opposite is empty.",
)
@click.option(
    "--threads",
    type=click.IntRange(1, 64),
    default=None,
    help="Search threads sharing the transposition table  [default: the machine's cores]",
)
@job_options
@json_option()
def solve(
    pits: int,
    seeds: int,
    rules: str,
    board: str | None,
    to_move: str,
    hash_mb: float | None,
    endgame_spec: str,
    empty_capture: bool,
    threads: int | None,
    cluster: ClusterSpec | None,
    checkpoint_dir: Path | None,
    at_least: int | None,
    at_most: int | None,
    job_nodes: int | None,
    endgame_mmap: bool,
    endgame_dir: Path | None,
    as_json: bool,
) -> None:
    """Exact value of a position under perfect play by both sides.

    The value is the final margin (own store minus the opponent's at the end) for the
    player to move; the best move is a compound move that keeps it (the one the search
    proved). The search (MTD(f): null-window tests that close in on the value) shows on
    stderr its bounds, the positions searched and a rough estimate of the time left, and
    says first when that estimate is long; Ctrl-C stops it (status 130). A finished game,
    or one with few stones left in the pits, is answered at once, without endgame tables.
    Boards up to 6 x 3 take seconds once the endgame tables are built and cached; 6 x 4
    about 17 s with the 20-stone tables --endgame auto builds (35 s, once), about half
    the positions with 22 (--endgame 22, 4.5 minutes) and 2-3 s with 27 (--endgame 26, built once in
    half an hour, then --endgame 27, 10 minutes more); 6 x 5 about 5 minutes with 30
    (--endgame 30, 50 minutes more). A table takes its size in memory (27 stones: 3.9 GB,
    30: 11 GB).

    With --cluster, --checkpoint-dir, --at-least or --at-most the solve runs as jobs
    (null-window questions answered by this solver on the workers, combined by a front end here; see
    docs/sections/solver.md): on many machines, resumable from DIR, or one bound only.
    """
    if empty_capture and rules != "classic":
        raise click.UsageError("--empty-capture is a variant of the classic rules")
    if rules != "classic" and endgame_spec not in ("auto", "0"):
        raise click.UsageError("endgame tables exist for the classic rules only (--endgame 0)")
    if hash_mb is not None and cluster is None:  # (on a cluster the workers hold it)
        available = sizing.available_memory()
        if hash_mb * 2**20 > available // 2:
            raise click.UsageError(
                f"--hash {hash_mb:g} MiB is more than half the memory available "
                f"({available / 2**20:,.0f} MiB); give at most --hash {available // 2**21:,}"
            )
    game, state = position(pits, seeds, rules, board, to_move, empty_capture=empty_capture)
    side = game.to_move(state)  # --to-move, or the board's last word A or B
    pits = game.pits
    total = int(state[: 2 * pits + 2].sum())
    console = make_console(stderr=as_json)
    err = make_console(stderr=True)
    stores = game.final_stores(state)
    base = {
        "pits": pits,
        "seeds": seeds if board is None else None,
        "rules": rules,
        "empty_capture": empty_capture,
        "to_move": PLAYER_NAMES[side],
    }
    if stores is not None:  # nothing to search, no tables to build, no numba to load
        _print_finished(console, game, state, base, side, as_json)
        return
    jobs = job_solve_wanted(cluster, checkpoint_dir, at_least, at_most)
    # a fresh machine: before anything that compiles (the table's cache key too); the
    # solver's steps may be compiled already (an earlier solve compiled them aside)
    unready = [s for s in (SOLVER_STEP, GUESS_STEP) if not warmup.step_ready("kalah", s)]
    fresh = SOLVER_STEP in unready
    # a board far beyond the pure-Python solver goes to the numba solver at once
    big = estimate_positions(pits, pit_stones(state, pits), 0) > QUICK_ESTIMATE
    quick = endgame_spec == "auto" and not jobs and fresh and not big
    if quick and _solve_before_compiling(game, state, base, console, err, as_json):
        return
    from boardgames.kalah.exact.solver import Solver

    # on a cluster the workers load the tables: this machine's memory does not matter
    stones = table_stones(endgame_spec, pits, total, rules, empty_capture, memory=cluster is None)
    # the solver's kernels (and its first guess's) compile in a process of their own, on
    # the other core, while this one compiles and builds the endgame table; they are loaded
    # from the cache after
    aside = None
    if unready and not jobs:
        if big and fresh:
            err.print(
                "(a board this big needs the fast solver: it is compiled now, once per "
                "machine; boardgames cache warm kalah does it ahead)",
                highlight=False,
                soft_wrap=True,
            )
        aside = warmup.compile_aside(*unready)
    left = pit_stones(state, pits)
    if stones > 0 and estimate_positions(pits, left, 0) <= TINY_POSITIONS:
        if endgame_spec != "auto" and not as_json:
            err.print(f"Only {left} stones in the pits: solved at once, without endgame tables.")
        stones = 0
    threads = threads or os.cpu_count() or 1
    what = f"{setup_text(pits, seeds)} ({rules})" if board is None else "the position"
    if jobs:
        run_job_solve(
            pits=pits, rules=rules, empty_capture=empty_capture, state=state, base=base,
            what=what, cluster=cluster, checkpoint=checkpoint_dir, at_least=at_least,
            at_most=at_most, job_nodes=job_nodes, endgame_spec=endgame_spec,
            endgame_dir=endgame_dir, endgame_mmap=endgame_mmap, stones=stones, as_json=as_json,
            hash_mb=hash_mb or default_hash_mb(left),
        )  # fmt: skip
        return
    table = load_table(console, pits, stones, as_json, empty_capture)
    if hash_mb is None:
        hash_mb = default_hash_mb(left)
    with interruptible(lambda: "Stopped (Ctrl-C) while loading the solver."):
        solver = Solver(
            pits,
            rules,
            hash_mb=hash_mb,
            endgame=table,
            empty_capture=empty_capture,
            threads=threads,
        )
        guess = FirstGuess(Kalah(pits, 1, rules, empty_capture=empty_capture))
        with Progress("Loading the solver (compiled once, then cached)", console=err, delay=3):
            t0 = time.perf_counter()
            warmup.wait_aside(aside)
            jit_seconds = time.perf_counter() - t0 + solver.warm_up() + guess.warm_up()
    result = _solve_with_progress(solver, state, what, pits, left, stones, threads, err, guess)
    data = {
        **base,
        "value": result.value,
        "best": result.best,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 3),
        "endgame_stones": stones,
        "endgame_hits": result.db_hits,
        "table_hits": result.tt_hits,
        "passes": len(result.passes),
        "threads": threads,
        "jit_seconds": round(jit_seconds, 3),
        "solver": "numba",
    }
    if as_json:
        print_json(data)
        return
    _print_value(console, side, result.value)
    if result.best:
        console.print(f"Best move: {' '.join(map(str, result.best))}")
    rate = result.nodes / max(result.seconds, 1e-9)
    console.print(
        f"{plural(result.nodes, 'position')} in {result.seconds:.2f} s"
        + (f" ({rate / 1e6:.2f} M/s)" if result.nodes >= 100_000 else "")
        + f" on {plural(threads, 'thread')}; "
        + f"{len(result.passes)} null-window pass{'' if len(result.passes) == 1 else 'es'}; "
        "answered by the endgame "
        f"tables: {result.db_hits:,}, by the transposition table: {result.tt_hits:,}"
    )


QUICK_NODES = 400_000
"""Positions the pure-Python solver may examine on a fresh machine (about 2 s) before the
numba solver is compiled instead."""
QUICK_ESTIMATE = 25 * QUICK_NODES
"""The pure-Python solver is not tried where the estimate of a solve's positions
(``estimate_positions``, usually within a factor 3 of what the numba solver searches) is
above this: 5 x 4, 6 x 3 and bigger boards (6 x 4: 1.4e9)."""


def _solve_before_compiling(
    game: Kalah, state: np.ndarray, base: dict, console: Console, err: Console, as_json: bool
) -> bool:
    """On a fresh machine: solve a small board exactly in pure Python while the numba
    solver is compiled in the background (True: answered). A board too big for it (more
    than :data:`QUICK_NODES` positions) is left to the numba solver, compiled here and
    now; the background compile is then stopped, as this one does the work."""
    if not warmup.warm_in_background("kalah"):
        return False
    pits = game.pits
    side = int(state[-1])
    quick = QuickSolver(pits, game.rules, game.empty_capture)
    board = [int(x) for x in state[: 2 * pits + 2]]
    t0 = time.perf_counter()
    try:
        with interruptible(
            lambda: stopped_message(
                time.perf_counter() - t0, extra=f": {quick.nodes:,} positions searched"
            )
        ):
            result = quick.solve(board, side, QUICK_NODES)
            best = quick.best_line(board, side, result.value)
    except NodeLimit:
        warmup.stop_background()
        err.print(
            f"(more than {QUICK_NODES:,} positions for the pure-Python solver: the fast "
            "solver is compiled now, once per machine)",
            highlight=False,
            soft_wrap=True,
        )
        return False
    seconds = time.perf_counter() - t0
    err.print(
        "(solved exactly by the pure-Python solver while the fast one is compiled in the "
        "background for bigger boards: boardgames cache warm kalah)",
        highlight=False,
        soft_wrap=True,
    )
    if as_json:
        print_json(
            {
                **base,
                "value": result.value,
                "best": best,
                "nodes": result.nodes,
                "seconds": round(seconds, 3),
                "endgame_stones": 0,
                "endgame_hits": 0,
                "table_hits": 0,
                "passes": result.passes,
                "threads": 1,
                "jit_seconds": 0.0,
                "solver": "python",
            }
        )
        return True
    _print_value(console, side, result.value)
    if best:
        console.print(f"Best move: {' '.join(map(str, best))}")
    console.print(
        f"{plural(result.nodes, 'position')} in {seconds:.2f} s (pure Python, one thread); "
        f"{result.passes} null-window pass{'' if result.passes == 1 else 'es'}"
    )
    return True


def _print_value(console: Console, side: int, value: int) -> None:
    mover = PLAYER_NAMES[side]
    verdict = (
        f"{mover} wins by {value}"
        if value > 0
        else f"{mover} loses by {-value}"
        if value < 0
        else "a draw"
    )
    console.print(f"Value for {mover} (to move): [bold]{value:+d}[/] ({verdict} with perfect play)")


def _print_finished(
    console: Console, game: Kalah, state: np.ndarray, base: dict, side: int, as_json: bool
) -> None:
    """A finished game: its final margin, at once (no search, no tables)."""
    value = int(game.outcome(state) or 0)
    if as_json:
        print_json(
            {
                **base,
                "value": value,
                "best": [],
                "nodes": 0,
                "seconds": 0.0,
                "endgame_stones": 0,
                "endgame_hits": 0,
                "table_hits": 0,
                "passes": 0,
                "threads": 0,
                "jit_seconds": 0.0,
                "solver": "none",
            }
        )
        return
    scores, result_text = score_text(game, state)
    console.print(f"The game is over: {scores}: {result_text}.")
    _print_value(console, side, value)


def _solve_with_progress(
    solver: Solver,
    state: np.ndarray,
    what: str,
    pits: int,
    left: int,
    stones: int,
    threads: int,
    err: Console,
    guess: FirstGuess,
) -> SolveResult:
    """Solve in a worker thread, the main thread drawing the progress on stderr (positions
    searched against the estimate, the bounds so far) and catching Ctrl-C."""
    from boardgames.kalah.exact.solver import NODES, solve_in_thread

    positions = estimate_positions(pits, left, stones)
    seconds = positions / (SOLVE_RATE * threads)
    label = f"Solving {what}"
    bounds = ["-inf", "+inf"]
    t0 = time.perf_counter()

    def report(lower: int, upper: int) -> None:
        bounds[:] = [str(lower), str(upper)]

    def stopped() -> str:
        return stopped_message(
            time.perf_counter() - t0,
            extra=f": {solver.count(NODES):,} positions searched; the value was in "
            f"[{bounds[0]}, {bounds[1]}]",
        )

    # from the estimate line on, a Ctrl-C says how far the solve got
    with interruptible(stopped):
        if seconds >= 60:
            beyond = " (more than a day)" if seconds > DAY else ""
            err.print(
                f"{label}: about {format_count(positions)} positions by a rough estimate "
                f"(within a factor of a few on boards up to 6 x 5), about "
                f"{format_duration(seconds)}{beyond}. Ctrl-C stops.",
                highlight=False,
                soft_wrap=True,
            )
        with Progress(
            label, positions, "positions", console=err, estimate=seconds, warn_after=None
        ) as bar:

            def tick() -> None:
                bar.update(solver.count(NODES), detail=f"value in [{bounds[0]}, {bounds[1]}]")

            return solve_in_thread(solver, state, report, tick, guess)
