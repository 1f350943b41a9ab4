"""Endgame tables for the solve and review commands: which table a board gets, and
loading or building it with progress on the terminal."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import click

from boardgames.core.console import make_console
from boardgames.core.progress import (
    DAY,
    Progress,
    format_bytes,
    format_duration,
    interruptible,
    percent,
    stopped_message,
)
from boardgames.core.protocol import quote
from boardgames.kalah.exact import index, sizing
from boardgames.kalah.exact.index import MAX_TABLE_STONES, largest_stones, table_entries
from boardgames.kalah.exact.sizing import (
    AUTO_TABLE_ENTRIES,
    auto_stones,
    review_stones,
)

if TYPE_CHECKING:  # numba loads only where a solve runs
    from rich.console import Console

    from boardgames.kalah.exact.endgame import EndgameTable


def load_table(console, pits: int, stones: int, quiet: bool, empty_capture: bool = False):
    """The endgame table from the cache, or built now. Before a build, stderr says how big
    the table will be, about how long it takes and that it is cached once; the build and
    a long load show their progress there. Ctrl-C raises
    :class:`~boardgames.core.progress.Stopped` and leaves no table file behind."""
    from boardgames.kalah.exact import endgame, tablefile

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
    problem = tablefile.disk_space_problem(pits, stones, plan.folder)
    if problem is not None:
        raise click.UsageError(problem)
    # compile (or load) the build's kernels on a one-pit table first, so that the build
    # announced below is interrupted between batches, never inside numba's compiler
    endgame.build(1, 2, "classic", None, empty_capture)
    label = f"Endgame table of {stones} stones"
    bars: list[Progress] = []

    def stopped() -> str:
        share = percent(bars[0].fraction() or 0.0) if bars else percent(0.0)
        return stopped_message(
            time.perf_counter() - t0,
            extra=f": the endgame table was {share} built; nothing was saved",
        )

    # Ctrl-C is taken from the announcement on: a stop just after it says how far it got
    with interruptible(stopped):
        if plan.seconds >= 1 or not quiet:
            grow = f" on top of the cached {plan.base}-stone table" if plan.base is not None else ""
            beyond = " (more than a day)" if plan.seconds > DAY else ""
            err.print(
                f"Building the endgame table of up to {stones} stones on {pits} pits{grow}: "
                f"{plan.entries:,} positions, {size} in memory and on disk, about "
                f"{format_duration(plan.seconds)}{beyond}. Built once, then cached in "
                f"{plan.folder}. Ctrl-C stops it (nothing is saved).",
                highlight=False,
                soft_wrap=True,
            )
        with Progress(
            label, plan.to_build, "positions", console=err, estimate=plan.seconds, warn_after=None
        ) as bar:
            bars.append(bar)

            def progress(n: int, top: int, done: float) -> None:
                bar.update(done * plan.to_build, detail=f"level {n} of {top}")

            table = endgame.load_or_build(
                pits, stones, progress=progress, empty_capture=empty_capture, note=note
            )
    if not quiet:
        console.print(
            f"Endgame tables: up to {stones} stones, {plan.entries:,} positions "
            f"({table.nbytes / 2**20:.1f} MiB), built in {table.build_seconds:.1f} s, "
            + (f"cached at {plan.path}" if plan.path.exists() else "not cached (see above)")
        )
    return table


def endgame_option(f):
    return click.option(
        "--endgame",
        "endgame_spec",
        default="auto",
        show_default=True,
        help="Endgame tables: stones left in the pits they cover (0: none; auto: the "
        f"largest of at most {AUTO_TABLE_ENTRIES // 10**6} M positions and half the stones "
        "plus two, or a bigger cached one). Classic rules only; built once (on top of a "
        "smaller cached one) and cached in $BOARDGAMES_CACHE, else ~/.cache/boardgames.",
    )(f)


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
        roomy = sizing.available_memory() // 2
        bigger = [
            k
            for k in endgame.cached_stones(pits, "classic", empty_capture)
            if k > stones and index.table_entries(pits, k) <= roomy
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
                offsets = index.level_bounds(pits, stones)
                table = dataclasses.replace(
                    big,
                    stones=stones,
                    table=big.table[: int(offsets[-1])].copy(),
                    offsets=offsets,
                    binom=index.binomials(stones + 2 * pits + 2),
                )
                return table, f"cut from the cached {k}-stone table"
    table = load_table(console, pits, stones, quiet, empty_capture)
    return table, "cache" if plan.cached else "built"


def table_stones(
    spec: str,
    pits: int,
    total: int,
    rules: str,
    empty_capture: bool,
    review: bool = False,
    memory: bool = True,
) -> int:

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
    available = sizing.available_memory()
    if memory and need > available:
        fits = largest_stones(pits, available, stones)
        raise click.UsageError(
            f"an endgame table of {stones} stones on {pits} pits needs {need / 1e9:.1f} GB "
            f"and {available / 1e9:.1f} GB are available; the largest that fits is --endgame {fits}"
        )
    return stones
