"""docs/sections/learning.md runs as written: its examples are doctests of the default run."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="the [rl] extra is not installed")
pytest.importorskip("pyspiel", reason="open_spiel is not installed")

PAGE = Path(__file__).resolve().parents[2] / "docs" / "sections" / "learning.md"


def test_learning_page_examples_run() -> None:
    result = doctest.testfile(
        str(PAGE),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        raise_on_error=False,
        verbose=False,
    )
    assert result.attempted > 20
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed"
