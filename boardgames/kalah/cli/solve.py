"""``boardgames kalah solve`` and ``kalah review``: exact values and game reviews."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from boardgames.cli import InputError
from boardgames.core.console import file_name, make_console, print_json
from boardgames.core.progress import (
    DAY,
    Progress,
    Stopped,
    exit_stopped,
    format_bytes,
    format_count,
    format_duration,
    interruptible,
    percent,
)
from boardgames.core.protocol import GameError, describe_score, quote
from boardgames.core.tables import Col, FitTable
from boardgames.kalah.cli import _board_options, _score_text, _setup, parse_board
from boardgames.kalah.cli.solve_jobs import job_options, run_job_solve
from boardgames.kalah.cli.solve_jobs import wanted as job_solve_wanted
from boardgames.kalah.game import PLAYER_NAMES, Kalah

if TYPE_CHECKING:  # numba loads only where a solve runs
    import numpy as np
    from rich.console import Console

    from boardgames.core.cluster import ClusterSpec
    from boardgames.kalah.exact.endgame import EndgameTable
    from boardgames.kalah.exact.solver import Solver, SolveResult

SMALL_HASH_MB = 64
"""Default table (MiB) for positions of at most 30 stones: a bigger one costs more to
clear (the memory is touched page by page) than the search takes."""
HASH_MB = 256
"""Default table (MiB) for more stones. Bigger is not faster: on 6 x 4 a 1 GiB table
saved 5% of the positions and took 14% longer (every probe is a cache miss, and a bigger
table misses the TLB too); the endgame tables do more for big boards."""


def default_hash_mb(stones: int) -> int:
    """The transposition table ``kalah solve`` takes for ``stones`` stones in the pits."""
    return SMALL_HASH_MB if stones <= 30 else HASH_MB


AUTO_TABLE_ENTRIES = 600_000_000
"""With ``--endgame auto``: the largest table of at most this many entries (bytes), and
of at most a quarter of the memory available (a bigger cached one may take up to three
quarters)."""


def auto_stones(pits: int, total: int, empty_capture: bool = False) -> int:
    """The endgame-table stone limit ``--endgame auto`` picks for a board: the largest
    table of at most :data:`AUTO_TABLE_ENTRIES` positions and at most half the stones
    plus two (on 6 pits 20 stones for 6 x 3, 226 M positions built once in under a
    minute, and 22 from 6 x 4 up, 548 M in about 4 minutes; a table that covers more of
    a small board costs more to build than it saves) and a quarter of the available
    memory, or a bigger one already in the cache (``--endgame 30`` builds one) of at most
    half the stones plus four, since a cached table costs only its loading (a few
    seconds a GB from the disk), that leaves a quarter of the available memory free."""
    from boardgames.kalah.exact.endgame import (
        MAX_TABLE_STONES,
        cached_stones,
        largest_stones,
        table_entries,
    )

    available = _available_memory()
    top = min(total - 1, total // 2 + 2, MAX_TABLE_STONES)
    built = largest_stones(pits, min(AUTO_TABLE_ENTRIES, available // 4), top)
    top_cached = min(total - 1, total // 2 + 4, MAX_TABLE_STONES)
    cached = [
        k
        for k in cached_stones(pits, "classic", empty_capture)
        if k <= top_cached and table_entries(pits, k) <= available * 3 // 4
    ]
    return max([built, *cached])


def _available_memory() -> int:
    """Bytes of memory available now, the page cache counted as available (it is given
    back on demand, and a table just built or read fills it); 1 GiB assumed where the
    system does not say."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 2**30


