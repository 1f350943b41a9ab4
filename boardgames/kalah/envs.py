"""Kalah's environment extras (its plugin's ``envs``: :data:`ENVS`, an
:class:`boardgames.envs.games.EnvExtras`): what the generic PettingZoo, Gymnasium and
OpenSpiel adapters of :mod:`boardgames.envs` ask Kalah for beyond its rules. Kalah's
environments take its plugin options (``pits``, ``seeds``, ``rules``, ``capture``) like
every game's; here are only:

- rewards in stones: ``max_margin`` (every stone), ``margin`` by default;
- :func:`max_sowings`: OpenSpiel's proven bound on a game's length;
- ``classic`` (the ``kalah match`` program of the article) as the Gymnasium opponent by
  default, a player of the plugin's ``players``;
- :func:`rgb`: the board as a picture;
- :func:`labeller`: exact labels (endgame table, then the solver) for
  :class:`boardgames.envs.labels.PerfectPlayLoss`.

Importing this module loads no learning library and nothing of Kalah's play or analysis
(they load when an extra needs them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from boardgames.core.protocol import State
from boardgames.envs.boards import MOVER, PIT, RGB, draw_number
from boardgames.envs.games import EnvExtras
from boardgames.kalah.game import Kalah

if TYPE_CHECKING:
    from boardgames.kalah.analysis.dataset import Labeller

WOOD = (181, 136, 84)
STORE = (100, 65, 35)


def max_sowings(game: Kalah) -> int:
    """A proven bound on a Kalah game's sowings: each sowing either adds a stone to a store
    (at most ``stones`` times) or stays on the mover's side and moves stones towards its
    store, lowering their total distance to the stores (at most ``stones * pits``)."""
    stones = game.total_stones
    return stones + (stones + 1) * stones * game.pits


def stones(game: Kalah) -> int:
    """The largest final margin: every stone."""
    return game.total_stones


def labeller(game: Kalah) -> Labeller:
    """This process's exact labeller of ``game`` (the endgame table, then the solver)."""
    from boardgames.kalah.analysis.dataset import labeller as kalah_labeller

    return kalah_labeller(game)


def rgb(game: Kalah, state: State, cell: int = 48) -> RGB:
    """The board as an ``H x W x 3`` uint8 image: B's pits on top (right to left), A's
    below, B's store on the left, A's on the right, a yellow bar beside the side to move."""
    m = game.pits
    pad = cell // 4
    width, height = (m + 2) * cell + 2 * pad, 2 * cell + 4 * pad
    image = np.zeros((height, width, 3), dtype=np.uint8)
    image[:, :] = WOOD
    board = game.board(state)
    inset = cell // 10

    def hole(top: int, left: int, h: int, value: int, colour: tuple[int, int, int]) -> None:
        image[top + inset : top + h - inset, left + inset : left + cell - inset] = colour
        draw_number(image, value, top + h // 2 - 7, left + cell // 2)

    y0 = 2 * pad
    for i in range(m):
        hole(y0 + cell, pad + (i + 1) * cell, cell, board[i], PIT)  # A's pit i
        hole(y0, pad + (m - i) * cell, cell, board[m + 1 + i], PIT)  # B's pit m+1+i
    hole(y0, pad, 2 * cell, board[2 * m + 1], STORE)
    hole(y0, pad + (m + 1) * cell, 2 * cell, board[m], STORE)
    if game.outcome(state) is None:
        bar = (
            slice(height - pad, height - pad // 3)
            if game.to_move(state) == 0
            else slice(pad // 3, pad)
        )
        image[bar, pad + cell : pad + (m + 1) * cell] = MOVER
    return image


ENVS = EnvExtras(
    rgb=rgb,
    labeller=labeller,
    max_margin=stones,
    max_game_length=max_sowings,
    default_reward="margin",
    default_opponent="classic",
)
"""Kalah's environment extras (:mod:`boardgames.envs.games`)."""
