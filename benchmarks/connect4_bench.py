"""Connect Four solving speed: the numba solver, a C solver of the same method, and
(given its path) Pascal Pons' C++ solver, side by side on his benchmark sets.

Run from the repository root (the project installed, gcc on the PATH):

    python benchmarks/connect4_bench.py                        # every set, default sizes
    python benchmarks/connect4_bench.py --sets L3_R1,L2_R1,L2_R2,L1_R1 --repeats 5
    python benchmarks/connect4_bench.py --pons /tmp/pons/c4solver --limit L1_R3=20

The sets are tests/connect4/data/Test_L*_R* (Pascal Pons' Connect 4 solver benchmark,
1000 positions each, "MOVES SCORE" a line; see the README there). ``--limit SET=N`` takes
a set's first N positions (defaults: :data:`DEFAULT_LIMITS`, the hard sets cut short).
Each round solves every chosen position of a set with each solver in turn, the solvers'
order rotating from round to round so that load from other processes hits them alike;
the table prints the median over ``--repeats`` rounds of the mean time per position,
the mean positions searched (visited nodes), and the ratios numba / C and numba / Pons.
Every answer is checked against the set's published score (a wrong one stops the run).

* ``numba``: :func:`boardgames.connect4.solver.solve_batch` on the whole set in this
  thread (the kernels loaded first, not in the time), a table of ``--hash`` MiB cleared
  (and so written whole) before each round and kept from one position to the next;
* ``c``: benchmarks/connect4_c/connect4.c, the same method in plain C, built with
  gcc -O3 -march=native; the sum of its own per-solve clock (no process start, its table
  written whole before the first solve), its table as big as numba's;
* ``pons``: the binary given with ``--pons`` (Pons' ``c4solver``: build it yourself from
  his repository with its Makefile, -O3; it is never part of this project), fed the same
  positions from a folder without an opening book; its time is the process's wall time
  less that of the same binary on empty input (start-up and its 84 MB table; medians of
  :data:`STARTUP_RUNS` or :data:`STARTUP_RUNS_TINY` runs of each, alternated, for sets of
  less than a second), so
  parsing and printing are in it (a microsecond a position). On the easiest set the
  start-up's jitter is still of the order of the whole work: that ratio is rough. Its
  table is its own (2**24 entries of 5 bytes); it prints no node counts.

Writes benchmarks/results/connect4.json (``--out``) and prints the table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from queens_bench import cpu_model  # this folder is on the path when run

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "connect4" / "data"
C_SOURCE = ROOT / "benchmarks" / "connect4_c" / "connect4.c"
RESULTS = ROOT / "benchmarks" / "results" / "connect4.json"
SETS = ("L3_R1", "L2_R1", "L2_R2", "L1_R1", "L1_R2", "L1_R3")
"""Pons' names: L3 end game, L2 middle game, L1 beginning; R1 easy, R2 medium, R3 hard."""
DEFAULT_LIMITS = {"L1_R2": 100, "L1_R3": 10}
"""Positions taken of the hard sets by default (L1_R2: about 0.1-0.3 s each, L1_R3:
seconds each on one core of the project's machine)."""


def load_set(name: str, limit: int | None) -> list[tuple[str, int]]:
    lines = (DATA / f"Test_{name}").read_text().split("\n")
    rows = [(a, int(b)) for a, b in (line.split() for line in lines if line.strip())]
    return rows[:limit] if limit else rows


def build_c(workdir: Path) -> Path | None:
    gcc = shutil.which("gcc")
    if gcc is None:
        print("gcc not found: the C column is skipped.", file=sys.stderr)
        return None
    exe = workdir / "connect4"
    subprocess.run([gcc, "-O3", "-march=native", "-o", str(exe), str(C_SOURCE)], check=True)
    return exe


