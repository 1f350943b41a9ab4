"""Kalah's entry in the game registry (``boardgames.games`` entry point ``kalah``).

Plain values and import paths only: reading it imports nothing heavy."""

from __future__ import annotations

from boardgames.core.registry import GAME, GamePlugin, Option

PLUGIN = GamePlugin(
    name="kalah",
    title="Kalah",
    kind=GAME,
    summary="Kalah (mancala): play, analyse, solve, review, match.",
    factory="boardgames.kalah.game:make",
    options=(
        Option("pits", "int", 6, "pits a side", 1, 12),
        Option("seeds", "int", 6, "stones a pit at the start", 1, 20),
        Option(
            "rules",
            "choice",
            "classic",
            "rule set (RULES.md sections 1 and 2)",
            choices=("classic", "etudes"),
        ),
        Option(
            "capture",
            "choice",
            "opposite",
            "classic captures: opposite (RULES.md 1.3) or empty (any last stone in an own "
            "empty pit)",
            choices=("opposite", "empty"),
        ),
    ),
    kernels="boardgames.kalah.kernels:kernel_spec",
    solver="boardgames.kalah.players:solve",
    players="boardgames.kalah.players:PLAYERS",
    commentary="boardgames.kalah.players:COMMENTARY",
    records="boardgames.kalah.record:RECORDS",
    cli="boardgames.kalah.cli:kalah",
    compare="boardgames.kalah.cli.compare:compare_command",
    warm=(
        ("the program, 6x6 classic (play, analyse)", "boardgames.kalah.play.warm:program_classic"),
        ("the program, 6x6 etudes", "boardgames.kalah.play.warm:program_etudes"),
        ("the exact solver (solve)", "boardgames.kalah.play.warm:solver"),
        ("the solver's first guess (solve)", "boardgames.kalah.play.warm:first_guess"),
        ("the endgame-table builder", "boardgames.kalah.play.warm:endgame"),
        ("the search strategies (compare kalah)", "boardgames.kalah.play.warm:compare"),
        ("Monte Carlo tree search", "boardgames.kalah.play.warm:mcts"),
    ),
    cache="boardgames.kalah.exact.cachefiles:TABLES",
    web="boardgames.kalah.web.extras:WEB",
    envs="boardgames.kalah.envs:ENVS",
    player_names=("A", "B"),
    examples=("4,4,4,4,4,4,0,4,4,4,4,4,4,0 A",),
)
