"""``boardgames analyse GAME [POSITION]``: the best move, its value (exact, a bound or a
heuristic number, as the search can tell) and the principal variation, for any registered
two-player game; ``--top N`` scores the N best moves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from boardgames.cli.games import GameGroup, make_game
from boardgames.cli.options import OUTPUT_FILE, json_option, say_written
from boardgames.cli.play import level_options, think_shown, thinking
from boardgames.core.registry import GamePlugin


def analyse_feature(spec: GamePlugin) -> click.Command:
    """``boardgames analyse GAME``'s command for one game."""
    example = next((e for e in spec.examples if e), "")
    shown = f" (for example '{example}')" if example else ""

    @click.command(
        name=spec.name,
        help=f"Analyse a {spec.title} position: POSITION in the game's notation{shown} "
        "(a game with no position notation of its own takes the moves from the start, "
        "separated by spaces); none is the start.",
    )
    @click.argument("position", required=False, default="")
    @click.option(
        "--top",
        type=click.IntRange(1, 20),
        default=1,
        show_default=True,
        help="Score this many best moves (each searched on its own).",
    )
    @click.option(
        "--svg",
        "svg_path",
        type=OUTPUT_FILE,
        default=None,
        help="Also draw the position to this SVG file: the best move marked, and the last "
        "move when POSITION lists the moves.",
    )
    @level_options
    @json_option()
    def command(
        position: str, top: int, svg_path: Path | None, level: str, seconds: float | None,
        depth: int | None, as_json: bool, **options: Any,
    ) -> None:  # fmt: skip
        from boardgames.core.capabilities import Drawing, format_position, parse_position
        from boardgames.core.console import make_console, print_json
        from boardgames.core.engine import candidates
        from boardgames.core.files import check_output, write_atomic

        check_output("--svg", svg_path)
        game = make_game(spec, options, position)
        state = parse_position(game, position)
        mover = spec.player_names[game.to_move(state)]
        over = game.outcome(state)
        if svg_path is not None and not isinstance(game, Drawing):
            raise click.UsageError(f"{spec.name} has no SVG drawing (svg); --svg needs one")
        report: dict[str, Any] = {
            "game": spec.name,
            "position": format_position(game, state) or position,
            "to_move": mover,
        }
        console = make_console()
        if over is not None:
            if svg_path is not None:
                write_atomic(svg_path, draw_position(game, state, position, None).encode())
                say_written("Picture", svg_path, as_json)
            report["over"] = True
            report["result"] = over
            if as_json:
                print_json(report)
                return
            console.print(game.render(state))
            if over == 0:
                console.print("The game is over: a draw.")
            else:
                word = "won" if over > 0 else "lost"
                console.print(
                    f"The game is over: {mover}, to move, has {word} (margin {abs(over)})."
                )
            return
        kw = thinking(level, seconds, depth)
        answer = think_shown(game, state, kw)
        report.update(answer.as_json(game))
        tops = []
        if top > 1:
            share = kw["seconds"] or 1.0
            tops = candidates(game, state, seconds=share, top=top)
            report["candidates"] = [
                {"move": game.format_move(m), **a.as_json(game)} for m, a in tops
            ]
        if svg_path is not None:
            assert answer.move is not None
            write_atomic(svg_path, draw_position(game, state, position, answer.move).encode())
            say_written("Picture", svg_path, as_json)
        if as_json:
            print_json(report)
            return
        console.print(game.render(state))
        assert answer.move is not None
        label = (
            "exact"
            if answer.exact
            else ("a bound" if "at least" in answer.value_text() else "heuristic")
        )
        from boardgames.core.commentary import value_words

        said = value_words(game, state, answer.value, answer.exact) or answer.value_text()
        console.print(
            f"{mover} to move. Best move: {game.format_move(answer.move)}, value "
            f"{said} ({label}; {answer.how()}, {answer.seconds:.2f} s).",
            highlight=False,
            soft_wrap=True,
        )
        if answer.pv:
            line = " ".join(game.format_move(m) for m in answer.pv)
            console.print(f"Principal variation: {line}", highlight=False, soft_wrap=True)
        for m, a in tops:
            console.print(
                f"  {game.format_move(m):>6}  {a.short():>10}  ({a.how()})",
                highlight=False,
                soft_wrap=True,
            )

    return command


def draw_position(game: Any, state: Any, position: str, best: int | None) -> str:
    """``--svg``'s picture: the best move marked, the last one too when ``position``
    lists the moves that lead to it."""
    from boardgames.core.capabilities import Mark, moves_of

    moves = moves_of(game, position)
    marks = [] if best is None else [Mark(best, "best")]
    return str(game.svg(state, last=moves[-1] if moves else None, marks=marks))


@click.group(cls=GameGroup, feature=analyse_feature)
def analyse() -> None:
    """The best move, its value and the principal variation of a position of any
    installed two-player game. A value is 'exact' only when proven (the game's solver, or
    a search that reached the end of every line); a won or lost value from a depth-limited
    search is a bound ('win by at least 2'); otherwise it is the evaluation's number."""