def load_table(console, pits: int, stones: int, quiet: bool, empty_capture: bool = False):
    """The endgame table from the cache, or built now. Before a build, stderr says how big
    the table will be, about how long it takes and that it is cached once; the build and
    a long load show their progress there. Ctrl-C raises
    :class:`~boardgames.core.progress.Stopped` and leaves no table file behind."""
    from boardgames.kalah.exact import endgame

    if stones <= 0:
        return None
    err = make_console(stderr=True)

    def note(text: str) -> None:
        err.print(text, highlight=False, soft_wrap=True)

    plan = endgame.build_plan(pits, stones, "classic", empty_capture)
    size = format_bytes(plan.nbytes)
    t0 = time.perf_counter()
    if plan.cached:
        label = f"Loading the cached endgame table of {stones} stones ({size})"
        try:
            with (
                Progress(label, console=err),
                interruptible(lambda: f"Stopped (Ctrl-C) while {label[0].lower()}{label[1:]}."),
            ):
                table = endgame.load_cached(pits, stones, empty_capture=empty_capture)
            if not table.verified and not quiet:
                note(endgame.unverified_note(table))
            return table
        except (OSError, ValueError) as e:  # never used: rebuilt below, with its progress
            note(endgame.damaged_note(pits, stones, e))
            plan.path.unlink(missing_ok=True)
            plan = endgame.build_plan(pits, stones, "classic", empty_capture)
    problem = endgame.disk_space_problem(pits, stones, plan.path.parent)
    if problem is not None:
        raise click.UsageError(problem)
    # compile (or load) the build's kernels on a one-pit table first, so that the build
    # announced below is interrupted between batches, never inside numba's compiler
    endgame.build(1, 2, "classic", None, empty_capture)
    if plan.seconds >= 1 or not quiet:
        grow = f" on top of the cached {plan.base}-stone table" if plan.base is not None else ""
        beyond = " (more than a day)" if plan.seconds > DAY else ""
        err.print(
            f"Building the endgame table of up to {stones} stones on {pits} pits{grow}: "
            f"{plan.entries:,} positions, {size} in memory and on disk, about "
            f"{format_duration(plan.seconds)}{beyond}. Built once, then cached in "
            f"{plan.path.parent}. Ctrl-C stops it (nothing is saved).",
            highlight=False,
            soft_wrap=True,
        )
    label = f"Endgame table of {stones} stones"
    with Progress(
        label, plan.to_build, "positions", console=err, estimate=plan.seconds, warn_after=None
    ) as bar:

        def progress(n: int, top: int, done: float) -> None:
            bar.update(done * plan.to_build, detail=f"level {n} of {top}")

        def stopped() -> str:
            share = percent(bar.fraction() or 0.0)
            return (
                f"Stopped (Ctrl-C) after {format_duration(time.perf_counter() - t0)}: the "
                f"endgame table was {share} built; nothing was saved."
            )

        with interruptible(stopped):
            table = endgame.load_or_build(
                pits, stones, progress=progress, empty_capture=empty_capture, note=note
            )
    if not quiet:
        console.print(
            f"Endgame tables: up to {stones} stones, {plan.entries:,} positions "
            f"({table.nbytes / 2**20:.1f} MiB), built in {table.build_seconds:.1f} s, "
            f"cached at {plan.path}"
        )
    return table


def _endgame_option(f):
    return click.option(
        "--endgame",
        "endgame_spec",
        default="auto",
        show_default=True,
        help="Endgame tables: stones left in the pits they cover (0: none; auto: the "
        f"largest of at most {AUTO_TABLE_ENTRIES // 10**6} M positions and half the stones "
        "plus two, or a bigger cached one). Classic rules only; built once (on top of a "
        "smaller cached one) and cached in ~/.cache/boardgames.",
    )(f)


REVIEW_TABLE_ENTRIES = 250_000_000
"""``kalah review --endgame auto`` uses the largest endgame table of at most this many
positions (bytes) that the board can use: on 6 pits the 20-stone table, 226 M positions,
built once in about 1.5-2 minutes on two cores and then cached. It uses exactly that table
whatever the cache holds (a cached table of more stones is cut down to it), so that which
moves are valued exactly, and with them the verdicts, never depend on the cache."""


