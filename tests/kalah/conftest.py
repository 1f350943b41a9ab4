"""Fixtures of the Kalah tests."""

from pathlib import Path

import pytest


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of the test's own ($BOARDGAMES_CACHE, not yet created): tables are
    built and found there, never in the user's cache."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("BOARDGAMES_CACHE", str(cache))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))  # never the real cache
    return cache
