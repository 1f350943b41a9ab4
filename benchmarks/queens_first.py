"""Time to the first N-queens solution in lexicographic order (what `queens solve` waits for).

`boardgames queens solve` lists solutions as the classic backtracking finds them, in
lexicographic order (boardgames.queens.solve.solutions, pure Python, no numba). For most
N the first solution comes at once, but for some large N the backtrack before it is long;
this is why `solve` stops at N = 29. The workload: next(solutions(N)) for each N, timed in
this process (no interpreter start-up), --repeats times, median reported.

    python benchmarks/queens_first.py [--sizes 20 22 24 26 28 29] [--repeats 3]

Prints a table and writes benchmarks/results/queens_first.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path

from boardgames.queens.solve import solutions

RESULTS = Path(__file__).resolve().parent / "results" / "queens_first.json"


def first_solution_seconds(n: int) -> tuple[tuple[int, ...], float]:
    t0 = time.perf_counter()
    first = next(solutions(n))
    return first, time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 22, 24, 26, 28, 29])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    load_start = os.getloadavg()[0]
    started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    rows = []
    for n in args.sizes:
        times = []
        first: tuple[int, ...] = ()
        for _ in range(args.repeats):
            first, seconds = first_solution_seconds(n)
            times.append(seconds)
        rows.append(
            {
                "n": n,
                "median_s": statistics.median(times),
                "all_s": times,
                "first": list(first),
            }
        )
        print(f"N = {n:2}: {statistics.median(times):8.3f} s  (runs: "
              + ", ".join(f"{t:.3f}" for t in times) + ")", flush=True)  # fmt: skip
    print()
    print(f"{'N':>3} {'median s':>9}  first solution")
    for r in rows:
        print(f"{r['n']:>3} {r['median_s']:9.3f}  {' '.join(map(str, r['first']))}")
    report = {
        "benchmark": "queens_first",
        "date": started,
        "machine": platform.machine(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "load_average_start": load_start,
        "load_average_end": os.getloadavg()[0],
        "repeats": args.repeats,
        "results": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
