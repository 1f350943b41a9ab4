"""The queens tab's API: the backtracking step by step, the solutions, and counts; and
:data:`WEB`, the web extras the plugin names (routes under ``/api/queens/``, the tab).

The steps are those of :func:`boardgames.queens.solve.solutions` itself: it runs under a
trace function that reads its three tables (busy columns, ``row + col`` and ``row - col``
diagonals) and its placement after every line and notes each change -- a queen placed,
a queen taken back, a solution found. Nothing of the algorithm is written again here.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

from starlette.routing import BaseRoute, Route

from boardgames.core.progress import Stopped
from boardgames.queens import solve
from boardgames.queens.solve import class_size, fundamental_solutions, solutions, transforms
from boardgames.web.extras import Site, WebExtras
from boardgames.web.inputs import BadInput, flag, whole
from boardgames.web.jobs import Cancelled, Job

MAX_STEP_N = 16
"""Largest board the page steps through (and draws)."""
MAX_LIST_N = 12
"""Largest board whose solutions the page lists (N = 12: 14,200 of them, about a second)."""
MAX_SHOWN = 500
"""Solutions a list sends at most (the count is always complete)."""
MAX_STEPS = 4000
"""Steps one request returns at most."""
MAX_WORK = 40_000
"""Steps one request may go through, those it skips to reach its start and those it
returns (``start + count``): the server keeps no search between requests, so each runs
the backtracking from the start, at some 40 microseconds a traced step (N = 16: 40,000
steps are about 1.5 s). The page asks 500 at a time, in order: it steps through the first
40,000 steps of a search (all of N = 9's 16,434; N = 10 has 70,352)."""
MAX_SKIP = MAX_WORK - 1
"""The latest step a request may start at."""
MAX_COUNT_N = 20
"""Largest N the page counts (the command line goes to 27, with a cluster beyond 20)."""
SYMMETRIES = ("identity", "rotation 90", "rotation 180", "rotation 270", "mirror left-right",
              "mirror top-bottom", "main diagonal", "anti-diagonal")  # fmt: skip
"""The names of :func:`~boardgames.queens.solve.transforms`' images, in its order."""


def _bits(flags: list[bool]) -> str:
    return "".join("1" if f else "0" for f in flags)


class _Enough(Exception):
    """Raised inside the traced solver once the steps asked for are all seen."""


def steps(n: int, most: int | None = None) -> Iterator[dict[str, Any]]:
    """Every step of the classic solver for N, in order: ``place``/``remove`` a queen
    (row, col 0-based) or a ``solution``, each with the queens then on the board and the
    three tables as 0/1 strings (columns, ``row + col``, ``row - col + n - 1``).
    ``most``: the first that many steps only (the solver is stopped there, not run on
    to its next solution)."""
    code = solutions.__code__
    seen: dict[str, Any] = {"cols": "0" * n, "sums": "0" * (2 * n - 1), "diffs": "0" * (2 * n - 1)}
    events: list[dict[str, Any]] = []
    given = 0

    def local(frame: FrameType, event: str, arg: object) -> Any:
        if most is not None and given + len(events) >= most:
            raise _Enough
        if event == "line":
            f = frame.f_locals
            busy = f.get("col_busy")
            if busy is not None:
                cols = _bits(busy)
                if cols != seen["cols"]:
                    pos, row = f["pos"], f["row"]
                    placed = cols.count("1")
                    added = placed > seen["cols"].count("1")
                    # seen on the line after the change: ``row`` is still the queen's row
                    c = pos[row]
                    events.append(
                        {
                            "op": "place" if added else "remove",
                            "row": row,
                            "col": c,
                            "queens": [pos[k] for k in range(placed)],
                            "cols": cols,
                            "sums": _bits(f["sum_busy"]),
                            "diffs": _bits(f["diff_busy"]),
                        }
                    )
                    seen.update(cols=cols, sums=events[-1]["sums"], diffs=events[-1]["diffs"])
        return local

    def calls(frame: FrameType, event: str, arg: object) -> Any:
        return local if frame.f_code is code else None

    gen = solutions(n)
    previous = sys.gettrace()
    while True:
        enough = False
        sys.settrace(calls)
        try:
            sol = next(gen)
        except StopIteration:
            sol = None
        except _Enough:
            sol, enough = None, True
        finally:
            sys.settrace(previous)
        given += len(events)
        yield from events
        events.clear()
        if sol is None or enough:
            return
        given += 1
        yield {
            "op": "solution",
            "row": n - 1,
            "col": sol[-1] - 1,
            "queens": [c - 1 for c in sol],
            # the last queen is not entered in the tables: the solver yields at once
            "cols": seen["cols"],
            "sums": seen["sums"],
            "diffs": seen["diffs"],
        }


def step_range(data: dict[str, Any]) -> dict[str, Any]:
    """Steps ``start`` .. ``start + count - 1`` of the backtracking for ``n``."""
    n = whole(data, "n", 1, MAX_STEP_N)
    start = whole(data, "start", 0, MAX_SKIP, 0)
    count = whole(data, "count", 1, MAX_STEPS, 500)
    if start + count > MAX_WORK:
        raise BadInput(
            f"the page steps through the first {MAX_WORK:,} steps of a search: start + "
            f"count must be at most {MAX_WORK:,} (`boardgames queens solve` goes on)"
        )
    out = []
    finished = True
    # one step more than asked: whether the search goes on after them
    for k, step in enumerate(steps(n, most=start + count + 1)):
        if k >= start + count:
            finished = False
            break
        if k >= start:
            out.append(step)
    return {"n": n, "start": start, "steps": out, "finished": finished}


def _symmetries(sol: tuple[int, ...]) -> list[str]:
    """The symmetries of the square that leave ``sol`` as it is."""
    return [name for name, image in zip(SYMMETRIES, transforms(sol), strict=True) if image == sol]


def solution_list(data: dict[str, Any]) -> dict[str, Any]:
    """All solutions (at most :data:`MAX_SHOWN` sent) or the fundamental ones with their
    class sizes and symmetries, for N up to :data:`MAX_LIST_N`."""
    n = whole(data, "n", 1, MAX_LIST_N)
    fundamental = flag(data, "fundamental")
    out: list[dict[str, Any]] = []
    total = 0
    if fundamental:
        for sol, size in fundamental_solutions(n):
            total += 1
            if len(out) < MAX_SHOWN:
                out.append({"queens": list(sol), "class": size, "fixed_by": _symmetries(sol)})
    else:
        for sol in solutions(n):
            total += 1
            if len(out) < MAX_SHOWN:
                out.append({"queens": list(sol), "class": class_size(sol)})
    return {"n": n, "fundamental": fundamental, "count": total, "solutions": out}


class _StopCount(Exception):
    pass


_WARM_STEPS = {
    "symmetry-parallel": "boardgames.queens.warm:counting",
    "constellations-parallel": "boardgames.queens.warm:constellations_parallel",
}
"""The warm step (``cache warm queens``) that compiles each method the page counts with."""
_LOADED: set[str] = set()
"""Methods this server has counted with: their kernels are loaded."""


def _compile_first(method: str, n: int, job: Job) -> None:
    """Compile ``method``'s kernels in a process of their own when this machine has not yet
    (the first count on a fresh machine): numba's compiler cannot be stopped, the wait for
    a process can, so Cancel ends the job within a second even then (the process ends too).
    """
    from boardgames.core import warmup

    step = _WARM_STEPS.get(method)
    if step is None or method in _LOADED or warmup.step_ready("queens", step):
        return
    job.report(stage="compiling the counting kernels (once: then they are cached)", n=n)
    child = warmup.compile_aside(step, force=True)
    if child is None:  # it could not start: compiled in this process, as before
        return
    try:
        while child.poll() is None:
            if job.cancelled:
                raise Cancelled
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.wait(0.1)
    finally:
        if child.poll() is None:
            child.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.wait(5)
    if child.returncode == 0:
        with contextlib.suppress(OSError):
            warmup.mark_ready(warmup.step_marker("queens", step))


def count(n: int, job: Job) -> dict[str, Any]:
    """All and fundamental solutions for N by the CLI's counting code, with progress;
    the job's cancel ends it after the running batch (a fraction of a second: the count
    asks its ``stop`` before every kernel call, the rotation counts' too)."""
    from boardgames.queens import counting

    method = "bitmask" if n <= 9 else "constellations-parallel" if n >= 14 else "symmetry-parallel"

    def progress(done: int, expected: int) -> None:
        if job.cancelled:
            raise _StopCount
        job.progress = {"stage": "counting", "n": n, "done": done, "expected": expected}
        job.version += 1

    _compile_first(method, n, job)
    job.report(stage="loading the counting kernels", n=n)
    try:
        result = counting.run_count(n, method, True, None, progress, stop=lambda: job.cancelled)
    except (_StopCount, Stopped):
        job.check()
        raise
    _LOADED.add(method)
    total = result.extra.get("total", result.count)
    return {
        "n": n,
        "count": total,
        "fundamental": result.count,
        "method": method,
        "seconds": round(result.seconds, 3),
        "known": solve.expected_total(n),
    }


def count_n(data: dict[str, Any]) -> int:
    return whole(data, "n", 1, MAX_COUNT_N)


def count_job(data: dict[str, Any]) -> Callable[[Job], Any]:
    """A count of N (checked now) as a job."""
    n = count_n(data)
    return lambda job: count(n, job)


def routes(site: Site) -> list[BaseRoute]:
    """The routes, relative to ``/api/queens``."""
    return [
        Route("/steps", site.api(step_range), methods=["POST"]),
        Route("/solutions", site.api(solution_list), methods=["POST"]),
        Route("/count", site.start("count", count_job), methods=["POST"]),
    ]


WEB = WebExtras(
    routes=routes,
    static=Path(__file__).parent / "static",
    scripts=("queens.js",),
    styles=("queens.css",),
    html="queens.html",
    tabs=(("queens", "Queens"),),
)
"""What the N-queens plugin names (``web``)."""
