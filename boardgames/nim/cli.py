"""``boardgames nim``: play Nim against Bouton's strategy, analyse positions, compare."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from boardgames.cli.options import OUTPUT_FILE, json_option
from boardgames.core.console import EndOfInput, ask, confirm, make_console, print_json
from boardgames.core.progress import Progress, interruptible, stopped_message
from boardgames.core.protocol import GameError
from boardgames.core.tables import Col, FitTable
from boardgames.nim.game import (
    DEFAULT_MAX_CHIPS,
    DEFAULT_MAX_ROWS,
    DEFAULT_ROWS,
    Nim,
    check_limits,
    parse_rows,
)
from boardgames.nim.rules import (
    binary,
    bit_columns,
    column_counts,
    describe_move,
    explain_move,
    is_safe,
    nim_sum,
    winning_moves,
)
from boardgames.nim.verify import mcts_against_bouton, verify_bouton

ROWS_HELP = "Chips in each row, e.g. 3 4 5 (the default)."


def _limit_options(f: click.decorators.FC) -> click.decorators.FC:
    f = click.option(
        "--max-chips",
        default=DEFAULT_MAX_CHIPS,
        show_default=True,
        help="Most chips a row may hold.",
    )(f)
    f = click.option(
        "--max-rows",
        default=DEFAULT_MAX_ROWS,
        show_default=True,
        help="Most rows a layout may have.",
    )(f)
    return click.option(
        "--misere", is_flag=True, help="Misère play: whoever takes the last chip loses."
    )(f)


def _make_game(rows: tuple[int, ...], misere: bool, max_rows: int, max_chips: int) -> Nim:
    """The game; a layout over the limits says which of ``nim``'s options raises them (the
    generic commands have no such options: the game's own message does not name them)."""
    try:
        return Nim(rows, misere, max_rows, max_chips)
    except GameError as e:
        hint = ""
        if len(rows) > max_rows:
            hint = " (raise the limit with --max-rows)"
        elif any(r > max_chips for r in rows):
            hint = " (raise the limit with --max-chips)"
        raise click.UsageError(f"{e}{hint}") from None


@click.group()
def nim() -> None:
    """Nim with Bouton's strategy (RULES.md section 4).

    Players take turns removing one or more chips from a single row. In normal play whoever
    takes the last chip wins; with --misere whoever takes it loses.
    """


# --- analyse ---------------------------------------------------------------------------


def binary_table(rows: tuple[int, ...]) -> Table:
    """The classic explanation: each row in binary, ones per column and their parity."""
    columns = bit_columns(rows)
    counts = column_counts(rows)
    table = Table(title="Binary table", title_justify="left", box=None)
    table.add_column("row", justify="right", style="cyan")
    table.add_column("chips", justify="right")
    for c in columns:
        table.add_column(str(c), justify="center")
    for i, r in enumerate(rows, 1):
        bits = [Text("1", style="bold") if r & c else Text("0", style="dim") for c in columns]
        table.add_row(str(i), str(r), *bits, end_section=i == len(rows))
    table.add_row("ones", "", *(str(n) for n in counts))
    parity = [
        Text("odd", style="bold red") if n % 2 else Text("even", style="green") for n in counts
    ]
    table.add_row("parity", "", *parity)
    return table


def analysis(rows: tuple[int, ...], misere: bool) -> dict[str, object]:
    """The facts that ``nim analyse`` prints (also its JSON object)."""
    return {
        "rows": list(rows),
        "misere": misere,
        "nim_sum": nim_sum(rows),
        "to_move_wins": not is_safe(rows, misere),
        "winning_moves": [{"row": m.row + 1, "take": m.take} for m in winning_moves(rows, misere)],
    }


@nim.command()
@click.argument("rows", nargs=-1, required=True)
@_limit_options
@json_option()
def analyse(
    rows: tuple[str, ...], misere: bool, max_rows: int, max_chips: int, as_json: bool
) -> None:
    """Explain a position: binary table, nim-sum, and every winning move.

    ROWS are the chips left in each row (0 allowed for an emptied row), e.g.
    `boardgames nim analyse 3 4 5`.
    """
    try:
        check_limits(max_rows, max_chips)
        counts = parse_rows(rows)
    except GameError as e:
        raise click.UsageError(str(e)) from None
    if len(counts) > max_rows:
        raise click.UsageError(f"{len(counts)} rows given; at most {max_rows} (see --max-rows)")
    for i, r in enumerate(counts, 1):
        if not 0 <= r <= max_chips:
            raise click.UsageError(
                f"row {i} has {r} chips; a row holds 0 to {max_chips} (see --max-chips)"
            )
    facts = analysis(counts, misere)
    if as_json:
        print_json(facts)
        return
    console = make_console()
    console.print(binary_table(counts))
    s = nim_sum(counts)
    width = max(1, max(counts).bit_length())
    console.print(f"\nNim-sum (xor of all rows): [bold]{s}[/] ({binary(s, width)})")
    mode = "misère play (last chip loses)" if misere else "normal play (last chip wins)"
    if not any(counts):
        winner = "wins" if misere else "has lost"
        console.print(f"No chips left: under {mode} the player to move {winner}.")
        return
    if facts["to_move_wins"]:
        console.print(f"Under {mode} the player to move [bold green]wins[/] with perfect play.")
        console.print("Winning moves:")
        for m in winning_moves(counts, misere):
            console.print(f"  {describe_move(m)}: {explain_move(counts, m, misere)}")
    else:
        why = (
            "an odd number of single chips is left"
            if misere and all(r <= 1 for r in counts)
            else "every binary column holds an even number of ones"
        )
        console.print(
            f"Under {mode} the player to move [bold red]loses[/] against perfect play: {why}. "
            "No winning move; the best try is to take one chip and wait for a mistake."
        )


