"""The Kalah program: the engine and its presets, the program seam the CLI plays through,
and match play between two program settings."""
