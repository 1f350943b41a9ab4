"""``boardgames kalah analyse``: the program's best compound move in a position."""

from __future__ import annotations

import time

import click

from boardgames.cli.options import json_option
from boardgames.core.console import make_console, print_json
from boardgames.core.protocol import GameError, score_bound, score_margin
from boardgames.kalah.cli.options import (
    engine_config,
    group_pv,
    parse_board,
    pv_text,
    score_text,
    search_options,
)
from boardgames.kalah.game import (
    PLAYER_NAMES,
    Kalah,
)
from boardgames.kalah.play.program import (
    ENDGAME_STRATEGY,
    engine_for,
    program_compound,
    value_text,
)
from boardgames.kalah.rules import RULE_SETS


@click.command()
@click.option(
    "--board",
    required=True,
    help="All holes in RULES.md order: A's pits, A's store, B's pits, B's store.",
)
@click.option(
    "--to-move",
    type=click.Choice(["a", "b"], case_sensitive=False),
    default="a",
    show_default=True,
    help="Side to move.",
)
@search_options
@click.option(
    "--rules", type=click.Choice(RULE_SETS), default="classic", show_default=True, help="Rules."
)
@json_option()
def analyse(
    board: str,
    to_move: str,
    depth: int | None,
    time_limit: float | None,
    evaluation: str,
    unit: str,
    rules: str,
    as_json: bool,
) -> None:
    """Best compound move in a position, its value and the principal variation.

    The number of pits a side follows from the board's length (2m+2 numbers). Values are
    from the side to move's view; a proven result reads "win by N in K plies".
    """
    try:
        holes = parse_board(board)
        game = Kalah((len(holes) - 2) // 2, 1, rules, evaluation)
        state = game.make_state(holes, 0 if to_move.lower() == "a" else 1)
    except GameError as e:
        raise click.UsageError(f"--board: {e}") from None
    player = game.to_move(state)
    stores = game.final_stores(state)
    if stores is not None:
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
    with console.status("Loading the program (compiled on a machine's first run)…"):
        engine_for(game, config)
    t0 = time.perf_counter()
    with console.status("Thinking…"):
        pits, result = program_compound(game, state, config)
    seconds = time.perf_counter() - t0
    groups = group_pv(game, state, result.pv)
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
                "best": list(pits),
                "value": result.value,
                "value_text": value_text(result.value, evaluation, result.exact),
                "exact": result.exact,
                "bound": score_bound(result.value, result.exact),
                "margin": score_margin(result.value),
                "endgame_table": result.strategy == ENDGAME_STRATEGY,
                "pv": [{"player": PLAYER_NAMES[p], "pits": ps} for p, ps in groups],
                "nodes": result.nodes,
                "seconds": round(seconds, 3),
            }
        )
        return
    console.print(game.render(state))
    console.print(
        f"Best compound move for {PLAYER_NAMES[player]}: [bold]{' '.join(map(str, pits))}[/]"
    )
    if result.strategy == ENDGAME_STRATEGY:
        how = "exact, from the endgame tables"
    elif result.exact:
        how = f"exact: the solver settled it after a depth-{result.depth} search"
    else:
        how = (
            f"depth {result.depth} {'compound moves' if unit == 'compound' else 'sowings'}, "
            f"eval {evaluation}, {config.strategy}"
        )
    value = value_text(result.value, evaluation, result.exact)
    console.print(f"Value {value} for {PLAYER_NAMES[player]} ({how})")
    console.print(f"Principal variation: {pv_text(groups)}")
    if result.strategy == ENDGAME_STRATEGY:
        console.print(f"[dim]looked up in the endgame tables in {seconds:.2f} s[/]")
    else:
        console.print(f"[dim]{result.nodes:,} positions in {seconds:.2f} s[/]")
