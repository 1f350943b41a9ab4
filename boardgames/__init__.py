"""boardgames: classic board games and puzzles (Kalah, Nim, N queens) with fast game search."""

__version__ = "0.1.0"
