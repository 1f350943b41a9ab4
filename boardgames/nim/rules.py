"""Bouton's theory of Nim, for normal play (last chip wins) and misère (last chip loses).

Rows are plain sequences of chip counts; rows are numbered from 0 here and from 1 on screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import reduce
from operator import xor

Rows = Sequence[int]


def nim_sum(rows: Rows) -> int:
    """The xor of all row counts: Bouton's column-wise parity of the binary digits."""
    return reduce(xor, rows, 0)


def is_safe(rows: Rows, misere: bool = False) -> bool:
    """True when the player to move loses against perfect play (a "safe" position to leave).

    Normal play: the nim-sum is 0. Misère: the same while some row holds two or more chips;
    once every row holds at most one, an odd number of one-chip rows is safe.
    """
    if misere and all(r <= 1 for r in rows):
        return sum(rows) % 2 == 1
    return nim_sum(rows) == 0


@dataclass(frozen=True)
class NimMove:
    """Take ``take`` chips from row ``row`` (0-based)."""

    row: int
    take: int

    def apply(self, rows: Rows) -> tuple[int, ...]:
        out = list(rows)
        out[self.row] -= self.take
        return tuple(out)


def winning_moves(rows: Rows, misere: bool = False) -> list[NimMove]:
    """Every move that leaves a safe position, in row order; empty from a safe position.

    Normal play uses Bouton's rule directly: a row whose count has a 1 in the highest odd
    column of the binary table can be reduced to ``count xor nim-sum``, which makes every
    column even; that is the only winning move from that row. Misère play follows the same
    rule except where the move would leave only rows of at most one chip: then the winning
    move leaves an odd number of one-chip rows.
    """
    if not misere:
        s = nim_sum(rows)
        if s == 0:
            return []
        return [NimMove(i, r - (r ^ s)) for i, r in enumerate(rows) if r ^ s < r]
    moves = []
    for i, r in enumerate(rows):
        for take in range(1, r + 1):
            move = NimMove(i, take)
            if is_safe(move.apply(rows), misere=True):
                moves.append(move)
    return moves


def waiting_move(rows: Rows) -> NimMove:
    """The classic program's move from a safe position: one chip from the fullest row.

    Taking a single chip changes the position least and leaves the opponent the most room
    to go wrong. Ties go to the first such row.
    """
    if not any(rows):
        raise ValueError("no chips left")
    row = max(range(len(rows)), key=lambda i: (rows[i], -i))
    return NimMove(row, 1)


def program_move(rows: Rows, misere: bool = False) -> tuple[NimMove, bool]:
    """The program's move and whether it is a winning one (else a waiting move)."""
    moves = winning_moves(rows, misere)
    if moves:
        return moves[0], True
    return waiting_move(rows), False


def bit_columns(rows: Rows) -> list[int]:
    """Column values of the binary table, highest first (at least one column: 1)."""
    width = max(1, max(rows, default=0).bit_length())
    return [1 << k for k in range(width - 1, -1, -1)]


def column_counts(rows: Rows) -> list[int]:
    """Number of ones in each binary column, highest column first."""
    return [sum(1 for r in rows if r & c) for c in bit_columns(rows)]


def binary(value: int, width: int) -> str:
    """``value`` in binary, ``width`` digits."""
    return format(value, f"0{width}b")


def describe_move(move: NimMove) -> str:
    """``take 2 from row 3`` (rows numbered from 1)."""
    return f"take {move.take} from row {move.row + 1}"


def explain_move(rows: Rows, move: NimMove, misere: bool) -> str:
    """Why ``move`` wins: the row before and after, the nim-sum before and after."""
    after = move.apply(rows)
    before_sum, after_sum = nim_sum(rows), nim_sum(after)
    width = max(1, max(rows).bit_length())
    text = (
        f"row {move.row + 1} goes {rows[move.row]} -> {after[move.row]}, "
        f"nim-sum {before_sum} ({binary(before_sum, width)}) -> "
        f"{after_sum} ({binary(after_sum, width)})"
    )
    if misere and all(r <= 1 for r in after):
        ones = sum(after)
        plural = "s" if ones != 1 else ""
        text += f", leaving {ones} single chip{plural} (odd: the opponent takes the last)"
    elif after_sum == 0:
        text += ": every column even"
    return text


def why(rows: Rows, move: NimMove, misere: bool) -> str:
    """Bouton's reason for ``move``: why it wins, or why no move does (a waiting move)."""
    if is_safe(move.apply(rows), misere) and not is_safe(rows, misere):
        return explain_move(rows, move, misere)
    return (
        f"the nim-sum is {nim_sum(rows)}, every column is even, so there is no winning move; "
        "take a single chip and wait for a mistake"
    )
