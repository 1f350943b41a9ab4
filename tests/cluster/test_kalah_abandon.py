"""A cancelled Kalah job stops where it runs (``worker.abandon_job``): in this process, on
a real Dask worker, and while it waits for the solver; the solver and its table stay.
Each job that must be stopped here would otherwise run for hours (6 x 6, no limit)."""

from __future__ import annotations

import threading
import time
from typing import Any

from boardgames.core.cluster import LocalJobPool, Runner, parse_cluster
from boardgames.core.cluster.tasks import _task_call
from boardgames.kalah.exact.solver import NODES
from boardgames.kalah.game import Kalah
from boardgames.kalah.jobs import worker

START = [int(x) for x in Kalah(6, 6, "classic").initial_state()]
FOREVER = (6, "classic", False, START, 4, 0, "0", 16.0)
"""6 x 6 from the start, no node limit, no endgame table: hours of search."""
QUICK = (6, "classic", False, [0, 0, 0, 0, 0, 1, 35, 1, 0, 0, 0, 0, 0, 35, 0], 1, 0, "0", 16.0)
"""The same 72 stones (the same solver), two of them left in the pits: answered at once."""


def until(condition: Any, what: str, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"waited {seconds:.0f} s for {what}"
        time.sleep(0.02)


def answers(pool: Any, want: int, seconds: float = 60.0) -> dict[str, Any]:
    got: dict[str, Any] = {}
    deadline = time.monotonic() + seconds
    while len(got) < want:
        assert time.monotonic() < deadline, f"only {sorted(got)} answered in {seconds:.0f} s"
        got.update((key, answer) for key, answer, _ in pool.wait(0.1))
    return got


def test_a_cancelled_job_in_this_process_stops_and_the_solver_stays() -> None:
    pool = LocalJobPool(worker.solve_job, worker.stop_jobs, worker.abandon_job)
    try:
        pool.submit("j0", *FOREVER)
        until(lambda: worker.running_job() == "j0", "j0 to run")
        solver = next(iter(worker._SOLVERS.values()))
        until(lambda: solver.count(NODES) > 0, "j0 to search")
        pool.cancel("j0")
        got = answers(pool, 1)  # the in-process pool hands back what a cancelled job said
        assert got["j0"]["kind"] == "over" and got["j0"]["nodes"] > 0
        pool.submit("j1", *QUICK)
        quick = answers(pool, 1)["j1"]
    finally:
        pool.close()
    assert quick["kind"] in ("lower", "upper")
    assert next(iter(worker._SOLVERS.values())) is solver and not solver._stopped
    assert worker.running_job() is None and not worker._WAITING


def test_a_job_abandoned_while_it_waits_never_searches() -> None:
    """Two jobs in one process: the second waits for the solver; abandoned there, it ends
    as soon as it gets the solver, without a search. Jobs it does not know are ignored."""
    out: dict[str, Any] = {}

    def run(job: str, args: tuple[Any, ...]) -> None:
        out[job] = _task_call(worker.solve_job, args, None, job)[0]

    first = threading.Thread(target=run, args=("a", FOREVER))
    first.start()
    until(lambda: worker.running_job() == "a", "a to run")
    second = threading.Thread(target=run, args=("b", QUICK))
    second.start()
    until(lambda: "b" in worker._WAITING, "b to wait")
    worker.abandon_job("nobody")
    worker.abandon_job("b")
    assert worker.running_job() == "a" and worker._WAITING == {"b": True}
    worker.abandon_job("a")
    first.join(60)
    second.join(60)
    assert not first.is_alive() and not second.is_alive()
    assert out["a"]["kind"] == "over" and out["a"]["nodes"] > 0
    assert out["b"] == {"kind": "over", "nodes": 0, "first": out["b"]["first"]}
    assert worker.running_job() is None and not worker._WAITING


def test_a_cancelled_job_on_a_dask_worker_stops(private_cluster) -> None:
    """One worker, one job that would run for hours: cancelled, it leaves the worker within
    seconds, and the worker answers the next job; a job that runs when the pool closes
    stops too."""
    # one worker, the job's; and a job left running after a failure here would keep a
    # worker of the session's cluster busy for hours
    cluster = private_cluster(1)
    with Runner(parse_cluster(cluster.address)) as runner:
        pool = runner.pool(worker.solve_job, interrupt=worker.stop_jobs,
                           abandon=worker.abandon_job)  # fmt: skip

        def running() -> list[str | None]:
            return list(runner.client.run(worker.running_job).values())

        pool.submit("j0", *FOREVER)
        until(lambda: running()[0] is not None, "j0 to run on the worker", 120)
        assert running()[0].endswith("-j0")
        pool.cancel("j0")
        assert pool.wait(0.1) == []  # tells the worker; a cancelled job's answer is dropped
        until(lambda: running() == [None], "j0 to stop", 30)
        pool.submit("j1", *QUICK)
        quick = answers(pool, 1)["j1"]
        pool.submit("j2", *FOREVER)  # closing the pool (Ctrl-C, or the solve is over)
        until(lambda: running()[0] is not None, "j2 to run on the worker")
        pool.close()
        until(lambda: running() == [None], "j2 to stop", 30)
    assert quick["kind"] in ("lower", "upper")
