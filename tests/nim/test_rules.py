"""Bouton's theory against the generic exhaustive search, and the Nim game's own rules."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardgames.core.protocol import GameError
from boardgames.core.search import alphabeta_tt, minimax
from boardgames.nim.game import Nim, decode_move, encode_move
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


def searched_wins(rows_max: tuple[int, ...], misere: bool) -> dict[tuple[int, ...], bool]:
    """Who wins every position up to ``rows_max``, by exhaustive generic search."""
    game = Nim(rows_max, misere, max_rows=len(rows_max), max_chips=max(rows_max))
    table: dict = {}
    out = {}
    for rows in itertools.product(*(range(r + 1) for r in rows_max)):
        out[rows] = alphabeta_tt(game, game.state_from_rows(rows), None, table=table).value > 0
    return out


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
def test_bouton_matches_exhaustive_search_up_to_four_rows_of_seven(misere: bool) -> None:
    """Every position with up to 4 rows of up to 7 chips (an empty row = a shorter layout)."""
    wins = searched_wins((7, 7, 7, 7), misere)
    assert len(wins) == 8**4
    for rows, to_move_wins in wins.items():
        assert (not is_safe(rows, misere)) == to_move_wins, rows
        expected = [
            NimMove(i, take)
            for i, r in enumerate(rows)
            for take in range(1, r + 1)
            if not wins[NimMove(i, take).apply(rows)]
        ]
        assert winning_moves(rows, misere) == expected, rows


@pytest.mark.parametrize("layout", [(7,), (7, 7), (7, 7, 7), (2, 5, 7, 3)])
@pytest.mark.parametrize("misere", [False, True])
def test_verify_reports_agreement(layout: tuple[int, ...], misere: bool) -> None:
    report = verify_bouton(layout, misere)
    assert report.agree and report.positions == len(
        list(itertools.product(*(range(r + 1) for r in layout)))
    )


def test_plain_minimax_agrees_on_small_positions() -> None:
    """The pruning-free search (no table) gives the same verdicts on a small board."""
    game = Nim((3, 3, 2), max_rows=3, max_chips=3)
    for rows in itertools.product(range(4), range(4), range(3)):
        value = minimax(game, game.state_from_rows(rows), None).value
        assert (value > 0) == (nim_sum(rows) != 0)


def test_classic_example_345() -> None:
    """RULES.md: rows 3 4 5 have nim-sum 2; the winning move takes 2 from row 1."""
    assert nim_sum((3, 4, 5)) == 2
    assert winning_moves((3, 4, 5)) == [NimMove(0, 2)]
    assert program_move((3, 4, 5)) == (NimMove(0, 2), True)
    assert is_safe((1, 4, 5))


def test_misere_endgame_leaves_odd_singletons() -> None:
    # normal play empties row 3 (leave 1 1); misère leaves one chip there (1 1 1: odd)
    assert winning_moves((1, 1, 3), misere=True) == [NimMove(2, 2)]
    assert winning_moves((1, 1, 3), misere=False) == [NimMove(2, 3)]
    # misère with only singles left: leave an odd number of them
    assert winning_moves((1, 1), misere=True) == [NimMove(0, 1), NimMove(1, 1)]
    assert winning_moves((1, 1, 1), misere=True) == []
    assert winning_moves((2, 1, 1), misere=True) == [NimMove(0, 1)]
    assert winning_moves((2, 1, 1), misere=False) == [NimMove(0, 2)]


@given(st.lists(st.integers(0, 30), min_size=1, max_size=8))
def test_winning_move_makes_every_column_even(rows: list[int]) -> None:
    for move in winning_moves(rows):
        assert nim_sum(move.apply(rows)) == 0
    assert bool(winning_moves(rows)) == (nim_sum(rows) != 0)


@given(st.lists(st.integers(0, 20), min_size=1, max_size=14).filter(any))
def test_program_waits_with_one_chip_from_a_safe_position(rows: list[int]) -> None:
    if nim_sum(rows) == 0:
        move, winning = program_move(rows)
        assert not winning and move.take == 1 and rows[move.row] == max(rows)
    assert waiting_move(rows).take == 1


def test_protocol_moves_and_outcome() -> None:
    game = Nim((1, 2))
    s = game.initial_state()
    assert game.legal_moves(s) == [encode_move(0, 1), encode_move(1, 1), encode_move(1, 2)]
    assert decode_move(encode_move(5, 17)) == (5, 17)
    s, again = game.play(s, encode_move(1, 2))
    assert not again and game.to_move(s) == 1 and game.outcome(s) is None
    s, _ = game.play(s, encode_move(0, 1))
    assert game.outcome(s) == -1 and game.legal_moves(s) == []  # player 0 cannot move: lost
    assert Nim((1, 2), misere=True).outcome(s) == 1


@pytest.mark.parametrize(
    ("rows", "kwargs", "message"),
    [
        ((), {}, "1 to 14 rows"),
        (tuple([1] * 15), {}, "1 to 14 rows"),
        ((3, 21), {}, "row 2 has 21 chips; a row holds 1 to 20"),
        ((3, 0), {}, "row 2 has 0 chips"),
        ((30,), {"max_chips": 25}, "1 to 25 chips"),
        ((3,), {"max_rows": 0}, "--max-rows must be between 1 and 100"),
    ],
)
def test_setup_limits(rows: tuple[int, ...], kwargs: dict, message: str) -> None:
    with pytest.raises(GameError, match=message):
        Nim(rows, **kwargs)


def test_raised_limits_allow_bigger_layouts() -> None:
    assert Nim((30,) * 16, max_rows=16, max_chips=30).rows == (30,) * 16


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4 1", "there is no row 4; rows are numbered 1 to 3"),
        ("0 1", "there is no row 0"),
        ("2 0", "row 2 has 4 chips; take 1 to 4"),
        ("2 5", "row 2 has 4 chips; take 1 to 4"),
        ("1 1", "row 1 is empty"),
        ("two three", "type a row and a count"),
        ("2", "type a row and a count"),
        ("1 2 3", "type a row and a count"),
        ("2 ²", "type a row and a count"),
    ],
)
def test_bad_moves_are_explained(text: str, message: str) -> None:
    game = Nim((3, 4, 5))
    state = game.state_from_rows((0, 4, 5))
    with pytest.raises(GameError, match=message):
        game.parse_move(text, state)


# --- nim/rules.py on worked examples and at its edges ------------------------------------
# The waiting move, the binary table the CLI shows, and the misère endgame.


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
