"""The Nim tab's API: a position checked by :class:`~boardgames.nim.game.Nim`, Bouton's
move from :mod:`boardgames.nim.rules`, the binary table the CLI prints; and :data:`WEB`,
the web extras Nim's plugin names (routes under ``/api/nim/``, the Nim tab)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.routing import BaseRoute, Route

from boardgames.core.protocol import GameError
from boardgames.nim.game import DEFAULT_MAX_CHIPS, DEFAULT_MAX_ROWS, Nim, encode_move
from boardgames.nim.rules import (
    NimMove,
    bit_columns,
    column_counts,
    is_safe,
    nim_sum,
    program_move,
    winning_moves,
)
from boardgames.web.extras import Site, WebExtras
from boardgames.web.inputs import BadInput, flag, int_list, whole


def read_position(data: dict[str, Any]) -> tuple[Nim, tuple[int, ...], int]:
    """The game (its starting ``layout``, ``misere``), the chips ``left`` and who moves
    (``to_move``, 0 or 1); BadInput unless within the CLI's default limits (14 x 20)."""
    layout = int_list(data, "layout", 1, DEFAULT_MAX_CHIPS, DEFAULT_MAX_ROWS)
    if not layout:
        raise BadInput(f"layout must hold 1 to {DEFAULT_MAX_ROWS} rows of 1 to 20 chips")
    misere = flag(data, "misere")
    try:
        game = Nim(tuple(layout), misere)
    except GameError as e:
        raise BadInput(str(e)) from None
    left = tuple(int_list(data, "left", 0, DEFAULT_MAX_CHIPS, DEFAULT_MAX_ROWS) or layout)
    if len(left) != len(layout) or any(a > b for a, b in zip(left, layout, strict=True)):
        raise BadInput("left must give each row's chips, at most the row's starting count")
    return game, left, whole(data, "to_move", 0, 1, 0)


def describe(game: Nim, left: tuple[int, ...], to_move: int) -> dict[str, Any]:
    """The position, its binary table and whether the side to move wins."""
    columns = bit_columns(left)
    over = not any(left)
    out: dict[str, Any] = {
        "layout": list(game.rows),
        "left": list(left),
        "misere": game.misere,
        "to_move": to_move,
        "over": over,
        "nim_sum": nim_sum(left),
        "columns": columns,
        "bits": [[1 if r & c else 0 for c in columns] for r in left],
        "ones": column_counts(left),
        "safe": is_safe(left, game.misere) if not over else None,
    }
    if over:
        margin = game.outcome(game.state_from_rows(left, to_move)) or 0
        out["winner"] = to_move if margin > 0 else 1 - to_move
    return out


def winning(game: Nim, left: tuple[int, ...]) -> dict[str, Any]:
    """Bouton's advice: the winning move (with the CLI's words), or none from a safe
    position."""
    moves = winning_moves(left, game.misere)
    if not any(left):
        raise BadInput("the game is over: no chips left")
    if not moves:
        return {
            "move": None,
            "said": f"No winning move: the nim-sum is {nim_sum(left)}, every column is even. "
            "Take a little and hope for a mistake.",
        }
    m = moves[0]
    return {
        "move": {"row": m.row, "take": m.take},
        "said": f"Take {m.take} from row {m.row + 1} ({_why(left, m, game.misere)}).",
    }


def _why(left: tuple[int, ...], move: NimMove, misere: bool) -> str:
    after = move.apply(left)
    text = (
        f"row {move.row + 1} goes {left[move.row]} -> {after[move.row]}, nim-sum "
        f"{nim_sum(left)} -> {nim_sum(after)}"
    )
    if misere and all(r <= 1 for r in after):
        return text + ", leaving an odd number of single chips"
    return text + (": every column even" if nim_sum(after) == 0 else "")


def take(data: dict[str, Any]) -> dict[str, Any]:
    """A person's move (``row`` 0-based, ``take``), checked by the game's own ``play``."""
    game, left, to_move = read_position(data)
    row = whole(data, "row", 0, len(left) - 1)
    count = whole(data, "take", 1, DEFAULT_MAX_CHIPS)
    state = game.state_from_rows(left, to_move)
    if not left[row]:
        raise BadInput(f"row {row + 1} is empty; choose a row that still has chips")
    if count > left[row]:
        raise BadInput(f"row {row + 1} has {left[row]} chips; take 1 to {left[row]}")
    try:
        state, _ = game.play(state, encode_move(row, count))
    except GameError as e:  # pragma: no cover - checked above
        raise BadInput(str(e)) from None
    return describe(game, game.rows_of(state), game.to_move(state))


def program(data: dict[str, Any]) -> dict[str, Any]:
    """Bouton's program moves: its move, why, and the position after it."""
    game, left, to_move = read_position(data)
    if not any(left):
        raise BadInput("the game is over: no chips left")
    move, wins = program_move(left, game.misere)
    state, _ = game.play(game.state_from_rows(left, to_move), encode_move(move.row, move.take))
    said = f"Bouton takes {move.take} from row {move.row + 1}."
    if wins:
        said += f" Why: {_why(left, move, game.misere)}."
    else:
        said += (
            f" Why: the nim-sum is {nim_sum(left)}, every column is even, so there is no "
            "winning move; it takes a single chip and waits for a mistake."
        )
    out = describe(game, game.rows_of(state), game.to_move(state))
    out["move"] = {"row": move.row, "take": move.take}
    out["said"] = said
    return out


def position(data: dict[str, Any]) -> dict[str, Any]:
    """A position with its binary table."""
    return describe(*read_position(data))


def hint(data: dict[str, Any]) -> dict[str, Any]:
    """Bouton's winning move, if there is one."""
    game, left, _ = read_position(data)
    return winning(game, left)


def routes(site: Site) -> list[BaseRoute]:
    """The routes, relative to ``/api/nim``."""
    return [
        Route("/position", site.api(position), methods=["POST"]),
        Route("/take", site.api(take), methods=["POST"]),
        Route("/program", site.api(program), methods=["POST"]),
        Route("/hint", site.api(hint), methods=["POST"]),
    ]


WEB = WebExtras(
    routes=routes,
    static=Path(__file__).parent / "static",
    scripts=("nim.js",),
    styles=("nim.css",),
    html="nim.html",
    tabs=(("nim", "Nim"),),
)
"""What Nim's plugin names (``web``)."""
