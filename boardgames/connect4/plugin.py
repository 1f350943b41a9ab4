"""Connect Four's entry in the game registry (``boardgames.games`` entry point
``connect4``).

Plain values and import paths only: reading it imports nothing heavy."""

from __future__ import annotations

from typing import Any

from boardgames.core.registry import GAME, GamePlugin, Option


def cells(game: Any) -> int:
    """The longest game: one disc a cell (OpenSpiel's ``max_game_length``)."""
    return int(game.width) * int(game.height)


PLUGIN = GamePlugin(
    name="connect4",
    title="Connect Four",
    kind=GAME,  # registry.GAME is typed str, not Literal
    summary="Connect Four on boards of 4 to 9 columns and rows: play and analyse.",
    factory="boardgames.connect4.game:ConnectFour",
    options=(
        Option("width", "int", 7, "columns", 4, 9),
        Option("height", "int", 6, "rows", 4, 9),
    ),
    kernels="boardgames.connect4.kernels:kernel_spec",
    solver="boardgames.connect4.book:solve",
    cli="boardgames.connect4.cli:connect4",
    commentary="boardgames.connect4.words:COMMENTARY",
    warm=(
        ("the exact solver", "boardgames.connect4.solver:warm"),
        (
            "the search strategies and Monte Carlo tree search",
            "boardgames.core.engine:warm_kernels",
        ),
    ),
    player_names=("1", "2"),
    examples=("4453", ""),
    max_game_length=cells,
)
