"""Two edges of the Etudes rules (RULES.md section 2) that the other rule tests leave open
(issue 22, mutation testing, second round): a relay on the one-pit board, and the end of
the game when a store holds more than half of an odd number of stones."""

from __future__ import annotations

from boardgames.kalah import rules
from boardgames.kalah.game import Kalah


def test_one_pit_board_relays_after_two_laps() -> None:
    """1 x 6, A sows its 6 stones (A's store, B's pit, B's store skipped, A's pit, twice):
    the last stone lands in A's own pit, which already held 1 from the first lap, after
    stones went into B's pit: a relay (rule 2). The 2 stones go to A's store and B's pit,
    which then holds 9 (no capture). Without the relay A's pit would keep 2 stones."""
    game = Kalah(1, 6, "etudes")
    after, again = game.play(game.initial_state(), 0)
    assert game.board(after) == [0, 3, 9, 0]
    assert not again and game.to_move(after) == 1
    board = [6, 0, 0, 0]  # the same sowing against an empty pit: the relay captures 3
    assert rules.etudes_move(board, 1, 0, 0) == (2, True)  # two sowings; 6 of 6 stones
    assert board == [0, 6, 0, 0]


def test_more_than_half_of_an_odd_total_ends_the_game_whoever_moves() -> None:
    """47 stones (a set-up position), A's store holds 24: more than half (rule 4), so the
    game is over, with B to move as with A to move."""
    game = Kalah(6, 4, "etudes")
    board = [1, 0, 0, 0, 0, 0, 24, 0, 0, 0, 0, 0, 22, 0]
    assert sum(board) == 47
    for to_move, margin in ((0, 24), (1, -24)):
        state = game.make_state(board, to_move)
        assert game.outcome(state) == margin
        assert game.legal_moves(state) == []
    one_short = [2, 0, 0, 0, 0, 0, 23, 0, 0, 0, 0, 0, 22, 0]  # 23 of 47: not more than half
    assert game.outcome(game.make_state(one_short, 1)) is None
