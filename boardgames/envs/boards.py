"""The pictures of ``render_mode="rgb_array"``: ``H x W x 3`` uint8 arrays drawn with numpy
only. :func:`grid_rgb` draws any game (the cells of ``player_0``'s observation); a game
draws its own board with its extras' ``rgb`` (:class:`boardgames.envs.games.EnvExtras`), using
:func:`draw_number` and the colours here.

This module imports nothing of :mod:`boardgames.envs` and no game.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from boardgames.core.protocol import State

RGB = npt.NDArray[np.uint8]
"""A picture: ``H x W x 3`` uint8."""

_DIGITS = (
    "111101101101111", "010110010010111", "111001111100111", "111001111001111",
    "101101111001001", "111100111001111", "111100111101111", "111001001001001",
    "111101111101111", "111101111001111",
)  # fmt: skip
"""A 3 x 5 pixel font of the digits 0-9, rows top to bottom."""
PIT = (120, 80, 45)
"""A cell (or a pit) of the board."""
INK = (250, 240, 220)
"""The digits."""
MOVER = (230, 200, 40)
"""The bar on the side of the player to move."""
BACKGROUND = (30, 40, 50)


def draw_number(image: RGB, value: int, top: int, centre: int, scale: int = 3) -> None:
    """Write ``value`` in the pixel font, centred on column ``centre`` at row ``top``."""
    text = str(value)
    width = (4 * len(text) - 1) * scale
    left = centre - width // 2
    for k, ch in enumerate(text):
        bits = _DIGITS[int(ch)]
        for r in range(5):
            for c in range(3):
                if bits[3 * r + c] == "1":
                    y, x = top + r * scale, left + (4 * k + c) * scale
                    image[y : y + scale, x : x + scale] = INK


def grid_rgb(game: Any, state: State, cell: int = 32) -> RGB:
    """Any game's picture: the cells of ``player_0``'s observation (its last axis across,
    the others down), each with its value in the pixel font, and a yellow bar below
    (``player_0`` to move) or above (``player_1``)."""
    observation = np.asarray(game.observation(state, 0))
    grid = observation.reshape(-1, observation.shape[-1] if observation.ndim else 1)
    pad, inset = cell // 4, cell // 10
    height, width = grid.shape[0] * cell + 2 * pad, grid.shape[1] * cell + 2 * pad
    image = np.zeros((height, width, 3), dtype=np.uint8)
    image[:, :] = BACKGROUND
    for (r, c), value in np.ndenumerate(grid):
        top, left = pad + r * cell, pad + c * cell
        image[top + inset : top + cell - inset, left + inset : left + cell - inset] = PIT
        digits = len(str(int(value)))
        scale = max(0, min(2, (cell - 2 * inset - 2) // (4 * digits - 1)))
        if value >= 0 and scale:
            draw_number(
                image, int(value), top + cell // 2 - 5 * scale // 2, left + cell // 2, scale
            )
    if game.outcome(state) is None:
        bar = (
            slice(height - pad, height - pad // 3)
            if game.to_move(state) == 0
            else slice(pad // 3, pad)
        )
        image[bar, pad : width - pad] = MOVER
    return image
