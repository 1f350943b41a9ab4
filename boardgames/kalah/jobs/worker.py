"""The worker's side of the job-level solve: one solver a process (its table serves
every job that comes), a job answered within its node budget, and jobs stopped or
abandoned from the front end."""

from __future__ import annotations

import os
import threading
from typing import Any

import numpy as np

from boardgames.core.cluster import current_job
from boardgames.kalah.exact import endgame as tables
from boardgames.kalah.exact.sizing import auto_stones
from boardgames.kalah.exact.solver import DB_HITS, NODES, SearchStopped, Solver

_LOCK = threading.Lock()
_SOLVERS: dict[tuple[Any, ...], Any] = {}


def _table(pits: int, rules: str, empty_capture: bool, total: int, endgame: str) -> Any:
    """The endgame table a worker picks (None: none): ``auto`` (the best cached table that
    fits this machine's memory), a number of stones, ``0`` (none); ``dir=PATH[:STONES]``
    tables from PATH (a shared disk); a ``+mmap`` suffix maps the table from its file
    instead of reading it into memory (shared by the workers of one machine through the
    page cache; solves about 10% slower, benchmarks/table_mmap.py). A table not cached is
    built and saved."""
    spec, mapped = endgame.removesuffix("+mmap"), endgame.endswith("+mmap")
    folder = None
    if spec.startswith("dir="):
        folder, _, spec = spec[4:].partition(":")
        spec = spec or "auto"
    if rules != "classic" or spec == "0":
        return None
    saved = os.environ.get("BOARDGAMES_CACHE")
    if folder is not None:  # the tables' folder for this load only
        os.environ["BOARDGAMES_CACHE"] = folder
    try:
        stones = auto_stones(pits, total, empty_capture) if spec == "auto" else int(spec)
        if stones <= 0:
            return None
        return tables.load_or_build(pits, stones, empty_capture=empty_capture, mmap=mapped)
    finally:
        if folder is not None:
            if saved is None:
                os.environ.pop("BOARDGAMES_CACHE", None)
            else:
                os.environ["BOARDGAMES_CACHE"] = saved


def _solver(
    pits: int, rules: str, empty_capture: bool, total: int, endgame: str, hash_mb: float
) -> Any:
    """This process's solver for the game (one a process: its transposition table serves
    every job that comes here), with the endgame table of :func:`_table`."""
    key = (pits, rules, empty_capture, total, endgame, hash_mb)
    solver = _SOLVERS.get(key)
    if solver is None or solver._stopped:
        table = _table(pits, rules, empty_capture, total, endgame)
        threads = _threads()
        solver = Solver(pits, rules, hash_mb, table, empty_capture=empty_capture, threads=threads)
        _SOLVERS.clear()
        _SOLVERS[key] = solver
    return solver


def prepare_job(
    pits: int, rules: str, empty_capture: bool, total: int, endgame: str, solver: bool = True
) -> None:
    """What a local cluster's workers will load, made once in the client while they start
    (:meth:`~boardgames.core.cluster.Runner.prepare`): the endgame table built into the
    machine's table folder (not kept here: the workers read it) and (``solver``) the
    solver's kernels compiled into its kernel cache."""
    if solver:
        Solver(1, rules, hash_mb=0.001, empty_capture=empty_capture).warm_up()
    _table(pits, rules, empty_capture, total, endgame)


def warm_job(
    pits: int, rules: str, empty_capture: bool, total: int, endgame: str, hash_mb: float,
    table: Any = None,
) -> int:  # fmt: skip
    """Load this process's solver (its endgame table and kernels) before the jobs come;
    ``table``: one already loaded here (in-process). Returns the table's stones (0: none)."""
    key = (pits, rules, empty_capture, total, endgame, hash_mb)
    with _LOCK:
        if table is not None:
            _SOLVERS.clear()
            _SOLVERS[key] = Solver(
                pits, rules, hash_mb, table, empty_capture=empty_capture, threads=_threads()
            )
        solver = _solver(pits, rules, empty_capture, total, endgame, hash_mb)
        solver.warm_up()
        return int(max(solver.db_k, 0))


def _threads() -> int:
    try:
        from distributed import get_worker

        return max(1, int(get_worker().state.nthreads))
    except (ImportError, ValueError, AttributeError):
        return int(os.environ.get("BOARDGAMES_JOB_THREADS", "0")) or os.cpu_count() or 1


def stop_jobs() -> None:
    """Stop the jobs running in this process (Ctrl-C of an in-process solve)."""
    for solver in list(_SOLVERS.values()):
        solver.stop()


_STOP_LOCK = threading.Lock()
_WAITING: dict[str, bool] = {}  # job -> abandoned while it waited for the solver
_RUNNING: list[Any] = [None, None]  # the job in the solver now, and the solver


def abandon_job(job: str) -> None:
    """The answer of ``job`` (a :func:`~boardgames.core.cluster.current_job` key) is no
    longer needed: if it runs in this process, its search ends now (its answer says
    "over"; the solver and what its table holds stay); one waiting for the solver ends as
    soon as it gets it; any other job is ignored."""
    with _STOP_LOCK:
        if job in _WAITING:
            _WAITING[job] = True
        elif _RUNNING[0] == job:
            _RUNNING[1].interrupt()


def running_job() -> str | None:
    """The job this process's solver runs now (its current_job key), if any."""
    return _RUNNING[0]


def solve_job(
    pits: int,
    rules: str,
    empty_capture: bool,
    holes: list[int],
    bound: int,
    node_limit: int,
    endgame: str,
    hash_mb: float,
) -> dict[str, Any]:
    """One job: is the final margin of the side to move in ``holes`` at least ``bound``?

    Returns ``{"kind": "lower" | "upper", "value": v, "nodes": n}`` (a fail-soft bound:
    lower: the margin is at least v; upper: at most v) or ``{"kind": "over", "nodes": n}``
    when ``node_limit`` positions a thread (0: none) did not settle it. Jobs of one
    process run one at a time: each uses all of the worker's threads."""
    state = np.array(holes, dtype=np.int64)
    total = int(state[: 2 * pits + 2].sum())
    job = current_job()
    if job is not None:
        with _STOP_LOCK:
            _WAITING[job] = False
    try:
        with _LOCK:
            solver = _solver(pits, rules, empty_capture, total, endgame, hash_mb)
            sd = solver.store_difference(state)
            solver._reset(node_limit)
            if job is not None:
                with _STOP_LOCK:
                    _RUNNING[:] = [job, solver]
                    if _WAITING.pop(job):
                        solver.interrupt()
            beta = bound - sd
            try:
                g = solver._g(state, beta - 1, beta)
            except SearchStopped:
                if solver._stopped:
                    raise KeyboardInterrupt from None
                # the move its table holds for the position: the front end asks it first
                return {"kind": "over", "nodes": solver.count(NODES),
                        "first": solver.table_move(state)}  # fmt: skip
            return {
                "kind": "lower" if g >= beta else "upper",
                "value": g + sd,
                "nodes": solver.count(NODES),
                "db_hits": solver.count(DB_HITS),
            }
    finally:
        if job is not None:
            with _STOP_LOCK:
                _WAITING.pop(job, None)
                if _RUNNING[0] == job:
                    _RUNNING[:] = [None, None]
