"""Tic-tac-toe as a boardgames plugin: the entry point ``tictactoe`` names :data:`PLUGIN`.

Keep this module cheap to import (plain values and import paths only): ``boardgames
--help`` reads every installed plugin. The rules live in :mod:`boardgames_tictactoe.game`,
loaded only when a command builds the game.
"""

from boardgames.core.registry import GamePlugin

PLUGIN = GamePlugin(
    name="tictactoe",
    title="Tic-tac-toe",
    kind="game",  # a two-player game (a one-player puzzle is "puzzle")
    summary="Tic-tac-toe on a 3x3 board, X first: play and analyse.",
    factory="boardgames_tictactoe.game:TicTacToe",
    player_names=("X", "O"),
    examples=("5 1", "1 5 9"),
    max_game_length=9,  # a proven bound on the moves of a game (OpenSpiel needs one)
    # step two (optional): numba kernels for every numba strategy and MCTS
    kernels="boardgames_tictactoe.kernels:kernel_spec",
)
