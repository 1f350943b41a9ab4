"""N queens' entry in the game registry (``boardgames.games`` entry point ``queens``).

A puzzle, not a two-player game: it brings its own commands (solve, count) and compare.
Plain values and import paths only: reading it imports nothing heavy."""

from __future__ import annotations

from boardgames.core.registry import PUZZLE, GamePlugin, Option

PLUGIN = GamePlugin(
    name="queens",
    title="N queens",
    kind=PUZZLE,
    summary="N queens: enumerate and count solutions.",
    factory="boardgames.queens.solve:Queens",
    options=(Option("n", "int", 8, "board size N (N x N, N queens)", 1, 27),),
    cli="boardgames.queens.cli:queens",
    compare="boardgames.queens.cli:compare_command",
    warm=(
        ("plain, symmetry and rotation counts", "boardgames.queens.warm:counting"),
        ("constellations", "boardgames.queens.warm:constellations"),
        ("constellations, parallel", "boardgames.queens.warm:constellations_parallel"),
    ),
    web="boardgames.queens.web.api:WEB",
)
