"""The start-constellation counters: published counts, the symmetry weights against the
solutions themselves, the kernels against a pure-Python reference, serial against prange,
and the driver's batches, progress and Ctrl-C."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgames.core.progress import BatchSizer
from boardgames.queens import constellations as cm
from boardgames.queens import counting, kernels
from boardgames.queens.counting import Interrupted, run_count
from boardgames.queens.solve import solutions, transforms

# OEIS A000170 and A002562
ALL = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184]
FUNDAMENTAL = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053]
ALL_BIG = {16: 14772512, 17: 95815104, 18: 666090624}
FUNDAMENTAL_BIG = {16: 1846955, 17: 11977939, 18: 83263591}
METHODS = ["constellations", "constellations-parallel"]

Border = tuple[int, int, int, int]


def border(sol: tuple[int, ...]) -> Border:
    """(top queen's column, bottom queen's column, left queen's row, right queen's row),
    0-based, of a solution in 1-based columns."""
    n = len(sol)
    return sol[0] - 1, sol[-1] - 1, sol.index(1), sol.index(n)


def reference_completions(n: int, task: np.ndarray) -> int:
    """The completions of a task, by plain backtracking over the rows it leaves empty:
    the border queens and the preset queens (on the first free rows) placed first."""
    m = n - 1
    top, bottom, left, right = (int(x) for x in task[: cm.PRESET])
    queens = {(0, top), (m, bottom), (left, 0), (right, m)}
    free_rows = [y for y in range(1, m) if y not in (left, right)]
    for row, col in zip(free_rows, cm.unpack_preset(int(task[cm.PRESET])), strict=False):
        queens.add((row, col))
    for (r1, c1), (r2, c2) in itertools.combinations(queens, 2):
        if r1 == r2 or c1 == c2 or r1 + c1 == r2 + c2 or r1 - c1 == r2 - c2:
            return 0
    cols = {c for _, c in queens}
    sums = {r + c for r, c in queens}
    diffs = {r - c for r, c in queens}
    taken = {r for r, _ in queens}
    rows = [y for y in range(n) if y not in taken]

    def search(i: int) -> int:
        if i == len(rows):
            return 1
        y = rows[i]
        total = 0
        for c in range(n):
            if c not in cols and y + c not in sums and y - c not in diffs:
                cols.add(c)
                sums.add(y + c)
                diffs.add(y - c)
                total += search(i + 1)
                cols.remove(c)
                sums.remove(y + c)
                diffs.remove(y - c)
        return total

    return search(0)


# --- counts ---------------------------------------------------------------------------------


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("n", range(1, 16))
def test_counts_match_oeis(method: str, n: int) -> None:
    assert run_count(n, method).count == ALL[n - 1]
    result = run_count(n, method, fundamental=True)
    assert result.count == FUNDAMENTAL[n - 1]
    if n > 1:  # Burnside: the total and the rotation-fixed counts
        assert result.extra["total"] == ALL[n - 1]


@pytest.mark.slow
@pytest.mark.parametrize("n", [16, 17, 18])
def test_counts_sixteen_to_eighteen(n: int) -> None:
    methods = METHODS if n == 16 else ["constellations-parallel"]
    for method in methods:
        assert run_count(n, method).count == ALL_BIG[n]
    assert run_count(n, "constellations-parallel", fundamental=True).count == FUNDAMENTAL_BIG[n]


@pytest.mark.parametrize("n", range(4, 14))
def test_weighted_task_counts_add_up_to_the_total(n: int) -> None:
    tasks = cm.constellation_tasks(n)
    counts = cm.count_constellations(n, tasks)
    assert int((counts * tasks[:, cm.WEIGHT]).sum()) == ALL[n - 1]


# --- the borders and their weights against the solutions -------------------------------------


@pytest.mark.parametrize("n", range(4, 11))
def test_every_solution_has_exactly_one_canonical_border(n: int) -> None:
    """The borders of a solution's 8 images are its border's class; exactly one of them is
    canonical, and the canonical border's weight is the size of that class."""
    canon = {tuple(int(x) for x in row[:4]): int(row[4]) for row in cm.canonical_borders(n)}
    for sol in solutions(n):
        images = {border(img) for img in transforms(sol)}
        found = [b for b in images if b in canon]
        assert len(found) == 1, (sol, images)
        assert canon[found[0]] == len(images)