def review_stones(pits: int, total: int, empty_capture: bool = False) -> int:
    """The endgame-table stone limit ``kalah review --endgame auto`` uses on a board of
    ``total`` stones: the largest table of at most :data:`REVIEW_TABLE_ENTRIES` positions
    and of no more stones than the board holds, whatever the cache holds. (Only where less
    than twice that table is free in memory is it smaller; the review then says so.)"""
    from boardgames.kalah.exact.endgame import MAX_TABLE_STONES, largest_stones

    top = min(total, MAX_TABLE_STONES)
    return largest_stones(pits, min(REVIEW_TABLE_ENTRIES, _available_memory() // 2), top)


def quick_stones(pits: int, total: int, empty_capture: bool = False) -> int:
    """``kalah review --quick``: the largest table already in the cache that ``kalah solve
    --endgame auto`` would use (nothing is built); 0 when there is none."""
    from boardgames.kalah.exact.endgame import cached_stones

    top = auto_stones(pits, total, empty_capture)
    return max((k for k in cached_stones(pits, "classic", empty_capture) if k <= top), default=0)


def review_table(
    console: Console, pits: int, stones: int, quiet: bool, empty_capture: bool = False
) -> tuple[EndgameTable | None, str]:
    """The endgame table of exactly ``stones`` stones for a review (None for 0) and where
    it came from: ``"cache"``, ``"built"`` (:func:`load_table`: announced, with its
    progress; Ctrl-C raises Stopped) or ``"cut from the cached K-stone table"``. A table's
    levels are laid out by stones, so the first levels of a bigger table are the smaller
    table, byte for byte: the review is the same as with the table built."""
    import dataclasses

    from boardgames.kalah.exact import endgame

    if stones <= 0:
        return None, "none"
    plan = endgame.build_plan(pits, stones, "classic", empty_capture)
    if not plan.cached:
        roomy = _available_memory() // 2
        bigger = [
            k
            for k in endgame.cached_stones(pits, "classic", empty_capture)
            if k > stones and endgame.table_entries(pits, k) <= roomy
        ]
        if bigger:
            k = min(bigger)
            err = make_console(stderr=True)
            label = f"Loading the cached endgame table of {k} stones (for its first {stones})"
            try:
                with (
                    Progress(label, console=err),
                    interruptible(lambda: f"Stopped (Ctrl-C) while {label[0].lower()}{label[1:]}."),
                ):
                    big = endgame.load_cached(pits, k, empty_capture=empty_capture)
            except (OSError, ValueError) as e:  # damaged: build the table instead
                err.print(endgame.damaged_note(pits, k, e), highlight=False, soft_wrap=True)
            else:
                offsets = endgame.level_bounds(pits, stones)
                table = dataclasses.replace(
                    big,
                    stones=stones,
                    table=big.table[: int(offsets[-1])].copy(),
                    offsets=offsets,
                    binom=endgame.binomials(stones + 2 * pits + 2),
                )
                return table, f"cut from the cached {k}-stone table"
    table = load_table(console, pits, stones, quiet, empty_capture)
    return table, "cache" if plan.cached else "built"


def _table_stones(
    spec: str,
    pits: int,
    total: int,
    rules: str,
    empty_capture: bool,
    review: bool = False,
    memory: bool = True,
) -> int:
    from boardgames.kalah.exact.endgame import MAX_TABLE_STONES, largest_stones, table_entries

    if rules != "classic":
        return 0
    if spec == "auto":
        if review:
            return review_stones(pits, total, empty_capture)
        return auto_stones(pits, total, empty_capture)
    if not (spec.isascii() and spec.isdecimal()) or len(spec) > 3 or int(spec) > MAX_TABLE_STONES:
        raise click.UsageError(
            f"--endgame must be auto or a number of stones 0-{MAX_TABLE_STONES}, got {quote(spec)}"
        )
    stones = int(spec)
    # a table takes its size in memory to load, and to build (the build keeps only a
    # small plan of each level beside it)
    need = table_entries(pits, stones)
    available = _available_memory()
    if memory and need > available:
        fits = largest_stones(pits, available, stones)
        raise click.UsageError(
            f"an endgame table of {stones} stones on {pits} pits needs {need / 1e9:.1f} GB "
            f"and {available / 1e9:.1f} GB are available; the largest that fits is --endgame {fits}"
        )
    return stones


@click.command()
@_board_options
@click.option(
    "--board",
    default=None,
    help="Solve this position instead of the start: all holes in RULES.md order.",
)
@click.option(
    "--to-move",
    type=click.Choice(["a", "b"], case_sensitive=False),
    default="a",
    show_default=True,
    help="Side to move (with --board, or who starts).",
)
@click.option(
    "--hash",
    "hash_mb",
    type=click.FloatRange(1, 65536),
    default=None,
    help="Transposition table size in MiB  [default: 64 up to 30 stones in the pits, "
    "else 256; bigger tables keep more but every probe costs more]",
)
@_endgame_option
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
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead.")
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
    checkpoint: Path | None,
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
    Boards up to 6 x 3 take seconds once the endgame
    tables are built and cached; 6 x 4 about 20 s with the 22-stone tables --endgame auto
    builds (5 minutes, once) and 2-3 s with 27 (--endgame 26, built once in half an hour,
    then --endgame 27, 10 minutes more); 6 x 5 about 5 minutes with 30 (--endgame 30, 50
    minutes more). A table takes its size in memory (27 stones: 3.9 GB, 30: 11 GB).

    With --cluster, --checkpoint, --at-least or --at-most the solve runs as jobs (null-window
    questions answered by this solver on the workers, combined by a front end here; see
    docs/sections/solver.md): on many machines, resumable from DIR, or one bound only.
    """
    side = 0 if to_move.lower() == "a" else 1
    if empty_capture and rules != "classic":
        raise click.UsageError("--empty-capture is a variant of the classic rules")
    ctx = click.get_current_context()
    given = [
        f"--{name}"
        for name in ("pits", "seeds")
        if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
    ]
    if board is not None and given:
        raise click.UsageError(f"--board gives the whole position; leave out {' and '.join(given)}")
    if rules != "classic" and endgame_spec not in ("auto", "0"):
        raise click.UsageError("endgame tables exist for the classic rules only (--endgame 0)")
    try:
        if board is not None:
            holes = parse_board(board)
            pits = (len(holes) - 2) // 2
            game = Kalah(pits, 1, rules, empty_capture=empty_capture)
            state = game.make_state(holes, side)
        else:
            game = Kalah(pits, seeds, rules, empty_capture=empty_capture)
            state = game.initial_state()
            state[-1] = side
    except GameError as e:
        raise click.UsageError(str(e)) from None
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
    from boardgames.kalah.exact.endgame import pit_stones
    from boardgames.kalah.exact.solver import Solver

    # on a cluster the workers load the tables: this machine's memory does not matter
    stones = _table_stones(endgame_spec, pits, total, rules, empty_capture, memory=cluster is None)
    left = pit_stones(state, pits)
    if stones > 0 and estimate_positions(pits, left, 0) <= TINY_POSITIONS:
        if endgame_spec != "auto" and not as_json:
            err.print(f"Only {left} stones in the pits: solved at once, without endgame tables.")
        stones = 0
    threads = threads or os.cpu_count() or 1
    what = f"{_setup(pits, seeds)} ({rules})" if board is None else "the position"
    if job_solve_wanted(cluster, checkpoint, at_least, at_most):
        run_job_solve(
            pits=pits, rules=rules, empty_capture=empty_capture, state=state, base=base,
            what=what, cluster=cluster, checkpoint=checkpoint, at_least=at_least,
            at_most=at_most, job_nodes=job_nodes, endgame_spec=endgame_spec,
            endgame_dir=endgame_dir, endgame_mmap=endgame_mmap, stones=stones, as_json=as_json,
            hash_mb=hash_mb or default_hash_mb(left),
        )  # fmt: skip
        return
    try:
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
            with Progress("Loading the solver (compiled once, then cached)", console=err, delay=3):
                jit_seconds = solver.warm_up()
        result = _solve_with_progress(solver, state, what, pits, left, stones, threads, err)
    except Stopped as e:
        exit_stopped(e, err)
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
    }
    if as_json:
        print_json(data)
        return
    _print_value(console, side, result.value)
    if result.best:
        console.print(f"Best move: {' '.join(map(str, result.best))}")
    rate = result.nodes / max(result.seconds, 1e-9)
    console.print(
        f"{_plural(result.nodes, 'position')} in {result.seconds:.2f} s"
        + (f" ({rate / 1e6:.2f} M/s)" if result.nodes >= 100_000 else "")
        + f" on {_plural(threads, 'thread')}; "
        + f"{len(result.passes)} null-window pass{'' if len(result.passes) == 1 else 'es'}; "
        "answered by the endgame "
        f"tables: {result.db_hits:,}, by the transposition table: {result.tt_hits:,}"
    )


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
            }
        )
        return
    scores, result_text = _score_text(game, state)
    console.print(f"The game is over: {scores}: {result_text}.")
    _print_value(console, side, value)


TINY_POSITIONS = 100_000
"""A position whose search :func:`estimate_positions` puts at most this many positions
(about a tenth of a second) is solved without endgame tables: loading or building one
would take longer than the whole search."""
SOLVE_RATE = 1e6
"""Positions the solver searches a second per thread, for the estimates (1.9-2 M/s on
2 threads for 6 x 4 and 6 x 5 with tables, 0.7-1.5 M/s without)."""


def estimate_positions(pits: int, stones: int, table_stones: int = 0) -> float:
    """A rough estimate of the positions a solve searches, ``stones`` stones in the pits,
    with endgame tables of ``table_stones`` (0: none).

    ``log10(positions) = 0.37 + 0.098 s + 0.0141 m s`` with ``s`` the stones less half
    the tables' and ``m`` the pits: a least-squares fit to the positions searched from 19
    start positions, 3 x 3 to 6 x 5 (11 without tables, measured on 2 threads on
    2026-11-23; 8 with tables, from the solver table of docs/sections/solver.md); its
    root-mean-square error is a factor 1.7, at most 3. 6 x 6 comes out at 3e13 positions
    without tables (about half a year on 2 cores) and 6e10 with the 30-stone tables.
    """
    s = max(0.0, stones - table_stones / 2)
    return 10 ** (0.37 + 0.098 * s + 0.0141 * pits * s)


def _solve_with_progress(
    solver: Solver,
    state: np.ndarray,
    what: str,
    pits: int,
    left: int,
    stones: int,
    threads: int,
    err: Console,
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
        return (
            f"Stopped (Ctrl-C) after {format_duration(time.perf_counter() - t0)}: "
            f"{solver.count(NODES):,} positions searched; the value was in "
            f"[{bounds[0]}, {bounds[1]}]."
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

            return solve_in_thread(solver, state, report, tick)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False), callback=file_name("game.klh"))
@click.option(
    "--depth",
    type=click.IntRange(1, 40),
    default=8,
    show_default=True,
    help="Search depth (compound moves) where the exact solver does not reach.",
)
@click.option(
    "--exact-nodes",
    type=click.IntRange(0, 10**12),
    default=20_000_000,
    show_default=True,
    help="Positions the exact solver may visit for one move before the review falls back "
    "to a depth-limited search (0: never exact).",
)
@click.option(
    "--endgame",
    "endgame_spec",
    default="auto",
    show_default=True,
    help="Endgame tables: stones left in the pits they cover (0: none; auto: the largest "
    f"of at most {REVIEW_TABLE_ENTRIES // 10**6} M positions the board can use, 20 stones "
    "on 6 pits, whatever the cache holds). Classic rules only; built once and cached in "
    "~/.cache/boardgames.",
)
@click.option(
    "--quick",
    is_flag=True,
    help="Build no endgame table: use the largest one already in the cache (or none). "
    "Quicker on a fresh machine, but which moves are exact then depends on the cache.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead.")
def review(
    file: Path, depth: int, exact_nodes: int, endgame_spec: str, quick: bool, as_json: bool
) -> None:
    """Review every move of a game record: value before and after, best move, verdict.

    Values are final margins for the player who moved, exact where the solver (and its
    endgame tables) reach within --exact-nodes, else from a depth-limited search at
    --depth (marked "depth N"; scores there are the program's evaluation). A move that
    lost nothing is "best", 1-2 an "inaccuracy", more a "mistake".

    The verdicts do not depend on what the cache holds: --endgame auto always uses the
    same table for a board (on 6 pits 20 stones: 226 MB, built once in about 1.5-2
    minutes with a progress bar, then cached; a cached bigger table is cut down to it).
    The last line says which table was used and how many moves stayed depth-limited.
    --quick builds nothing and uses whatever the cache holds.
    """
    from boardgames.kalah.analysis.review import PLURALS, VERDICTS, Reviewer
    from boardgames.kalah.record import read_record, replay

    if quick and endgame_spec != "auto":
        raise click.UsageError("--quick uses the tables in the cache; leave out --endgame")
    try:
        record = read_record(file)
        steps, _ = replay(record)
    except GameError as e:
        raise InputError(f"{file}: {e}") from None
    game = record.game
    console = make_console(stderr=as_json)
    pits, total, ec = game.pits, game.total_stones, game.empty_capture
    why = ""
    if game.rules != "classic":
        if endgame_spec not in ("auto", "0"):
            raise click.UsageError("endgame tables exist for the classic rules only (--endgame 0)")
        stones, why = 0, " (classic rules only)"
    elif exact_nodes == 0:
        stones, why = 0, " (--exact-nodes 0: no move is valued exactly)"
    elif quick:
        stones = quick_stones(pits, total, ec)
        why = "" if stones else " (none in the cache; --quick builds none)"
    elif endgame_spec == "auto":
        stones = review_stones(pits, total, ec)
        wanted = min(total, largest_stones_for_review(pits))
        if stones < wanted:
            why = f" (the {wanted}-stone table does not fit in the free memory)"
    else:
        stones = _table_stones(endgame_spec, pits, total, game.rules, ec)
    try:
        table, source = review_table(console, pits, stones, as_json, ec)
    except Stopped as e:
        exit_stopped(e, make_console(stderr=True))
    reviewer = Reviewer(game, table, depth=depth, exact_nodes=exact_nodes)
    rows = []
    state = game.initial_state(record.first)
    with console.status("Reviewing…") as status:
        for k, step in enumerate(steps, 1):
            status.update(f"Reviewing move {k} of {len(steps)}…")
            rows.append(reviewer.review_move(state, step.pits, k))
            state = step.state
    exact = sum(1 for r in rows if r["exact"])
    tables = _tables_text(pits, stones, source) + why
    if as_json:
        print_json(
            {
                "file": str(file),
                "rules": game.rules,
                "pits": game.pits,
                "seeds": game.seeds,
                "endgame": {"stones": stones, "source": source},
                "exact_moves": exact,
                "depth_limited_moves": len(rows) - exact,
                "moves": rows,
            }
        )
        return
    console.print(_review_table(rows, file))
    counts = {name: sum(1 for r in rows if r["verdict"] == name) for _, name in VERDICTS}
    console.print(
        f"{len(rows)} moves, {exact} valued exactly; "
        + ", ".join(f"{n} {name if n == 1 else PLURALS[name]}" for name, n in counts.items()),
        highlight=False,
    )
    limited = len(rows) - exact
    console.print(
        f"{tables}; {limited} move{'' if limited == 1 else 's'} depth-limited (depth {depth}).",
        highlight=False,
    )


def largest_stones_for_review(pits: int) -> int:
    """The stones of the table :data:`REVIEW_TABLE_ENTRIES` allows on ``pits`` pits,
    memory aside."""
    from boardgames.kalah.exact.endgame import MAX_TABLE_STONES, largest_stones

    return largest_stones(pits, REVIEW_TABLE_ENTRIES, MAX_TABLE_STONES)


def _tables_text(pits: int, stones: int, source: str) -> str:
    """``Endgame table: 20 stones on 6 pits (225,792,840 positions, built)``."""
    from boardgames.kalah.exact.endgame import table_entries

    if stones <= 0:
        return "Endgame table: none"
    where = {"cache": "from the cache", "built": "built now"}.get(source, source)
    return (
        f"Endgame table: {stones} stones on {pits} pits "
        f"({table_entries(pits, stones):,} positions, {where})"
    )


REVIEW_COLUMNS = (
    Col("#", "right", number=True),
    Col("player", "center", drop=1),
    Col("played"),
    Col("before", "right", drop=2),
    Col("after", "right"),
    Col("best", drop=3),
    Col("loss", "right", number=True),
    Col("verdict", number=True),
    Col("how", number=True),
)
"""The review's columns: the move number, the loss, the verdict and how a move was valued
are never cut; moves and values ("loss by at least 8") fold onto more lines on a narrow
terminal, and below 80 columns the player, the value before and the best move are left
out in that order, as far as needed."""


def _review_table(rows: list[dict], file: Path) -> FitTable:
    from rich.markup import escape

    table = FitTable(REVIEW_COLUMNS, title=f"Review of {escape(str(file))}", title_justify="left")
    style = {"best": "green", "inaccuracy": "yellow", "mistake": "bold red"}
    for r in rows:
        table.add_row(
            str(r["move"]),
            r["player"],
            " ".join(map(str, r["played"])),
            _fmt(r["before"], r["exact"]),
            _fmt(r["after"], r["exact"]),
            " ".join(map(str, r["best"])),
            str(r["loss"]),
            f"[{style[r['verdict']]}]{r['verdict']}[/]",
            "exact" if r["exact"] else f"depth {r['depth']}",
        )
    return table


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _fmt(value: int, exact: bool) -> str:
    return f"{value:+d}" if exact else describe_score(value)
