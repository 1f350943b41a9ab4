"""The jitted counters against the pure-Python reference and the published counts."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgames.queens import kernels
from boardgames.queens.counting import METHODS, Interrupted, run_count
from boardgames.queens.solve import (
    canonical,
    count_bitmask_prefix,
    count_fixed_by_rotation,
    solutions,
    subtasks,
)

ALL = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200]  # OEIS A000170
FUNDAMENTAL = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787]  # OEIS A002562
# OEIS A000170 / A002562 beyond RULES.md, for the slow set.
ALL_BIG = {13: 73712, 14: 365596, 15: 2279184, 16: 14772512}
FUNDAMENTAL_BIG = {13: 9233, 14: 45752, 15: 285053, 16: 1846955}
FAST_METHODS = [
    "bitmask",
    "numba",
    "parallel",
    "symmetry",
    "symmetry-parallel",
    "constellations",
    "constellations-parallel",
]


# naive and tables run through count_pure in test_solve; here the driver and the kernels.
@pytest.mark.parametrize("method", FAST_METHODS)
@pytest.mark.parametrize("n", range(1, 13))
def test_every_method_counts_match_oeis(method: str, n: int) -> None:
    assert run_count(n, method).count == ALL[n - 1]


@pytest.mark.parametrize("method", FAST_METHODS)
@pytest.mark.parametrize("n", range(1, 13))
def test_every_method_fundamental_counts_match_oeis(method: str, n: int) -> None:
    result = run_count(n, method, fundamental=True)
    assert result.count == FUNDAMENTAL[n - 1]


def test_jitted_subtask_counts_equal_python() -> None:
    for n in range(1, 11):
        for depth in (1, 2, 3):
            tasks = subtasks(n, depth, True)
            if not tasks:
                continue
            (cols, ld, rd), _ = kernels.task_arrays(n, tasks)
            got = kernels.count_tasks(n, cols, ld, rd)
            want = [count_bitmask_prefix(n, p) for p, _ in tasks]
            assert got.tolist() == want, (n, depth)


@settings(max_examples=25, deadline=None)
@given(st.integers(4, 12), st.integers(2, 4), st.integers(1, 2))
def test_parallel_equals_serial_task_by_task(n: int, depth: int, workers: int) -> None:
    tasks = subtasks(n, depth, True)
    (cols, ld, rd), _ = kernels.task_arrays(n, tasks)
    kernels.set_workers(workers)
    try:
        par = kernels.count_tasks_parallel(n, cols, ld, rd)
    finally:
        kernels.set_workers(None)
    assert np.array_equal(par, kernels.count_tasks(n, cols, ld, rd))


@settings(max_examples=15, deadline=None)
@given(st.integers(5, 13), st.integers(1, 2))
def test_symmetry_parallel_equals_serial_task_by_task(n: int, workers: int) -> None:
    tasks = kernels.symmetry_tasks(n)
    kernels.set_workers(workers)
    try:
        par = kernels.count_symmetry_tasks_parallel(n, tasks)
    finally:
        kernels.set_workers(None)
    assert np.array_equal(par, kernels.count_symmetry_tasks(n, tasks))


@pytest.mark.parametrize("n", range(5, 11))
def test_symmetry_tasks_find_each_class_once(n: int) -> None:
    """Replay the symmetry search's classes against canonicalisation in Python: per first
    row, the classes counted equal the canonical forms whose visited member starts there."""
    out = kernels.count_symmetry_tasks(n, kernels.symmetry_tasks(n))
    sols = list(solutions(n))
    corner = [s for s in sols if s[0] == 1]
    # corner classes: one visited member each, the one whose row-1 queen is above column 1's
    corner_classes = {canonical(s) for s in corner}
    tasks = kernels.symmetry_tasks(n)
    got_corner = int(out[tasks[:, 0] == 1, 1].sum())
    assert got_corner == len(corner_classes)
    assert int(out[tasks[:, 0] == 1, 0].sum()) == 8 * len(corner_classes)
    assert int(out[:, 1].sum()) == len({canonical(s) for s in sols})


@pytest.mark.parametrize("n", range(1, 14))
def test_jitted_rotation_counts_equal_python(n: int) -> None:
    assert kernels.count_fixed_by_rotation(n, False) == count_fixed_by_rotation(n, False)
    assert kernels.count_fixed_by_rotation(n, True) == count_fixed_by_rotation(n, True)


def test_fundamental_result_carries_burnside_terms() -> None:
    r = run_count(12, "numba", fundamental=True)
    assert r.extra == {"total": 14200, "fixed_by_180": 80, "fixed_by_90": 8}
    assert r.as_dict()["count"] == 1787


@pytest.mark.parametrize("method", ["tables", "numba", "parallel", "symmetry"])
def test_ctrl_c_stops_cleanly(method: str) -> None:
    calls = []

    def progress(done: int, total: int) -> None:
        calls.append((done, total))
        raise KeyboardInterrupt

    with pytest.raises(Interrupted) as info:
        run_count(13, method, progress=progress)
    assert info.value.done == calls[0][0] < info.value.total


@pytest.mark.parametrize("method", ["tables", "parallel", "symmetry"])
def test_progress_reaches_the_end(method: str) -> None:
    """Progress counts the solutions found against the published total."""
    seen: list[tuple[int, int]] = []
    run_count(12, method, progress=lambda d, t: seen.append((d, t)))
    assert len(seen) > 1 and seen[-1] == (14200, 14200)
    assert all(a[0] <= b[0] and a[1] == b[1] for a, b in itertools.pairwise(seen))


@pytest.mark.parametrize("method", ["naive", "tables"])
def test_driver_runs_the_slow_methods(method: str) -> None:
    assert run_count(9, method).count == 352
    assert run_count(9, method, fundamental=True).count == 46
    assert set(METHODS) == {"naive", "tables", *FAST_METHODS}


def test_run_count_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="unknown method"):
        run_count(8, "quantum")
    with pytest.raises(ValueError, match="N must be from 1"):
        run_count(0, "numba")


@pytest.mark.slow
@pytest.mark.parametrize("method", ["tables", *FAST_METHODS])
@pytest.mark.parametrize("n", [13, 14])
def test_slow_counts_thirteen_fourteen(method: str, n: int) -> None:
    assert run_count(n, method).count == ALL_BIG[n]
    assert run_count(n, method, fundamental=True).count == FUNDAMENTAL_BIG[n]


@pytest.mark.slow
@pytest.mark.parametrize("method", ["numba", "parallel", "symmetry", "symmetry-parallel"])
@pytest.mark.parametrize("n", [15, 16])
def test_slow_counts_jitted(method: str, n: int) -> None:
    assert run_count(n, method).count == ALL_BIG[n]
    assert run_count(n, method, fundamental=True).count == FUNDAMENTAL_BIG[n]


@pytest.mark.slow
def test_slow_naive_thirteen() -> None:
    assert run_count(13, "naive").count == ALL_BIG[13]