class Numba:
    """The numba solver on one table, kept from round to round (cleared before each)."""

    name = "numba"

    def __init__(self, hash_mib: float) -> None:
        import numpy as np

        from boardgames.connect4 import solver

        self.np = np
        self.solver = solver
        self.s = solver.Solver(7, 6, hash_mib)
        self.s.solve_many([solver.parse_bitboards(7, 6, "4453")])  # load the kernels

    def run(self, rows: list[tuple[str, int]]) -> dict[str, Any]:
        np, solver = self.np, self.solver
        boards = [solver.parse_bitboards(7, 6, p) for p, _ in rows]
        curs = np.array([b.cur for b in boards], dtype=np.uint64)
        masks = np.array([b.mask for b in boards], dtype=np.uint64)
        ns = np.array([b.n for b in boards], dtype=np.int64)
        out = np.zeros(len(rows), dtype=np.int64)
        nodes = np.zeros(len(rows), dtype=np.int64)
        self.s.clear()
        args = self.s._args()
        c0 = time.thread_time()
        t0 = time.perf_counter()
        solver.solve_batch(curs, masks, ns, False, *args, out, nodes)
        wall = time.perf_counter() - t0
        cpu = time.thread_time() - c0
        return {"wall": wall, "cpu": cpu, "scores": out.tolist(), "nodes": int(nodes.sum())}


def _child_cpu() -> float:
    r = os.times()
    return r.children_user + r.children_system


class CSolver:
    name = "c"

    def __init__(self, exe: Path, hash_mib: float) -> None:
        self.exe = exe
        self.hash_mib = hash_mib

    def run(self, rows: list[tuple[str, int]]) -> dict[str, Any]:
        text = "".join(p + "\n" for p, _ in rows)
        c0 = _child_cpu()
        out = subprocess.run(
            [str(self.exe), "7", "6", str(self.hash_mib)],
            input=text, capture_output=True, text=True, check=True,
        ).stdout.split("\n")  # fmt: skip
        cpu = _child_cpu() - c0
        fields = [line.split() for line in out if line.strip()]
        micro = sum(float(f[2]) for f in fields)
        return {
            "wall": micro / 1e6,
            "cpu_process": cpu,
            "scores": [int(f[0]) for f in fields],
            "nodes": sum(int(f[1]) for f in fields),
        }


STARTUP_RUNS = 5
"""Pons' binary runs this many times on empty input and on the set in each round (sets of
more than a second of work: once each; ...)"""
STARTUP_RUNS_TINY = 15
"""... sets of less than half a second, start-up included: this many times."""


