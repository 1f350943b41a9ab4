"""N-queens counting speed: numba kernels against a plain C counter, side by side.

Run from the repository root (the project installed, gcc on the PATH):

    python benchmarks/queens_bench.py                 # N = 15, 16; moonshot at 17
    python benchmarks/queens_bench.py --quick         # N = 13, 14; moonshot at 15
    python benchmarks/queens_bench.py --parts constellations    # only the section below
    python benchmarks/queens_bench.py --task-times 17 18        # per-constellation seconds

What it measures, in one run, rounds interleaved so that load from other processes hits
every method alike (medians over --repeats rounds are reported):

* ``c-mirror``: benchmarks/queens_c/queens.c, bitmask backtracking with the first row
  halved by the mirror, one thread (its own clock, no process start-up), built with
  gcc -O3 and again with -O3 -march=native; ``c-best`` is the faster of the two (by wall
  time and by CPU time separately), the reference for every ratio (the moonshot takes
  the faster of the two in each round); ``c-lookahead`` is the same counter with the
  numba kernel's dead-end test (a child whose next row is full is not entered), shown
  for information;
* ``numba``, ``parallel``, ``symmetry``, ``symmetry-parallel``: ``run_count`` as
  ``boardgames queens count`` runs it (JIT already loaded, not in the time);
* next to the wall-clock time, the CPU time of the process (all threads): on a machine
  shared with other work, the CPU-time ratio of two one-thread methods is the steadier
  measure of their speed;
* ``numba --fundamental``, ``parallel --fundamental``: Burnside (total + rotation-fixed
  counts), to compare with the total count;
* JIT compile time: a fresh process with an empty numba cache compiles every queens
  kernel; a second process loads them from that cache.

Writes benchmarks/results/queens.json and prints a table.

The start constellations (issue 15) have a section of their own, at --constellations N
(default 16 and 17), rounds interleaved in the same way: the C counter (both plain builds,
the faster per round), ``constellations`` on one thread and ``constellations-parallel``
on --workers threads (default 2), each with wall and CPU time, the ratios to C and the
parallel speed-up; ``stack-kernel``, the plain stack search with branches, one task at
a time (:func:`count_constellations_stack` on the same tasks, the kernel alone, one
thread), for the two branch-free lanes' gain; the constellation kernels' own JIT times
(cold cache, the parallel kernel included, then loaded) and the load average during
the run. It writes benchmarks/results/queens_constellations.json.
``--task-times N ...`` times every start constellation of N alone on one thread
(``constellation_tasks(N)`` rows, in their order) and writes
benchmarks/results/queens_constellation_tasks_N<N>.json: the per-task seconds and
unweighted counts, for cluster simulations.
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

ROOT = Path(__file__).resolve().parent.parent
C_SOURCE = ROOT / "benchmarks" / "queens_c" / "queens.c"
RESULTS = ROOT / "benchmarks" / "results" / "queens.json"
CONSTELLATION_RESULTS = ROOT / "benchmarks" / "results" / "queens_constellations.json"


def cpu_model() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name"):
                return line.split(":", 1)[1].strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    return platform.processor() or "unknown"


C_FLAGS = {
    "c-mirror": ["-O3"],
    "c-mirror-native": ["-O3", "-march=native"],
    "c-lookahead": ["-O3", "-DLOOKAHEAD"],
}
"""The C counter's builds. The first two are the plain counter, and the faster of them
(median) is the reference for the ratios; ``c-lookahead`` adds the numba kernel's
dead-end test, for information."""
PLAIN_C = ("c-mirror", "c-mirror-native")


def build_c(workdir: Path) -> dict[str, Path]:
    gcc = shutil.which("gcc")
    if gcc is None:
        print("gcc not found: the C rows are skipped.", file=sys.stderr)
        return {}
    builds = {}
    for name, flags in C_FLAGS.items():
        exe = workdir / name
        subprocess.run([gcc, *flags, "-o", str(exe), str(C_SOURCE)], check=True)
        builds[name] = exe
    return builds


def run_c(exe: Path, n: int) -> tuple[int, float, float]:
    """(count, wall seconds, CPU seconds) of one run of the C counter."""
    out = subprocess.run([str(exe), str(n)], capture_output=True, text=True, check=True)
    _, count, seconds, cpu = out.stdout.split()
    return int(count), float(seconds), float(cpu)


def run_py(n: int, method: str, fundamental: bool = False) -> tuple[int, float, float]:
    """(count, wall seconds, CPU seconds of all threads) of one ``run_count``."""
    from boardgames.queens.counting import run_count

    c0 = time.process_time()
    r = run_count(n, method, fundamental)
    return r.count, r.seconds, time.process_time() - c0


def jit_times() -> dict[str, float]:
    """Seconds to import and compile every kernel with an empty cache, then to load them."""
    code = (
        "import time, json; t0 = time.perf_counter(); "
        "from boardgames.queens import kernels; t1 = time.perf_counter(); "
        "kernels.warm_up(); t2 = time.perf_counter(); "
        "print(json.dumps({'import': t1 - t0, 'compile': t2 - t1}))"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        cold = json.loads(
            subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            ).stdout
        )
        warm = json.loads(
            subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            ).stdout
        )
    return {
        "import_numba_and_kernels": round(cold["import"], 3),
        "compile_all_kernels_cold_cache": round(cold["compile"], 3),
        "load_all_kernels_from_cache": round(warm["compile"], 3),
    }


def constellation_jit_times(sizes: list[int]) -> dict[str, float]:
    """Seconds to compile the constellation kernels with an empty cache (the other kernels
    loaded first, not in the time), one thread and prange, then to load them from that
    cache (``sizes``: the N whose counts load them, as ``queens count`` does)."""
    code = (
        "import time, json; from boardgames.queens import kernels; kernels.warm_up(); "
        "t0 = time.perf_counter(); from boardgames.queens import constellations; "
        "from boardgames.queens.counting import load_kernels; "
        "t1 = time.perf_counter(); constellations.warm_up(); "
        f"[load_kernels(m, None, n) for n in {sizes!r} "
        "for m in ('constellations', 'constellations-parallel')]; t2 = time.perf_counter(); "
        "print(json.dumps({'import': t1 - t0, 'compile': t2 - t1}))"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        runs = [
            json.loads(
                subprocess.run(
                    [sys.executable, "-c", code],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
            )
            for _ in range(2)
        ]
    return {
        "compile_constellation_kernels_cold_cache": round(runs[0]["compile"], 3),
        "load_constellation_kernels_from_cache": round(runs[1]["compile"], 3),
    }


def measure(
    n: int, builds: dict[str, Path], methods: list[str], repeats: int
) -> tuple[dict[str, int], dict[str, list[float]], dict[str, list[float]]]:
    """Counts, wall times and CPU times of every method, rounds interleaved."""
    counts: dict[str, int] = {}
    wall: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}

    def record(name: str, result: tuple[int, float, float]) -> None:
        counts[name] = result[0]
        wall.setdefault(name, []).append(result[1])
        cpu.setdefault(name, []).append(result[2])

    for _ in range(repeats):
        for name, path in builds.items():
            record(name, run_c(path, n))
        for m in methods:
            record(m, run_py(n, m))
        for m in ("numba", "parallel"):
            record(f"{m} --fundamental", run_py(n, m, True))
    return counts, wall, cpu


def run_py_workers(n: int, method: str, workers: int | None) -> tuple[int, float, float]:
    """(count, wall seconds, CPU seconds of all threads) of one ``run_count``."""
    from boardgames.queens.counting import run_count

    c0 = time.process_time()
    r = run_count(n, method, workers=workers)
    return r.count, r.seconds, time.process_time() - c0


def run_stack_kernel(n: int, tasks: object) -> tuple[int, float, float]:
    """(count, wall, CPU seconds) of the stack search alone on the start constellations,
    one thread: the reference the lanes of ``constellations`` are tested against."""
    from boardgames.queens import constellations as cm

    c0, t0 = time.process_time(), time.perf_counter()
    counts = cm.count_constellations_stack(n, tasks)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return int((counts * tasks[:, cm.WEIGHT]).sum()), wall, cpu  # type: ignore[index]


def constellations_section(
    sizes: list[int], repeats: int, workers: int, builds: dict[str, Path]
) -> dict[str, object]:
    """C (faster plain build per round), constellations (1 thread), constellations-parallel
    (``workers`` threads), rounds interleaved; medians and ratios per N."""
    from boardgames.queens import constellations

    out: dict[str, object] = {}
    for n in sizes:
        t0 = time.perf_counter()
        tasks = constellations.constellation_tasks(n)
        gen = time.perf_counter() - t0
        wall: dict[str, list[float]] = {}
        cpu: dict[str, list[float]] = {}
        counts: dict[str, int] = {}
        loads = [os.getloadavg()[0]]

        def record(
            name: str,
            result: tuple[int, float, float],
            counts: dict[str, int] = counts,
            wall: dict[str, list[float]] = wall,
            cpu: dict[str, list[float]] = cpu,
        ) -> None:
            counts[name] = result[0]
            wall.setdefault(name, []).append(result[1])
            cpu.setdefault(name, []).append(result[2])

        for _ in range(repeats):
            if builds:
                per_build = [run_c(builds[name], n) for name in PLAIN_C if name in builds]
                record("c-best", (per_build[0][0], *min((r[1], r[2]) for r in per_build)))
            record("constellations", run_py_workers(n, "constellations", None))
            record("stack-kernel", run_stack_kernel(n, tasks))
            record("constellations-parallel", run_py_workers(n, "constellations-parallel", workers))
            loads.append(os.getloadavg()[0])
        if len(set(counts.values())) != 1:
            raise SystemExit(f"N = {n}: the counts disagree: {counts}")
        med = {k: statistics.median(v) for k, v in wall.items()}
        med_cpu = {k: statistics.median(v) for k, v in cpu.items()}
        ratios: dict[str, float | None] = {
            "parallel_speedup_over_one_thread": med["constellations"]
            / med["constellations-parallel"],
            "stack_kernel_over_constellations": med["stack-kernel"] / med["constellations"],
        }
        if "c-best" in med:
            ratios["c_over_constellations"] = med["c-best"] / med["constellations"]
            ratios["c_over_constellations_cpu_time"] = med_cpu["c-best"] / med_cpu["constellations"]
            ratios["c_over_constellations_parallel"] = (
                med["c-best"] / med["constellations-parallel"]
            )
        out[str(n)] = {
            "count": counts["constellations"],
            "tasks": len(tasks),
            "task_generation_seconds": round(gen, 4),
            "workers_parallel": workers,
            "median_seconds": {k: round(v, 4) for k, v in med.items()},
            "median_cpu_seconds": {k: round(v, 4) for k, v in med_cpu.items()},
            "all_seconds": {k: [round(x, 4) for x in v] for k, v in wall.items()},
            "all_cpu_seconds": {k: [round(x, 4) for x in v] for k, v in cpu.items()},
            "ratios": {k: None if v is None else round(v, 3) for k, v in ratios.items()},
            "load_average_per_round": [round(x, 2) for x in loads],
        }
        print(
            f"\nN = {n} ({counts['constellations']:,}; {len(tasks):,} start constellations, "
            f"made in {gen:.3f} s): medians of {repeats} rounds"
        )
        print(f"{'method':<26}{'seconds':>10}{'vs C':>8}{'CPU s':>10}")
        base = med.get("c-best")
        for k, v in med.items():
            rel = f"{base / v:.2f}x" if base else "-"
            print(f"{k:<26}{v:>10.3f}{rel:>8}{med_cpu[k]:>10.3f}")
        print("ratios: " + ", ".join(f"{k} {v:.3f}" for k, v in ratios.items() if v is not None))
    return out


def task_times(n: int, out_dir: Path) -> Path:
    """Time each start constellation of N alone (one thread) and write the per-task
    seconds and unweighted counts as JSON."""
    import numpy as np

    from boardgames.queens import constellations

    constellations.warm_up()
    tasks = constellations.constellation_tasks(n)
    seconds = np.empty(len(tasks))
    counts = np.empty(len(tasks), np.int64)
    t_all = time.perf_counter()
    for i in range(len(tasks)):
        t0 = time.perf_counter()
        counts[i] = constellations.count_constellations(n, tasks[i : i + 1])[0]
        seconds[i] = time.perf_counter() - t0
    total = int((counts * tasks[:, constellations.WEIGHT]).sum())
    t0 = time.perf_counter()
    constellations.count_constellations(n, tasks)
    batch = time.perf_counter() - t0
    q = np.quantile(seconds, [0.5, 0.9, 0.99, 0.999])
    data = {
        "n": n,
        "count": total,
        "tasks": len(tasks),
        "columns": ["top", "bottom", "left", "right", "preset", "weight"],
        "note": "one row of constellation_tasks(n) per entry, in its order; seconds of "
        "count_constellations(n, tasks[i:i+1]) on one thread (about 2 us of call overhead "
        "each), counts unweighted. A task alone runs on one of the kernel's two lanes, so "
        "its time is more than its share of a batch: batch_seconds is all tasks in one "
        "call, to scale by",
        "machine": cpu_model(),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_average": os.getloadavg()[0],
        "total_seconds": round(time.perf_counter() - t_all, 3),
        "batch_seconds": round(batch, 4),
        "seconds_stats": {
            "sum": round(float(seconds.sum()), 4),
            "mean": float(seconds.mean()),
            "median": float(q[0]),
            "p90": float(q[1]),
            "p99": float(q[2]),
            "p999": float(q[3]),
            "max": float(seconds.max()),
        },
        "seconds": [float(f"{x:.6g}") for x in seconds],
        "counts": counts.tolist(),
        "weights": tasks[:, constellations.WEIGHT].tolist(),
    }
    path = out_dir / f"queens_constellation_tasks_N{n}.json"
    path.write_text(json.dumps(data) + "\n")
    print(
        f"N = {n}: {len(tasks):,} tasks, {seconds.sum():.2f} s in all; per task median "
        f"{q[0] * 1e3:.3f} ms, p99 {q[2] * 1e3:.3f} ms, max {seconds.max() * 1e3:.1f} ms "
        f"-> {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}"
    )
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[15, 16])
    parser.add_argument("--moonshot", type=int, default=17, help="N for symmetry vs C")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="N = 13, 14; moonshot at 15")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument(
        "--parts",
        nargs="+",
        choices=["classic", "constellations"],
        default=["classic", "constellations"],
        help="classic: the sizes and the moonshot (queens.json); constellations: its section",
    )
    parser.add_argument("--constellations", type=int, nargs="+", default=[16, 17])
    parser.add_argument("--workers", type=int, default=2, help="threads of the parallel run")
    parser.add_argument("--constellations-out", type=Path, default=CONSTELLATION_RESULTS)
    parser.add_argument(
        "--task-times", type=int, nargs="+", default=None, help="time every task of these N"
    )
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.moonshot = [13, 14], 15
        args.constellations = [14, 15]
    if args.task_times:
        for n in args.task_times:
            task_times(n, CONSTELLATION_RESULTS.parent)
        return
    if "constellations" in args.parts:
        run_constellations(args)
    if "classic" not in args.parts:
        return

    from boardgames.queens.counting import load_kernels

    load_kernels("parallel")
    workers = os.cpu_count() or 1
    methods = [
        "numba",
        "parallel",
        "symmetry",
        "symmetry-parallel",
        "constellations",
        "constellations-parallel",
    ]
    report: dict[str, object] = {
        "machine": cpu_model(),
        "cores": workers,
        "python": platform.python_version(),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_average_start": os.getloadavg()[0],
        "repeats": args.repeats,
        "command": " ".join(["python", "benchmarks/queens_bench.py", *sys.argv[1:]]),
    }
    report["jit"] = jit_times()
    sizes: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as work:
        builds = build_c(Path(work))
        exe = builds.get("c-mirror")
        for n in args.sizes:
            counts, wall, cpu = measure(n, builds, methods, args.repeats)
            med = {k: statistics.median(v) for k, v in wall.items()}
            med_cpu = {k: statistics.median(v) for k, v in cpu.items()}
            if builds:  # the faster C build, by each measure, is the reference
                med["c-best"] = min(med[name] for name in PLAIN_C)
                med_cpu["c-best"] = min(med_cpu[name] for name in PLAIN_C)
                counts["c-best"] = counts["c-mirror"]
            ratios = {
                "numba_over_c": med["numba"] / med["c-best"] if exe else None,
                "numba_over_c_cpu_time": med_cpu["numba"] / med_cpu["c-best"] if exe else None,
                "numba_over_c_lookahead": med["numba"] / med["c-lookahead"] if exe else None,
                "parallel_speedup_over_numba": med["numba"] / med["parallel"],
                "fundamental_over_total_numba": med["numba --fundamental"] / med["numba"],
                "fundamental_over_total_parallel": med["parallel --fundamental"] / med["parallel"],
                "c_over_symmetry": med["c-best"] / med["symmetry"] if exe else None,
                "c_over_symmetry_cpu_time": med_cpu["c-best"] / med_cpu["symmetry"]
                if exe
                else None,
            }
            sizes[str(n)] = {
                "counts": counts,
                "median_seconds": {k: round(v, 4) for k, v in med.items()},
                "median_cpu_seconds": {k: round(v, 4) for k, v in med_cpu.items()},
                "all_seconds": {k: [round(x, 4) for x in v] for k, v in wall.items()},
                "ratios": {k: None if v is None else round(v, 3) for k, v in ratios.items()},
            }
            print_size(n, sizes[str(n)])
        moon: dict[str, object] = {}
        if exe is not None and args.moonshot:
            n = args.moonshot
            t_c, t_s, u_c, u_s = [], [], [], []
            for _ in range(args.repeats):
                c_count, s, u = min(run_c(builds[name], n) for name in PLAIN_C)
                t_c.append(s)
                u_c.append(u)
                count, s, u = run_py(n, "symmetry")
                t_s.append(s)
                u_s.append(u)
                if count != c_count:
                    raise SystemExit(f"N = {n}: symmetry {count} != C {c_count}")
            med_c, med_s = statistics.median(t_c), statistics.median(t_s)
            moon = {
                "n": n,
                "count": c_count,
                "c_mirror_seconds": [round(x, 3) for x in t_c],
                "symmetry_seconds": [round(x, 3) for x in t_s],
                "c_mirror_cpu_seconds": [round(x, 3) for x in u_c],
                "symmetry_cpu_seconds": [round(x, 3) for x in u_s],
                "speedup_median": round(med_c / med_s, 3),
                "speedup_median_cpu_time": round(
                    statistics.median(u_c) / statistics.median(u_s), 3
                ),
            }
            print(
                f"\nMoonshot N = {n} ({c_count:,}): C mirror median {med_c:.2f} s, symmetry "
                f"(1 thread) median {med_s:.2f} s -> {moon['speedup_median']:.2f}x "
                f"(CPU time: {moon['speedup_median_cpu_time']:.2f}x)"
            )
    report["sizes"] = sizes
    report["moonshot"] = moon
    report["load_average_end"] = os.getloadavg()[0]
    print(f"\nJIT: {report['jit']}")
    print(f"load average {report['load_average_start']:.2f} -> {report['load_average_end']:.2f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")


def run_constellations(args: argparse.Namespace) -> None:
    """The constellation section: JIT times, then the interleaved rounds; writes JSON."""
    from boardgames.queens import constellations
    from boardgames.queens.counting import load_kernels

    load_kernels("constellations-parallel", args.workers)
    # the stack-kernel row's kernel too (counts never use it, so load_kernels does not)
    constellations.count_constellations_stack(8, constellations.constellation_tasks(8))
    report: dict[str, object] = {
        "machine": cpu_model(),
        "cores": os.cpu_count() or 1,
        "python": platform.python_version(),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_average_start": os.getloadavg()[0],
        "repeats": args.repeats,
        "command": " ".join(["python", "benchmarks/queens_bench.py", *sys.argv[1:]]),
        "reference": "c-best: the faster of benchmarks/queens_c/queens.c built with gcc -O3 "
        "and with -O3 -march=native, per round (wall and CPU time separately)",
    }
    report["jit"] = constellation_jit_times(args.constellations)
    with tempfile.TemporaryDirectory() as work:
        builds = build_c(Path(work))
        plain = {k: v for k, v in builds.items() if k in PLAIN_C}
        report["sizes"] = constellations_section(
            args.constellations, args.repeats, args.workers, plain
        )
    report["load_average_end"] = os.getloadavg()[0]
    print(f"\nJIT (constellation kernels): {report['jit']}")
    print(f"load average {report['load_average_start']:.2f} -> {report['load_average_end']:.2f}")
    out: Path = args.constellations_out
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")


def print_size(n: int, data: dict[str, object]) -> None:
    med: dict[str, float] = data["median_seconds"]  # type: ignore[assignment]
    med_cpu: dict[str, float] = data["median_cpu_seconds"]  # type: ignore[assignment]
    counts: dict[str, int] = data["counts"]  # type: ignore[assignment]
    base = med.get("c-best")
    rounds = len(data["all_seconds"]["numba"])  # type: ignore[index]
    print(f"\nN = {n}: medians of {rounds} rounds (wall clock; CPU time of all threads)")
    print(f"{'method':<24}{'count':>14}{'seconds':>10}{'vs C':>8}{'CPU s':>10}")
    for k, v in med.items():
        rel = f"{v / base:.2f}x" if base else "-"
        print(f"{k:<24}{counts[k]:>14,}{v:>10.3f}{rel:>8}{med_cpu[k]:>10.3f}")
    ratios = data["ratios"]
    print("ratios: " + ", ".join(f"{k} {v}" for k, v in ratios.items()))  # type: ignore[union-attr]


if __name__ == "__main__":
    main()