@pytest.mark.parametrize("n", range(4, 11))
def test_weighted_counts_equal_the_solutions_of_each_class(n: int) -> None:
    """Per canonical border: its tasks' completions are the solutions with exactly that
    border, and times its weight the solutions whose border is in its class."""
    tasks = cm.constellation_tasks(n)
    counts = cm.count_constellations(n, tasks)
    per_border: dict[Border, int] = {}
    weight: dict[Border, int] = {}
    for row, found in zip(tasks, counts, strict=True):
        b = tuple(int(x) for x in row[:4])
        per_border[b] = per_border.get(b, 0) + int(found)
        weight[b] = int(row[cm.WEIGHT])
    exact: dict[Border, int] = {}
    in_class: dict[Border, int] = {}
    for sol in solutions(n):
        own = border(sol)
        exact[own] = exact.get(own, 0) + 1
        images = {border(img) for img in transforms(sol)}
        (canonical,) = [b for b in images if b in weight]
        in_class[canonical] = in_class.get(canonical, 0) + 1
    for b, found in per_border.items():
        assert found == exact.get(b, 0), b
        assert found * weight[b] == in_class.get(b, 0), b
    assert set(in_class) <= set(per_border)


def test_canonical_borders_cover_every_border() -> None:
    """The weights add up to every border with non-attacking queens (counted directly)."""
    for n in range(4, 13):
        m = n - 1
        valid = 0
        for top, bottom, left, right in itertools.product(range(n), repeat=4):
            squares = {(0, top), (m, bottom), (left, 0), (right, m)}
            rows = {r for r, _ in squares}
            cols = {c for _, c in squares}
            if len(rows) != len(squares) or len(cols) != len(squares):
                continue
            if len({r + c for r, c in squares}) != len(squares):
                continue
            if len({r - c for r, c in squares}) != len(squares):
                continue
            valid += 1
        assert int(cm.canonical_borders(n)[:, 4].sum()) == valid, n


def test_tasks_are_deterministic_and_compact() -> None:
    a = cm.constellation_tasks(14)
    b = cm.constellation_tasks(14)
    assert a.dtype == np.int64 and a.shape[1] == cm.TASK_COLUMNS == 6
    assert np.array_equal(a, b)
    assert set(np.unique(a[:, cm.WEIGHT]).tolist()) <= {2, 4, 8}
    assert all(len(cm.unpack_preset(int(p))) == cm.preset_queens(14) for p in a[:, cm.PRESET])
    with pytest.raises(ValueError, match="N >= 4"):
        cm.constellation_tasks(3)


def test_pack_preset_round_trip() -> None:
    for cols in ([], [3], [1, 17, 26], list(range(cm.MAX_PRESET))):
        assert cm.unpack_preset(cm.pack_preset(cols)) == cols
    with pytest.raises(ValueError):
        cm.pack_preset(list(range(cm.MAX_PRESET + 1)))


# --- the kernels ------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(4, 11))
def test_kernel_equals_python_on_every_task(n: int) -> None:
    for presets in (0, 1, 2):
        tasks = cm.constellation_tasks(n, presets)
        want = [reference_completions(n, t) for t in tasks]
        assert cm.count_constellations(n, tasks).tolist() == want, (n, presets)
        assert cm.count_constellations_stack(n, tasks).tolist() == want, (n, presets)


