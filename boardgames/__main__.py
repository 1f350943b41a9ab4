"""``python -m boardgames`` runs the same command as ``boardgames``."""

from boardgames.cli import main

main()