class Pons:
    name = "pons"

    def __init__(self, exe: Path) -> None:
        self.exe = exe.resolve()
        self.folder = Path(tempfile.mkdtemp(prefix="connect4-pons-"))  # no 7x6.book here

    def _wall(self, text: str) -> tuple[float, str, float]:
        c0 = _child_cpu()
        t0 = time.perf_counter()
        out = subprocess.run(
            [str(self.exe)], input=text, capture_output=True, text=True, check=True,
            cwd=self.folder,
        ).stdout  # fmt: skip
        return time.perf_counter() - t0, out, _child_cpu() - c0

    def run(self, rows: list[tuple[str, int]]) -> dict[str, Any]:
        text = "".join(p + "\n" for p, _ in rows)
        # runs on empty input and on the set, alternated, medians of each: the start-up
        # (about 0.1 s) varies by milliseconds, as much as an easy set's whole work
        empty, full = [], []
        out = ""
        for i in range(STARTUP_RUNS_TINY):
            if i and (full[0][0] > 1.0 or (i >= STARTUP_RUNS and full[0][0] > 0.5)):
                break
            empty.append(self._wall(""))
            wall, out, cpu = self._wall(text)
            full.append((wall, cpu))
        base = statistics.median(e[0] for e in empty)
        base_cpu = statistics.median(e[2] for e in empty)
        lines = [line.split() for line in out.split("\n") if line.strip()]
        return {
            "wall": max(0.0, statistics.median(f[0] for f in full) - base),
            "cpu_process": max(0.0, statistics.median(f[1] for f in full) - base_cpu),
            "startup": base,
            "scores": [int(f[1]) for f in lines],
            "nodes": None,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated set names")
    parser.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="SET=N",
        help="take the first N positions of SET (repeatable; SET=0: all)",
    )
    parser.add_argument("--repeats", type=int, default=3, help="rounds per set (median)")
    parser.add_argument("--hash", type=float, default=64, help="numba's and C's table, MiB")
    parser.add_argument("--pons", type=Path, default=None, help="Pons' c4solver binary")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where the JSON goes")
    args = parser.parse_args()
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    unknown = [s for s in sets if s not in SETS]
    if unknown:
        parser.error(f"unknown set {unknown[0]!r}; the sets: {', '.join(SETS)}")
    limits: dict[str, int | None] = dict(DEFAULT_LIMITS)
    for item in args.limit:
        name, _, n = item.partition("=")
        if name not in SETS or not n.isdigit():
            parser.error(f"--limit {item!r}: write SET=N, e.g. L1_R3=20")
        limits[name] = int(n) or None
    if args.pons is not None and not os.access(args.pons, os.X_OK):
        parser.error(f"--pons {args.pons}: not an executable file")

    work = Path(tempfile.mkdtemp(prefix="connect4-bench-"))
    solvers: list[Any] = [Numba(args.hash)]
    exe = build_c(work)
    if exe is not None:
        solvers.append(CSolver(exe, args.hash))
    if args.pons is not None:
        solvers.append(Pons(args.pons))
    report: dict[str, Any] = {
        "machine": cpu_model(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "load_average_start": os.getloadavg(),
        "command": " ".join([Path(sys.argv[0]).as_posix(), *sys.argv[1:]]),
        "repeats": args.repeats,
        "hash_mib": args.hash,
        "pons": str(args.pons) if args.pons else None,
        "sets": {},
    }
    for name in sets:
        rows = load_set(name, limits.get(name))
        expected = [s for _, s in rows]
        runs: dict[str, list[dict[str, Any]]] = {s.name: [] for s in solvers}
        for r in range(args.repeats):
            order = solvers[r % len(solvers) :] + solvers[: r % len(solvers)]
            for solver in order:
                got = solver.run(rows)
                if got["scores"] != expected:
                    scores = got["scores"] + [None] * len(expected)
                    bad = next(i for i, want in enumerate(expected) if scores[i] != want)
                    raise SystemExit(
                        f"{solver.name} is wrong on {name} line {bad + 1}: {rows[bad][0]} "
                        f"scored {scores[bad]}, published {expected[bad]}"
                    )
                del got["scores"]
                runs[solver.name].append(got)
                print(f"{name} round {r + 1} {solver.name}: {got['wall'] / len(rows) * 1e6:,.1f} "
                      "us a position", file=sys.stderr, flush=True)  # fmt: skip
        entry: dict[str, Any] = {"positions": len(rows), "solvers": {}}
        for solver_name, rounds in runs.items():
            means = [x["wall"] / len(rows) for x in rounds]
            nodes = rounds[0]["nodes"]
            entry["solvers"][solver_name] = {
                "mean_us_median": round(statistics.median(means) * 1e6, 3),
                "mean_us_rounds": [round(m * 1e6, 3) for m in means],
                "mean_nodes": None if nodes is None else round(nodes / len(rows), 1),
                "rounds": rounds,
            }
        got = entry["solvers"]
        numba = got["numba"]["mean_us_median"]
        for other in ("c", "pons"):
            if other in got and got[other]["mean_us_median"] > 0:
                entry[f"numba_over_{other}"] = round(numba / got[other]["mean_us_median"], 3)
        report["sets"][name] = entry
    report["load_average_end"] = os.getloadavg()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    print_table(report)


def print_table(report: dict[str, Any]) -> None:
    names = ["numba", "c", "pons"]
    head = f"{'set':<7}{'positions':>10}"
    for n in names:
        head += f"{n + ' us':>13}{n + ' nodes':>13}"
    head += f"{'numba/c':>9}{'numba/pons':>12}"
    print(head)
    for name, entry in report["sets"].items():
        line = f"{name:<7}{entry['positions']:>10}"
        for n in names:
            s = entry["solvers"].get(n)
            if s is None:
                line += f"{'-':>13}{'-':>13}"
                continue
            nodes = "-" if s["mean_nodes"] is None else f"{s['mean_nodes']:,.0f}"
            line += f"{s['mean_us_median']:>13,.1f}{nodes:>13}"
        for key, width in (("numba_over_c", 9), ("numba_over_pons", 12)):
            v = entry.get(key)
            line += f"{'-' if v is None else f'{v:.2f}':>{width}}"
        print(line)
    load = report["load_average_start"][0]
    print(
        f"median over {report['repeats']} rounds of the mean time per position (us); "
        f"{report['machine']}, load {load:.1f} at the start"
    )


if __name__ == "__main__":
    main()
