"""What every environment of :mod:`boardgames.envs` shares, free of PettingZoo, Gymnasium
and OpenSpiel: checking options (one-line ``ValueError`` with the allowed range), the
board seen from one player's side, action numbering, rewards and the pictures (ANSI text
and an RGB array drawn with numpy only).

Kalah actions: action ``i`` (``0..pits-1``) sows the mover's ``i``-th pit counted from its
own left, i.e. pit ``i`` for A (player 0) and pit ``pits + 1 + i`` for B (player 1).
Kalah observation: the ``2 * pits + 2`` holes rotated so that the observer's pits come
first: own pits left to right, own store, the opponent's pits (from its left), its store.

Nim actions: ``row * K + take - 1`` with ``K`` the largest starting row (take ``take``
chips from row ``row``, 0-based). Nim observation: the chips left in each row.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from boardgames.core.protocol import State
from boardgames.kalah.game import MAX_PITS, MAX_SEEDS, MIN_PITS, MIN_SEEDS, Kalah
from boardgames.kalah.game import render_board as render_kalah_board
from boardgames.kalah.rules import RULE_SETS
from boardgames.nim.game import DEFAULT_MAX_CHIPS, DEFAULT_MAX_ROWS, Nim, encode_move

CAPTURE_RULES = ("opposite", "empty")
"""Classic capture: ``opposite`` (RULES.md 1.3: only with a stone opposite) or ``empty``
(the "Solving Kalah" variant: a last stone in an own empty pit is always captured)."""
REWARDS = ("margin", "result")
"""``margin``: the final margin in stones; ``result``: +1 win, 0 draw, -1 loss."""
PLAYERS = ("player_0", "player_1")
"""PettingZoo agent names: player_0 is Kalah's A (Nim's first player), player_1 is B."""
MAX_OPENING = 200

RGB = npt.NDArray[np.uint8]


# --- checking options ------------------------------------------------------------------


def check_int(name: str, value: object, lo: int, hi: int) -> int:
    """``value`` as an int in ``lo..hi``, else a one-line ValueError with the range."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ValueError(f"{name} must be a whole number from {lo} to {hi}, got {value!r}")
    if not lo <= int(value) <= hi:
        raise ValueError(f"{name} must be from {lo} to {hi}, got {value}")
    return int(value)


def check_choice(name: str, value: object, allowed: Sequence[str]) -> str:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")
    return str(value)


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


# --- Kalah -----------------------------------------------------------------------------


def kalah_pit(game: Kalah, player: int, action: int) -> int:
    """The absolute pit index of ``player``'s action ``action``."""
    return int(action) + (game.pits + 1) * player


def kalah_action(game: Kalah, pit: int) -> int:
    """The action (own pit counted from the mover's left) of absolute pit ``pit``."""
    return pit if pit < game.pits else pit - game.pits - 1


def kalah_view(game: Kalah, state: State, player: int) -> npt.NDArray[np.int64]:
    """The board holes from ``player``'s side: own pits, own store, opponent's pits, its
    store."""
    board = np.asarray(state[: game.size], dtype=np.int64)
    return np.roll(board, -(game.pits + 1) * player)


def kalah_mask(game: Kalah, state: State, player: int) -> npt.NDArray[np.int8]:
    """1 for each of ``player``'s actions that is legal now (all 0 when it is not
    ``player``'s turn or the game is over)."""
    mask = np.zeros(game.pits, dtype=np.int8)
    if game.to_move(state) == player:
        for pit in game.legal_moves(state):
            mask[kalah_action(game, pit)] = 1
    return mask


def kalah_margin(game: Kalah, state: State, player: int) -> int:
    """The final margin (own minus opponent's) for ``player`` of a finished game."""
    margin = game.outcome(state)
    assert margin is not None, "the game is not over"
    return margin if game.to_move(state) == player else -margin


def reward_of(margin: int, reward: str) -> float:
    """The reward of a final margin: the margin itself, or its sign."""
    return float(margin) if reward == "margin" else float(np.sign(margin))


