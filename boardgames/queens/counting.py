"""Run a count by any method, in batches of subtasks, with progress and clean interrupts.

This module is the one place that knows every counting method. It imports numba only
when a jitted method runs (inside :func:`run_count`), so the CLI can import it freely.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from boardgames.queens.solve import (
    PURE_METHODS,
    check_n,
    count_fixed_by_rotation,
    fundamental_from_fixed,
    solutions,
    subtasks,
)

JIT_METHODS: dict[str, str] = {
    "numba": "jitted bitmasks, mirror, 1 thread",
    "parallel": "numba kernel with prange",
    "symmetry": "one per symmetry class, 1 thread",
    "symmetry-parallel": "symmetry with prange",
}
PARALLEL_METHODS = ("parallel", "symmetry-parallel")
METHODS: dict[str, str] = {name: desc for name, (_, _, desc) in PURE_METHODS.items()}
METHODS.update(JIT_METHODS)
"""Every counting method, fastest last, with a one-line description."""

PURE_DEPTH = 2
"""Rows pre-placed per subtask by the pure-Python methods (progress granularity)."""
JIT_DEPTH = 3
"""Rows pre-placed per subtask by the jitted methods (enough subtasks to balance threads)."""
SYMMETRY_MIN_N = 5
"""Smallest N for the symmetry search; smaller boards use the mirror kernel."""
BATCH_SECONDS = 0.5
"""Target length of one kernel call: progress updates and Ctrl-C are seen this often."""

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` with the subtasks finished so far."""


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


class Interrupted(Exception):
    """Ctrl-C during a count; says how far it got."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__(f"interrupted after {done} of {total} subtasks")
        self.done = done
        self.total = total


def load_kernels(method: str, workers: int | None = None) -> tuple[Any, int]:
    """Import (and if needed compile) the kernels for a jitted method; return the module and
    the number of threads it will use. Compiling happens here, not inside the timing."""
    from boardgames.queens import kernels

    used = kernels.set_workers(workers) if method in PARALLEL_METHODS else 1
    kernels.warm_up()
    return kernels, used


def _run_batches(
    kernel: Callable[..., Any],
    n: int,
    arrays: tuple[Any, ...],
    used: int,
    progress: Progress | None,
) -> Any:
    """Call ``kernel(n, *slices)`` on growing slices of ``arrays`` (about BATCH_SECONDS each)
    and return the per-task results stacked; Ctrl-C between calls raises Interrupted."""
    import numpy as np

    size = len(arrays[0])
    # A fixed shuffle: every batch then mixes big and small subtrees, so prange's even
    # split of a batch gives each thread about the same work and the ETA is steady.
    order = np.random.default_rng(2024).permutation(size)
    arrays = tuple(a[order] for a in arrays)
    parts = []
    done = 0
    batch = max(1, 2 * used)
    try:
        while done < size:
            lo, hi = done, min(size, done + batch)
            t0 = time.perf_counter()
            parts.append(kernel(n, *(a[lo:hi] for a in arrays)))
            spent = time.perf_counter() - t0
            done = hi
            if progress:
                progress(done, size)
            # grow (at most 4x) or shrink the batch towards BATCH_SECONDS per call
            per_task = spent / (hi - lo)
            batch = max(used, min(4 * batch, int(BATCH_SECONDS / max(per_task, 1e-7))))
    except KeyboardInterrupt:
        raise Interrupted(done, size) from None
    if not parts:  # no tasks: N = 2 or 3
        return kernel(n, *arrays)
    out = np.empty_like(np.concatenate(parts))
    out[order] = np.concatenate(parts)
    return out


def _count_total(
    n: int, method: str, kernels: Any, used: int, progress: Progress | None
) -> tuple[int, int | None, int]:
    """(total, classes or None, subtasks) for the all-solutions count; ``kernels`` is the
    loaded kernel module for a jitted method (None otherwise), ``used`` its threads."""
    if method in PURE_METHODS:
        counter, mirror, _ = PURE_METHODS[method]
        tasks = subtasks(n, PURE_DEPTH, mirror)
        total = done = 0
        try:
            for prefix, weight in tasks:
                total += weight * counter(n, prefix)
                done += 1
                if progress:
                    progress(done, len(tasks))
        except KeyboardInterrupt:
            raise Interrupted(done, len(tasks)) from None
        return total, None, len(tasks)

    parallel = method in PARALLEL_METHODS
    if method.startswith("symmetry") and n >= SYMMETRY_MIN_N:
        tasks = kernels.symmetry_tasks(n)
        kernel = kernels.count_symmetry_tasks_parallel if parallel else kernels.count_symmetry_tasks
        out = _run_batches(kernel, n, (tasks,), used, progress)
        return int(out[:, 0].sum()), int(out[:, 1].sum()), len(tasks)
    subs = subtasks(n, JIT_DEPTH, True)
    (cols, ld, rd), weights = kernels.task_arrays(n, subs)
    kernel = kernels.count_tasks_parallel if parallel else kernels.count_tasks
    counts = _run_batches(kernel, n, (cols, ld, rd), used, progress)
    return int((counts * weights).sum()), None, len(subs)


def run_count(
    n: int,
    method: str,
    fundamental: bool = False,
    workers: int | None = None,
    progress: Progress | None = None,
) -> CountResult:
    """Count all (or fundamental) solutions for N by ``method``; time excludes JIT loading.

    Fundamental counts use Burnside's lemma (see :mod:`boardgames.queens.solve`): the total
    by ``method`` plus the solutions fixed by the 90° and 180° rotations; ``naive``
    canonicalises every solution instead (slow, and independent of Burnside), and the
    symmetry methods count the classes directly.
    Raises :class:`Interrupted` on Ctrl-C.
    """
    check_n(n)
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}")
    kernels, used = load_kernels(method, workers) if method in JIT_METHODS else (None, 1)
    t0 = time.perf_counter()
    if fundamental and method == "naive":
        try:
            from boardgames.queens.solve import canonical

            count = sum(1 for sol in solutions(n) if sol == canonical(sol))
        except KeyboardInterrupt:
            raise Interrupted(0, 1) from None
        return CountResult(n, method, True, count, time.perf_counter() - t0, 1, 1)
    total, classes, ntasks = _count_total(n, method, kernels, used, progress)
    extra: dict[str, int] = {}
    count = total
    if fundamental and classes is not None:
        count = classes
        extra = {"total": total}
    elif fundamental:
        if kernels is not None:
            fixed180 = int(kernels.count_fixed_by_rotation(n, False))
            fixed90 = int(kernels.count_fixed_by_rotation(n, True))
        else:
            fixed180 = count_fixed_by_rotation(n, False)
            fixed90 = count_fixed_by_rotation(n, True)
        count = fundamental_from_fixed(n, total, fixed180, fixed90)
        extra = {"total": total, "fixed_by_180": fixed180, "fixed_by_90": fixed90}
    seconds = time.perf_counter() - t0
    return CountResult(n, method, fundamental, count, seconds, used, ntasks, extra)
