"""queens/solve.py on hand-worked examples and at its edges: board-size bounds, the attack
test, the eight symmetries of one solution worked out by hand, Burnside's sum, the starting
prefixes and their weights, the masks a prefix leaves and the published totals. Every
search here must also end: see :func:`_every_search_ends_within_five_seconds`."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from boardgames.core.protocol import GameError
from boardgames.queens.solve import (
    MAX_COUNT_N,
    MAX_SOLVE_N,
    canonical,
    check_n,
    class_size,
    count_bitmask_prefix,
    count_fixed_by_rotation,
    count_naive_prefix,
    count_pure,
    count_tables_prefix,
    expand,
    expected_total,
    first_rows,
    fundamental_from_fixed,
    is_solution,
    prefix_masks,
    solutions,
    subtasks,
    transforms,
)
from tests.helpers import time_limit

# OEIS A000170: solutions of the N-queens puzzle for N = 1, 2, ...
A000170 = (1, 0, 0, 2, 10, 4, 40, 92)

TIME_LIMIT = 5.0
"""Seconds a test here may take: each takes milliseconds, so a search that never ends
(a generator that keeps yielding, a backtracking loop that stalls) fails at once instead
of hanging the run."""


@pytest.fixture(autouse=True)
def _every_search_ends_within_five_seconds() -> Iterator[None]:
    with time_limit(TIME_LIMIT):
        yield


@pytest.mark.parametrize("n", range(1, 9))
def test_the_generator_stops_after_the_last_solution(n: int) -> None:
    """Asking for one more than the published count gets exactly the count, each solution
    once (read through ``islice`` so that a generator that repeats itself cannot run away)."""
    sols = list(itertools.islice(solutions(n), A000170[n - 1] + 1))
    assert len(sols) == A000170[n - 1]
    assert len(set(sols)) == len(sols) and sols == sorted(sols)
    assert all(is_solution(s) for s in sols)


@pytest.mark.parametrize("n", range(1, 9))
def test_every_counter_ends_on_every_small_board(n: int) -> None:
    assert count_bitmask_prefix(n, ()) == A000170[n - 1]
    assert count_tables_prefix(n, ()) == A000170[n - 1]
    assert count_naive_prefix(n, ()) == A000170[n - 1]


@pytest.mark.parametrize("n", range(1, 9))
def test_rotation_fixed_counts_against_the_solutions(n: int) -> None:
    """The orbit search finds exactly the solutions its rotation leaves unchanged."""
    images = [transforms(s) for s in solutions(n)]
    assert count_fixed_by_rotation(n, False) == sum(1 for t in images if t[2] == t[0])
    assert count_fixed_by_rotation(n, True) == sum(1 for t in images if t[1] == t[0])


def test_board_size_bounds() -> None:
    assert check_n(1) == 1
    assert check_n(MAX_COUNT_N) == MAX_COUNT_N == 27
    assert check_n(MAX_SOLVE_N, high=MAX_SOLVE_N) == 29
    for bad in (0, MAX_COUNT_N + 1):
        with pytest.raises(GameError, match="N must be from 1 to 27"):
            check_n(bad)
    with pytest.raises(GameError, match="N must be from 1 to 5"):
        check_n(6, high=5)
    assert check_n(5, high=5) == 5


def test_smallest_boards() -> None:
    assert list(solutions(1)) == [(1,)]
    assert list(solutions(2)) == [] and list(solutions(3)) == []
    assert list(solutions(4)) == [(2, 4, 1, 3), (3, 1, 4, 2)]
    with pytest.raises(GameError, match="at least 1"):
        next(solutions(-1))


@pytest.mark.parametrize(
    ("sol", "ok"),
    [
        ((1,), True),
        ((1, 3, 5, 2, 4), True),
        ((1, 3, 2), False),  # rows 2 and 3 share a row+col diagonal only
        ((3, 1, 2), False),  # rows 2 and 3 share a row-col diagonal only
        ((1, 3), False),  # column 3 is off a 2 x 2 board
        ((2, 2, 4, 1), False),  # a column twice
        ((2, 4, 1, 3), True),
    ],
)
def test_attacks(sol: tuple[int, ...], ok: bool) -> None:
    assert is_solution(sol) is ok


def test_eight_symmetries_of_a_five_queens_solution() -> None:
    """Worked by hand on the 5 x 5 board, queen (row, column) 0-based, m = 4."""
    sol = (1, 3, 5, 2, 4)
    assert transforms(sol) == [
        (1, 3, 5, 2, 4),  # identity
        (5, 2, 4, 1, 3),  # rotation by 90 clockwise: (r, c) -> (c, m - r)
        (2, 4, 1, 3, 5),  # 180
        (3, 5, 2, 4, 1),  # 270
        (5, 3, 1, 4, 2),  # mirror left-right: column c -> m - c
        (4, 2, 5, 3, 1),  # mirror top-bottom: the rows in reverse
        (1, 4, 2, 5, 3),  # transpose: the inverse permutation
        (3, 1, 4, 2, 5),  # anti-transpose: (r, c) -> (m - c, m - r)
    ]
    assert canonical((3, 5, 2, 4, 1)) == sol
    assert class_size(sol) == 8
    assert expand((4, 2, 5, 3, 1)) == sorted(transforms(sol))


def test_a_symmetric_solution() -> None:
    """(2, 4, 1, 3) is its own quarter turn: its class is itself and its mirror image."""
    sol = (2, 4, 1, 3)
    assert transforms(sol)[1] == sol
    assert class_size(sol) == 2
    assert expand((3, 1, 4, 2)) == [(2, 4, 1, 3), (3, 1, 4, 2)]
    assert canonical((3, 1, 4, 2)) == sol
    assert transforms((1,)) == [(1,)] * 8


@pytest.mark.parametrize(
    ("n", "total", "fixed180", "fixed90", "classes"),
    [
        (1, 1, 1, 1, 1),  # every symmetry fixes the lone queen: (1 + 2 + 1 + 4) / 8
        (4, 2, 2, 2, 1),
        (5, 10, 2, 2, 2),
        (6, 4, 4, 0, 1),
        (8, 92, 4, 0, 12),
        (12, 14200, 80, 8, 1787),
    ],
)
def test_burnside(n: int, total: int, fixed180: int, fixed90: int, classes: int) -> None:
    count = fundamental_from_fixed(n, total, fixed180, fixed90)
    assert count == classes and type(count) is int  # a count, printed as such


def test_burnside_refuses_a_sum_that_is_not_a_multiple_of_eight() -> None:
    with pytest.raises(ArithmeticError, match="Burnside sum 97 for N = 8"):
        fundamental_from_fixed(8, 92, 5, 0)
    with pytest.raises(ArithmeticError, match="Burnside sum 4 for N = 2"):
        fundamental_from_fixed(2, 4, 0, 0)  # no reflection term beyond N = 1


@pytest.mark.parametrize(
    ("n", "mirror", "tasks"),
    [
        (5, False, [((0,), 1), ((1,), 1), ((2,), 1), ((3,), 1), ((4,), 1)]),
        (4, True, [((0,), 2), ((1,), 2)]),
        (5, True, [((0,), 2), ((1,), 2), ((2, 0), 2)]),  # middle queen, then column 0 only
        (7, True, [((0,), 2), ((1,), 2), ((2,), 2), ((3, 0), 2), ((3, 1), 2)]),
        (3, True, [((0,), 2)]),  # the middle queen leaves no second queen off its side
        (1, True, [((0,), 1)]),
        (1, False, [((0,), 1)]),
    ],
)
def test_first_rows(n: int, mirror: bool, tasks: list) -> None:
    assert first_rows(n, mirror) == tasks


def test_subtasks_examples() -> None:
    assert subtasks(4, 2, False) == [
        ((0, 2), 1), ((0, 3), 1), ((1, 3), 1), ((2, 0), 1), ((3, 0), 1), ((3, 1), 1),
    ]  # fmt: skip
    assert subtasks(4, 9, False) == [((1, 3, 0, 2), 1), ((2, 0, 3, 1), 1)]  # depth capped at N
    assert subtasks(3, 3, False) == []
    assert subtasks(5, 1, True) == [((0,), 2), ((1,), 2), ((2, 0), 2)]
    assert subtasks(6, 1, False) == [((c,), 1) for c in range(6)]


def attacked_next_row(n: int, prefix: tuple[int, ...]) -> tuple[set, set, set]:
    """Columns of the row after ``prefix`` under attack: by column, down-right, down-left."""
    k = len(prefix)
    cols = set(prefix)
    right = {c + k - r for r, c in enumerate(prefix) if c + k - r < n}
    left = {c - k + r for r, c in enumerate(prefix) if c - k + r >= 0}
    return cols, right, left


def bits(mask: int) -> set[int]:
    return {c for c in range(mask.bit_length()) if mask >> c & 1}


@pytest.mark.parametrize("n", [1, 4, 5, 6])
def test_prefix_masks_mark_the_attacked_squares_of_the_next_row(n: int) -> None:
    assert prefix_masks(n, ()) == (0, 0, 0)
    for depth in range(1, n):
        for prefix, _ in subtasks(n, depth, False):
            cols, ld, rd = prefix_masks(n, prefix)
            by_col, right, left = attacked_next_row(n, prefix)
            assert bits(cols) == by_col
            assert {frozenset(bits(ld)), frozenset(bits(rd))} == {
                frozenset(right),
                frozenset(left),
            }, prefix


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_prefix_counters_on_every_prefix(n: int) -> None:
    """Each counter's completions of every non-attacking prefix equal the solutions that
    start with it (the empty prefix included)."""
    sols = [tuple(c - 1 for c in s) for s in solutions(n)]
    prefixes = [()] + [p for d in range(1, n + 1) for p, _ in subtasks(n, d, False)]
    for prefix in prefixes:
        expected = sum(1 for s in sols if s[: len(prefix)] == prefix)
        assert count_naive_prefix(n, prefix) == expected, prefix
        assert count_tables_prefix(n, prefix) == expected, prefix
        assert count_bitmask_prefix(n, prefix) == expected, prefix


@pytest.mark.parametrize("method", ["naive", "tables", "bitmask"])
def test_count_pure_over_deeper_splits(method: str) -> None:
    for depth in (1, 2, 3, 9):
        assert count_pure(7, method, depth) == 40
        assert count_pure(8, method, depth) == 92


def test_rotation_fixed_solutions_by_hand() -> None:
    # N = 5: two of the ten solutions are their own quarter turn (centre queen in row 3)
    fixed90 = [s for s in solutions(5) if transforms(s)[1] == s]
    assert fixed90 == [(2, 5, 3, 1, 4), (4, 1, 3, 5, 2)]
    assert count_fixed_by_rotation(5, True) == 2
    assert count_fixed_by_rotation(1, True) == count_fixed_by_rotation(1, False) == 1
    assert count_fixed_by_rotation(2, False) == count_fixed_by_rotation(3, True) == 0


def test_expected_totals() -> None:
    assert expected_total(1) == 1
    assert expected_total(8) == 92
    assert expected_total(27) == 234907967154122528
    assert expected_total(0) is None
    assert expected_total(-1) is None
    assert expected_total(28) is None


def test_every_solution_of_six_by_brute_force() -> None:
    sols = [
        tuple(c + 1 for c in p)
        for p in itertools.permutations(range(6))
        if is_solution(tuple(c + 1 for c in p))
    ]
    assert sols == list(solutions(6)) == [
        (2, 4, 6, 1, 3, 5), (3, 6, 2, 5, 1, 4), (4, 1, 5, 2, 6, 3), (5, 3, 1, 6, 4, 2),
    ]  # fmt: skip
