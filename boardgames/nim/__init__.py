"""Nim with Bouton's strategy (RULES.md section 4).

The names below are the package's Python API (docs/sections/api.md); they load on first
use (PEP 562), so ``import boardgames.nim`` stays cheap. None of them needs numba.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardgames import lazy_exports

if TYPE_CHECKING:
    from boardgames.nim.game import Nim, decode_move, encode_move, parse_rows
    from boardgames.nim.rules import (
        NimMove,
        bit_columns,
        column_counts,
        is_safe,
        nim_sum,
        program_move,
        waiting_move,
        winning_moves,
    )
    from boardgames.nim.verify import verify_bouton

_HOMES = {
    "Nim": "game",
    "encode_move": "game",
    "decode_move": "game",
    "parse_rows": "game",
    "NimMove": "rules",
    "nim_sum": "rules",
    "is_safe": "rules",
    "winning_moves": "rules",
    "waiting_move": "rules",
    "program_move": "rules",
    "bit_columns": "rules",
    "column_counts": "rules",
    "verify_bouton": "verify",
}

__all__ = [
    "Nim",
    "NimMove",
    "bit_columns",
    "column_counts",
    "decode_move",
    "encode_move",
    "is_safe",
    "nim_sum",
    "parse_rows",
    "program_move",
    "verify_bouton",
    "waiting_move",
    "winning_moves",
]


__getattr__, __dir__ = lazy_exports(__name__, _HOMES, __all__)
