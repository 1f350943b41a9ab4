"""Run a count by any method, in short batches of subtasks, with progress and clean Ctrl-C.

This module is the one place that knows every counting method. It imports numba only
when a jitted method runs (inside :func:`run_count`), so the CLI can import it freely.

A jitted kernel holds the main thread until it returns, so Python sees a Ctrl-C only
between two kernel calls; a ``stop`` callable (a web page's Cancel, a deadline) is asked
before every kernel call and every pure-Python subtask, so either ends a count within a
batch. The work is therefore split into subtasks small enough that a
batch of them takes a fraction of a second at every N: the first rows are placed
(:func:`split_depth` rows, more on bigger boards: at N = 20 six rows, 3.0 million
subtasks of about 13,000 solutions, a few milliseconds each), generated 200,000 or so
at a time so that memory stays small, shuffled, and counted in batches sized to
:data:`BATCH_SECONDS` (:mod:`boardgames.core.progress`). A subtask's completions are the
sum of its parts', so the counts are those of one call over the whole board.

The constellation methods (:mod:`boardgames.queens.constellations`) work the same way on
their own tasks: the canonical start constellations, split by more preset queens from
N = 20 on (:func:`constellation_split`), shuffled and counted in batches.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from boardgames.core.progress import (
    BATCH_SECONDS,
    BatchSizer,
    Stopped,
    format_count,
    percent,
    run_batches,
    stopped_message,
)
from boardgames.queens.solve import (
    PURE_METHODS,
    canonical,
    check_n,
    count_fixed_by_rotation,
    expected_total,
    fundamental_from_fixed,
    iter_subtasks,
    solutions,
    subtasks,
)

JIT_METHODS: dict[str, str] = {
    "numba": "jitted bitmasks, mirror, 1 thread",
    "parallel": "numba kernel with prange",
    "symmetry": "one per symmetry class, 1 thread",
    "symmetry-parallel": "symmetry with prange",
    "constellations": "border queens first, one per symmetry class, 1 thread",
    "constellations-parallel": "constellations with prange",
}
PARALLEL_METHODS = ("parallel", "symmetry-parallel", "constellations-parallel")
CONSTELLATION_METHODS = ("constellations", "constellations-parallel")
METHODS: dict[str, str] = {name: desc for name, (_, _, desc) in PURE_METHODS.items()}
METHODS.update(JIT_METHODS)
"""Every counting method, fastest last, with a one-line description."""

ROOT_DEPTH = 3
"""Rows of the root prefixes of the jitted methods' all-solutions count (the symmetry
method's roots are its two first rows); each root is split further when it is counted."""
SYMMETRY_MIN_N = 5
"""Smallest N for the symmetry search; smaller boards use the mirror kernel."""
CONSTELLATIONS_MIN_N = 4
"""Smallest N for the constellations (:data:`boardgames.queens.constellations.MIN_N`);
smaller boards use the mirror kernel."""
LEAVES_PER_GROUP = 200_000
"""About this many subtasks are generated at a time (a few MB of masks)."""
SPLIT_STEP = 3
"""Rows a subtask is split by in one step (up to a few thousand parts each)."""
SEED = 2024
"""Subtasks are counted in a fixed shuffled order: each batch then mixes big and small
subtrees, so that prange's even split gives each thread about the same work and the
estimate of the time left is steady. The order never changes a count."""

Progress = Callable[[int, int], None]
"""Called as ``progress(counted, expected)``: the solutions counted so far (all of them,
also in a fundamental count) and the published total they go to (OEIS A000170)."""


def split_depth(n: int) -> int:
    """Rows placed in each jitted subtask: 3 up to N = 17, then one more per N (each row
    multiplies the subtasks about as much as one more N multiplies the work), so that a
    subtask stays at a few milliseconds (a few tens of thousands of solutions) and a
    batch at a fraction of a second; never more than N - 2 rows."""
    return max(1, min(n - 2, max(ROOT_DEPTH, n - 14)))


def pure_depth(n: int) -> int:
    """Rows placed in each subtask of the pure-Python methods: a tenth of a second or so
    each (0.12 s at most for ``naive`` at N = 14), as a count's ``stop`` is asked between
    two of them (Ctrl-C stops Python code at once anyway)."""
    return max(2, min(n - 1, n - 11))


def constellation_split(n: int) -> int:
    """Preset queens added to each start constellation before it is counted: none up to
    N = 19 (one thread: 0.29 ms a task on average at N = 17, 1.5 ms at N = 18, 99.9% of
    them under ten times that; about 7 ms at N = 19), then one per N, as each N
    multiplies the work about as much as one more preset queen multiplies the tasks."""
    return max(0, n - 19)


