"""The cost of running N-queens counts as Dask tasks, measured here and projected to big clusters.

Run from the repository root (the project installed):

    python benchmarks/cluster_bench.py                  # N = 16, 17; tasks of 17 and 18
    python benchmarks/cluster_bench.py --quick          # N = 14, 15; tasks of 15 and 16

What it measures, in one run, rounds alternated so that load from other processes hits every
way alike (medians over --repeats rounds):

* the count itself, three ways: ``in-process`` (the ``constellations-parallel`` kernel on
  every core, as ``boardgames queens count`` runs it), ``local:2`` (a Dask LocalCluster of
  two one-thread worker processes, as ``--cluster local:2``) and ``scheduler`` (a real
  ``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1, as ``--cluster
  tcp://...``); kernels loaded everywhere first, cluster start-up timed apart;
* start-up: from nothing to the first task's result on ``local:2``;
* the per-task cost of the layer: a burst of empty tasks;
* every task's time of the counts at the two task-record sizes (the default task sizes of
  ``queens count --cluster``), replayed on 8, 64 and 512 simulated workers: greedy list
  scheduling in submission order, each task costing its measured time plus the measured
  per-task cost on its worker, and the scheduler handing out at most one task per
  per-task cost. N = 20..23 are projected by scaling the larger record's task times by
  the model's growth per N (:func:`boardgames.queens.tasks.reference_seconds`) and the
  task counts the command would use. Also: the smallest task size that keeps 512 workers
  at least 90% busy at N = 21.

Writes benchmarks/results/cluster_bench.json and prints the tables.
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
RESULTS = ROOT / "benchmarks" / "results" / "cluster_bench.json"

from queens_bench import cpu_model  # noqa: E402  (this folder is on the path when run)


def start_scheduler(where: Path) -> tuple[str, list[subprocess.Popen[bytes]]]:
    """A real scheduler and two one-thread workers on 127.0.0.1 (stopped by their pids)."""
    from tests.cluster.conftest import start_cluster

    cluster = start_cluster(where, workers=2)
    return cluster.address, [cluster.scheduler, *cluster.workers]


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        if p.poll() is None:
            p.terminate()
    for p in procs:
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()


def count_in_process(n: int) -> tuple[int, float]:
    from boardgames.queens.counting import run_count

    r = run_count(n, "constellations-parallel")
    return r.count, r.seconds


def count_on(runner: Any, n: int, chunks: int | None = None) -> tuple[int, float, dict[str, float]]:
    from boardgames.core.progress import Progress
    from boardgames.queens import tasks as qt

    plan = qt.plan(n, False, chunks)
    report = runner.run(
        qt.count_task, plan.tasks, label=f"N = {n}", progress=Progress("", enabled=False)
    )
    order = [k for k, _ in plan.tasks]
    seconds = {k: report.task_seconds[k] for k in order}
    return sum(report.results.values()), report.seconds, seconds


def empty_task_cost(runner: Any, tasks: int = 2000) -> tuple[float, float]:
    """A burst of tasks that do nothing, on all workers: the layer's cost per task on a
    worker (wall time x threads / tasks) and the scheduler's serial cost per task (at most
    wall / tasks: the burst went no faster than the scheduler handed tasks out)."""
    from boardgames.core.progress import Progress

    t = time.perf_counter()
    runner.run(abs, [(f"e{i}", (i,)) for i in range(tasks)], label="empty",
               progress=Progress("", enabled=False))  # fmt: skip
    wall = time.perf_counter() - t
    return wall * runner.threads() / tasks, wall / tasks


def simulate(
    durations: list[float], workers: int, task_cost: float, scheduler_cost: float
) -> tuple[float, float]:
    """Greedy list scheduling: each task in order goes to the worker free first and costs it
    its time plus ``task_cost``; the scheduler hands out at most one task per
    ``scheduler_cost``. Returns (wall seconds, share of the workers' time spent in tasks)."""
    free = [0.0] * workers
    dispatch = end = 0.0
    for d in durations:
        start = heapq.heappop(free)
        dispatch = max(dispatch + scheduler_cost, start)
        finish = dispatch + task_cost + d
        heapq.heappush(free, finish)
        end = max(end, finish)
    return end, sum(durations) / (workers * end) if end else 0.0


def project(record: list[float], n_record: int, n: int, chunks: int | None = None) -> list[float]:
    """Task times of a count of N: the record's distribution of task times (relative to their
    mean) repeated over the command's task count at N, scaled to N's modelled work."""
    from boardgames.queens import tasks as qt

    work = sum(record) * qt.reference_seconds(n) / qt.reference_seconds(n_record)
    count = chunks or qt.task_count(n, 10**12)
    mean = statistics.fmean(record)
    shape = [d / mean for d in record]
    per = work / count
    return [per * shape[i % len(shape)] for i in range(count)]


def main() -> None:
    # SIGTERM unwinds like Ctrl-C, so that the scheduler and workers started here are stopped
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="N = 14, 15 (a minute)")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    sizes = (14, 15) if args.quick else (16, 17)
    record_sizes = (15, 16) if args.quick else (17, 18)

    from boardgames.core.cluster import Runner, parse_cluster
    from boardgames.queens import tasks as qt
    from boardgames.queens.counting import load_kernels

    load_kernels("constellations-parallel")
    result: dict[str, Any] = {
        "machine": cpu_model(), "cores": os.cpu_count(), "python": platform.python_version(),
        "date": time.strftime("%Y-%m-%d %H:%M"), "load_average_start": os.getloadavg(),
        "repeats": args.repeats, "command": " ".join(sys.argv),
    }  # fmt: skip

    # start-up: nothing to the first result
    t = time.perf_counter()
    with Runner(parse_cluster("local:2")) as r:
        started = time.perf_counter() - t
        r.run(abs, [("first", (1,))], label="first")
        first = time.perf_counter() - t
    result["startup"] = {"local2_start_seconds": started, "local2_first_result_seconds": first}
    print(f"local:2 start-up {started:.2f} s, first result after {first:.2f} s")

    tmp = Path(tempfile.mkdtemp(prefix="cluster_bench_"))
    address, procs = start_scheduler(tmp)
    local = Runner(parse_cluster("local:2"))
    remote = Runner(parse_cluster(address))
    try:
        local.start()
        remote.start()
        warm = {"local:2": local.warm(qt.warm, 8), "scheduler": remote.warm(qt.warm, 8)}
        result["warm_seconds"] = {k: max(v.values()) for k, v in warm.items()}
        cost = {"local:2": empty_task_cost(local), "scheduler": empty_task_cost(remote)}
        result["per_task_seconds"] = {k: v[0] for k, v in cost.items()}
        result["scheduler_seconds_per_task"] = {k: v[1] for k, v in cost.items()}
        print("per-task cost on a worker: "
              + ", ".join(f"{k} {v[0] * 1000:.2f} ms" for k, v in cost.items()))  # fmt: skip

        rows: dict[int, dict[str, list[float]]] = {n: {} for n in sizes}
        for _ in range(args.repeats):
            for n in sizes:
                for name, how in (("in-process", None), ("local:2", local), ("scheduler", remote)):
                    if how is None:
                        count, seconds = count_in_process(n)
                    else:
                        count, seconds, _ = count_on(how, n)
                    assert count == qt.expected_total(n), (n, name, count)
                    rows[n].setdefault(name, []).append(seconds)
        table = {}
        print(f"\n{'N':>3} {'way':<12} {'median s':>9} {'vs in-process':>14}")
        for n in sizes:
            base = statistics.median(rows[n]["in-process"])
            table[n] = {}
            for name, times in rows[n].items():
                med = statistics.median(times)
                table[n][name] = {"median_seconds": med, "times": times, "ratio": med / base}
                print(f"{n:>3} {name:<12} {med:>9.3f} {med / base:>13.2f}x")
        result["overhead"] = table

        records = {}
        for n in record_sizes:
            count, seconds, per_task = count_on(remote, n)
            assert count == qt.expected_total(n)
            records[n] = list(per_task.values())
            print(f"task record N = {n}: {len(per_task)} tasks, {seconds:.1f} s on 2 workers, "
                  f"task median {statistics.median(records[n]):.3f} s, "
                  f"max {max(records[n]):.3f} s")  # fmt: skip
        result["task_records"] = {n: records[n] for n in record_sizes}
    finally:
        local.close()
        remote.close()
        stop(procs)

    overhead = result["per_task_seconds"]["scheduler"]
    serial = result["scheduler_seconds_per_task"]["scheduler"]
    big = record_sizes[-1]
    sim: dict[str, Any] = {}
    print(f"\nprojection (per task: {overhead * 1000:.2f} ms on a worker, {serial * 1000:.2f} ms "
          f"of the scheduler; tasks shaped like N = {big}'s)")  # fmt: skip
    print(f"{'N':>3} {'tasks':>8} {'1 core':>12} " + " ".join(f"{w:>18}" for w in (8, 64, 512)))
    for n in [*record_sizes, 20, 21, 22, 23]:
        durations = records[n] if n in records else project(records[big], big, n)
        line = f"{n:>3} {len(durations):>8} {sum(durations):>11.0f}s "
        sim[n] = {"tasks": len(durations), "one_core_seconds": sum(durations)}
        for w in (8, 64, 512):
            wall, busy = simulate(durations, w, overhead, serial)
            sim[n][w] = {"wall_seconds": wall, "busy": busy}
            line += f" {_short(wall):>10} {busy:>6.1%}"
        print(line)
    result["simulation"] = sim

    sweep = {}
    for size in (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0):
        work = sum(project(records[big], big, 21))
        chunks = max(1, round(work / size))
        _, busy = simulate(project(records[big], big, 21, chunks), 512, overhead, serial)
        sweep[size] = busy
    enough = [s for s, b in sweep.items() if b >= 0.9]
    result["task_size_sweep_n21_512"] = sweep
    result["smallest_task_seconds_for_90pct_at_512"] = min(enough) if enough else None
    print("\nN = 21 on 512 workers, busy by task size: "
          + ", ".join(f"{s:g} s {b:.0%}" for s, b in sweep.items()))  # fmt: skip
    result["load_average_end"] = os.getloadavg()
    RESULTS.write_text(json.dumps(result, indent=1, default=str) + "\n")
    print(f"\nwrote {RESULTS.relative_to(ROOT)}")


def _short(seconds: float) -> str:
    from boardgames.core.progress import format_duration

    return format_duration(seconds)


if __name__ == "__main__":
    main()
