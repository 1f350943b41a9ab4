"""The ``boardgames`` command: one click group; each game's commands load only when used.

Keep this module light: ``boardgames --help`` must not import numpy, numba or any game.
"""

from __future__ import annotations

import importlib
import sys

import click

# name -> ("module:attribute", one-line help shown by `boardgames --help`).
# A new game adds its line here; nothing else in this file changes.
COMMANDS: dict[str, tuple[str, str]] = {
    "nim": ("boardgames.nim.cli:nim", "Nim with Bouton's winning strategy: play and analyse."),
    "kalah": (
        "boardgames.kalah.cli:kalah",
        "Kalah (mancala): play, analyse, solve, review, match.",
    ),
    "queens": ("boardgames.queens.cli:queens", "N queens: enumerate and count solutions."),
    "compare": (
        "boardgames.compare_cli:compare",
        "Compare search strategies or counting methods side by side.",
    ),
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use.

    ``commands`` maps a name to ``("module:attribute", short help)``; the short help is
    listed by ``--help`` without importing the module.
    """

    def __init__(self, *args: object, lazy: dict[str, tuple[str, str]], **kwargs: object):
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy:
            module_name, attr = self.lazy[cmd_name][0].split(":")
            return getattr(importlib.import_module(module_name), attr)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            if name in self.lazy:
                rows.append((name, self.lazy[name][1]))
            else:
                cmd = super().get_command(ctx, name)
                if cmd is not None and not cmd.hidden:
                    rows.append((name, cmd.get_short_help_str(formatter.width)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(
    cls=LazyGroup,
    lazy=COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(package_name="boardgames")
def cli() -> None:
    """Classic board games and puzzles with fast game search.

    Play Kalah or Nim against a strong program, count N-queens solutions, and compare
    search strategies side by side. Every command has its own --help.
    """


def main() -> None:
    """Console-script entry point: clean exits on Ctrl-C and closed pipes."""
    try:
        cli.main(prog_name="boardgames")
    except KeyboardInterrupt:
        click.echo("\nInterrupted.", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)


if __name__ == "__main__":
    main()