def kalah_reward_range(game: Kalah, reward: str) -> tuple[float, float]:
    if reward == "result":
        return -1.0, 1.0
    return -float(game.total_stones), float(game.total_stones)


def kalah_ansi(game: Kalah, state: State) -> str:
    """The board as plain text, in the RULES.md layout (as ``kalah play`` draws it)."""
    over = game.outcome(state) is not None
    return render_kalah_board(
        game.board(state), game.pits, None if over else game.to_move(state)
    ).plain


def random_opening(game: Kalah, rng: np.random.Generator, plies: int) -> State:
    """The start position after ``plies`` random sowings drawn from ``rng`` (fewer if the
    next one would end the game)."""
    state = game.initial_state()
    for _ in range(plies):
        legal = game.legal_moves(state)
        if not legal:
            break
        child, _ = game.play(state, int(legal[int(rng.integers(len(legal)))]))
        if game.outcome(child) is not None:
            break
        state = child
    return state


# --- Nim -------------------------------------------------------------------------------


def nim_width(game: Nim) -> int:
    return max(game.rows)


def nim_move(game: Nim, action: int) -> tuple[int, int]:
    """(row, take) of a Nim action."""
    row, take = divmod(int(action), nim_width(game))
    return row, take + 1


def nim_action(game: Nim, row: int, take: int) -> int:
    return row * nim_width(game) + take - 1


def nim_play(game: Nim, state: State, row: int, take: int) -> State:
    """The position after taking ``take`` chips from ``row`` (0-based): the game's own
    move, :meth:`Nim.play`, which checks it too."""
    child, _ = game.play(state, encode_move(row, take))
    return child


def nim_mask(game: Nim, state: State, player: int | None = None) -> npt.NDArray[np.int8]:
    """1 for each legal action (all 0 when it is not ``player``'s turn)."""
    k = nim_width(game)
    mask = np.zeros(len(game.rows) * k, dtype=np.int8)
    if player is not None and game.to_move(state) != player:
        return mask
    for row, left in enumerate(state[:-1]):
        mask[row * k : row * k + int(left)] = 1
    return mask


def nim_winner(game: Nim, state: State) -> int:
    """The winner of a finished Nim game (0 or 1)."""
    out = game.outcome(state)
    assert out is not None, "the game is not over"
    mover = game.to_move(state)
    return mover if out > 0 else 1 - mover


def nim_ansi(game: Nim, state: State) -> str:
    """Rows of chips as text: ``1: ●●● ○○`` (left, taken), then who moves."""
    lines = []
    for i, (left, first) in enumerate(zip(game.rows_of(state), game.rows, strict=True), 1):
        lines.append(f"{i:>2}: {'●' * left}{'○' * (first - left)}  {left}")
    if game.outcome(state) is None:
        lines.append(f"{PLAYERS[game.to_move(state)]} to move")
    else:
        lines.append(f"game over: {PLAYERS[nim_winner(game, state)]} wins")
    return "\n".join(lines)


# --- pictures --------------------------------------------------------------------------

_DIGITS = (
    "111101101101111", "010110010010111", "111001111100111", "111001111001111",
    "101101111001001", "111100111001111", "111100111101111", "111001001001001",
    "111101111101111", "111101111001111",
)  # fmt: skip
"""A 3 x 5 pixel font of the digits 0-9, rows top to bottom."""
WOOD = (181, 136, 84)
PIT = (120, 80, 45)
STORE = (100, 65, 35)
INK = (250, 240, 220)
MOVER = (230, 200, 40)
CHIP = (230, 200, 40)
TAKEN = (90, 90, 90)
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


def kalah_rgb(game: Kalah, state: State, cell: int = 48) -> RGB:
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


def nim_rgb(game: Nim, state: State, cell: int = 24) -> RGB:
    """The rows as an ``H x W x 3`` uint8 image: the row's count, then a square a chip
    (yellow: left, grey: taken); a yellow bar on the left or right edge for the mover."""
    rows, k = len(game.rows), nim_width(game)
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
