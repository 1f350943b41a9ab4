"""``boardgames games``, and what every generic command (play, analyse, compare) shares: a
click group whose subcommands are the registered games, each with its options built from
its plugin (:class:`boardgames.core.registry.Option`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from boardgames.cli import harden_numbers
from boardgames.cli.options import json_option
from boardgames.core.registry import (
    GamePlugin,
    Option,
    UnknownGame,
    one_line,
    plugin,
    plugins,
    two_player,
)

GameFeature = Callable[[GamePlugin], click.Command]
"""Builds a feature's command for one game (its options are added by :class:`GameGroup`)."""


def click_option(option: Option) -> Callable[[Any], Any]:
    """The click option of a game's setting: ``--pits 6``, ``--misere``, ``--rows "3 4 5"``."""
    if option.kind == "bool":
        if option.default:  # on unless turned off: --pairs/--no-pairs
            return click.option(
                f"{option.flag}/--no-{option.flag[2:]}",
                option.name,
                default=True,
                show_default=True,
                help=option.help,
            )
        return click.option(option.flag, option.name, is_flag=True, help=option.help)
    if option.kind == "choice":
        return click.option(
            option.flag,
            option.name,
            type=click.Choice(option.choices),
            default=option.default,
            show_default=True,
            help=option.help,
        )
    if option.kind == "ints":
        default = " ".join(str(v) for v in option.default)
        return click.option(
            option.flag,
            option.name,
            default=default,
            show_default=True,
            metavar='"N N ..."',
            help=f"{option.help} ({option.low} to {option.high} each; several in one "
            f'quoted word: {option.flag} "{default}")',
        )
    return click.option(
        option.flag,
        option.name,
        type=click.IntRange(option.low, option.high),
        default=option.default,
        show_default=True,
        help=option.help,
    )


def make_game(spec: GamePlugin, values: dict[str, Any], position: str = "") -> Any:
    """The game with the options a command was given; bad values are a usage error.
    ``position``: a position the command starts from, whose text may fix options the user
    left at their defaults (``analyse nim "7 7"``: rows 7 7; see
    :class:`~boardgames.core.capabilities.SizedPositions`)."""
    given = {o.name: values.pop(o.name) for o in spec.options if o.name in values}
    try:
        game = spec.make(**given)
        if position.strip():
            from boardgames.core.capabilities import game_for_position

            ctx = click.get_current_context(silent=True)
            default = click.core.ParameterSource.DEFAULT
            chosen = [
                name for name in given
                if ctx is None or ctx.get_parameter_source(name) not in (default, None)
            ]  # fmt: skip
            game = game_for_position(spec, game, position, given, chosen)
        return game
    except ValueError as e:  # Option.convert's and the game's own one-line reasons
        raise click.UsageError(str(e)) from None


class GameGroup(click.Group):
    """A group whose subcommands are the registered games (two-player ones unless
    ``puzzles``): ``boardgames play connect4 --width 8``. ``feature`` builds one game's
    command; the game's options are added to it here."""

    def __init__(
        self, *args: Any, feature: GameFeature, puzzles: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.feature = feature
        self.puzzles = puzzles

    def _games(self) -> dict[str, GamePlugin]:
        return plugins() if self.puzzles else two_player()

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self._games())

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        games = self._games()
        if cmd_name not in games:
            if cmd_name in plugins():
                raise click.UsageError(
                    f"{cmd_name} is a puzzle, not a two-player game; see "
                    f"'boardgames {cmd_name} --help'"
                )
            return None
        spec = games[cmd_name]
        command = self.feature(spec)
        for option in reversed(spec.options):
            command = click_option(option)(command)
        return harden_numbers(command)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if args and not name.strip():  # boardgames analyse "": not "No such command ''"
            games = ", ".join(sorted(self._games()))
            raise click.UsageError(f"the game's name is empty; give one of: {games}")
        if name and self.get_command(ctx, name) is None and not name.startswith("-"):
            try:
                plugin(name)
            except UnknownGame as e:
                raise click.UsageError(str(e)) from None
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, p.title) for name, p in self._games().items()]
        if rows:
            with formatter.section("Games"):
                formatter.write_dl(rows)