# --- play ------------------------------------------------------------------------------


@nim.command()
@click.argument("rows", nargs=-1)
@_limit_options
@click.option(
    "--first",
    type=click.Choice(["human", "program"], case_sensitive=False),
    default="human",
    show_default=True,
    help="Who moves first.",
)
@click.option(
    "--no-escalate",
    is_flag=True,
    help="Keep the layout when you win (by default every row gets one more chip).",
)
@click.option(
    "--record",
    type=OUTPUT_FILE,
    default=None,
    help="Save the game's record to this file after every move (each new game replaces it).",
)
def play(
    rows: tuple[str, ...],
    misere: bool,
    max_rows: int,
    max_chips: int,
    first: str,
    no_escalate: bool,
    record: Path | None,
) -> None:
    """Play Nim against the program (Bouton's strategy).

    Type ROW COUNT to take COUNT chips from ROW (`2 3` takes 3 chips from row 2), or one of
    the words hint, undo, new (start again) and quit. Default layout: 3 4 5. The program
    says why it moves as it does (Bouton's nim-sums); after a win the next game has one
    more chip in every row (--no-escalate keeps the layout).
    """
    from boardgames.core.files import check_output

    try:
        check_limits(max_rows, max_chips)
        layout = parse_rows(rows) if rows else DEFAULT_ROWS
    except GameError as e:
        raise click.UsageError(str(e)) from None
    check_output("--record", record)
    game = _make_game(layout, misere, max_rows, max_chips)
    play_series(make_console(), game, first.lower() == "human", not no_escalate, record)


def harder(game: Nim) -> tuple[Nim, str]:
    """The next game after a win: one more chip in every row (up to the limit)."""
    rows = tuple(min(r + 1, game.max_chips) for r in game.rows)
    if rows == game.rows:
        return game, f"Every row is at the limit of {game.max_chips} chips already."
    note = f" (rows stop at {game.max_chips})" if any(r == game.max_chips for r in rows) else ""
    harder_game = Nim(rows, game.misere, game.max_rows, game.max_chips)
    return harder_game, f"Next game is harder: one more chip in every row{note}."


def new_layout(session: Any) -> tuple[Nim, Any] | None:
    """``new`` at Nim's prompt: ask for a layout until it is valid; an empty answer plays
    on with the present game (None)."""
    g = session.game
    while True:
        text = ask(
            session.console,
            f"New rows (1-{g.max_rows} rows of 1-{g.max_chips} chips, e.g. 3 4 5; "
            "empty to keep playing): ",
        ).strip()
        if not text:
            return None
        try:
            game = Nim(parse_rows(text), g.misere, g.max_rows, g.max_chips)
        except GameError as e:
            session.say(str(e), style="red")
            continue
        session.say(f"Nim with rows {' '.join(map(str, game.rows))}.")
        return game, game.initial_state()


def play_series(
    console: Console, game: Nim, human_first: bool, escalate: bool, record: Path | None = None
) -> None:
    """Games against Bouton's strategy through the generic play loop, one after the other
    while the person wants another; after a win the next one is harder (``escalate``).
    ``record``: where each game's record is saved after every move."""
    from boardgames.cli.play import Session
    from boardgames.core.players import find_player
    from boardgames.core.registry import plugin

    bouton = find_player(game, "bouton")
    sides = (None, bouton) if human_first else (bouton, None)
    try:
        while True:
            mode = (
                "misère: whoever takes the last chip loses"
                if game.misere
                else ("whoever takes the last chip wins")
            )
            console.print(
                f"\n[bold]Nim[/] with rows {' '.join(map(str, game.rows))} ({mode}). "
                f"{'You move' if human_first else 'I move'} first."
            )
            session = Session(
                plugin("nim"), game, game.initial_state(), sides, record, on_new=new_layout
            )
            winner = session.run()
            game = session.game
            if not session.finished:
                console.print("Goodbye.")
                return
            if winner is not None and sides[winner] is None and escalate:
                game, said = harder(game)
                console.print(said)
            if not confirm(console, "Another game?"):
                console.print("Thanks for playing.")
                return
    except EndOfInput:
        console.print("Goodbye.")


