"""Counting in batches (so that Ctrl-C is seen between kernel calls) changes no count.

The splits of a subtask into deeper subtasks must add up to the subtask, in every one of
the three searches (the mirror kernel, the symmetry search, the rotation search), and a
count cut into the smallest batches must still give the published values. A count's
``stop`` is asked between its kernel calls (the rotation counts' too) and changes nothing
while it says False.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable

import numpy as np
import pytest

from boardgames.core.progress import BatchSizer
from boardgames.queens import counting, kernels
from boardgames.queens.counting import Interrupted, run_count, split_depth
from boardgames.queens.solve import (
    count_fixed_by_rotation,
    iter_subtasks,
    prefix_masks,
    subtasks,
)

# OEIS A000170 and A002562, N = 1..13
ALL = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712]
FUNDAMENTAL = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233]
JITTED = [
    "numba",
    "parallel",
    "symmetry",
    "symmetry-parallel",
    "constellations",
    "constellations-parallel",
]


@pytest.mark.parametrize("n", range(4, 13))
def test_split_subtasks_add_up_to_their_parent(n: int) -> None:
    (cols, ld, rd), _ = kernels.task_arrays(n, subtasks(n, 2, True))
    whole = kernels.count_tasks(n, cols, ld, rd)
    for rows in range(0, n - 1):
        c, left, right, parent = kernels.expand_tasks(n, cols, ld, rd, rows)
        parts = kernels.count_tasks(n, c, left, right)
        assert np.array_equal(np.bincount(parent, parts, len(cols)).astype(np.int64), whole)
        assert np.all(np.diff(parent) >= 0)  # the parts come in their parents' order


@pytest.mark.parametrize("n", [6, 9, 12])
def test_split_masks_equal_the_python_prefixes(n: int) -> None:
    """Two rows below the two-row prefixes: the four-row prefixes, in the same order,
    without those whose next row has no free square."""
    full = (1 << n) - 1
    (cols, ld, rd), _ = kernels.task_arrays(n, subtasks(n, 2, True))
    c, left, right, _ = kernels.expand_tasks(n, cols, ld, rd, 2)
    got = list(zip(c.tolist(), (left & full).tolist(), right.tolist(), strict=True))
    want = []
    for prefix, _ in subtasks(n, 4, True):
        masks = prefix_masks(n, prefix)
        if masks[0] == full or full & ~(masks[0] | masks[1] | masks[2]):
            want.append(masks)
    assert got == want


@pytest.mark.parametrize("n", range(5, 13))
def test_split_symmetry_tasks_add_up(n: int) -> None:
    roots = kernels.symmetry_tasks(n)
    for i in range(len(roots)):
        whole = kernels.count_symmetry_tasks(n, roots[i : i + 1]).sum(axis=0)
        for rows in range(0, n - 3):
            parts = kernels.expand_symmetry_tasks(n, roots[i : i + 1], rows)
            assert parts.shape[1] == 4 + rows
            got = kernels.count_symmetry_tasks(n, parts).sum(axis=0)
            assert np.array_equal(got, whole), (n, i, rows)


@pytest.mark.parametrize("n", range(1, 14))
def test_rotation_subtasks_add_up(n: int) -> None:
    for quarter in (False, True):
        want = count_fixed_by_rotation(n, quarter)
        for levels in (1, 2, 3):
            tasks = kernels.rotation_tasks(n, quarter, levels)
            assert int(kernels.count_rotation_tasks(n, quarter, tasks).sum()) == want
            par = kernels.count_rotation_tasks_parallel(n, quarter, tasks)
            assert np.array_equal(par, kernels.count_rotation_tasks(n, quarter, tasks))


def test_lazy_subtasks_equal_the_list() -> None:
    for n in range(1, 10):
        for depth in (1, 2, 3, 4):
            for mirror in (False, True):
                assert list(iter_subtasks(n, depth, mirror)) == subtasks(n, depth, mirror)


class OneAtATime(BatchSizer):
    """Batches of one subtask (or one per thread): the most kernel calls there can be."""

    def record(self, items: int, seconds: float) -> None:
        self.size = self.minimum


@pytest.mark.parametrize("method", JITTED)
def test_smallest_batches_and_deepest_splits_give_the_published_counts(
    method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(counting, "BatchSizer", OneAtATime)
    monkeypatch.setattr(counting, "split_depth", lambda n: max(1, n - 2))
    monkeypatch.setattr(counting, "LEAVES_PER_GROUP", 7)  # many small groups
    for n in range(1, 12):
        assert run_count(n, method).count == ALL[n - 1], n
        assert run_count(n, method, fundamental=True).count == FUNDAMENTAL[n - 1], n


@pytest.mark.parametrize("method", JITTED)
def test_batched_count_equals_one_kernel_call(method: str) -> None:
    """N = 13 as the driver runs it (split, shuffled, batched) against one call over the
    whole board's subtasks, and the published value."""
    n = 13
    tasks = subtasks(n, 3, True)
    (cols, ld, rd), weights = kernels.task_arrays(n, tasks)
    once = int((kernels.count_tasks(n, cols, ld, rd) * weights).sum())
    result = run_count(n, method)
    assert result.count == once == ALL[n - 1]
    assert run_count(n, method, fundamental=True).count == FUNDAMENTAL[n - 1]