def rotation_levels(n: int) -> int:
    """Orbits placed in each subtask of the rotation count (14 s in one call at N = 22)."""
    return 1 if n < 16 else 2 if n < 20 else 3


@dataclass
class CountResult:
    """The outcome of one count."""

    n: int
    method: str
    fundamental: bool
    count: int
    seconds: float
    workers: int = 1
    subtasks: int = 0
    extra: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        return {
            "n": self.n,
            "fundamental": self.fundamental,
            "count": self.count,
            "method": self.method,
            "seconds": round(self.seconds, 6),
            "workers": self.workers,
        }


class Interrupted(Stopped):
    """Ctrl-C (or the count's ``stop``) ended a count: how many solutions were counted,
    of how many, and when. ``by_stop``: the ``stop`` callable asked for it, not Ctrl-C."""

    def __init__(self, done: int, total: int, seconds: float = 0.0, by_stop: bool = False) -> None:
        share = f" ({percent(done / total)})" if total else ""
        text = stopped_message(
            seconds,
            extra=f": {format_count(done)} of {format_count(total)} solutions counted"
            f"{share}, no result",
        )
        if by_stop:
            text = text.replace("Stopped (Ctrl-C)", "Stopped", 1)
        super().__init__(text, done, total)
        self.by_stop = by_stop


Stop = Callable[[], bool]
"""A count's ``stop``: asked between kernel calls; True ends the count (``event.is_set``
of a ``threading.Event`` will do)."""


class _StopAsked(Exception):
    """Raised where a count asks its ``stop`` and hears True; :func:`run_count` turns it
    into :class:`Interrupted`."""


def _never() -> bool:
    return False


def load_kernels(
    method: str, workers: int | None = None, n: int | None = None, fundamental: bool = False
) -> tuple[Any, int]:
    """Import (and if needed compile) the jitted kernels a count of N by ``method`` runs,
    and only those (the serial or the ``prange`` kernel, not both; the rotation search for
    a fundamental count); without ``n``, every kernel. Return the kernels module and the
    number of threads ``method`` will use. Compiling happens here, not inside the timing."""
    from boardgames.queens import constellations, kernels

    parallel = method in PARALLEL_METHODS
    used = kernels.set_workers(workers) if parallel else 1
    if n is None:
        kernels.warm_up()
        constellations.warm_up()
        return kernels, used
    symmetry = method.startswith("symmetry") and n >= SYMMETRY_MIN_N
    if method in CONSTELLATION_METHODS and n >= CONSTELLATIONS_MIN_N:
        constellations.warm_up(parallel=parallel)
    elif symmetry:
        kernels.warm_up_symmetry(parallel)
    else:
        kernels.warm_up_plain(parallel)
    if fundamental and not symmetry:
        kernels.warm_up_rotation_tasks(parallel)
    return kernels, used


class _Counter:
    """The running sums of one count and the progress reports."""

    def __init__(self, n: int, progress: Progress | None, stop: Stop | None = None) -> None:
        self.expected = expected_total(n) or 0
        self.total = 0
        self.classes = 0
        self.subtasks = 0
        self.progress = progress
        self.stop: Stop = stop or _never
        self.t0 = time.perf_counter()

    def check(self) -> None:
        """Raise :class:`_StopAsked` when the count's ``stop`` says True (before each
        kernel call and each pure-Python subtask)."""
        if self.stop():
            raise _StopAsked

    def add(self, total: int, classes: int = 0, subtasks: int = 0) -> None:
        self.total += total
        self.classes += classes
        self.subtasks += subtasks
        if self.progress is not None:
            self.progress(self.total, self.expected)

    def stopped(self, by_stop: bool = False) -> Interrupted:
        return Interrupted(self.total, self.expected, time.perf_counter() - self.t0, by_stop)


def _groups(count: int, expand: Callable[[int, int], int]) -> None:
    """Call ``expand(i, j)`` on consecutive ranges of ``count`` tasks, each sized so that
    it makes about :data:`LEAVES_PER_GROUP` subtasks (``expand`` returns how many)."""
    i, size = 0, 1
    while i < count:
        j = min(count, i + size)
        made = expand(i, j)
        per_task = max(made, 1) / (j - i)
        size = max(1, min(4 * size, int(LEAVES_PER_GROUP / per_task)))
        i = j


