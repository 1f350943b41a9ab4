"""Game records: the text a finished or stopped game is saved as.

Every game has the generic record: a comment line with the command that replays the
setup, the moves from the game's start, and the position they reach (in the game's own
notation where it has one). A game with a record format of its own (Kalah's ``.klh``,
RULES.md section 3) names a :class:`RecordFormat` in its plugin's ``records`` path; the
play loop, the web page's download and review then write and read that format.

This module imports no game.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import Any

import numpy as np

from boardgames.core.capabilities import format_position
from boardgames.core.hooks import RecordFormat as RecordFormat
from boardgames.core.protocol import State
from boardgames.core.registry import plugin_of


def own_format(game: Any) -> RecordFormat | None:
    """The game's own :class:`RecordFormat` (its plugin's ``records``), or None."""
    return plugin_of(game).record_format()


def option_words(game: Any) -> list[str]:
    """The game's options as command-line words (``--pits 4``, ``--rows '3 4 5'``)."""
    words: list[str] = []
    for o in plugin_of(game).options:
        value = getattr(game, o.name, o.default)
        if o.kind == "bool":
            words += [o.flag] if value else []
        else:
            shown = " ".join(map(str, value)) if isinstance(value, tuple) else value
            words.append(f"{o.flag} '{shown}'" if " " in str(shown) else f"{o.flag} {shown}")
    return words


def generic_text(
    game: Any,
    moves: Sequence[int],
    state: State,
    before: Sequence[int] | None = (),
    start: State | None = None,
) -> str:
    """The generic record: the setup as a command, the moves from the game's start
    (``before``: the moves that led to the start position, when it was given as moves;
    None when it was given otherwise) and the position reached. A start given otherwise
    (``start``, not the game's own start) is a ``start:`` line and the command's
    ``--start``, and the moves are those played from it, so the record replays."""
    from boardgames.core.capabilities import PositionNotation

    line = [*(before or ()), *moves]
    texts = [game.format_move(m) for m in line]
    words = (", " if any(" " in t for t in texts) else " ").join(texts)
    known = before is not None
    position = format_position(game, state, list(line) if known else None)
    command = [plugin_of(game).name, *option_words(game)]
    given = ""
    elsewhere = start is not None and not np.array_equal(start, game.initial_state())
    if not known and start is not None and elsewhere and isinstance(game, PositionNotation):
        given = format_position(game, start)
        command.append(f"--start {shlex.quote(given)}")
    return (
        f"# boardgames play {' '.join(command)}\n"
        + (f"start: {given}\n" if given else "")
        + f"moves: {words}\n"
        f"position: {position}\n"
    )


def record_text(
    game: Any,
    start: State,
    moves: Sequence[int],
    players: tuple[str, str],
    before: Sequence[int] | None = (),
) -> str:
    """The record of a game: the game's own format when it has one that holds it, else
    :func:`generic_text`."""
    own = own_format(game)
    if own is not None:
        text = own.text(game, start, moves, players)
        if text is not None:
            return text
    state = start
    for move in moves:
        state, _ = game.play(state, move)
    return generic_text(game, moves, state, before, start)


def read_record(game: Any, text: str) -> tuple[State, list[int]]:
    """The start position and the moves of a record of ``game``: its own format, else the
    generic one (:func:`generic_text`); GameError (one line) when it is neither."""
    from boardgames.core.capabilities import parse_position
    from boardgames.core.protocol import GameError

    own = own_format(game)
    if own is not None:
        found = own.read(game, text)
        if found is not None:
            return found
    fields = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and not line.startswith("#"):
            fields[key.strip().lower()] = value.strip()
    if "moves" not in fields:
        raise GameError("this is no game record: it has no 'moves:' line")
    if fields.get("start"):  # the game began at a position given as such
        begin = parse_position(game, fields["start"])
        return begin, _move_list(game, fields["moves"], begin)
    try:
        return game.initial_state(), _move_list(game, fields["moves"])
    except GameError:
        if "position" not in fields:
            raise
        return parse_position(game, fields["position"]), []


def _move_list(game: Any, text: str, start: State | None = None) -> list[int]:
    """The moves of a record's ``moves:`` line, from ``start`` (None: the game's start):
    separated by commas when a move's notation holds a space (Nim's ``1 2, 3 1``), else
    by spaces."""
    from boardgames.core.capabilities import parse_moves
    from boardgames.core.protocol import GameError

    try:
        return parse_moves(game, text, commas="," in text, start=start)[1]
    except GameError:
        if "," in text or " " not in text.strip():
            raise
        return parse_moves(game, text, commas=True, start=start)[1]  # one move: '1 2'
