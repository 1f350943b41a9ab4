"""Huge-page arrays and the prefetch hint: plain arrays and plain reads to every caller."""

from __future__ import annotations

import numpy as np
from numba import njit

from boardgames.core.memory import HUGE_THRESHOLD, huge_zeros
from boardgames.core.prefetch import prefetch


def test_huge_zeros_is_a_zeroed_writable_array_of_the_shape_asked() -> None:
    for shape, dtype in [
        ((HUGE_THRESHOLD // 24 + 5, 3), np.int64),
        (HUGE_THRESHOLD + 1, np.int8),
        (7, np.int8),
    ]:
        a = huge_zeros(shape, dtype)
        want = (shape,) if isinstance(shape, int) else shape
        assert a.shape == want and a.dtype == dtype and a.flags.writeable and a.flags.c_contiguous
        assert not a.any()
        a[-1] = 5
        assert a.sum() == (5 if a.ndim == 1 else 15)


@njit(cache=True)
def _gather(table, rows, ahead):
    """Sum of table[rows[i], 0], prefetching ``ahead`` reads in advance."""
    s = 0
    for i in range(rows.shape[0]):
        if i + ahead < rows.shape[0]:
            prefetch(table, rows[i + ahead])
        s += table[rows[i], 0]
    return s


@njit(cache=True)
def _gather1(table, idx):
    s = 0
    for i in range(idx.shape[0]):
        prefetch(table, idx[i])
        s += table[idx[i]]
    return s


def test_prefetch_changes_no_result_on_1d_and_2d_arrays_of_any_dtype() -> None:
    rng = np.random.default_rng(5)
    table = rng.integers(-1000, 1000, size=(50_000, 3))
    rows = rng.integers(0, table.shape[0], size=20_000)
    want = int(table[rows, 0].sum())
    assert _gather(table, rows, 0) == _gather(table, rows, 8) == want
    small = rng.integers(-100, 100, size=10_000).astype(np.int8)
    idx = rng.integers(0, small.shape[0], size=5_000)
    assert _gather1(small, idx) == int(small[idx].astype(np.int64).sum())
