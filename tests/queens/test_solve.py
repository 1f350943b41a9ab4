"""The pure-Python N-queens solver, symmetry helpers and counters against published facts."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgames.core.protocol import GameError
from boardgames.queens.solve import (
    MAX_COUNT_N,
    PURE_METHODS,
    canonical,
    check_n,
    class_size,
    count_bitmask_prefix,
    count_fixed_by_rotation,
    count_fundamental_pure,
    count_naive_prefix,
    count_pure,
    count_tables_prefix,
    expand,
    fundamental_from_fixed,
    fundamental_solutions,
    is_solution,
    solutions,
    subtasks,
    transforms,
)

# RULES.md section 5: OEIS A000170 (all) and A002562 (fundamental), N = 1..12.
ALL = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200]
FUNDAMENTAL = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787]
# OEIS A032522 (solutions unchanged by a half turn) and A033148 (by a quarter turn).
FIXED_180 = [1, 0, 0, 2, 2, 4, 8, 4, 16, 12, 48, 80]
FIXED_90 = [1, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 8]


def brute_force(n: int) -> list[tuple[int, ...]]:
    """All solutions by trying every permutation: independent of the backtracking."""
    return [
        tuple(c + 1 for c in p)
        for p in itertools.permutations(range(n))
        if is_solution(tuple(c + 1 for c in p))
    ]


def test_the_92_solutions_of_eight_queens() -> None:
    sols = list(solutions(8))
    assert len(sols) == 92
    assert all(is_solution(s) for s in sols)
    assert len(set(sols)) == 92
    assert sols == sorted(sols)
    assert sols[0] == (1, 5, 8, 6, 3, 7, 2, 4)
    assert sols[-1] == (8, 4, 1, 3, 6, 2, 7, 5)


@pytest.mark.parametrize("n", range(1, 9))
def test_generator_equals_brute_force(n: int) -> None:
    assert list(solutions(n)) == brute_force(n)


@pytest.mark.parametrize("n", range(1, 11))
def test_generator_counts_match_oeis(n: int) -> None:
    assert sum(1 for _ in solutions(n)) == ALL[n - 1]


def test_generator_streams_for_a_large_board() -> None:
    first = next(solutions(25))  # 2.2e11 solutions: only a generator can answer at once
    assert is_solution(first) and len(first) == 25
    assert first[:5] == (1, 3, 5, 2, 4)


def test_is_solution_rejects_attacks() -> None:
    assert not is_solution((1, 2, 3, 4))  # diagonal
    assert not is_solution((2, 4, 1, 1))  # column
    assert not is_solution((2, 4, 1, 5))  # off the board
    assert is_solution((2, 4, 1, 3))


@pytest.mark.parametrize("method", sorted(PURE_METHODS))
@pytest.mark.parametrize("n", range(1, 13))
def test_pure_counts_match_oeis(method: str, n: int) -> None:
    assert count_pure(n, method) == ALL[n - 1]


@pytest.mark.parametrize("method", sorted(PURE_METHODS))
@pytest.mark.parametrize("n", range(1, 13))
def test_pure_fundamental_counts_match_oeis(method: str, n: int) -> None:
    assert count_fundamental_pure(n, method) == FUNDAMENTAL[n - 1]


@pytest.mark.parametrize("n", range(1, 13))
def test_rotation_fixed_counts(n: int) -> None:
    assert count_fixed_by_rotation(n, False) == FIXED_180[n - 1]
    assert count_fixed_by_rotation(n, True) == FIXED_90[n - 1]
    assert (
        fundamental_from_fixed(n, ALL[n - 1], FIXED_180[n - 1], FIXED_90[n - 1])
        == (FUNDAMENTAL[n - 1])
    )


@pytest.mark.parametrize("n", range(1, 10))
def test_rotation_fixed_counts_by_filtering(n: int) -> None:
    sols = list(solutions(n))
    assert count_fixed_by_rotation(n, False) == sum(1 for s in sols if transforms(s)[2] == s)
    assert count_fixed_by_rotation(n, True) == sum(1 for s in sols if transforms(s)[1] == s)


@pytest.mark.parametrize("n", range(1, 11))
def test_fundamental_classes_expand_to_all_solutions(n: int) -> None:
    fundamentals = list(fundamental_solutions(n))
    assert len(fundamentals) == FUNDAMENTAL[n - 1]
    assert [f for f, _ in fundamentals] == sorted(f for f, _ in fundamentals)
    seen: set[tuple[int, ...]] = set()
    for sol, size in fundamentals:
        members = expand(sol)
        assert members[0] == sol == canonical(sol)
        assert len(members) == size == class_size(sol)
        assert seen.isdisjoint(members)
        seen.update(members)
    assert seen == set(solutions(n))


def test_eight_queens_classes() -> None:
    sizes = [size for _, size in fundamental_solutions(8)]
    assert sorted(sizes) == [4] + [8] * 11  # the one symmetric class has 4 members
    assert dict(fundamental_solutions(8))[(3, 5, 2, 8, 1, 7, 4, 6)] == 4


solution_at = st.integers(4, 9).flatmap(
    lambda n: st.integers(0, ALL[n - 1] - 1).map(
        lambda i: next(itertools.islice(solutions(n), i, None))
    )
)


@settings(max_examples=60, deadline=None)
@given(solution_at)
def test_symmetries_are_solutions_and_form_a_group_orbit(sol: tuple[int, ...]) -> None:
    images = transforms(sol)
    assert len(images) == 8 and images[0] == sol
    assert all(is_solution(t) for t in images)
    assert 8 % len(set(images)) == 0
    # the orbit is closed: every image has the same orbit and the same canonical form
    for t in images:
        assert set(transforms(t)) == set(images)
        assert canonical(t) == canonical(sol)
    # rotating four times is the identity
    r = sol
    for _ in range(4):
        r = transforms(r)[1]
    assert r == sol


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 10), st.integers(1, 4), st.booleans())
def test_subtasks_cover_every_solution(n: int, depth: int, mirror: bool) -> None:
    tasks = subtasks(n, depth, mirror)
    for prefix, weight in tasks:
        assert weight in (1, 2)
        assert len(prefix) == min(depth, n) or (mirror and len(prefix) == 2)
        assert len(set(prefix)) == len(prefix)
        assert all(
            abs(a - b) != j - i for (i, a), (j, b) in itertools.combinations(enumerate(prefix), 2)
        )
    assert sum(w * count_tables_prefix(n, p) for p, w in tasks) == ALL[n - 1]


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 9), st.integers(0, 3), st.data())
def test_prefix_counters_agree(n: int, depth: int, data: st.DataObject) -> None:
    tasks = subtasks(n, max(depth, 1), False)
    if not tasks:
        return
    prefix, _ = data.draw(st.sampled_from(tasks))
    prefix = prefix[:depth]
    expected = sum(1 for s in solutions(n) if tuple(c - 1 for c in s[: len(prefix)]) == prefix)
    assert count_naive_prefix(n, prefix) == expected
    assert count_tables_prefix(n, prefix) == expected
    assert count_bitmask_prefix(n, prefix) == expected


@pytest.mark.parametrize("bad", [0, -3, MAX_COUNT_N + 1])
def test_check_n_rejects_bad_sizes(bad: int) -> None:
    with pytest.raises(GameError, match=f"N must be from 1 to {MAX_COUNT_N}"):
        check_n(bad)
    assert check_n(MAX_COUNT_N) == MAX_COUNT_N


def test_generator_rejects_empty_board() -> None:
    with pytest.raises(GameError):
        next(solutions(0))
