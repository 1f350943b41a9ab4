"""The score encoding and the score texts of core/protocol.py, on worked examples and at
their edges (issue 22, mutation testing).

The encoding is the documented one: a finished game scores ``WIN + margin * MARGIN_UNIT -
plies`` for the winner (plies capped at ``MAX_PLY``), the negation for the loser, 0 for a
draw; anything beyond ``HEURISTIC_LIMIT`` in size is a finished game.
"""

from __future__ import annotations

import pytest

from boardgames.core.protocol import (
    HEURISTIC_LIMIT,
    MAX_PLY,
    describe_score,
    is_terminal_score,
    quote,
    score_bound,
    score_margin,
    short_score,
    terminal_score,
)


@pytest.mark.parametrize(
    ("result", "ply", "score"),
    [
        (4, 7, 1_000_003_993),
        (-4, 7, -1_000_003_993),
        (1, 0, 1_000_001_000),
        (-1, 0, -1_000_001_000),
        (2, MAX_PLY, 1_000_001_001),  # 2000 - 999
        (2, MAX_PLY + 1, 1_000_001_001),  # longer lines cap at MAX_PLY
        (-2, 10**6, -1_000_001_001),
        (0, 5, 0),  # a draw is 0 at any distance
        (0, 0, 0),
    ],
)
def test_terminal_score_worked_examples(result: int, ply: int, score: int) -> None:
    assert terminal_score(result, ply) == score


def test_terminal_score_edge_of_the_heuristic_range() -> None:
    assert not is_terminal_score(HEURISTIC_LIMIT)
    assert not is_terminal_score(-HEURISTIC_LIMIT)
    assert is_terminal_score(HEURISTIC_LIMIT + 1)
    assert is_terminal_score(-HEURISTIC_LIMIT - 1)
    assert not is_terminal_score(0)
    assert is_terminal_score(terminal_score(1, MAX_PLY))  # the smallest win
    assert is_terminal_score(terminal_score(-1, MAX_PLY))


@pytest.mark.parametrize(
    ("score", "margin"),
    [
        (terminal_score(4, 7), 4),
        (terminal_score(-4, 7), -4),
        (terminal_score(1, 0), 1),
        (terminal_score(-1, 0), -1),
        (terminal_score(1, MAX_PLY), 1),  # 999 plies do not eat the one point of margin
        (terminal_score(-3, MAX_PLY), -3),
        (terminal_score(48, 1), 48),
        (0, None),
        (17, None),
        (-HEURISTIC_LIMIT, None),
    ],
)
def test_score_margin_reads_the_margin_back(score: int, margin: int | None) -> None:
    assert score_margin(score) == margin


@pytest.mark.parametrize(
    ("score", "exact", "text"),
    [
        (12, False, "+12"),
        (-3, True, "-3"),  # a heuristic value is a number even when "exact" is asked
        (0, False, "+0"),
        (0, True, "draw"),
        (terminal_score(4, 0), True, "win by 4"),  # a solver's value: no ply count
        (terminal_score(-4, 0), True, "loss by 4"),
        (terminal_score(1, 1), True, "win by 1 in 1 ply"),
        (terminal_score(-1, 1), True, "loss by 1 in 1 ply"),
        (terminal_score(3, 2), True, "win by 3 in 2 plies"),
        (terminal_score(2, MAX_PLY), True, "win by 2 in 999 plies"),
        (terminal_score(-2, MAX_PLY), True, "loss by 2 in 999 plies"),
        (terminal_score(4, 7), False, "win by at least 4"),
        (terminal_score(-1, 0), False, "loss by at least 1"),
        (terminal_score(1, MAX_PLY), False, "win by at least 1"),
    ],
)
def test_describe_score(score: int, exact: bool, text: str) -> None:
    assert describe_score(score, exact) == text


def test_describe_score_default_is_a_bound() -> None:
    assert describe_score(terminal_score(5, 3)) == "win by at least 5"
    assert describe_score(0) == "+0"


@pytest.mark.parametrize(
    ("score", "exact", "text"),
    [
        (12, False, "+12"),
        (-7, True, "-7"),
        (0, False, "+0"),
        (0, True, "draw"),
        (terminal_score(6, 9), True, "win 6"),
        (terminal_score(-6, 9), True, "loss 6"),
        (terminal_score(6, 9), False, "win ≥6"),
        (terminal_score(-1, MAX_PLY), False, "loss ≥1"),
        (terminal_score(1, 3), True, "win 1"),  # the smallest win is a win
        (terminal_score(1, MAX_PLY), False, "win ≥1"),
    ],
)
def test_short_score(score: int, exact: bool, text: str) -> None:
    assert short_score(score, exact) == text


def test_short_score_default_is_a_bound() -> None:
    assert short_score(terminal_score(2, 0)) == "win ≥2"
    assert short_score(0) == "+0"


@pytest.mark.parametrize(
    ("score", "exact", "bound"),
    [
        (terminal_score(3, 4), False, "lower"),
        (terminal_score(-3, 4), False, "upper"),
        (terminal_score(3, 4), True, None),
        (terminal_score(-3, 4), True, None),
        (HEURISTIC_LIMIT, False, None),
        (-HEURISTIC_LIMIT, False, None),
        (0, False, None),
    ],
)
def test_score_bound(score: int, exact: bool, bound: str | None) -> None:
    assert score_bound(score, exact) == bound


@pytest.mark.parametrize(
    ("text", "limit", "shown"),
    [
        ("", 24, "''"),
        ("abc", 24, "'abc'"),
        ("x" * 24, 24, repr("x" * 24)),  # exactly the limit: shown whole
        ("x" * 25, 24, repr("x" * 24) + "... (25 characters)"),
        ("y" * 1234, 24, repr("y" * 24) + "... (1,234 characters)"),
        ("abcdef", 3, "'abc'... (6 characters)"),
        ("abc", 3, "'abc'"),
    ],
)
def test_quote(text: str, limit: int, shown: str) -> None:
    assert quote(text, limit) == shown


def test_quote_default_limit_is_24() -> None:
    assert quote("z" * 24) == repr("z" * 24)
    assert quote("z" * 30) == repr("z" * 24) + "... (30 characters)"
