"""The prompt's way out: end of input and Ctrl-C both leave, each said in its own words."""

from __future__ import annotations

from typing import Any

import pytest
from rich.console import Console

from boardgames.core import console as C


@pytest.mark.parametrize(
    ("raised", "said", "interrupted"),
    [(EOFError, "End of input.", False), (KeyboardInterrupt, "Stopped (Ctrl-C).", True)],
)
def test_a_prompt_left_says_how(
    monkeypatch: pytest.MonkeyPatch, raised: type[BaseException], said: str, interrupted: bool
) -> None:
    def leave(*args: Any, **kwargs: Any) -> str:
        raise raised

    out = Console(record=True, width=80)
    monkeypatch.setattr(out, "input", leave)
    with pytest.raises(C.EndOfInput) as e:
        C.ask(out, "Your move: ")
    assert str(e.value) == said and e.value.interrupted is interrupted
