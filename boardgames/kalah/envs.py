"""Kalah's environment extras (its plugin's ``envs``; the hooks are described in
:mod:`boardgames.envs.games`): what the generic PettingZoo, Gymnasium and OpenSpiel
adapters of :mod:`boardgames.envs` ask Kalah for beyond its rules.

- :func:`setup`: the options from before the game registry, which
  ``boardgames.envs.kalah_v0``, ``boardgames/Kalah-v0`` and ``python_boardgames_kalah``
  take: ``pits`` (1-12, default 6), ``seeds`` (1-20, default 4), ``rules`` (``classic``
  or ``etudes``), ``capture`` (classic: ``opposite`` as in RULES.md 1.3, or ``empty``: a
  last stone in an own empty pit is always captured), ``reward`` (``margin``, the final
  margin in stones, default; or ``result``, +1/0/-1) and ``opening`` (random sowings at
  each reset);
- :data:`SPIEL_PARAMETERS`: the same for OpenSpiel, without ``opening``;
- :func:`opponent`: any ``kalah match`` player spec as the Gymnasium opponent (default
  :data:`OPPONENT`, ``classic``), played by :class:`KalahProgram`;
- :func:`rgb`: the board as a picture;
- :func:`labeller`: exact labels (endgame table, then the solver) for
  :class:`boardgames.envs.labels.PerfectPlayLoss`.

Importing this module loads no learning library and nothing of Kalah's play or analysis
(they load when a hook needs them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from boardgames.core.protocol import State
from boardgames.envs.boards import MOVER, PIT, RGB, draw_number
from boardgames.envs.games import (
    MAX_OPENING,
    OPPONENTS,
    REWARDS,
    Setup,
    check_choice,
    check_int,
)
from boardgames.kalah.game import MAX_PITS, MAX_SEEDS, MIN_PITS, MIN_SEEDS, Kalah
from boardgames.kalah.rules import RULE_SETS

if TYPE_CHECKING:
    from boardgames.kalah.analysis.dataset import Labeller

CAPTURE_RULES = ("opposite", "empty")
"""Classic capture: ``opposite`` (RULES.md 1.3: only with a stone opposite) or ``empty``
(the "Solving Kalah" variant: a last stone in an own empty pit is always captured)."""
OPPONENT = "classic"
"""The Gymnasium opponent by default: the ``classic`` program of ``kalah match``."""
SPIEL_PARAMETERS: dict[str, Any] = {
    "pits": 6,
    "seeds": 4,
    "rules": "classic",
    "capture": "opposite",
    "reward": "margin",
}
"""``python_boardgames_kalah``'s parameters and their defaults."""
WOOD = (181, 136, 84)
STORE = (100, 65, 35)


def kalah_game(
    pits: int = 6, seeds: int = 4, rules: str = "classic", capture: str = "opposite"
) -> Kalah:
    """The :class:`Kalah` game these options describe; ValueError (one line) when bad."""
    check_int("pits", pits, MIN_PITS, MAX_PITS)
    check_int("seeds", seeds, MIN_SEEDS, MAX_SEEDS)
    check_choice("rules", rules, RULE_SETS)
    check_choice("capture", capture, CAPTURE_RULES)
    if rules != "classic" and capture != "opposite":
        raise ValueError("capture='empty' is a classic-rules variant; etudes has its own captures")
    return Kalah(int(pits), int(seeds), rules, empty_capture=capture == "empty")


def max_sowings(stones: int, pits: int) -> int:
    """A proven bound on a Kalah game's sowings: each sowing either adds a stone to a store
    (at most ``stones`` times) or stays on the mover's side and moves stones towards its
    store, lowering their total distance to the stores (at most ``stones * pits``)."""
    return stones + (stones + 1) * stones * pits


def setup(
    pits: int = 6,
    seeds: int = 4,
    rules: str = "classic",
    capture: str = "opposite",
    reward: str = "margin",
    opening: int = 0,
) -> Setup:
    """Kalah as its environments play it: rewards the final margin in stones (or +1/0/-1
    with ``reward="result"``), ``opening`` random sowings at each reset."""
    game = kalah_game(pits, seeds, rules, capture)
    return Setup(
        game,
        reward=check_choice("reward", reward, REWARDS),
        max_margin=game.total_stones,
        opening=check_int("opening", opening, 0, MAX_OPENING),
        max_game_length=max_sowings(game.total_stones, game.pits),
    )


@dataclass(frozen=True)
class KalahProgram:
    """A ``kalah match`` program as a Gymnasium opponent: its whole compound move."""

    config: Any

    def __call__(self, game: Any, state: State, rng: np.random.Generator) -> Sequence[int]:
        from boardgames.kalah.play.program import program_compound

        move, _ = program_compound(game, state, self.config)
        return move


def opponent(spec: object, depth: int) -> KalahProgram | None:
    """The program of the ``kalah match`` player spec ``spec`` (``classic``, ``tseitin``,
    ``time=0.05``, ...); None for the generic ``program`` and ``random``."""
    if spec in OPPONENTS:
        return None
    if not isinstance(spec, str):
        raise ValueError(f"opponent must be a kalah match spec or 'random', got {spec!r}")
    from boardgames.kalah.play.match import parse_spec

    return KalahProgram(parse_spec(spec))


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
