"""``boardgames kalah analyse``: the program's best compound move in a position."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from boardgames.cli.options import OUTPUT_FILE, json_option, say_written
from boardgames.core import warmup
from boardgames.core.capabilities import Mark
from boardgames.core.console import make_console, print_json
from boardgames.core.files import check_output
from boardgames.core.progress import Progress, interruptible, stopped_message
from boardgames.core.protocol import State, score_bound, score_margin
from boardgames.core.svg import write_svg
from boardgames.kalah.cli.options import (
    engine_config,
    group_pv,
    position,
    position_options,
    pv_text,
    search_options,
)
from boardgames.kalah.game import (
    PLAYER_NAMES,
    Kalah,
    score_text,
)
from boardgames.kalah.play.engine import EngineConfig
from boardgames.kalah.play.program import (
    ENDGAME_STRATEGY,
    engine_for,
    program_compound,
    reference_within,
    value_text,
)
from boardgames.kalah.play.warm import program_ready


@click.command()
@position_options(
    "Analyse this position instead of the start: all holes in RULES.md order (A's pits, "
    "A's store, B's pits, B's store)."
)
@search_options
@json_option()
@click.option(
    "--svg",
    "svg_path",
    type=OUTPUT_FILE,
    default=None,
    help="Also draw the position as an SVG picture into this file, the best move marked "
    "(its pits numbered in order).",
)
def analyse(
    pits: int,
    seeds: int,
    rules: str,
    board: str | None,
    to_move: str,
    depth: int | None,
    time_limit: float | None,
    evaluation: str,
    unit: str,
    as_json: bool,
    svg_path: Path | None,
) -> None:
    """Best compound move in a position, its value and the principal variation.

    The position is the start of --pits x --seeds (6 x 6 by default) with --to-move to
    move, or --board: all its holes, the number of pits a side following from its length
    (2m+2 numbers). Values are from the side to move's view: a proven result reads "win
    by N for A (exact, ...)"; a bounded one "at least" or "at most".
    """
    game, state = position(pits, seeds, rules, board, to_move, evaluation=evaluation)
    check_output("--svg", svg_path)
    holes = game.board(state)
    player = game.to_move(state)
    stores = game.final_stores(state)
    if stores is not None:
        if svg_path is not None:
            _write_svg(game, state, svg_path, [], "the game is over", as_json)
        if as_json:
            print_json(
                {
                    "board": holes,
                    "to_move": PLAYER_NAMES[player],
                    "over": True,
                    "final": {"A": stores[0], "B": stores[1]},
                }
            )
            return
        console = make_console()
        console.print(game.render(state))
        scores, verdict = score_text(game, state)
        console.print(f"The game is over: {scores}: {verdict}.")
        return
    config = engine_config(depth, time_limit, evaluation, unit)
    console = make_console(stderr=as_json)
    best, result, seconds = _think(game, state, config)
    groups = group_pv(game, state, result.pv)
    if svg_path is not None:
        value = value_text(result.value, evaluation, result.exact)
        what = f"best for {PLAYER_NAMES[player]}: {' '.join(map(str, best))}, value {value}"
        _write_svg(game, state, svg_path, best, what, as_json)
    if as_json:
        print_json(
            {
                "board": holes,
                "to_move": PLAYER_NAMES[player],
                "over": False,
                "depth": result.depth,
                "unit": unit,
                "eval": evaluation,
                "rules": rules,
                "best": list(best),
                "value": result.value,
                "value_text": value_text(result.value, evaluation, result.exact),
                "exact": result.exact,
                "bound": score_bound(result.value, result.exact),
                "margin": score_margin(result.value),
                "endgame_table": result.strategy == ENDGAME_STRATEGY,
                "reference_search": result.strategy == "reference",
                "pv": [{"player": PLAYER_NAMES[p], "pits": ps} for p, ps in groups],
                "nodes": result.nodes,
                "seconds": round(seconds, 3),
            }
        )
        return
    console.print(game.render(state))
    console.print(
        f"Best compound move for {PLAYER_NAMES[player]}: [bold]{' '.join(map(str, best))}[/]"
    )
    if result.strategy == ENDGAME_STRATEGY:
        how = "exact, from the endgame tables"
    elif result.exact:
        how = f"exact: the solver settled it after a depth-{result.depth} search"
    else:
        how = (
            f"depth {result.depth} {'compound moves' if unit == 'compound' else 'sowings'}, "
            f"eval {evaluation}, "
            + (
                "pure-Python reference alpha-beta"
                if result.strategy == "reference"
                else config.strategy
            )
        )
    value = value_text(result.value, evaluation, result.exact)
    console.print(f"Value {value} for {PLAYER_NAMES[player]} ({how})")
    console.print(f"Principal variation: {pv_text(groups)}")
    if result.strategy == ENDGAME_STRATEGY:
        console.print(f"[dim]looked up in the endgame tables in {seconds:.2f} s[/]")
    else:
        console.print(f"[dim]{result.nodes:,} positions in {seconds:.2f} s[/]")


def _write_svg(
    game: Kalah, state: State, path: Path, best: list[int], what: str, as_json: bool
) -> None:
    """The analysed position as a picture (written whole or not at all: status 1)."""
    heading = f"Kalah {game.pits}x{game.seeds} {game.rules}: {what}"
    write_svg(
        path, game.svg(state, marks=[Mark(tuple(best), "best")] if best else (), heading=heading)
    )
    say_written("Picture", path, as_json)


REFERENCE_DEPTH = 10
"""The deepest --depth a fresh machine tries with the pure-Python reference search."""
REFERENCE_SECONDS = 3.0
"""... if that depth is predicted to take at most this long (6 x 6 from the start, depth
8: 1.7 s); otherwise the engine is compiled and searches."""


def _think(game: Kalah, state: State, config: EngineConfig) -> tuple[list[int], Any, float]:
    """The program's compound move, with its progress on stderr (the depth each finished
    iteration reached and its value) and a Ctrl-C that says how far the search got."""
    err = make_console(stderr=True)
    small = config.unit == "compound" and (
        (config.depth is None and (config.time or 0) <= 5)
        or (config.depth is not None and config.depth <= REFERENCE_DEPTH)
    )
    if small and not program_ready(game.rules) and warmup.warm_in_background("kalah"):
        # a fresh machine, a search of seconds: answer now with the reference search (no
        # compiling), and compile in another process for the next runs
        t0 = time.perf_counter()
        best, result = reference_within(
            game, state, config, REFERENCE_SECONDS if config.depth is not None else None
        )
        if config.depth is not None and result.depth != config.depth:
            # the depth asked for would take the reference search too long: the engine
            warmup.stop_background()  # this process compiles it now
            return _think_with_engine(game, state, config, err)
        err.print(
            f"(searched by the pure-Python reference program, depth {result.depth}, while "
            "the fast engine is compiled in the background for the next runs: "
            "boardgames cache warm kalah)",
            highlight=False,
            soft_wrap=True,
        )
        return list(best), result, time.perf_counter() - t0
    return _think_with_engine(game, state, config, err)


def _think_with_engine(
    game: Kalah, state: State, config: EngineConfig, err: Console
) -> tuple[list[int], Any, float]:
    """:func:`_think` by the engine (loaded, or compiled on a machine's first run)."""
    with Progress("Loading the program (compiled once, then cached)", console=err, delay=3):
        engine = engine_for(game, config)
    reached: list[tuple[int, int, int]] = []
    t0 = time.perf_counter()

    def stopped() -> str:
        if not reached:
            return stopped_message(time.perf_counter() - t0, extra=": no search depth finished")
        depth, value, nodes = reached[-1]
        text = value_text(value, config.evaluation)
        return stopped_message(
            time.perf_counter() - t0,
            extra=f": the search had reached depth {depth} (value {text} for the side to "
            f"move, {nodes:,} positions); no move was chosen",
        )

    with Progress("Thinking", console=err, estimate=config.time) as bar, interruptible(stopped):

        def on_iteration(depth: int, value: int, nodes: int) -> None:
            reached.append((depth, value, nodes))
            bar.update(0, detail=f"depth {depth}, value {value_text(value, config.evaluation)}")

        engine.on_iteration = on_iteration
        try:
            best, result = program_compound(game, state, config)
        finally:
            engine.on_iteration = None
    return list(best), result, time.perf_counter() - t0
