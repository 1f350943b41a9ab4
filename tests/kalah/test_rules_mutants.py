"""Kalah rules facts the other rule tests leave open (issue 22): what ``classic_move`` and
``etudes_move`` return, and the final margin of finished boards that were not swept."""

from __future__ import annotations

from boardgames.kalah import rules


def cells(text: str) -> list[int]:
    return [int(x) for x in text.split()]


def test_classic_last_stone_in_the_store_that_ends_the_game_gives_no_extra_turn() -> None:
    """A's only stone (pit 5) goes into A's store: normally an extra turn, but A's side is
    now empty, the game is over and B's pits are swept into B's store (RULES.md 1.4)."""
    board = cells("0 0 0 0 0 1 20 1 1 1 0 0 0 24")
    assert rules.classic_move(board, 6, 0, 5) is False
    assert board == cells("0 0 0 0 0 0 21 0 0 0 0 0 0 27")
    assert rules.final_margin(board, 6, 1, rules.CLASSIC) == 6


def test_classic_extra_turn_and_plain_move() -> None:
    board = cells("6 6 6 6 6 6 0 6 6 6 6 6 6 0")
    assert rules.classic_move(board, 6, 0, 0) is True  # RULES.md worked example: 0 ...
    assert rules.classic_move(board, 6, 0, 1) is False  # ... then 1 passes the turn
    assert board == cells("0 0 8 8 8 8 2 7 7 6 6 6 6 0")


def test_etudes_move_counts_its_sowings() -> None:
    # RULES.md 2.2: A sows pit 5 (9 stones), the last lands in A's pit 1 (held 4) after
    # stones went into B's pits: a relay from pit 1 ends in A's store. Two sowings.
    board = cells("4 4 4 4 4 9 0 5 5 5 5 5 5 0")
    assert rules.etudes_move(board, 6, 0, 5) == (2, False)
    assert board == cells("5 0 5 5 5 1 2 6 6 6 6 6 6 0")
    # No stone reaches B's pits: no relay, one sowing.
    board = cells("2 1 3 1 1 1 0 4 4 4 4 4 4 0")
    assert rules.etudes_move(board, 6, 0, 0) == (1, False)


def test_etudes_relay_chain_of_three_sowings() -> None:
    """4 pits (A 0-3, store 4, B 5-8, store 9). A sows pit 2 (8 stones): 3, store, 5-8, 0,
    1 -> pit 1 held 7 and B got stones: relay 1 (8 stones): 2, 3, store, 5-8, 0 -> pit 0
    held 4: relay 0 (5 stones): 1, 2, 3, store, 5 -> B's pit 5 now holds 4: no capture."""
    board = cells("3 7 8 0 0 1 1 0 0 0")
    assert rules.etudes_move(board, 4, 0, 2) == (3, False)
    assert board == cells("0 1 2 3 3 4 3 2 2 0")


def test_etudes_game_over_flag_on_more_than_half() -> None:
    """A's store reaches 25 of 48: the game ends at once; the stones in the pits stay there
    and count for nobody (RULES.md 2.4, 2.5)."""
    board = cells("0 0 0 0 0 2 24 3 3 3 3 3 3 4")
    assert rules.etudes_move(board, 6, 0, 5) == (1, True)
    assert board == cells("0 0 0 0 0 0 25 4 3 3 3 3 3 4")
    assert rules.more_than_half(board, 6)
    # Unswept: B's 19 stones in the pits count for nobody; the margin is 25 - 4.
    assert rules.final_margin(board, 6, 1, rules.ETUDES) == 4 - 25
    assert rules.final_margin(board, 6, 0, rules.ETUDES) == 25 - 4


def test_etudes_game_over_flag_when_the_next_player_has_no_stone() -> None:
    """A sows pit 5 (2 stones): store, B's pit 7 (held 1, now 2): captured. Nobody holds
    more than half of 23, but B (to move) has no stone: A's pits are swept into A's store
    and the game is over (RULES.md 2.4)."""
    board = cells("0 0 0 0 1 2 8 1 0 0 0 0 0 11")
    assert rules.etudes_move(board, 6, 0, 5) == (1, True)
    assert board == cells("0 0 0 0 0 0 12 0 0 0 0 0 0 11")
    assert rules.final_margin(board, 6, 1, rules.ETUDES) == 11 - 12


def test_etudes_margin_of_an_unswept_board_whose_mover_has_no_stone() -> None:
    """B to move with no stone, nobody past half: B's margin counts A's pits for A."""
    board = cells("3 0 2 0 0 0 10 0 0 0 0 0 0 9")
    assert rules.is_over(board, 6, 1, rules.ETUDES)
    assert rules.final_margin(board, 6, 1, rules.ETUDES) == 9 - (10 + 5)
    assert rules.final_margin(board, 6, 0, rules.ETUDES) is None  # A can still move
