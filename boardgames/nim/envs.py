"""Nim's environment extras (its plugin's ``envs``; the hooks are described in
:mod:`boardgames.envs.games`): what the generic PettingZoo, Gymnasium and OpenSpiel
adapters of :mod:`boardgames.envs` ask Nim for beyond its rules.

- :func:`setup`: the options from before the game registry, which
  ``boardgames.envs.nim_v0``, ``boardgames/Nim-v0`` and ``python_boardgames_nim`` take:
  ``rows`` (1-14 rows of 1-20 chips, default ``(3, 4, 5)``; a sequence, or text such as
  ``"3 4 5"`` or ``"3;4;5"``) and ``misere`` (the last chip loses); rewards +1/-1;
- :data:`SPIEL_PARAMETERS`: the same for OpenSpiel (``rows`` as text);
- :func:`opponent`: :class:`Bouton`'s strategy as the Gymnasium opponent ``bouton``, the
  default (:data:`OPPONENT`);
- :func:`random_state`: the Gymnasium option ``start="random"``;
- :func:`rgb`: the rows as a picture.

Importing this module loads no learning library.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardgames.core.protocol import State
from boardgames.envs.boards import BACKGROUND, MOVER, RGB, draw_number
from boardgames.envs.games import OPPONENTS, Setup, check_int
from boardgames.nim.game import DEFAULT_MAX_CHIPS, DEFAULT_MAX_ROWS, Nim, encode_move
from boardgames.nim.rules import program_move

OPPONENT = "bouton"
"""The Gymnasium opponent by default: Bouton's strategy."""
SPIEL_PARAMETERS: dict[str, Any] = {"rows": "3;4;5", "misere": False}
"""``python_boardgames_nim``'s parameters and their defaults (one row: ``rows=7;``)."""
CHIP = (230, 200, 40)
TAKEN = (90, 90, 90)


def nim_game(rows: Sequence[int] | str = (3, 4, 5), misere: bool = False) -> Nim:
    """The :class:`Nim` game of these rows; ValueError (one line) when bad."""
    if isinstance(rows, str):
        words = rows.replace(",", " ").replace(";", " ").split()
        if not words or not all(w.isascii() and w.isdigit() and len(w) <= 4 for w in words):
            raise ValueError(f"rows must be chip counts such as '3 4 5', got {rows!r}")
        rows = [int(w) for w in words]
    rows = tuple(rows)
    if not 1 <= len(rows) <= DEFAULT_MAX_ROWS:
        raise ValueError(f"rows must list 1 to {DEFAULT_MAX_ROWS} rows, got {len(rows)}")
    for i, r in enumerate(rows, 1):
        check_int(f"row {i}", r, 1, DEFAULT_MAX_CHIPS)
    if not isinstance(misere, bool | np.bool_):
        raise ValueError(f"misere must be True or False, got {misere!r}")
    return Nim(tuple(int(r) for r in rows), bool(misere))


def setup(rows: Sequence[int] | str = (3, 4, 5), misere: bool = False) -> Setup:
    """Nim as its environments play it: +1 to the winner, -1 to the loser; a game lasts at
    most one move a chip."""
    game = nim_game(rows, misere)
    return Setup(game, max_game_length=sum(game.rows))


@dataclass(frozen=True)
class Bouton:
    """Bouton's strategy: a winning move when there is one, else one chip from the
    fullest row."""

    def __call__(self, game: Any, state: State, rng: np.random.Generator) -> Sequence[int]:
        move, _ = program_move(game.rows_of(state), game.misere)
        return [encode_move(move.row, move.take)]


def opponent(spec: object, depth: int) -> Bouton | None:
    """``bouton``: :class:`Bouton`; None for the generic ``program`` and ``random``."""
    if spec == "bouton":
        return Bouton()
    if spec in OPPONENTS:
        return None
    raise ValueError(f"opponent must be one of bouton, random, program, got {spec!r}")


def random_state(game: Nim, rng: np.random.Generator, mover: int) -> State:
    """Every row drawn from 0 to its starting count (not all empty), ``mover`` to move, so
    that a learner meets every position."""
    rows = [0] * len(game.rows)
    while not any(rows):
        rows = [int(rng.integers(r + 1)) for r in game.rows]
    return game.state_from_rows(rows, mover)


def rgb(game: Nim, state: State, cell: int = 24) -> RGB:
    """The rows as an ``H x W x 3`` uint8 image: the row's count, then a square a chip
    (yellow: left, grey: taken); a yellow bar on the left or right edge for the mover."""
    rows, k = len(game.rows), max(game.rows)
    label = 3 * cell
    width, height = label + k * cell + cell // 2, rows * cell + cell // 2
    image = np.zeros((height, width, 3), dtype=np.uint8)
    image[:, :] = BACKGROUND
    inset = max(1, cell // 6)
    for r, (left, first) in enumerate(zip(game.rows_of(state), game.rows, strict=True)):
        top = cell // 4 + r * cell
        draw_number(image, left, top + cell // 2 - 5, label // 2, scale=2)
        for c in range(first):
            x = label + c * cell
            colour = CHIP if c < left else TAKEN
            image[top + inset : top + cell - inset, x + inset : x + cell - inset] = colour
    if game.outcome(state) is None:
        edge = slice(0, cell // 6) if game.to_move(state) == 0 else slice(width - cell // 6, width)
        image[:, edge] = MOVER
    return image
