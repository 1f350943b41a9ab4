"""Commentary: what the play loop and the page say about a move beyond the move itself.

A game may name, in its plugin's ``commentary`` path, an object of :class:`Commentary`
(any of its methods may be left out):
Kalah says "A moves again" after a last stone in the store and when a store holds more
than half of the stones; Nim gives Bouton's reason for a move. Both hooks are optional and
pure (the same positions give the same words), so the terminal and the web page say the
same thing. This module imports no game.
"""

from __future__ import annotations

from typing import Any, Protocol

from boardgames.core.protocol import State
from boardgames.core.registry import load, plugin_of


class Commentary(Protocol):
    """A game's words about moves (each method may return None: nothing to say)."""

    def after(self, game: Any, before: State, move: int, after: State) -> str | None:
        """A remark on ``move``, played in ``before`` and leading to ``after``."""
        ...

    def why(self, game: Any, state: State, move: int) -> str | None:
        """Why ``move`` is a good choice in ``state`` (a program's or a hint's move)."""
        ...

    def describe(self, game: Any, state: State, move: int) -> str | None:
        """``move`` in words (Nim's ``take 2 from row 1``), beside its notation."""
        ...

    def final(self, game: Any, state: State) -> str | None:
        """The result of the finished game ``state`` in the game's own words (Kalah's
        final score), instead of the generic "A wins (margin 8)."."""
        ...


def commentary(game: Any) -> Commentary | None:
    """The game's :class:`Commentary` (its plugin's ``commentary``), or None."""
    path = getattr(plugin_of(game), "commentary", None)
    return None if path is None else load(path)


def _ask(game: Any, method: str, *args: Any) -> str | None:
    hook = commentary(game)
    answer = None if hook is None else getattr(hook, method, lambda *a: None)(game, *args)
    return None if answer is None else str(answer)


def remark(game: Any, before: State, move: int, after: State) -> str | None:
    """The game's remark on a move just played, or None."""
    return _ask(game, "after", before, move, after)


def described(game: Any, state: State, move: int) -> str | None:
    """``move`` in the game's words, or None."""
    return _ask(game, "describe", state, move)


def reason(game: Any, state: State, move: int) -> str | None:
    """The game's reason for ``move`` in ``state``, or None."""
    return _ask(game, "why", state, move)


def result_text(game: Any, state: State, names: tuple[str, str]) -> str:
    """The result of the finished game ``state``: the game's own words, else "A wins
    (margin 8)." or "The game is a draw." with ``names`` for the players."""
    own = _ask(game, "final", state)
    if own is not None:
        return own
    result = game.outcome(state)
    if not result:
        return "The game is a draw."
    mover = game.to_move(state)
    winner = mover if result > 0 else 1 - mover
    name = names[winner][:1].upper() + names[winner][1:]
    return f"{name} wins (margin {abs(result)})."
