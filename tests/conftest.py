"""Shared test settings: colour off and a fixed terminal width for CLI output."""

import os

os.environ.setdefault("NO_COLOR", "1")
os.environ.setdefault("COLUMNS", "100")
