"""``boardgames compare GAME``: one command that compares strategies or methods per game."""

from __future__ import annotations

import click

from boardgames.cli import LazyGroup

# game -> ("module:attribute", one-line help); each game owns its compare command.
COMPARE_COMMANDS: dict[str, tuple[str, str]] = {
    "kalah": ("boardgames.kalah.cli.compare:compare_command", "Search strategies on Kalah."),
    "nim": ("boardgames.nim.cli:compare_command", "Bouton's rule against exhaustive search."),
    "queens": ("boardgames.queens.cli:compare_command", "N-queens counting methods side by side."),
}


@click.group(cls=LazyGroup, lazy=COMPARE_COMMANDS)
def compare() -> None:
    """Run several strategies or methods on the same work and show them side by side.

    Each subcommand checks that all exact methods agree and says so loudly if not.
    """
