"""Nim's entry in the game registry (``boardgames.games`` entry point ``nim``).

Plain values and import paths only: reading it imports nothing heavy."""

from __future__ import annotations

from boardgames.core.registry import GAME, GamePlugin, Option

PLUGIN = GamePlugin(
    name="nim",
    title="Nim",
    kind=GAME,
    summary="Nim with Bouton's winning strategy: play and analyse.",
    factory="boardgames.nim.game:Nim",
    options=(
        Option("rows", "ints", (3, 4, 5), "chips in each row at the start", 1, 20),
        Option("misere", "bool", False, "whoever takes the last chip loses"),
    ),
    kernels="boardgames.nim.kernels:kernel_spec",
    solver="boardgames.nim.players:solve",
    players="boardgames.nim.players:PLAYERS",
    commentary="boardgames.nim.players:COMMENTARY",
    cli="boardgames.nim.cli:nim",
    compare="boardgames.nim.cli:compare_command",
    warm=(
        ("the search strategies", "boardgames.nim.warm:searcher"),
        ("Monte Carlo tree search (compare nim)", "boardgames.nim.warm:mcts"),
    ),
    web="boardgames.nim.web.panel:WEB",
    envs="boardgames.nim.envs:ENVS",
    player_names=("first player", "second player"),
    examples=("3 4 5", "1 2 3"),
)
