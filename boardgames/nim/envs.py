"""Nim's environment extras (its plugin's ``envs``: :data:`ENVS`, an
:class:`boardgames.envs.games.EnvExtras`): what the generic PettingZoo, Gymnasium and
OpenSpiel adapters of :mod:`boardgames.envs` ask Nim for beyond its rules. Nim's
environments take its plugin options (``rows``, ``misere``) like every game's; here are
only:

- :func:`chips`: OpenSpiel's proven bound on a game's length (one move a chip);
- ``bouton`` (Bouton's strategy, a player of the plugin's ``players``) as the Gymnasium
  opponent by default;
- :func:`random_state`: the Gymnasium option ``start="random"``;
- :func:`rgb`: the rows as a picture.

Importing this module loads no learning library.
"""

from __future__ import annotations

import numpy as np

from boardgames.core.protocol import State
from boardgames.envs.boards import BACKGROUND, MOVER, RGB, draw_number
from boardgames.envs.games import EnvExtras
from boardgames.nim.game import Nim

CHIP = (230, 200, 40)
TAKEN = (90, 90, 90)


def chips(game: Nim) -> int:
    """A proven bound on a game's moves: each move takes at least one chip."""
    return sum(game.rows)


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


ENVS = EnvExtras(
    rgb=rgb, random_state=random_state, max_game_length=chips, default_opponent="bouton"
)
"""Nim's environment extras (:mod:`boardgames.envs.games`)."""
