"""``boardgames compare kalah``: every chosen strategy x engine on the same Kalah positions."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from boardgames.cli.options import OUTPUT_FILE, json_option
from boardgames.core import warmup
from boardgames.core.compare import (
    CompareRow,
    comparison_json,
    comparison_table,
    default_engines,
    disagreements,
    mcts_table,
    parse_choice_list,
    plan,
    random_positions,
    run_comparison,
    write_plot,
)
from boardgames.core.console import make_console, print_json
from boardgames.core.files import check_output
from boardgames.core.progress import Progress, interruptible, stopped_message
from boardgames.core.protocol import Game, GameError, State
from boardgames.core.strategies import ENGINES, EXACT_STRATEGIES, STRATEGIES
from boardgames.kalah.cli.options import board_options
from boardgames.kalah.eval import EVALUATIONS
from boardgames.kalah.game import Kalah

MAX_COMPARE_DEPTH = 40


@click.command("kalah")
@board_options
@click.option(
    "--eval", "evaluation", type=click.Choice(EVALUATIONS), default="store", show_default=True,
    help="Evaluation at the search horizon.",
)  # fmt: skip
@click.option("--depth", default=4, show_default=True, help="Search depth (see --ply).")
@click.option(
    "--ply", type=click.Choice(["compound", "sowing"]), default="compound", show_default=True,
    help="Depth unit: compound moves (RULES.md) or single sowings (as other engines count).",
)  # fmt: skip
@click.option(
    "--positions", default=0, show_default=True,
    help="0: the start position; K: K positions after seeded random openings.",
)  # fmt: skip
@click.option("--seed", default=1, show_default=True, help="Seed of the random openings.")
@click.option(
    "--strategies", default=",".join(EXACT_STRATEGIES), show_default=True,
    help="Comma-separated strategies to run (also: mcts, Monte Carlo tree search).",
)  # fmt: skip
@click.option(
    "--playouts", default=20_000, show_default=True, type=click.IntRange(1, 10**9),
    help="Simulations of each mcts search (seeded with --seed).",
)  # fmt: skip
@click.option(
    "--engines", "--engine", "engines", default=default_engines(), show_default=True,
    help="Comma-separated engines: python (reference) and/or numba (--engines as in "
    "every game's compare; --engine is the older name).",
)  # fmt: skip
@click.option("--tt", "tt_mib", default=16.0, show_default=True, help="Table size in MiB.")
@json_option()
@click.option(
    "--plot", type=OUTPUT_FILE, default=None,
    help="Also write a picture (time and positions per strategy, log scale), e.g. cmp.png.",
)  # fmt: skip
def compare_command(
    pits: int,
    seeds: int,
    rules: str,
    evaluation: str,
    depth: int,
    ply: str,
    positions: int,
    seed: int,
    strategies: str,
    engines: str,
    tt_mib: float,
    playouts: int,
    as_json: bool,
    plot: Path | None,
) -> None:
    """Compare search strategies on Kalah: values, positions visited, time, speed-up.

    Every strategy is exact, so all must find the same value at the same depth; the
    command checks that (and that minimax and alphabeta choose the same move on both
    engines) and says so loudly, with exit status 1, if not. Example:

    \b
        boardgames compare kalah --seeds 4 --depth 6 --positions 5 --engine numba
    """
    check_output("--plot", plot)
    try:
        game = Kalah(pits, seeds, rules, evaluation)
    except GameError as e:
        raise click.UsageError(str(e)) from None
    if not 0 <= depth <= MAX_COMPARE_DEPTH:
        raise click.UsageError(f"--depth must be 0 to {MAX_COMPARE_DEPTH}, got {depth}")
    if not 0 <= positions <= 1000:
        raise click.UsageError(f"--positions must be 0 to 1000, got {positions}")
    if not 0 < tt_mib <= 4096:
        raise click.UsageError(f"--tt must be more than 0 and at most 4096 MiB, got {tt_mib:g}")
    chosen = parse_choice_list(strategies, list(STRATEGIES), "strategy")
    engine_list = parse_choice_list(engines, ENGINES, "engine")
    err = make_console(stderr=True)
    source = click.get_current_context().get_parameter_source("engines")
    if (
        source is click.core.ParameterSource.DEFAULT
        and not warmup.is_ready("kalah")
        and warmup.warm_in_background("kalah")
    ):
        # a fresh machine: the Python engine answers now, numba is compiled for next time
        engine_list = [e for e in engine_list if e != "numba"]
        err.print(
            "(numba rows left out: its kernels are being compiled in the background for the "
            "next runs, once per machine; --engine numba waits for them. "
            "'boardgames cache warm kalah' compiles ahead.)",
            highlight=False,
            soft_wrap=True,
        )
    pairs, notes = plan(chosen, engine_list)
    if not pairs:
        raise click.UsageError("no strategy runs on the chosen engines: " + "; ".join(notes))
    states = random_positions(game, positions, seed) if positions else [game.initial_state()]
    rows = _compare_with_progress(
        game, states, depth, pairs, err, again_is_ply=ply == "sowing", tt_mib=tt_mib,
        playouts=playouts, seed=seed,
    )  # fmt: skip
    problems = disagreements(rows)
    where = "the start position" if not positions else f"{len(states)} random positions"
    title = (
        f"Kalah {pits}x{seeds} {rules}, eval {evaluation}, depth {depth} "
        f"{'compound moves' if ply == 'compound' else 'sowings'}, {where}"
    )
    if plot is not None:
        write_plot(rows, plot, title)
    if as_json:
        print_json(
            comparison_json(
                "kalah",
                depth,
                rows,
                not problems,
                pits=pits,
                seeds=seeds,
                rules=rules,
                evaluation=evaluation,
                unit=ply,
                positions=len(states),
                problems=problems,
            )
        )
    else:
        out = make_console()
        out.print(comparison_table(rows, title, exact=depth is None))
        monte_carlo = mcts_table(rows)
        if monte_carlo is not None:
            out.print(monte_carlo)
        for note in notes:
            out.print(f"[dim]({note})[/]")
        exact_rows = [r for r in rows if r.exact]
        if not problems and len(exact_rows) > 1:
            out.print(
                f"[bold green]All {len(exact_rows)} runs agree[/] on every value"
                + (" and on the moves that the rules of minimax and alphabeta fix." if any(
                    STRATEGIES[r.strategy].fixes_move for r in rows) else ".")
            )  # fmt: skip
        if plot is not None:
            out.print(f"Plot written to {plot}")
    if problems:
        err.print("[bold red]DISAGREEMENT: exact strategies found different results![/]")
        for p in problems[:20]:
            err.print(f"[red]  {p}[/]")
        raise SystemExit(1)


def _compare_with_progress(
    game: Game,
    states: list[State],
    depth: int,
    pairs: list[tuple[str, str]],
    err: Console,
    **options: Any,
) -> list[CompareRow]:
    """:func:`run_comparison` with its progress on stderr (the kernels loading, then the
    searches done of all and the time left) and a Ctrl-C that says how far it got."""
    total = len(pairs) * len(states)
    loading = Progress("Loading the search kernels (compiled once, then cached)", console=err,
                       delay=3)  # fmt: skip
    bar = Progress("Comparing", total, "searches", console=err)
    done_so_far = [0]
    t0 = time.perf_counter()

    def step(done: int, _total: int, label: str) -> None:
        if done == 0:
            loading.stop()
            bar.start()
        done_so_far[0] = done
        bar.update(done, detail=label)

    def stopped() -> str:
        return stopped_message(time.perf_counter() - t0, done_so_far[0], total, "searches")

    loading.start()
    try:
        with interruptible(stopped):
            return run_comparison(game, states, depth, pairs, step=step, **options)
    finally:
        loading.stop()
        bar.stop()
