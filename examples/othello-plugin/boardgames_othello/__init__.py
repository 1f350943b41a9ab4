"""Othello (Reversi) as a boardgames plugin: the entry point ``othello`` names :data:`PLUGIN`.

Plain values and import paths only (``boardgames --help`` reads every installed plugin);
the rules live in :mod:`boardgames_othello.game`, the optional kernels in
:mod:`boardgames_othello.kernels`.
"""

from typing import Any

from boardgames.core.registry import GamePlugin, Option


def longest_game(game: Any) -> int:
    """Each placement fills a cell, and a pass is always followed by a placement."""
    return 2 * (int(game.size) ** 2 - 4)


PLUGIN = GamePlugin(
    name="othello",
    title="Othello",
    kind="game",
    summary="Othello (Reversi) on a 4x4, 6x6 or 8x8 board; the score is the disc difference.",
    factory="boardgames_othello.game:Othello",
    options=(Option("size", "int", 6, "the board's side: 4, 6 or 8", low=4, high=8),),
    player_names=("Black", "White"),
    examples=("b3", "b3 b4"),  # positions as moves from the start (the default 6x6)
    max_game_length=longest_game,
    kernels="boardgames_othello.kernels:kernel_spec",
)
