"""``boardgames kalah review``: every move of a game record valued, exact where the
solver reaches."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from boardgames.cli.options import OUTPUT_FILE, json_option, say_written
from boardgames.core.console import file_name, make_console, print_json
from boardgames.core.files import check_output, not_a_regular_file
from boardgames.core.progress import Progress, Stopped, run_in_thread, stopped_message
from boardgames.core.protocol import describe_score, score_margin
from boardgames.core.svg import SVG, EvalPoint, evaluation_graph, write_svg
from boardgames.core.tables import Col, FitTable
from boardgames.core.text import printable
from boardgames.kalah.cli.options import load_record
from boardgames.kalah.cli.tables import review_table, table_stones
from boardgames.kalah.exact.index import pit_stones, table_entries
from boardgames.kalah.exact.sizing import (
    REVIEW_TABLE_ENTRIES,
    estimate_positions,
    largest_stones_for_review,
    quick_stones,
    review_stones,
)

if TYPE_CHECKING:  # numba loads only where a review runs
    from boardgames.core.protocol import State
    from boardgames.kalah.analysis.review import Reviewer
    from boardgames.kalah.game import Kalah
    from boardgames.kalah.record import Record, ReplayStep


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
@json_option()
@click.option(
    "--plot",
    "plot_path",
    type=OUTPUT_FILE,
    default=None,
    help="Also draw the evaluation graph into this SVG file: the value after every move for "
    "the side that moved, exact values solid, depth-limited ones dashed, bounds as "
    "triangles, mistakes and inaccuracies marked.",
)
def review(
    file: Path,
    depth: int,
    exact_nodes: int,
    endgame_spec: str,
    quick: bool,
    as_json: bool,
    plot_path: Path | None,
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
    --quick builds nothing and uses whatever the cache holds. --plot draws the values as
    an evaluation graph (SVG). On a first run (the fast solver not compiled on this
    machine yet) a small board is reviewed by the pure-Python solver, every move exact,
    while the fast one compiles in the background.
    """
    from boardgames.kalah.analysis.review import PLURALS, VERDICTS, Reviewer

    if quick and endgame_spec != "auto":
        raise click.UsageError("--quick uses the tables in the cache; leave out --endgame")
    if (
        plot_path is not None
        and plot_path.suffix.lower() != ".svg"
        and not_a_regular_file(plot_path) is None  # a device or a pipe takes any name
    ):
        raise click.UsageError(f"--plot {plot_path}: the graph is SVG; give a name ending in .svg")
    check_output("--plot", plot_path)
    record, steps, _ = load_record(file)
    game = record.game
    console = make_console(stderr=as_json)
    pits, total, ec = game.pits, game.total_stones, game.empty_capture
    why = ""
    rows = (
        _first_run_rows(game, record, steps, depth)
        if _first_run(game, quick, endgame_spec, exact_nodes)
        else None
    )
    if rows is not None:
        stones, source = 0, "first run"
        why = (
            " (a first run: the pure-Python solver valued every move while the fast one "
            "compiles in the background)"
        )
    elif game.rules != "classic":
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
        stones = table_stones(endgame_spec, pits, total, game.rules, ec)
    if rows is None:
        table, source = review_table(console, pits, stones, as_json, ec)
        reviewer = Reviewer(game, table, depth=depth, exact_nodes=exact_nodes)
        rows = _review_with_progress(reviewer, game.initial_state(record.first), steps)
    exact = sum(1 for r in rows if r["exact"])
    tables = _tables_text(pits, stones, source) + why
    if plot_path is not None:
        write_svg(plot_path, evaluation_plot(rows, file.name), "the graph")
        say_written("Evaluation graph", plot_path, as_json)
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