Tasks = tuple[Any, ...]
"""Subtasks as parallel arrays (one row per subtask in each)."""


def _count_tree(
    tasks: Tasks,
    rows: int,
    expand: Callable[[Tasks, int], Tasks],
    count: Callable[[Tasks], None],
    sizer: BatchSizer,
    rng: Any,
) -> None:
    """Count below ``tasks``: split them ``rows`` rows deeper (at most :data:`SPLIT_STEP`
    rows at a time, a group of tasks at a time, so that memory stays small and no
    kernel call is long), shuffle each group of the deepest subtasks and ``count`` them
    in batches sized by ``sizer``."""
    step = min(rows, SPLIT_STEP)

    def group(i: int, j: int) -> int:
        part = tuple(a[i:j] for a in tasks)
        deeper = expand(part, step) if step else part
        made = len(deeper[0])
        if rows > step:
            _count_tree(deeper, rows - step, expand, count, sizer, rng)
            return made
        mix = rng.permutation(made)
        deeper = tuple(a[mix] for a in deeper)
        run_batches(made, lambda lo, hi: count(tuple(a[lo:hi] for a in deeper)), sizer)
        return made

    _groups(len(tasks[0]), group)


def _count_plain(n: int, kernels: Any, parallel: bool, used: int, c: _Counter) -> None:
    """All solutions by the mirror kernel: root prefixes of :data:`ROOT_DEPTH` rows, each
    split to :func:`split_depth` rows, counted in batches."""
    import numpy as np

    roots = subtasks(n, ROOT_DEPTH, True)
    if not roots:  # N = 2 or 3
        return
    (cols, ld, rd), weights = kernels.task_arrays(n, roots)
    rng = np.random.default_rng(SEED)
    order = rng.permutation(len(roots))
    kernel = kernels.count_tasks_parallel if parallel else kernels.count_tasks

    def expand(t: Tasks, rows: int) -> Tasks:
        c.check()
        sc, sl, sr, parent = kernels.expand_tasks(n, t[0], t[1], t[2], rows)
        return sc, sl, sr, t[3][parent]

    def count(t: Tasks) -> None:
        c.check()
        found = kernel(n, t[0], t[1], t[2])
        c.add(int((found * t[3]).sum()), subtasks=len(found))

    rows = max(0, split_depth(n) - min(ROOT_DEPTH, n))
    tasks = (cols[order], ld[order], rd[order], weights[order])
    _count_tree(tasks, rows, expand, count, BatchSizer(first=2 * used, minimum=used), rng)


def _count_symmetry(n: int, kernels: Any, parallel: bool, used: int, c: _Counter) -> None:
    """All solutions and the classes by the symmetry search: its two-row tasks, each split
    to :func:`split_depth` rows, counted in batches."""
    import numpy as np

    roots = kernels.symmetry_tasks(n)
    rng = np.random.default_rng(SEED)
    kernel = kernels.count_symmetry_tasks_parallel if parallel else kernels.count_symmetry_tasks

    def expand(t: Tasks, rows: int) -> Tasks:
        c.check()
        return (kernels.expand_symmetry_tasks(n, t[0], rows),)

    def count(t: Tasks) -> None:
        c.check()
        out = kernel(n, t[0])
        c.add(int(out[:, 0].sum()), int(out[:, 1].sum()), len(out))

    rows = max(0, min(split_depth(n), n - 2) - 2)
    tasks = (roots[rng.permutation(len(roots))],)
    _count_tree(tasks, rows, expand, count, BatchSizer(first=2 * used, minimum=used), rng)


def _count_constellations(n: int, parallel: bool, used: int, c: _Counter) -> None:
    """All solutions by the start constellations: the canonical tasks, split by
    :func:`constellation_split` more preset queens, shuffled and counted in batches;
    each task's completions count ``weight`` times."""
    import numpy as np

    from boardgames.queens import constellations as cm

    roots = cm.constellation_tasks(n)
    rng = np.random.default_rng(SEED)
    kernel = cm.count_constellations_parallel if parallel else cm.count_constellations

    def expand(t: Tasks, rows: int) -> Tasks:
        c.check()
        return (cm.expand_constellations(n, t[0], rows)[0],)

    def count(t: Tasks) -> None:
        c.check()
        found = kernel(n, t[0])
        c.add(int((found * t[0][:, cm.WEIGHT]).sum()), subtasks=len(found))

    tasks = (roots[rng.permutation(len(roots))],)
    sizer = BatchSizer(first=2 * used, minimum=used)
    _count_tree(tasks, constellation_split(n), expand, count, sizer, rng)


