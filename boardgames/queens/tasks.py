"""N-queens counts as tasks of :mod:`boardgames.core.cluster`: start constellations in chunks.

A count is cut into tasks that any machine can run: chunks of the start constellations
(:mod:`boardgames.queens.constellations`), in a fixed shuffled order so that every chunk
mixes cheap and dear constellations, and, for a fundamental count, chunks of the rotation
search (Burnside's lemma needs the solutions fixed by the 90° and 180° rotations). The
chunking depends on N alone, so a checkpoint written on one cluster resumes on another.
A task's answer is one integer: the weighted completions of its constellations, or the
solutions fixed by the rotation below its placements.

The chunk count follows a model of the work at N (:func:`reference_seconds`, measured on
one core of the project's machine): a task takes a few seconds there (:data:`TASK_SECONDS`)
and there are at least :data:`MIN_TASKS` of them when they still take
:data:`MIN_TASK_SECONDS` each, so that a count spreads over many workers.

Importing this module is cheap; the kernels load when a task (or an estimate) runs.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from boardgames.queens import solve
from boardgames.queens.counting import rotation_levels
from boardgames.queens.solve import expected_total, fundamental_from_fixed

TASK_SECONDS = 3.0
"""Target time of one task on one core of the reference machine."""
MIN_TASKS = 256
"""A count is cut into at least this many tasks (if it has that many constellations), so
that it spreads over many workers, ..."""
MAX_TASKS = 200_000
"""At most this many tasks (beyond N = 22 a task then takes longer than
:data:`TASK_SECONDS`): the task list and the checkpoint stay at tens of MB."""
MIN_TASK_SECONDS = 0.1
"""... unless its tasks would then take less than this (the cost of a task on a cluster
is a few milliseconds)."""
SEED = 2027
REFERENCE_N = 17
REFERENCE_SECONDS = 5.6
"""One core of the reference machine counts N = 17 by constellations in about this time
(5.47-5.66 s with the two-lane kernel, Intel Xeon @ 2.50GHz, 2026-11-26;
benchmarks/results/queens_constellations.json: 5.56 s); other N scale with their number
of solutions and :data:`GROWTH_PER_N`. (It was 12 s with the first kernel: tasks of the
same size then took twice as long, and 512 simulated workers were only 64% busy at
N = 21 with this kernel until the model followed it, benchmarks/cluster_bench.py.)"""
GROWTH_PER_N = 1.09
"""The time per solution grows by about this factor from N to N + 1 (N = 17 to 18: 7.6x
the time for 6.95x the solutions, one thread, two alternated rounds, 2026-11-26; the
``batch_seconds`` of ``benchmarks/queens_bench.py --task-times 17 18`` measure it again)."""
ROTATION_CHUNKS = 16
"""Tasks of each rotation-fixed count (a small part of the work)."""


def reference_seconds(n: int) -> float:
    """The modelled one-core time of a count at N on the reference machine."""
    total = expected_total(n) or 1
    ref = expected_total(REFERENCE_N) or 1
    return REFERENCE_SECONDS * total / ref * GROWTH_PER_N ** (n - REFERENCE_N)


def task_count(n: int, constellations: int) -> int:
    """How many chunks the constellations of N are cut into (a function of N only)."""
    work = reference_seconds(n)
    want = max(min(MIN_TASKS, math.ceil(work / MIN_TASK_SECONDS)), math.ceil(work / TASK_SECONDS))
    return max(1, min(constellations, MAX_TASKS, want))


def count_task(n: int, kind: str, rows: Any) -> int:
    """Run on a worker: the weighted completions of the constellations ``rows``
    (``kind="border"``), or the solutions fixed by the 180° (``"fixed180"``) or 90°
    (``"fixed90"``) rotation below the rotation-search placements ``rows``."""
    if rows is None:  # a board too small for constellations: the whole count, in Python
        if kind == "border":
            return solve.count_pure(n, "bitmask")
        return solve.count_fixed_by_rotation(n, kind == "fixed90")
    if kind == "border":
        from boardgames.queens import constellations as c

        counts = c.count_constellations(n, rows)
        return int((counts * rows[:, c.WEIGHT]).sum())
    if kind in ("fixed180", "fixed90"):
        from boardgames.queens import kernels

        return int(kernels.count_rotation_tasks(n, kind == "fixed90", rows).sum())
    raise ValueError(f"unknown task kind {kind!r}")


def warm(n: int) -> float:
    """Run on each worker (and in the client) before a count of N: load (or compile) the
    kernels the tasks and their plan use, and only those (the constellation count, the
    rotation search and its counts; the same for every N today); seconds taken."""
    t = time.perf_counter()
    from boardgames.queens import constellations, kernels

    constellations.warm_up()
    kernels.warm_up_rotation_tasks()
    return time.perf_counter() - t


@dataclass
class Plan:
    """The tasks of one count and the job they make up (a checkpoint's header)."""

    n: int
    fundamental: bool
    tasks: list[tuple[str, tuple[Any, ...]]]
    constellations: int
    """How many start constellations the border tasks hold (0: a board too small)."""
    job: dict[str, Any]

    def kind(self, key: str) -> str:
        return key.split("-", 1)[0]


def plan(n: int, fundamental: bool, chunks: int | None = None) -> Plan:
    """The tasks of a count of N: the constellations in ``chunks`` tasks (default
    :func:`task_count`; at most one a constellation). A board too small for
    constellations is one task."""
    import numpy as np

    from boardgames.queens import constellations, kernels

    if n < constellations.MIN_N:
        kinds = ("border", "fixed180", "fixed90") if fundamental else ("border",)
        tasks: list[tuple[str, tuple[Any, ...]]] = [
            (f"{kind}-0", (n, kind, None)) for kind in kinds
        ]
        return Plan(n, fundamental, tasks, 0, _job(n, fundamental, len(tasks)))
    rows = constellations.constellation_tasks(n)
    rows = rows[np.random.default_rng(SEED).permutation(len(rows))]
    chunks = task_count(n, len(rows)) if chunks is None else max(1, min(chunks, len(rows)))
    tasks = [
        (f"border-{i}", (n, "border", np.ascontiguousarray(part)))
        for i, part in enumerate(np.array_split(rows, chunks))
    ]
    if fundamental:
        for kind, quarter in (("fixed180", False), ("fixed90", True)):
            placed = kernels.rotation_tasks(n, quarter, rotation_levels(n))
            parts = np.array_split(placed, min(ROTATION_CHUNKS, max(1, len(placed))))
            tasks += [
                (f"{kind}-{i}", (n, kind, np.ascontiguousarray(p)))
                for i, p in enumerate(parts)
                if len(p)
            ]
    return Plan(n, fundamental, tasks, len(rows), _job(n, fundamental, len(tasks)))


def _job(n: int, fundamental: bool, tasks: int) -> dict[str, Any]:
    return {
        "command": "queens count",
        "n": n,
        "fundamental": fundamental,
        "method": "constellations",
        "tasks": tasks,
    }


def fundamental_total(n: int, results: dict[str, int]) -> tuple[int, dict[str, int]]:
    """The fundamental count from the tasks' results (Burnside), and its parts."""

    parts = {"total": 0, "fixed_by_180": 0, "fixed_by_90": 0}
    names = {"border": "total", "fixed180": "fixed_by_180", "fixed90": "fixed_by_90"}
    for key, value in results.items():
        parts[names[key.split("-", 1)[0]]] += value
    count = fundamental_from_fixed(n, parts["total"], parts["fixed_by_180"], parts["fixed_by_90"])
    return count, parts


@dataclass
class Estimate:
    """A count's expected one-core time, from a timed sample of its constellations."""

    seconds: float
    sampled: int
    at_n: int

    def wall(self, threads: int) -> float:
        return self.seconds / max(1, threads)


SAMPLE_SECONDS = 1.0
SAMPLE_MAX_N = 18
"""Above this N a sample of N's own constellations could take minutes; the sample is taken
at this N and scaled by the solution counts (and :data:`GROWTH_PER_N`)."""


def estimate(n: int, seconds: float = SAMPLE_SECONDS) -> Estimate:
    """Time random constellations of N (of :data:`SAMPLE_MAX_N` for bigger N) on this core
    for about ``seconds`` and extrapolate to the whole count."""
    import numpy as np

    from boardgames.queens import constellations

    m = min(n, SAMPLE_MAX_N)
    constellations.warm_up()  # compiling is not in the timing
    rows = constellations.constellation_tasks(m)
    order = np.random.default_rng(SEED + m).permutation(len(rows))
    done = size = 0
    spent = 0.0
    while spent < seconds and done < len(rows):
        size = min(max(1, 2 * size), len(rows) - done)
        part = rows[order[done : done + size]]
        t = time.perf_counter()
        constellations.count_constellations(m, part)
        spent += time.perf_counter() - t
        done += size
    at_m = spent * len(rows) / done
    scale = reference_seconds(n) / reference_seconds(m)
    return Estimate(at_m * scale, done, m)
