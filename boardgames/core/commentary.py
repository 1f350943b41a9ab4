"""Commentary: what the play loop and the page say about a move beyond the move itself.

A game may name, in its plugin's ``commentary`` path, an object of :class:`Commentary`
(any of its methods may be left out):
Kalah says "A moves again" after a last stone in the store and when a store holds more
than half of the stones; Nim gives Bouton's reason for a move. Both hooks are optional and
pure (the same positions give the same words), so the terminal and the web page say the
same thing. This module imports no game.
"""

from __future__ import annotations

from typing import Any

from boardgames.core.hooks import Commentary as Commentary
from boardgames.core.protocol import State
from boardgames.core.registry import plugin_of


def commentary(game: Any) -> Commentary | None:
    """The game's :class:`Commentary` (its plugin's ``commentary``; a method the plugin's
    object leaves out answers None), or None."""
    return plugin_of(game).game_commentary()


def remark(game: Any, before: State, move: int, after: State) -> str | None:
    """The game's remark on a move just played, or None."""
    hook = commentary(game)
    return None if hook is None else hook.after(game, before, move, after)


def described(game: Any, state: State, move: int) -> str | None:
    """``move`` in the game's words, or None."""
    hook = commentary(game)
    return None if hook is None else hook.describe(game, state, move)


def reason(game: Any, state: State, move: int) -> str | None:
    """The game's reason for ``move`` in ``state``, or None."""
    hook = commentary(game)
    return None if hook is None else hook.why(game, state, move)


def value_words(game: Any, state: State, value: int, exact: bool) -> str | None:
    """A search's value (for the player to move in ``state``) in the game's own words
    (:meth:`Commentary.value`: Connect Four's "1 wins with their 12th disc"), or None:
    the generic words then (``describe_score``)."""
    hook = commentary(game)
    said = None if hook is None else hook.value(game, state, value, exact)
    return said.strip() or None if said is not None else None


def result_text(game: Any, state: State, names: tuple[str, str]) -> str:
    """The result of the finished game ``state``: the game's own words, else "A wins
    (margin 8)." or "The game is a draw." with ``names`` for the players."""
    hook = commentary(game)
    own = None if hook is None else hook.final(game, state)
    if own is not None:
        return own
    result = game.outcome(state)
    if not result:
        return "The game is a draw."
    mover = game.to_move(state)
    winner = mover if result > 0 else 1 - mover
    name = names[winner][:1].upper() + names[winner][1:]
    return f"{name} wins (margin {abs(result)})."
