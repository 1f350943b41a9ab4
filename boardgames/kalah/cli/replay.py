"""``boardgames kalah replay``: check a game record move by move and show every position."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.markup import escape

from boardgames.cli.options import OUTPUT_FILE, json_option, say_written
from boardgames.core.console import file_name, make_console, print_json
from boardgames.core.files import check_output
from boardgames.core.svg import write_svg
from boardgames.core.text import printable
from boardgames.kalah.cli.options import (
    load_record,
    setup_text,
)
from boardgames.kalah.game import (
    PLAYER_NAMES,
    score_text,
)
from boardgames.kalah.record import Record, ReplayStep
from boardgames.kalah.svg import animation, frames_of_game


@click.command(name="replay")
@click.argument(
    "file",
    type=click.Path(dir_okay=False),
    callback=file_name("lastgame.klh"),
)
@json_option()
@click.option(
    "--svg",
    "svg_path",
    type=OUTPUT_FILE,
    default=None,
    help="Also draw the whole game into this file as an animated SVG: the start, then one "
    "frame per compound move (its sowing and captures marked), played in a loop.",
)
@click.option(
    "--frame-seconds",
    type=click.FloatRange(0.2, 60),
    default=1.6,
    show_default=True,
    help="With --svg: seconds each frame of the animation shows.",
)
def replay_command(file: Path, as_json: bool, svg_path: Path | None, frame_seconds: float) -> None:
    """Check a game record (.klh) move by move and show every position.

    A bad file is reported with its line number and the reason. A final score in the
    record is checked against the moves; its notes (such as the classic program's
    MAXLEVEL line) are shown. --svg also writes the game as an animation.
    """
    check_output("--svg", svg_path)
    source = click.get_current_context().get_parameter_source("frame_seconds")
    if svg_path is None and source is not click.core.ParameterSource.DEFAULT:
        raise click.UsageError("--frame-seconds sets the animation's pace: give --svg FILE too")
    record, steps, final_state = load_record(file)
    game = record.game
    stores = game.final_stores(final_state)
    if svg_path is not None:
        _write_animation(record, steps, file, svg_path, frame_seconds)
        say_written("Animation", svg_path, as_json, f" ({len(steps) + 1} frames)")
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


def _write_animation(
    record: Record, steps: list[ReplayStep], file: Path, path: Path, seconds: float
) -> None:
    """The game as an animated SVG: the start and one frame per compound move."""
    game = record.game
    start = game.initial_state(record.first)
    frames = frames_of_game(
        game.pits,
        game.rules,
        start,
        [(s.player, s.pits, s.state) for s in steps],
        [game.outcome(s.state) is not None for s in steps],
        game.empty_capture,
    )
    name = printable(file.name, 60)
    heading = (
        f"{name}: Kalah {game.pits}x{game.seeds}, {game.rules} rules, "
        f"{len(steps)} compound move{'s' * (len(steps) != 1)}"
    )
    picture = animation(frames, game.pits, heading=heading, seconds=seconds, rule_set=game.rules)
    write_svg(path, picture, "the animation")
