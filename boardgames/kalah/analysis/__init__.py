"""Looking back at games: the move-by-move review and the explanation of which program
settings play a recorded game."""
