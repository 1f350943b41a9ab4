"""``boardgames kalah replay``: check a game record move by move and show every position."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.markup import escape

from boardgames.cli.options import json_option
from boardgames.core.console import file_name, make_console, print_json
from boardgames.core.text import printable
from boardgames.kalah.cli.options import (
    load_record,
    score_text,
    setup_text,
)
from boardgames.kalah.game import (
    PLAYER_NAMES,
)


@click.command(name="replay")
@click.argument(
    "file",
    type=click.Path(dir_okay=False),
    callback=file_name("lastgame.klh"),
)
@json_option()
def replay_command(file: Path, as_json: bool) -> None:
    """Check a game record (.klh) move by move and show every position.

    A bad file is reported with its line number and the reason. A final score in the
    record is checked against the moves; its notes (such as the classic program's
    MAXLEVEL line) are shown.
    """
    record, steps, final_state = load_record(file)
    game = record.game
    stores = game.final_stores(final_state)
    if as_json:
        obj: dict[str, Any] = {
            "rules": game.rules,
            "pits": game.pits,
            "seeds": game.seeds,
            "first": PLAYER_NAMES[record.first],
            "moves": [
                {
                    "player": PLAYER_NAMES[s.player],
                    "pits": list(s.pits),
                    "board": game.board(s.state),
                }
                for s in steps
            ],
        }
        if stores is not None:
            obj["final"] = {"A": stores[0], "B": stores[1]}
            obj["winner"] = (
                "draw" if stores[0] == stores[1] else ("A" if stores[0] > stores[1] else "B")
            )
        if record.notes:
            obj["notes"] = record.notes
        print_json(obj)
        return
    console = make_console()
    console.print(
        f"[bold]{escape(printable(str(file)))}[/]: {game.rules} rules, "
        f"{setup_text(game.pits, game.seeds)}; "
        f"A: {escape(printable(record.players[0]))}, B: {escape(printable(record.players[1]))}; "
        f"{PLAYER_NAMES[record.first]} moved first; {len(steps)} compound moves."
    )
    for note in record.notes:
        console.print(f"Note: {escape(printable(note))}")
    console.print()
    console.print(game.render(game.initial_state(record.first)))
    number = 0
    for k, s in enumerate(steps):
        if k == 0 or s.player == 0:
            number += 1
        console.print(f"\n{number}) {PLAYER_NAMES[s.player]}: {' '.join(map(str, s.pits))}")
        console.print(game.render(s.state))
    console.print()
    if stores is not None:
        scores, result = score_text(game, final_state)
        agrees = " (as the record's final line says)" if record.final is not None else ""
        console.print(f"Game over. Final score: {scores}: {result}{agrees}.")
    else:
        console.print(
            f"The record ends before the game does; {PLAYER_NAMES[game.to_move(final_state)]} "
            "to move."
        )