@pytest.mark.parametrize("method", ["naive", "tables", "bitmask"])
def test_pure_methods_in_small_batches(method: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(counting, "pure_depth", lambda n: max(1, n - 3))
    for n in range(1, 10):
        assert run_count(n, method).count == ALL[n - 1], n


def test_split_depth_grows_with_n() -> None:
    depths = [split_depth(n) for n in range(1, 25)]
    assert all(1 <= d <= max(1, n - 2) for n, d in zip(range(1, 25), depths, strict=True))
    assert depths[16] == 3 and depths[19] == 6 and depths[23] == 10  # N = 17, 20, 24
    assert all(a <= b for a, b in itertools.pairwise(depths))


@pytest.mark.slow
@pytest.mark.parametrize("method", JITTED)
def test_batched_counts_fourteen_to_sixteen(method: str) -> None:
    want = {14: 365596, 15: 2279184, 16: 14772512}
    for n, count in want.items():
        assert run_count(n, method).count == count


# --- the count's stop -------------------------------------------------------------------------


def stop_after(calls: int) -> tuple[list[int], Callable[[], bool]]:
    """A stop that says True from its ``calls``-th question on, and how often it was asked."""
    asked = [0]

    def stop() -> bool:
        asked[0] += 1
        return asked[0] >= calls

    return asked, stop


@pytest.mark.parametrize("method", list(counting.METHODS))
def test_a_count_stops_when_its_stop_says_so_and_a_quiet_stop_changes_nothing(
    method: str,
) -> None:
    n = 10
    asked, never = stop_after(10**12)
    assert run_count(n, method, stop=never).count == ALL[n - 1]
    assert asked[0] >= 2  # asked more than once: between kernel calls or subtasks
    asked, stop = stop_after(2)
    with pytest.raises(Interrupted) as stopped:
        run_count(n, method, stop=stop)
    assert asked[0] == 2 and stopped.value.by_stop
    assert stopped.value.done is not None and stopped.value.done < ALL[n - 1]
    text = str(stopped.value)
    assert text.startswith("Stopped after ") and "(Ctrl-C)" not in text
    assert f" of {ALL[n - 1]:,} solutions counted" in text
    assert text.endswith(", no result.")


@pytest.mark.parametrize("method", ["numba", "parallel", "constellations", "bitmask"])
def test_the_rotation_counts_of_a_fundamental_count_ask_the_stop_too(method: str) -> None:
    """A stop that fires once every solution is counted ends the count in its rotation
    counts (Burnside's lemma), not after them."""
    n = 12
    counted = [0]

    def progress(done: int, expected: int) -> None:
        counted[0] = done

    with pytest.raises(Interrupted) as stopped:
        run_count(n, method, True, progress=progress, stop=lambda: counted[0] >= ALL[n - 1])
    assert stopped.value.done == ALL[n - 1]
    assert stopped.value.by_stop


def test_a_stop_from_another_thread_ends_a_long_count_within_a_batch() -> None:
    """N = 18 by the mirror kernel takes seconds; an Event set after 0.2 s ends it within
    about a batch (a quarter of a second), as the web page's Cancel does."""
    stop = threading.Event()
    threading.Timer(0.2, stop.set).start()
    t0 = time.monotonic()
    with pytest.raises(Interrupted):
        run_count(18, "numba", stop=stop.is_set)
    assert time.monotonic() - t0 < 0.2 + 1.0
