"""``boardgames kalah``: the group; each command is a module of this package, loaded
when it runs (RULES.md sections 1-3).

A new command is a module here with one ``click.command`` and one line in
:data:`KALAH_COMMANDS` (its short help is what ``boardgames kalah --help`` lists).
"""

from __future__ import annotations

import click

from boardgames.cli import LazyGroup

KALAH_COMMANDS: dict[str, tuple[str, str]] = {
    "play": (
        "boardgames.kalah.cli.play:play",
        "Play a game: human against the program (default), two humans, or two programs.",
    ),
    "replay": (
        "boardgames.kalah.cli.replay:replay_command",
        "Check a game record (.klh) move by move and show every position.",
    ),
    "analyse": (
        "boardgames.kalah.cli.analyse:analyse",
        "Best compound move in a position, its value and the principal variation.",
    ),
    "perft": (
        "boardgames.kalah.cli.perft:perft_command",
        "Count the move sequences of exactly DEPTH moves from the start (A to move).",
    ),
    "solve": ("boardgames.kalah.cli.solve:solve", "Exact value of a position under perfect play."),
    "review": ("boardgames.kalah.cli.review:review", "Review a game record move by move."),
    "match": ("boardgames.kalah.cli.match:match", "Two program settings play a scored match."),
    "explain": (
        "boardgames.kalah.cli.explain:explain",
        "Which program settings play a recorded game.",
    ),
    "dataset": (
        "boardgames.kalah.cli.dataset:dataset",
        "Positions with exact values and best moves, for learning agents (.npz).",
    ),
}
"""Lazily loaded subcommands: name -> ("module:attribute", one-line help)."""


@click.group(cls=LazyGroup, lazy=KALAH_COMMANDS)
def kalah() -> None:
    """Kalah (mancala): sow stones counter-clockwise, collect the most in your store.

    Classic rules (extra turn, capture opposite) or the Etudes rules (relay sowing, 2-or-3
    captures); any board of 1-12 pits a side with 1-20 stones a pit. Pits are numbered
    0..m-1 for A, m is A's store, m+1..2m for B, 2m+1 B's store (6 x 6: A 0-5, store 6,
    B 7-12, store 13).
    """
