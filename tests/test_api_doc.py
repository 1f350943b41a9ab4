"""docs/sections/api.md runs as written: its examples are doctests of the default run."""

from __future__ import annotations

import doctest
from pathlib import Path

PAGE = Path(__file__).resolve().parents[1] / "docs" / "sections" / "api.md"


def test_api_page_examples_run() -> None:
    result = doctest.testfile(
        str(PAGE),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        raise_on_error=False,
        verbose=False,
    )
    assert result.attempted > 40
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed"
