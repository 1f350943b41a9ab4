"""``boardgames match GAME``: two players of any registered two-player game play paired
games from seeded random openings, each pair with the sides swapped
(:func:`boardgames.core.match.match`). A player is any name ``boardgames play`` takes:
``random``, a level, ``depth=N``, ``time=S``, or one of the game's own."""

from __future__ import annotations

from typing import Any

import click

from boardgames.cli.games import GameGroup, make_game
from boardgames.cli.options import json_option
from boardgames.core.registry import GamePlugin


def match_feature(spec: GamePlugin) -> click.Command:
    """``boardgames match GAME``'s command for one game."""

    @click.command(
        name=spec.name,
        help=f"Two players of {spec.title} play paired games from random openings (the "
        "sides swapped in each pair); the result counts from A's side.",
    )
    @click.option("--a", "player_a", default="strong", show_default=True, metavar="PLAYER",
                  help="Player A: random, easy, medium, strong, perfect, program (the strong "
                  "level), depth=N, time=S, or one of the game's own (boardgames games lists "
                  "them).")  # fmt: skip
    @click.option("--b", "player_b", default="random", show_default=True, metavar="PLAYER",
                  help="Player B, the same way.")  # fmt: skip
    @click.option("--games", type=click.IntRange(1, 1000), default=5, show_default=True,
                  help="Openings; two games each.")  # fmt: skip
    @click.option("--opening", type=click.IntRange(0, 40), default=2, show_default=True,
                  help="Random moves of each opening.")  # fmt: skip
    @click.option("--seed", type=click.IntRange(0, 2**31), default=0, show_default=True,
                  help="Seed of the openings (and of random players).")  # fmt: skip
    @json_option()
    def command(
        player_a: str, player_b: str, games: int, opening: int, seed: int, as_json: bool,
        **options: Any,
    ) -> None:  # fmt: skip
        import time

        from boardgames.core.console import make_console, print_json
        from boardgames.core.match import match, openings
        from boardgames.core.players import find_player
        from boardgames.core.progress import Progress, interruptible, stopped_message
        from boardgames.core.protocol import GameError
        from boardgames.core.tables import Col, FitTable

        game = make_game(spec, options)
        try:
            a = find_player(game, player_a, seed=seed)
            b = find_player(game, player_b, seed=seed + 1)
        except GameError as e:
            raise click.UsageError(str(e)) from None
        lines = openings(game, opening, games, seed)
        bar = Progress("Playing", 2 * len(lines), "games", console=make_console(stderr=True))
        t0 = time.perf_counter()

        def stopped() -> str:
            return stopped_message(time.perf_counter() - t0, bar.done, bar.total, "games")

        with bar, interruptible(stopped):
            result = match(game, a, b, lines, done=lambda d, t: bar.update(d, t))
        if as_json:
            print_json({"game": spec.name, **result.as_json()})
            return
        table = FitTable(
            (Col("player"), Col("wins", "right", number=True), Col("draws", "right", number=True),
             Col("losses", "right", number=True), Col("margin", "right", number=True),
             Col("s a game", "right", number=True)),
            title=f"{spec.title}: {len(result.games)} games, {opening} random moves an opening",
        )  # fmt: skip
        n = len(result.games)
        a_time = sum(g["a_seconds"] for g in result.games) / n
        b_time = sum(g["b_seconds"] for g in result.games) / n
        table.add_row(a.name, str(result.wins), str(result.draws), str(result.losses),
                      f"{result.margin:+d}", f"{a_time:.2f}")  # fmt: skip
        table.add_row(b.name, str(result.losses), str(result.draws), str(result.wins),
                      f"{-result.margin:+d}", f"{b_time:.2f}")  # fmt: skip
        make_console().print(table)

    return command


@click.group(cls=GameGroup, feature=match_feature)
def match() -> None:
    """Two players of any installed two-player game play paired games: the same random
    opening twice, the sides swapped, so neither profits from a lucky opening or from
    moving first. 'boardgames match connect4 --a perfect --b strong'.
    """
