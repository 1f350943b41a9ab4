"""core/review.py: every move of a game valued against the best, for any two-player game.

Known values from outside the code: Bouton's theorem (a move into a position of nim-sum 0
keeps the win, any other throws it away), a Connect Four move that leaves a row of three
open loses at once; and the sign conventions (the mover's values, turned for the first
player's graph; Kalah's extra turn keeps the mover's sign)."""

from __future__ import annotations

import pytest

from boardgames.core.engine import Cancelled
from boardgames.core.protocol import GameError, terminal_score
from boardgames.core.registry import make_game
from boardgames.core.review import (
    THRESHOLDS,
    Thresholds,
    counts,
    for_first,
    judge,
    result_of,
    review_game,
    review_move,
    summary,
)
from boardgames.nim.rules import nim_sum

WIN, LOSS = terminal_score(3, 5), terminal_score(-3, 5)


def test_results_proved_by_a_value() -> None:
    assert result_of(WIN, False) == 1 and result_of(LOSS, False) == -1  # a bound proves too
    assert result_of(0, True) == 0 and result_of(0, False) is None
    assert result_of(12, True) is None


@pytest.mark.parametrize(
    ("best", "played", "exact", "expected"),
    [
        (WIN, 0, True, (None, "blunder", "win -> draw")),
        (0, LOSS, True, (None, "blunder", "draw -> loss")),
        (WIN, LOSS, False, (None, "blunder", "win -> loss")),
        (WIN, 7, False, (None, "blunder", "a forced win missed")),
        (5, LOSS, False, (None, "blunder", "a forced loss walked into")),
        (terminal_score(8, 3), terminal_score(2, 9), True, (6, "mistake", None)),  # margins
        (terminal_score(-2, 3), terminal_score(-3, 9), True, (1, "inaccuracy", None)),
        (6, 6, False, (0, "best", None)),
        (6, 5, False, (1, "inaccuracy", None)),
        (6, 3, False, (3, "mistake", None)),
        (6, -4, False, (10, "blunder", None)),
        (3, 5, False, (0, "best", None)),  # a searched move may look better than the best
    ],
)
def test_the_verdicts(
    best: int, played: int, exact: bool, expected: tuple[int | None, str, str | None]
) -> None:
    assert judge(best, played, exact) == expected


def test_thresholds_are_the_callers() -> None:
    strict = Thresholds(inaccuracy=1, mistake=2, blunder=4)
    assert judge(6, 2, False, strict) == (4, "blunder", None)
    assert THRESHOLDS.verdict(0) == "best" and THRESHOLDS.verdict(10**6) == "blunder"


def test_for_the_first_player() -> None:
    assert for_first(5, 0) == 5 and for_first(5, 1) == -5


def test_every_first_move_of_nim_by_bouton() -> None:
    """3 4 5 is won for the mover (nim-sum 2): a move to nim-sum 0 is best, any other
    throws the win away; the values are exact (Nim's solver)."""
    game = make_game("nim", rows=(3, 4, 5))
    start = game.initial_state()
    for move in game.legal_moves(start):
        row = review_move(game, start, move, seconds=2.0)
        after, _ = game.play(start, move)
        assert row.exact and row.depth is None
        assert result_of(row.before, True) == 1  # the mover wins with the best move
        assert nim_sum(game.rows_of(game.play(start, row.best)[0])) == 0
        if nim_sum(game.rows_of(after)) == 0:
            assert (row.verdict, row.loss, row.change) == ("best", 0, None)
        else:
            assert (row.verdict, row.change) == ("blunder", "win -> loss")
        assert row.moves[0] == (row.best, row.before) and len(row.moves) == 12


def test_a_connect_four_move_that_leaves_three_in_a_row_open() -> None:
    """X holds columns 1 to 3 of the bottom row; O must play column 4. Anything else loses
    at once: found at a depth of 3 plies, a forced loss walked into."""
    game = make_game("connect4")
    state = game.initial_state()
    for col in (0, 6, 1, 6, 2):
        state, _ = game.play(state, col)
    block = review_move(game, state, 3, depth=3)
    elsewhere = review_move(game, state, 5, depth=3)
    assert block.verdict == "best" and block.best == 3 and block.player == 1
    assert elsewhere.verdict == "blunder" and elsewhere.loss is None
    assert result_of(elsewhere.after, False) == -1 and not elsewhere.exact
    assert elsewhere.depth == 3 and elsewhere.change == "a forced loss walked into"
    shown = elsewhere.as_json(game)
    assert (shown["text"], shown["best_text"]) == ("6", "4")
    assert shown["after_first"] == -elsewhere.after > 0  # the first player (X) wins


def test_an_extra_turn_keeps_the_movers_sign() -> None:
    """Kalah: a last stone in the own store, the same player moves again: the value after
    the move is still the mover's, and the best move's value is the position's."""
    game = make_game("kalah", pits=3, seeds=2)
    start = game.initial_state()
    again = next(m for m in game.legal_moves(start) if game.play(start, m)[1])
    row = review_move(game, start, again, depth=6)
    assert row.again and row.player == 0
    child = review_move(game, game.play(start, again)[0], 0, depth=6)
    assert child.player == 0  # A again: the same sign, no turn of it
    if row.verdict == "best":
        assert row.after == row.before


def test_a_whole_game_and_its_summary() -> None:
    game = make_game("nim", rows=(1, 2))
    start = game.initial_state()
    moves, state = [], start
    while game.legal_moves(state):
        moves.append(game.legal_moves(state)[0])
        state, _ = game.play(state, moves[-1])
    heard = []
    rows = review_game(game, moves, seconds=1.0, each=lambda r, s: heard.append(r.number))
    assert heard == [r.number for r in rows] == list(range(1, len(moves) + 1))
    assert [r.player for r in rows] == [k % 2 for k in range(len(moves))]
    assert sum(counts(rows).values()) == len(moves)
    assert summary(rows).startswith(f"{len(moves)} moves, {len(moves)} valued exactly: ")


def test_an_illegal_move_is_one_line() -> None:
    game = make_game("nim", rows=(1, 2))
    with pytest.raises(GameError, match=r"move 2 \(1 1\) is not a legal move there"):
        review_game(game, [game.legal_moves(game.initial_state())[0]] * 2, seconds=0.2)


def test_stop_before_any_value_is_cancelled() -> None:
    game = make_game("connect4")
    with pytest.raises(Cancelled):
        review_move(game, game.initial_state(), 3, seconds=5.0, stop=lambda: True)