GENERIC_PLAYERS = ("random", "easy", "medium", "strong", "perfect")
"""The players every two-player game has (core/players.py), summed up in the listing."""


def describe(spec: GamePlugin) -> dict[str, Any]:
    """One game's entry of ``boardgames games --json``."""
    from boardgames.core.capabilities import capabilities

    entry: dict[str, Any] = {
        "name": spec.name,
        "title": spec.title,
        "kind": spec.kind,
        "summary": spec.summary,
        "options": [
            {
                "name": o.name,
                "flag": o.flag,
                "kind": o.kind,
                "default": list(o.default) if isinstance(o.default, tuple) else o.default,
                "allowed": o.describe(),
                "help": o.help,
            }
            for o in spec.options
        ],
    }
    entry["players"] = []
    from boardgames.core.registry import BUILT_IN, PluginError, distribution

    try:
        game = spec.make() if spec.kind == "game" else None
        entry["capabilities"] = [] if game is None else capabilities(game)
        if game is not None:
            from boardgames.core.players import players

            entry["players"] = list(players(game))
        if spec.cli and distribution(spec.name) != BUILT_IN:
            spec.command()  # an outside game's own commands: a hook of the wrong kind is said
    except PluginError as e:  # the game is built, one of its hooks is broken
        entry["capabilities"] = []
        entry["problem"] = str(e)
        entry["hook"] = True
    except Exception as e:  # a plugin whose game cannot be built: say so, list the rest
        entry["capabilities"] = []
        entry["problem"] = f"{type(e).__name__}: {e}"
    if spec.cli and "commands" not in entry["capabilities"] and "problem" not in entry:
        entry["capabilities"].append("commands")
    return entry


@click.command()
@json_option()
def games(as_json: bool) -> None:
    """The installed games: each one's kind, capabilities and options.

    Games are plugins: a package registers one through the entry-point group
    'boardgames.games' (see the README's "Adding a game"); every generic command (play,
    analyse, compare, serve, the learning environments) then works for it.
    """
    from rich.table import Table

    from boardgames.core.console import make_console, print_json

    entries = [describe(p) for p in plugins().values()]
    if as_json:
        print_json({"games": entries})
        return
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    longest = max((len(e["name"]) for e in entries), default=4)
    table.add_column("game", style="cyan", min_width=longest)  # a name is never cut
    table.add_column("kind")
    table.add_column("capabilities")
    table.add_column("options")
    table.add_column("players")
    for e in entries:
        options = " ".join(
            f"{o['flag']} {o['allowed']}" if o["kind"] != "bool" else o["flag"]
            for o in e["options"]
        )
        caps = (  # a broken game's reason goes below the table, one line, not into a cell
            "broken (said below)" if "problem" in e else ", ".join(dict.fromkeys(e["capabilities"]))
        )
        own = [p for p in e["players"] if p not in GENERIC_PLAYERS]
        shown = (
            ("the levels, random" + (", " + ", ".join(own) if own else "")) if e["players"] else ""
        )
        table.add_row(f"{e['name']}\n{e['title']}", e["kind"], caps, options, shown)
    console = make_console()
    console.print(table)
    console.print(
        "Two-player games: boardgames play GAME, analyse GAME POSITION, compare GAME, match "
        "GAME; the levels are easy, medium, strong, perfect (also depth=N, time=S); a "
        "game's own commands: boardgames GAME --help."
    )
    err = make_console(stderr=True)
    for e in entries:
        if "problem" in e:
            if e.get("hook"):  # a PluginError names the game and the hook itself
                said = e["problem"]
            else:
                said = f"game {e['name']!r} cannot be built: {e['problem']}"
            err.print(
                one_line(f"Warning: {said}"),
                highlight=False, soft_wrap=True, markup=False,
            )  # fmt: skip