def evaluation_plot(rows: list[dict], name: str) -> SVG:
    """The review's rows as an evaluation graph: each move's value after it for the side
    that moved (A's moves one line, B's the other), in stones: an exact margin; a bound
    (a won or lost game seen by the depth-limited search: at least / at most that
    margin); else the search's estimate (the store lead)."""
    points = []
    for r in rows:
        exact = bool(r["exact"])
        after = int(r["after"])
        margin = score_margin(after)
        if exact:
            kind, value = "exact", float(after)
        elif r.get("after_bound") in ("lower", "upper") and margin is not None:
            kind, value = str(r["after_bound"]), float(margin)
        else:
            kind, value = "estimate", float(after if margin is None else margin)
        verdict = str(r["verdict"])
        how = "exact" if exact else f"depth {r['depth']}"
        note = (
            f"move {r['move']}, {r['player']}: {' '.join(map(str, r['played']))}; after it "
            f"{_fmt(after, exact)} ({how}); best {' '.join(map(str, r['best']))}; "
            f"{verdict}" + (f", lost {r['loss']}" if r["loss"] else "")
        )
        points.append(
            EvalPoint(
                move=int(r["move"]),
                series=0 if r["player"] == "A" else 1,
                value=value,
                kind=kind,
                mark=None if verdict == "best" else verdict,
                loss=int(r["loss"]),
                note=note,
                data=(("player", str(r["player"])), ("played", " ".join(map(str, r["played"])))),
            )
        )
    return evaluation_graph(
        points,
        series=["A's moves", "B's moves"],
        heading=f"Review of {printable(name, 60)}: the value after every move",
        y_title="stones, for the side that moved",
    )


def _tables_text(pits: int, stones: int, source: str) -> str:
    """``Endgame table: 20 stones on 6 pits (225,792,840 positions, built)``."""

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


def _fmt(value: int, exact: bool) -> str:
    return f"{value:+d}" if exact else describe_score(value)


def _first_run(game: Kalah, quick: bool, endgame_spec: str, exact_nodes: int) -> bool:
    """A first run on this machine (the fast solver not compiled), a board small enough
    for the pure-Python solver, and a review that values moves exactly with the default
    tables: the fast solver's compile is started in the background (True), the review
    then tries :class:`~boardgames.kalah.analysis.review.QuickReviewer`."""
    from boardgames.core import warmup
    from boardgames.kalah.cli.solve import QUICK_ESTIMATE

    if quick or endgame_spec != "auto" or exact_nodes == 0 or warmup.is_ready("kalah"):
        return False
    state = game.initial_state()
    if estimate_positions(game.pits, pit_stones(state, game.pits), 0) > QUICK_ESTIMATE:
        return False
    return warmup.warm_in_background("kalah")


def _first_run_rows(
    game: Kalah, record: Record, steps: list[ReplayStep], depth: int
) -> list[dict] | None:
    """Every move's row from the pure-Python solver, or None when the game needs more
    positions than it may examine (the fast solver is then compiled here, the background
    compile stopped: this process does that work)."""
    from boardgames.core import warmup
    from boardgames.kalah.analysis.review import QuickReviewer
    from boardgames.kalah.exact.quick import NodeLimit

    try:
        return _review_with_progress(
            QuickReviewer(game, depth=depth), game.initial_state(record.first), steps
        )
    except NodeLimit:
        warmup.stop_background()
        make_console(stderr=True).print(
            "(too many positions for the pure-Python solver: the fast solver is compiled "
            "now, once per machine)",
            highlight=False,
        )
        return None


def _review_with_progress(reviewer: Reviewer, start: State, steps: list[ReplayStep]) -> list[dict]:
    """Every move's row, the review running in a worker thread so that the main thread
    shows the progress on stderr and stops it within a second of Ctrl-C (the solver's
    search ends at once; the line says how many moves were reviewed)."""
    rows: list[dict] = []

    def work() -> None:
        state = start
        for k, step in enumerate(steps, 1):
            rows.append(reviewer.review_move(state, step.pits, k))
            state = step.state

    t0 = time.perf_counter()
    with Progress(
        "Reviewing the game", len(steps), "moves", console=make_console(stderr=True)
    ) as bar:
        try:
            run_in_thread(
                work, stop=reviewer.stop, tick=lambda: bar.update(len(rows)), stop_wait=1.0
            )
        except KeyboardInterrupt:
            raise Stopped(
                stopped_message(time.perf_counter() - t0, len(rows), len(steps), "moves")
            ) from None
    return rows
