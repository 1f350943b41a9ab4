"""Shared test settings: colour off and a fixed terminal width for CLI output."""

import os

os.environ.setdefault("NO_COLOR", "1")
os.environ.setdefault("COLUMNS", "100")
# tests that choose a cache folder set XDG_CACHE_HOME; a BOARDGAMES_CACHE of the user's
# would take precedence and send their tables there
os.environ.pop("BOARDGAMES_CACHE", None)