def _fixed_by_rotation(
    n: int, quarter: bool, kernels: Any, parallel: bool, used: int, c: _Counter
) -> int:
    """Solutions fixed by the 90° (``quarter``) or 180° rotation, by the jitted search in
    batches of :func:`rotation_levels` placed orbits."""
    c.check()
    tasks = kernels.rotation_tasks(n, quarter, rotation_levels(n))
    kernel = kernels.count_rotation_tasks_parallel if parallel else kernels.count_rotation_tasks
    found = 0

    def work(lo: int, hi: int) -> None:
        nonlocal found
        c.check()
        found += int(kernel(n, quarter, tasks[lo:hi]).sum())

    run_batches(len(tasks), work, BatchSizer(BATCH_SECONDS, first=2 * used, minimum=used))
    return found


def _count_pure(n: int, method: str, c: _Counter) -> None:
    counter, mirror, _ = PURE_METHODS[method]
    for prefix, weight in iter_subtasks(n, pure_depth(n), mirror):
        c.check()
        c.add(weight * counter(n, prefix), subtasks=1)


def _count_naive_fundamental(n: int, c: _Counter) -> None:
    """Canonicalise every solution (slow, and independent of Burnside's lemma)."""

    seen = 0
    for sol in solutions(n):
        seen += 1
        if sol == canonical(sol):
            c.classes += 1
        if seen % 1000 == 0:
            c.check()
            c.add(1000)
    c.add(seen % 1000)


def run_count(
    n: int,
    method: str,
    fundamental: bool = False,
    workers: int | None = None,
    progress: Progress | None = None,
    stop: Stop | None = None,
) -> CountResult:
    """Count all (or fundamental) solutions for N by ``method``; time excludes JIT loading.

    Fundamental counts use Burnside's lemma (see :mod:`boardgames.queens.solve`): the total
    by ``method`` plus the solutions fixed by the 90° and 180° rotations (the
    constellation methods too: a border's weight says nothing about how many of its
    solutions are symmetric, and the rotation counts are cheap); ``naive`` canonicalises
    every solution instead (slow, and independent of Burnside), and the symmetry methods
    count the classes directly.
    ``progress(counted, expected)`` is called after every batch. Raises
    :class:`Interrupted` on Ctrl-C, or when ``stop()`` says True (asked before every
    kernel call, every pure-Python subtask and every 1,000 solutions of ``naive``): seen
    within about :data:`BATCH_SECONDS` either way.
    """
    check_n(n)
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}")
    kernels, used = (
        load_kernels(method, workers, n, fundamental) if method in JIT_METHODS else (None, 1)
    )
    parallel = method in PARALLEL_METHODS
    c = _Counter(n, progress, stop)
    t0 = c.t0 = time.perf_counter()
    extra: dict[str, int] = {}
    try:
        if fundamental and method == "naive":
            _count_naive_fundamental(n, c)
            return CountResult(n, method, True, c.classes, time.perf_counter() - t0, 1, 1)
        if method in PURE_METHODS:
            _count_pure(n, method, c)
        elif method.startswith("symmetry") and n >= SYMMETRY_MIN_N:
            _count_symmetry(n, kernels, parallel, used, c)
        elif method in CONSTELLATION_METHODS and n >= CONSTELLATIONS_MIN_N:
            _count_constellations(n, parallel, used, c)
        else:
            _count_plain(n, kernels, parallel, used, c)
        count = c.total
        if fundamental and method.startswith("symmetry") and n >= SYMMETRY_MIN_N:
            count = c.classes
            extra = {"total": c.total}
        elif fundamental:
            if kernels is not None:
                fixed180 = _fixed_by_rotation(n, False, kernels, parallel, used, c)
                fixed90 = _fixed_by_rotation(n, True, kernels, parallel, used, c)
            else:
                c.check()
                fixed180 = count_fixed_by_rotation(n, False)
                c.check()
                fixed90 = count_fixed_by_rotation(n, True)
            count = fundamental_from_fixed(n, c.total, fixed180, fixed90)
            extra = {"total": c.total, "fixed_by_180": fixed180, "fixed_by_90": fixed90}
    except _StopAsked:
        raise c.stopped(by_stop=True) from None
    except Stopped:
        raise
    except KeyboardInterrupt:
        raise c.stopped() from None
    seconds = time.perf_counter() - t0
    return CountResult(n, method, fundamental, count, seconds, used, c.subtasks, extra)