# --- compare ---------------------------------------------------------------------------


@click.command("nim")
@click.argument("rows", nargs=-1)
@click.option("--misere", is_flag=True, help="Misère play: whoever takes the last chip loses.")
@click.option(
    "--playouts", default=1000, show_default=True, type=click.IntRange(0, 10**7),
    help="Also run Monte Carlo tree search with this many playouts on every winning "
    "position (at most 500, sampled) and count its winning moves; 0: skip.",
)  # fmt: skip
@json_option()
def compare_command(rows: tuple[str, ...], misere: bool, playouts: int, as_json: bool) -> None:
    """Bouton's rule against exhaustive search on ROWS (default 3 4 5).

    Solves every position reachable from ROWS both ways, checks that they agree on who
    wins and on the winning moves, and shows the time each took. Monte Carlo tree search
    (--playouts) estimates instead: the table says how often its move is a winning one.
    """

    try:
        layout = parse_rows(rows) if rows else DEFAULT_ROWS
    except GameError as e:
        raise click.UsageError(str(e)) from None
    for i, r in enumerate(layout, 1):
        if r < 0:
            raise click.UsageError(f"row {i} has {r} chips; a row holds 0 chips or more")
    if not any(layout):
        raise click.UsageError("every row is empty; give at least one chip, e.g. 3 4 5")
    positions = 1
    for r in layout:
        positions *= r + 1
    if positions > 200_000:
        raise click.UsageError(
            f"{positions:,} positions are reachable from {' '.join(map(str, layout))}; "
            "exhaustive search is limited to 200,000"
        )
    err = make_console(stderr=True)
    t0 = time.perf_counter()
    with _step_progress("Exhaustive search", "positions", err, positions) as step:
        report = verify_bouton(layout, misere, step)
    elapsed = time.perf_counter() - t0
    mcts = None
    if playouts:
        with _step_progress(
            "Monte Carlo tree search (compiled on a machine's first run)", "searches", err
        ) as step:
            mcts = mcts_against_bouton(layout, misere, playouts, step=step)
    if as_json:
        out = {"game": "nim", "rows": list(layout), "misere": misere, **report.as_dict()}
        if mcts is not None:
            out["mcts"] = mcts.as_dict()
        print_json(out)
        if not report.agree:
            raise SystemExit(1)
        return
    console = make_console()
    table = FitTable(
        (
            Col("method"),
            Col("positions\nvisited", "right", number=True),
            Col("seconds", "right", number=True),
        ),
        title=f"Nim {' '.join(map(str, layout))}{' misère' if misere else ''}: "
        f"{report.positions:,} positions",
    )
    table.add_row("Bouton's rule (xor)", f"{report.positions:,}", f"{report.bouton_seconds:.4f}")
    table.add_row(
        "exhaustive search (alpha-beta + table, Python)",
        f"{report.search_nodes:,}",
        f"{report.search_seconds:.4f}",
    )
    console.print(table)
    if mcts is not None:
        console.print(
            f"Monte Carlo tree search, {playouts:,} playouts: a winning move in "
            f"{mcts.bouton_moves:,} of {mcts.searches:,} winning positions ({mcts.share:.0%}), "
            f"{mcts.proven:,} proven by MCTS-Solver; {mcts.seconds:.2f} s. "
            "[dim](an estimate: not part of the agreement check)[/]"
        )
    if report.agree:
        console.print(
            f"[bold green]Agree[/] on all {report.positions:,} positions: who wins and every "
            f"winning move. ({elapsed:.2f} s for the check: Bouton's rule and the "
            "exhaustive search)"
        )
    else:
        console.print(
            f"[bold red]DISAGREE[/] on {len(report.mismatches)} positions, e.g. "
            f"{report.mismatches[:3]}"
        )
        raise SystemExit(1)


@contextmanager
def _step_progress(
    label: str, unit: str, err: Console, total: int | None = None
) -> Iterator[Callable[[int, int], None]]:
    """A ``step(done, total)`` callback that draws a progress line on stderr, and a Ctrl-C
    inside the block that says how far the work got (of ``total``, when known before the
    first step)."""
    bar = Progress(label, total, unit, console=err)
    t0 = time.perf_counter()

    def step(done: int, total: int) -> None:
        bar.update(done, total)

    def stopped() -> str:
        return stopped_message(time.perf_counter() - t0, bar.done, bar.total, unit,
                               extra=f" ({label.split(' (')[0].lower()})")  # fmt: skip

    with bar, interruptible(stopped):
        yield step
