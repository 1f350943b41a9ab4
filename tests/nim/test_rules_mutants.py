"""Nim's rules module on worked examples and at its edges (issue 22, mutation testing):
the waiting move, the binary table the CLI shows, and the misère endgame."""

from __future__ import annotations

import itertools

import pytest

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


def test_nim_sum_examples() -> None:
    assert nim_sum(()) == 0
    assert nim_sum((5,)) == 5
    assert nim_sum((1, 2)) == 3
    assert nim_sum((3, 4, 5)) == 2
    assert nim_sum((7, 7)) == 0


def test_move_apply_takes_from_one_row_only() -> None:
    assert NimMove(1, 3).apply((2, 5, 4)) == (2, 2, 4)
    assert NimMove(0, 2).apply([2, 5]) == (0, 5)


@pytest.mark.parametrize(
    ("rows", "misere", "safe"),
    [
        ((), False, True),  # no chips: the mover has lost (normal play)
        ((), True, False),  # misère: the last chip was taken by the opponent, who lost
        ((1,), False, False),
        ((1,), True, True),  # the mover must take the last chip
        ((1, 1), True, False),
        ((1, 1, 1), True, True),
        ((0, 1, 0), True, True),
        ((2,), True, False),  # a row of two: take one, leave the last chip
        ((2, 2), True, True),  # nim-sum 0 with a row of two or more: as in normal play
        ((2, 2), False, True),
        ((3, 2, 1), True, True),
        ((1, 1, 1), False, False),
    ],
)
def test_safe_positions(rows: tuple[int, ...], misere: bool, safe: bool) -> None:
    assert is_safe(rows, misere) is safe


def test_normal_play_is_the_default() -> None:
    assert not is_safe((1,))  # normal play: take the last chip and win
    assert is_safe((1,), misere=True)
    assert is_safe((2, 2)) and not is_safe((1, 1, 1))


def test_misere_winning_moves_near_the_end() -> None:
    # (2, 2, 1): nim-sum 1; normal play takes the single chip, misère too (it leaves 2 2)
    assert winning_moves((2, 2, 1), misere=False) == [NimMove(2, 1)]
    assert winning_moves((2, 2, 1), misere=True) == [NimMove(2, 1)]
    # (3,): normal play takes all; misère leaves one chip
    assert winning_moves((3,), misere=False) == [NimMove(0, 3)]
    assert winning_moves((3,), misere=True) == [NimMove(0, 2)]
    assert winning_moves((1,), misere=True) == []
    assert winning_moves((0, 0), misere=True) == []


def test_every_normal_winning_move_listed_in_row_order() -> None:
    # (1, 2, 4): nim-sum 7; each row can be cut to count xor 7: 1->6 no, 2->5 no, 4->3 yes
    assert winning_moves((1, 2, 4)) == [NimMove(2, 1)]
    # (3, 5, 6): nim-sum 0: no winning move
    assert winning_moves((3, 5, 6)) == []
    # (5, 6, 7, 1): nim-sum 5: 5 -> 0, 6 -> 3, 7 -> 2; the single chip would have to grow
    assert winning_moves((5, 6, 7, 1)) == [NimMove(0, 5), NimMove(1, 3), NimMove(2, 5)]


def test_waiting_move_takes_one_chip_from_the_fullest_row_first_on_ties() -> None:
    assert waiting_move((3, 5, 5)) == NimMove(1, 1)
    assert waiting_move((5, 3, 5)) == NimMove(0, 1)
    assert waiting_move((0, 0, 2)) == NimMove(2, 1)
    assert waiting_move((1,)) == NimMove(0, 1)
    with pytest.raises(ValueError, match=r"^no chips left$"):
        waiting_move((0, 0))
    with pytest.raises(ValueError, match=r"^no chips left$"):
        waiting_move(())


def test_program_move_waits_from_a_safe_position() -> None:
    assert program_move((1, 2, 3)) == (NimMove(2, 1), False)
    assert program_move((1, 1, 1), misere=True) == (NimMove(0, 1), False)
    assert program_move((1, 1), misere=True) == (NimMove(0, 1), True)
    assert program_move((4, 1)) == (NimMove(0, 3), True)


@pytest.mark.parametrize(
    ("rows", "columns", "counts"),
    [
        ((3, 4, 5), [4, 2, 1], [2, 1, 2]),
        ((1,), [1], [1]),
        ((0,), [1], [0]),  # at least one column
        ((), [1], [0]),
        ((8, 1), [8, 4, 2, 1], [1, 0, 0, 1]),
        ((7, 7, 7), [4, 2, 1], [3, 3, 3]),
        ((16,), [16, 8, 4, 2, 1], [1, 0, 0, 0, 0]),
    ],
)
def test_binary_table(rows: tuple[int, ...], columns: list[int], counts: list[int]) -> None:
    assert bit_columns(rows) == columns
    assert column_counts(rows) == counts


def test_column_parities_are_the_nim_sum() -> None:
    """Bouton: the nim-sum has a 1 exactly in the columns with an odd count."""
    for rows in itertools.product(range(9), repeat=3):
        odd = sum(c for c, k in zip(bit_columns(rows), column_counts(rows), strict=True) if k % 2)
        assert odd == nim_sum(rows), rows
