"""Job-level Kalah solve against plain ``kalah solve``: the front end's overhead, and its
scaling to many workers by simulation.

    python benchmarks/jobsolve_bench.py overhead [--board 6x4] [--runs 3] [--job-nodes N]
    python benchmarks/jobsolve_bench.py simulate [--board 6x4] [--workers 1,8,64,512]
                                                 [--job-nodes N] [--cancel stop|finish]
    python benchmarks/jobsolve_bench.py stop [--runs 3]

``overhead``: the start position solved by the plain solver (``Solver.solve``, every core,
one shared transposition table) and by the job-level search in this process (jobs one at
a time, each on every core, one solver kept between jobs), alternately, the same endgame
tables (``auto``) and transposition-table size; medians and their ratio, values checked.

``stop``: how soon a cancelled job that runs on a Dask worker leaves it (see
:func:`stop_latency`).

``simulate``: the job-level search run against a simulated cluster of N single-thread
workers. Every job the front end asks is really run here (one thread, its worker's
transposition table cleared first: a worker of a real cluster holds other jobs' work),
its CPU time (``time.thread_time``: what it costs, whatever else this shared machine
runs) advances that worker's clock, and the front end sees the answers in
the order the simulated workers would give them; a cancelled job that runs frees its
worker at once (``worker.abandon_job`` stops it; ``--cancel finish``: it keeps its
worker to its end, as before that existed). Reported per N: the simulated wall time,
the work (sum of job times), the work wasted (jobs cancelled or answered after their
question was decided), the efficiency against one simulated worker ``T1 / (N * TN)``,
and the front end's own time per job (not on the simulated clock: it must stay well
under a job's time for the projection to hold). Jobs still running when the value is known
are stopped then (their time so far is work wasted). Writes
benchmarks/results/jobsolve_*.json (``_finish`` added with ``--cancel finish``).
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import platform
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from boardgames.core.cluster import Finished, JobPool, LocalJobPool
from boardgames.kalah.exact import endgame
from boardgames.kalah.exact.sizing import auto_stones, default_hash_mb
from boardgames.kalah.exact.solver import Solver
from boardgames.kalah.game import Kalah
from boardgames.kalah.jobs import worker
from boardgames.kalah.jobs.search import DEFAULT_JOB_NODES, JobSearch
from boardgames.kalah.play.guess import FirstGuess

RESULTS = Path(__file__).resolve().parent / "results"


def board(text: str) -> tuple[int, int]:
    pits, _, seeds = text.partition("x")
    return int(pits), int(seeds)


def machine() -> dict[str, Any]:
    from queens_bench import cpu_model  # this folder is on the path when run

    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "load": os.getloadavg()[0],
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
    }


def start_position(spec: str) -> tuple[int, np.ndarray, int, int, Any]:
    """The board's pits, start position, stones, the endgame table's stones (as ``kalah
    solve`` picks them) and that table (built if not cached)."""
    pits, seeds = board(spec)
    game = Kalah(pits, seeds)
    total = game.total_stones
    stones = auto_stones(pits, total)
    table = endgame.load_or_build(pits, stones) if stones else None
    return pits, game.initial_state(), total, stones, table


def overhead(args: argparse.Namespace) -> dict[str, Any]:
    pits, state, total, stones, table = start_position(args.board)
    hash_mb = default_hash_mb(total)
    threads = os.cpu_count() or 1
    worker.warm_job(pits, "classic", False, total, str(stones), hash_mb, table)
    plain_times, job_times, rows = [], [], []
    for run in range(args.runs):
        solver = Solver(pits, hash_mb=hash_mb, endgame=table, threads=threads)
        solver.warm_up()
        guess = FirstGuess(Kalah(pits, 1))  # the first guess of `kalah solve`
        guess.warm_up()
        t = time.perf_counter()
        r = solver.solve(state.copy(), guess=guess)
        plain = time.perf_counter() - t
        # a fresh solver for the jobs too (its table cleared), as a new run would have
        worker.warm_job(pits, "classic", False, total, str(stones), hash_mb, table)
        pool = LocalJobPool(worker.solve_job, worker.stop_jobs)
        search = JobSearch(
            pits, "classic", False, state.copy(), pool, job_nodes=args.job_nodes,
            endgame=str(stones), hash_mb=hash_mb, table_stones=stones,
        )  # fmt: skip
        t = time.perf_counter()
        value = search.value()
        best = search.best_line(value)
        jobs = time.perf_counter() - t
        search.close()
        if value != r.value:
            raise SystemExit(f"values differ: plain {r.value}, jobs {value}")
        plain_times.append(plain)
        job_times.append(jobs)
        rows.append({
            "run": run, "plain_s": round(plain, 2), "jobs_s": round(jobs, 2),
            "plain_nodes": r.nodes, "job_nodes_total": search.stats.nodes,
            "jobs": search.stats.jobs, "split": search.stats.over_budget,
            "value": value, "best_plain": r.best, "best_jobs": best,
        })  # fmt: skip
        print(json.dumps(rows[-1]), flush=True)
    plain_m, jobs_m = statistics.median(plain_times), statistics.median(job_times)
    return {
        "board": args.board, "endgame_stones": stones, "hash_mb": hash_mb, "threads": threads,
        "job_nodes": args.job_nodes, "runs": rows, "plain_median_s": round(plain_m, 2),
        "jobs_median_s": round(jobs_m, 2), "ratio": round(jobs_m / plain_m, 2),
    }  # fmt: skip


class SimulatedPool(JobPool):
    """``workers`` simulated single-thread workers (see the module's doc)."""

    def __init__(self, workers: int, stop: bool = True) -> None:
        self.workers = workers
        self.stop = stop
        self.now = 0.0
        self.busy: list[tuple[float, int, str]] = []  # (free at, seq, job name)
        self.ends: dict[str, float] = {}  # when each job frees its worker (a stop moves it)
        self.starts: dict[str, float] = {}
        self.answers: dict[str, tuple[Any, float]] = {}
        self.cancelled: set[str] = set()
        self.work = 0.0  # the workers' time: jobs to their end or to their stop
        self.wasted = 0.0
        self.cpu = 0.0  # what running every job to its end took here
        self.seq = 0

    def submit(self, key: str, *args: Any) -> None:
        solver = _sim_solver(args)
        solver.tt[:] = 0  # a worker of a real cluster holds other jobs' work
        t = time.thread_time()  # CPU time: the job's cost, whatever else the machine runs
        answer = worker.solve_job(*args)
        seconds = time.thread_time() - t
        self.cpu += seconds
        self.answers[key] = (answer, seconds)
        self.starts[key] = self.now
        self._free_at(key, self.now + seconds)

    def _free_at(self, key: str, t: float) -> None:
        self.ends[key] = t
        self.seq += 1
        heapq.heappush(self.busy, (t, self.seq, key))

    def cancel(self, key: str) -> None:
        if key in self.answers:
            self.cancelled.add(key)
            if self.stop and self.ends[key] > self.now:
                self._free_at(key, self.now)

    def capacity(self) -> int:
        return self.workers

    def close(self) -> None:
        """The value is known: the jobs still running are stopped now (work wasted)."""
        for key in list(self.ends):
            ran = self.now - self.starts.pop(key)
            self.work += ran
            self.wasted += ran
        self.ends.clear()
        self.answers.clear()

    def pending(self) -> int:
        return len(self.ends)

    def wait(self, timeout: float) -> list[Finished]:
        out: list[Finished] = []
        while self.busy and self.busy[0][0] != self.ends.get(self.busy[0][2]):
            heapq.heappop(self.busy)  # a time a stop replaced
        if not self.busy:
            return out
        self.now = self.busy[0][0]
        while self.busy and self.busy[0][0] <= self.now:
            t, _, key = heapq.heappop(self.busy)
            if t != self.ends.get(key):
                continue
            del self.ends[key]
            answer, seconds = self.answers.pop(key)
            ran = t - self.starts.pop(key)
            self.work += ran
            if key in self.cancelled:
                self.cancelled.discard(key)
                self.wasted += ran
                continue
            out.append((key, answer, seconds))
        return out


def _sim_solver(args: tuple[Any, ...]) -> Any:
    pits, rules, ec, holes, _, _, endgame_spec, hash_mb = args
    total = sum(holes[: 2 * pits + 2])
    return worker._solver(pits, rules, ec, total, endgame_spec, hash_mb)


def simulate(args: argparse.Namespace) -> dict[str, Any]:
    pits, state, total, stones, table = start_position(args.board)
    hash_mb = args.hash
    os.environ["BOARDGAMES_JOB_THREADS"] = "1"
    worker.warm_job(pits, "classic", False, total, str(stones), hash_mb, table)
    rows = []
    for n in [int(x) for x in args.workers.split(",")]:
        pool = SimulatedPool(n, stop=args.cancel == "stop")
        search = JobSearch(
            pits, "classic", False, state.copy(), pool, job_nodes=args.job_nodes,
            endgame=str(stones), hash_mb=hash_mb, table_stones=stones,
        )  # fmt: skip
        t = time.thread_time()  # this thread runs the front end and (simulated) the jobs
        value = search.value()
        pool.close()
        front = time.thread_time() - t - pool.cpu
        log = search.stats.log
        useless = sum(r.seconds for r in log if r.kind in ("lower", "upper") and not r.useful)
        split = sum(r.seconds for r in log if r.kind == "over")
        row = {
            "workers": n, "value": value, "simulated_s": round(pool.now, 2),
            "work_s": round(pool.work, 2), "jobs": search.stats.jobs,
            "split": search.stats.over_budget, "cancelled": search.stats.cancelled,
            "wasted_s": round(pool.wasted + useless, 2),
            "wasted_share": round((pool.wasted + useless) / max(pool.work, 1e-9), 3),
            "split_s": round(split, 2),
            "front_end_ms_per_job": round(1000 * front / max(1, search.stats.jobs), 2),
        }  # fmt: skip
        rows.append(row)
        print(json.dumps(row), flush=True)
    t1 = next((r["simulated_s"] for r in rows if r["workers"] == 1), None)
    for r in rows:
        if t1 and r["simulated_s"] > 0:
            r["speedup"] = round(t1 / r["simulated_s"], 1)
            r["efficiency"] = round(t1 / (r["workers"] * r["simulated_s"]), 3)
    return {"board": args.board, "endgame_stones": stones, "hash_mb": hash_mb,
            "job_nodes": args.job_nodes, "rows": rows}  # fmt: skip


def stop_latency(args: argparse.Namespace) -> dict[str, Any]:
    """Seconds from cancelling a running job to its worker's solver being free, on a local
    Dask cluster of one worker: jobs of 6 x 6 from the start without a node limit (hours
    each), each cancelled half a second after it started searching."""
    from boardgames.core.cluster import Runner, parse_cluster

    start = [int(x) for x in Kalah(6, 6, "classic").initial_state()]
    job = (6, "classic", False, start, 4, 0, "0", 16.0)
    seconds = []
    with Runner(parse_cluster("local:1")) as runner:
        pool = runner.pool(worker.solve_job, interrupt=worker.stop_jobs,
                           abandon=worker.abandon_job)  # fmt: skip

        def running() -> Any:
            return next(iter(runner.client.run(worker.running_job).values()))

        for i in range(args.runs):
            pool.submit(f"j{i}", *job)
            while running() is None:
                time.sleep(0.01)
            time.sleep(0.5)
            t = time.perf_counter()
            pool.cancel(f"j{i}")
            pool.wait(0)  # tells the workers
            while running() is not None:
                time.sleep(0.001)
            seconds.append(time.perf_counter() - t)
            print(json.dumps({"run": i, "seconds": round(seconds[-1], 4)}), flush=True)
        pool.close()
    return {"board": "6x6", "runs": [round(x, 4) for x in seconds],
            "median_s": round(statistics.median(seconds), 4)}  # fmt: skip


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("what", choices=["overhead", "simulate", "stop"])
    p.add_argument("--board", default="6x4")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--workers", default="1,8,64,512")
    p.add_argument("--job-nodes", type=int, default=DEFAULT_JOB_NODES)
    p.add_argument("--hash", type=float, default=16.0, help="MiB a simulated worker")
    p.add_argument(
        "--cancel",
        choices=["stop", "finish"],
        default="stop",
        help="a cancelled job that runs: stops at once, or runs to its end",
    )
    args = p.parse_args()
    result = {"overhead": overhead, "simulate": simulate, "stop": stop_latency}[args.what](args)
    result["machine"] = machine()
    RESULTS.mkdir(exist_ok=True)
    finish = "_finish" if args.what == "simulate" and args.cancel == "finish" else ""
    board = "6x6" if args.what == "stop" else args.board
    out = RESULTS / f"jobsolve_{args.what}_{board}{finish}.json"
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k not in ("runs", "rows")}))


if __name__ == "__main__":
    main()