@pytest.mark.parametrize("n", range(11, 15))
def test_lanes_equal_the_stack_search_on_every_task(n: int) -> None:
    for presets in (0, 1, 2, 3):
        tasks = cm.constellation_tasks(n, presets)
        want = cm.count_constellations_stack(n, tasks)
        assert np.array_equal(cm.count_constellations(n, tasks), want), (n, presets)
        assert np.array_equal(cm.count_constellations_parallel(n, tasks), want), (n, presets)


def test_lanes_keep_each_tasks_count_in_batches_of_any_size_and_mix() -> None:
    # two lanes take tasks in turn and the last one finishes alone: every batch size,
    # tasks of every depth shuffled, and tasks that need no search (presets that do not
    # fit, no free row left) among them
    n = 12
    tasks = np.concatenate([cm.constellation_tasks(n, p) for p in (0, 1, 2, 4, 8)])
    bad = cm.constellation_tasks(n, 1)[:5].copy()
    bad[:, cm.PRESET] = cm.pack_preset([bad[0, cm.TOP]])  # under the top queen: attacked
    tasks = np.concatenate([tasks, bad])
    tasks = tasks[np.random.default_rng(7).permutation(len(tasks))]
    want = cm.count_constellations_stack(n, tasks)
    assert (want[-5:] >= 0).all() and 0 in want and 1 in want
    for size in (0, 1, 2, 3, cm.CHUNK - 1, cm.CHUNK + 1, 3 * cm.CHUNK + 5):
        for start in (0, 11):
            part = tasks[start : start + size]
            assert np.array_equal(cm.count_constellations(n, part), want[start : start + size])
            assert np.array_equal(
                cm.count_constellations_parallel(n, part), want[start : start + size]
            )
    assert np.array_equal(cm.count_constellations(n, tasks), want)
    assert np.array_equal(cm.count_constellations_parallel(n, tasks[::3]), want[::3])


@pytest.mark.parametrize("n", [11, 12, 13])
def test_kernel_equals_python_on_sampled_tasks(n: int) -> None:
    rng = random.Random(n)
    for presets in (0, 1, 3):
        tasks = cm.constellation_tasks(n, presets)
        pick = tasks[sorted(rng.sample(range(len(tasks)), min(40, len(tasks))))]
        got = cm.count_constellations(n, pick).tolist()
        assert got == [reference_completions(n, t) for t in pick], (n, presets)


def test_a_preset_queen_on_an_attacked_square_has_no_completion() -> None:
    n = 10
    task = cm.constellation_tasks(n, 0)[0].copy()
    task[cm.PRESET] = cm.pack_preset([int(task[cm.TOP])])  # the top queen's column
    assert cm.count_constellations(n, task[None, :]).tolist() == [0]
    assert reference_completions(n, task) == 0


@pytest.mark.parametrize("n", range(5, 13))
def test_split_tasks_add_up_to_their_parent(n: int) -> None:
    tasks = cm.constellation_tasks(n, 0)
    whole = cm.count_constellations(n, tasks)
    for extra in range(0, n - 3):
        parts, parent = cm.expand_constellations(n, tasks, extra)
        assert np.all(np.diff(parent) >= 0)
        assert np.array_equal(parts[:, cm.WEIGHT], tasks[parent, cm.WEIGHT])
        found = cm.count_constellations(n, parts)
        assert np.array_equal(np.bincount(parent, found, len(tasks)).astype(np.int64), whole)


def test_default_tasks_are_the_borders_split_by_their_presets() -> None:
    n = 12
    parts, _ = cm.expand_constellations(n, cm.constellation_tasks(n, 0), cm.preset_queens(n))
    assert np.array_equal(parts, cm.constellation_tasks(n))


@settings(max_examples=20, deadline=None)
@given(st.integers(4, 13), st.integers(0, 3), st.integers(1, 2))
def test_parallel_equals_serial_task_by_task(n: int, presets: int, workers: int) -> None:
    tasks = cm.constellation_tasks(n, presets)
    kernels.set_workers(workers)
    try:
        par = cm.count_constellations_parallel(n, tasks)
    finally:
        kernels.set_workers(None)
    assert np.array_equal(par, cm.count_constellations(n, tasks))


def test_kernels_take_slices_of_the_task_array() -> None:
    """A worker gets a slice of the rows; the counts are those of the whole array's rows."""
    n = 13
    tasks = cm.constellation_tasks(n)
    whole = cm.count_constellations(n, tasks)
    cut = len(tasks) // 3
    parts = [
        cm.count_constellations(n, tasks[:cut]),
        cm.count_constellations_parallel(n, tasks[cut:]),
    ]
    assert np.array_equal(np.concatenate(parts), whole)


# --- the driver --------------------------------------------------------------------------------


class OneAtATime(BatchSizer):
    """Batches of one task (or one per thread): the most kernel calls there can be."""

    def record(self, items: int, seconds: float) -> None:
        self.size = self.minimum


@pytest.mark.parametrize("method", METHODS)
def test_smallest_batches_and_deep_splits_give_the_published_counts(
    method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(counting, "BatchSizer", OneAtATime)
    monkeypatch.setattr(counting, "constellation_split", lambda n: max(0, n - 6))
    monkeypatch.setattr(counting, "LEAVES_PER_GROUP", 7)
    for n in range(1, 12):
        result = run_count(n, method)
        assert result.count == ALL[n - 1], n
        assert run_count(n, method, fundamental=True).count == FUNDAMENTAL[n - 1], n


def test_constellation_split_grows_from_twenty() -> None:
    assert [counting.constellation_split(n) for n in (4, 17, 19, 20, 24, 27)] == [0, 0, 0, 1, 5, 8]
    assert all(
        cm.preset_queens(n) + counting.constellation_split(n) <= cm.MAX_PRESET for n in range(4, 28)
    )


@pytest.mark.parametrize("method", METHODS)
def test_ctrl_c_stops_cleanly(method: str) -> None:
    calls = []

    def progress(done: int, total: int) -> None:
        calls.append((done, total))
        raise KeyboardInterrupt

    with pytest.raises(Interrupted) as info:
        run_count(14, method, progress=progress)
    assert info.value.done == calls[0][0] < info.value.total


@pytest.mark.parametrize("method", METHODS)
def test_progress_reaches_the_end(method: str) -> None:
    seen: list[tuple[int, int]] = []
    result = run_count(13, method, progress=lambda d, t: seen.append((d, t)))
    assert len(seen) > 1 and seen[-1] == (73712, 73712)
    assert all(a[0] <= b[0] and a[1] == b[1] for a, b in itertools.pairwise(seen))
    assert result.subtasks == len(cm.constellation_tasks(13))
    if method == "constellations":
        assert result.workers == 1


def test_counts_after_warm_up_compile_nothing() -> None:
    # one kernel for every N, preset count and batch: warm_up compiled all a count needs
    cm.warm_up(parallel=True)
    kernels = (cm._count_serial, cm._count_parallel, cm.count_constellations_stack)
    before = [len(k.signatures) for k in kernels]
    for n, presets in ((9, 0), (12, 1), (13, 3)):
        tasks = cm.constellation_tasks(n, presets)
        for part in (tasks, tasks[::2], tasks[:1], tasks[:, :].T.T):
            cm.count_constellations(n, part)
            cm.count_constellations_parallel(n, part)
    assert [len(k.signatures) for k in kernels] == before


def test_the_duration_estimate_compiles_its_kernels_before_it_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # when the kernels compiled inside the first timed call (cold cache), one task was
    # sampled and N = 20 was estimated at 45 days
    from boardgames.queens import tasks as queens_tasks

    ready = []
    real = cm.count_constellations

    def spy(n: int, rows: np.ndarray) -> np.ndarray:
        ready.append(False in cm._warm)
        return real(n, rows)

    monkeypatch.setattr(cm, "count_constellations", spy)
    estimate = queens_tasks.estimate(13, seconds=0.05)
    assert ready and all(ready) and estimate.at_n == 13 and estimate.sampled >= 1
