"""Search-engine benchmark: the issue's reference workload and targets, side by side.

Reference workload: Kalah classic 6 pits x 4 seeds, start position, A to move, store
evaluation, single-sowing plies, plain alpha-beta in ascending pit order, depth 12 (value
+6 for A; OpenSpiel 2.0.2's C++ alpha-beta visits 2,678,599 positions at about 9 M/s on
the project's 2-core machine).

Measured (medians of --repeat runs; the machine is shared, so positions/s is given per
second of this process's CPU time and per wall second):

* plain ``alphabeta`` (numba) at depth 12: positions, seconds, positions/s; runs alternate
  with the same search on the generic rule kernels (board settings read from ``params`` at
  run time, as the solver calls them), to show what the per-board kernels gain;
* every numba strategy at depth 14: positions and seconds; best against plain alphabeta;
* Python reference vs numba on the same tree (alphabeta, depth --python-depth);
* first program move in a fresh process: cold (empty numba cache: compile) and warm
  (cache filled), each in a new interpreter;
* default program: seconds per move over positions of a game;
* transposition table bytes against their configured MiB.

Run:  python benchmarks/engine_bench.py            (writes benchmarks/results/engine_bench.json)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console
from rich.table import Table

from boardgames.core.kernels import TranspositionTable, build_engine
from boardgames.core.search import alphabeta
from boardgames.core.strategies import STRATEGIES, NumbaSearcher
from boardgames.kalah import kernels as kalah_kernels
from boardgames.kalah.game import Kalah
from boardgames.kalah.play.engine import EngineConfig, KalahEngine

OPENSPIEL_NODES = 2_678_599
OPENSPIEL_RATE = 9e6

FIRST_MOVE = """
import time
t0 = time.perf_counter()
from boardgames.kalah.game import Kalah
from boardgames.kalah.play.engine import KalahEngine
game = Kalah()
engine = KalahEngine(game)
t1 = time.perf_counter()
answer = engine.best_move(game.initial_state())
t2 = time.perf_counter()
print(t1 - t0, t2 - t1, answer.depth)
"""


def machine() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return f"{line.split(':', 1)[1].strip()}, {os.cpu_count()} cores"
    except OSError:
        pass
    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"


def alternated(fns: dict, repeat: int) -> dict:
    """{name: (last result, median CPU seconds, median wall seconds)}, the functions called
    in turn ``repeat`` times (so that a change of load hits all of them alike)."""
    cpu: dict = {k: [] for k in fns}
    wall: dict = {k: [] for k in fns}
    last = {}
    for _ in range(repeat):
        for k, fn in fns.items():
            c0, w0 = time.process_time(), time.perf_counter()
            last[k] = fn()
            cpu[k].append(time.process_time() - c0)
            wall[k].append(time.perf_counter() - w0)
    return {k: (last[k], statistics.median(cpu[k]), statistics.median(wall[k])) for k in fns}


def timed(fn, repeat: int):
    """(last result, median CPU seconds, median wall seconds)."""
    cpu, wall = [], []
    result = None
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        result = fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return result, statistics.median(cpu), statistics.median(wall)


def first_move(cache_dir: str) -> tuple[float, float, int]:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
    out = subprocess.run(
        [sys.executable, "-c", FIRST_MOVE], env=env, capture_output=True, text=True, check=True
    )
    setup, move, depth = out.stdout.split()
    return float(setup), float(move), int(depth)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--python-depth", type=int, default=10)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results/engine_bench.json")
    args = ap.parse_args()
    console = Console()
    game = Kalah(6, 4, "classic", "store")
    root = game.initial_state()
    searcher = NumbaSearcher(game, 64.0)
    searcher.compile_fast(root)  # plain alpha-beta on the kernels specialised to the board
    # the depth-limited (exact) strategies only: a Monte Carlo strategy, where registered,
    # is not part of this benchmark
    exact = [n for n, s in STRATEGIES.items() if getattr(s, "exact", True)]
    for name in exact:
        searcher.run(name, root, 2, again_is_ply=True)  # load kernels before timing
    report: dict = {
        "machine": machine(),
        "repeat": args.repeat,
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "load_average_start": os.getloadavg()[0],
    }

    # 1. plain alpha-beta, depth 12: per-board kernels (what every command uses), alternated
    # with the generic rule kernels
    generic = NumbaSearcher(game, 1.0)
    generic.fast_engine = build_engine(kalah_kernels.kernels())
    generic.run("alphabeta", root, 2, again_is_ply=True)
    runs = alternated(
        {
            "specialised": lambda: searcher.run("alphabeta", root, 12, again_is_ply=True),
            "generic": lambda: generic.run("alphabeta", root, 12, again_is_ply=True),
        },
        args.repeat,
    )
    r, cpu, wall = runs["specialised"]
    g, gcpu, _ = runs["generic"]
    assert (g.value, g.nodes, g.pv) == (r.value, r.nodes, r.pv), "generic kernels differ"
    report["alphabeta_12"] = {
        "value": r.value, "nodes": r.nodes, "cpu_seconds": cpu, "wall_seconds": wall,
        "rate_cpu": r.nodes / cpu, "rate_wall": r.nodes / wall,
        "generic_rate_cpu": g.nodes / gcpu,
    }  # fmt: skip
    console.log(
        f"alphabeta depth 12: value {r.value:+d}, {r.nodes:,} positions, {cpu:.3f} s "
        f"({r.nodes / cpu / 1e6:.1f} M/s; generic rule kernels {g.nodes / gcpu / 1e6:.1f} M/s)"
    )

    # 2. every numba strategy at depth 14
    depth14 = {}
    for name, s in STRATEGIES.items():
        if "numba" not in s.engines or name == "minimax" or name not in exact:
            continue
        rep = args.repeat if name != "tt" else max(1, args.repeat // 2)
        r, cpu, wall = timed(lambda name=name: searcher.run(name, root, 14, again_is_ply=True), rep)
        depth14[name] = {
            "value": r.value,
            "nodes": r.nodes,
            "cpu_seconds": cpu,
            "wall_seconds": wall,
        }
        console.log(f"{name} depth 14: value {r.value:+d}, {r.nodes:,} positions, {cpu:.3f} s")
    report["depth_14"] = depth14
    best = min((n for n in depth14 if n != "alphabeta"), key=lambda n: depth14[n]["cpu_seconds"])
    report["best_strategy"] = best
    report["best_speedup_cpu"] = depth14["alphabeta"]["cpu_seconds"] / depth14[best]["cpu_seconds"]

    # 3. Python vs numba on the same tree
    d = args.python_depth
    c0 = time.process_time()
    ref = alphabeta(game, root, d, again_is_ply=True)
    py_cpu = time.process_time() - c0
    r, nb_cpu, _ = timed(lambda: searcher.run("alphabeta", root, d, again_is_ply=True), args.repeat)
    assert (r.value, r.nodes) == (ref.value, ref.nodes), "Python and numba trees differ"
    report["python_vs_numba"] = {
        "depth": d, "nodes": ref.nodes, "python_cpu_seconds": py_cpu,
        "numba_cpu_seconds": nb_cpu, "ratio": py_cpu / nb_cpu,
    }  # fmt: skip
    console.log(
        f"python depth {d}: {ref.nodes:,} positions, {py_cpu:.2f} s, ratio {py_cpu / nb_cpu:.0f}"
    )

    # 4. first program move in a fresh process: cold cache, then warm
    with tempfile.TemporaryDirectory() as cache:
        cold = first_move(cache)
        warm = [first_move(cache) for _ in range(5)]
    warm_total = statistics.median(s + m for s, m, _ in warm)
    report["first_move"] = {
        "cold_setup_seconds": cold[0], "cold_move_seconds": cold[1],
        "warm_setup_seconds": statistics.median(s for s, _, _ in warm),
        "warm_move_seconds": statistics.median(m for _, m, _ in warm),
        "warm_total_seconds": warm_total,
    }  # fmt: skip
    console.log(f"first move: cold {cold[0] + cold[1]:.2f} s, warm {warm_total:.2f} s")

    # 5. default program, seconds per move on the 6 x 6 board (one self-play game)
    big = Kalah()
    engine = KalahEngine(big, EngineConfig())
    s = big.initial_state()
    times, depths = [], []
    while big.outcome(s) is None and len(times) < 40:
        a = engine.best_move(s)
        times.append(a.seconds)
        depths.append(a.depth)
        s = big.play_compound(s, a.move)
    report["default_program"] = {
        "config": engine.config.describe(), "moves": len(times),
        "max_seconds": max(times), "median_seconds": statistics.median(times),
        "median_depth": statistics.median(depths),
    }  # fmt: skip

    # 6. table memory
    report["tt_bytes"] = {str(mib): TranspositionTable(mib).nbytes for mib in (1, 16, 64, 256)}
    report["load_average_end"] = os.getloadavg()[0]

    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")

    ab = report["alphabeta_12"]
    table = Table(title=f"Search engine targets ({report['machine']}, medians of {args.repeat})")
    table.add_column("what")
    table.add_column("target", justify="right")
    table.add_column("measured", justify="right")
    table.add_row("value at depth 12 (sowings)", "+6", f"{ab['value']:+d}")
    table.add_row(
        "positions visited, depth 12", f"OpenSpiel {OPENSPIEL_NODES:,}", f"{ab['nodes']:,}"
    )
    table.add_row(
        "plain alphabeta (numba), positions/s",
        ">= 30 M (3x OpenSpiel's 9 M)",
        f"{ab['rate_cpu'] / 1e6:.1f} M per CPU s ({ab['rate_wall'] / 1e6:.1f} M per wall s; "
        f"generic rule kernels {ab['generic_rate_cpu'] / 1e6:.1f} M per CPU s)",
    )
    table.add_row(
        f"depth 14: best ({best}) vs plain alphabeta",
        ">= 20x",
        f"{report['best_speedup_cpu']:.0f}x ({depth14[best]['cpu_seconds']:.3f} s vs "
        f"{depth14['alphabeta']['cpu_seconds']:.2f} s)",
    )
    pv = report["python_vs_numba"]
    table.add_row(
        f"python / numba, same tree (depth {pv['depth']}, {pv['nodes']:,} positions)",
        "~100x",
        f"{pv['ratio']:.0f}x",
    )
    dp = report["default_program"]
    table.add_row(
        f"default program ({dp['config']}), s/move on 6x6",
        "<= 1 s",
        f"max {dp['max_seconds']:.2f} s, median {dp['median_seconds']:.2f} s "
        f"(median depth {dp['median_depth']:g})",
    )
    fm = report["first_move"]
    table.add_row(
        "first move in a fresh process, JIT included",
        "<= 2 s",
        f"{fm['warm_total_seconds']:.2f} s cached "
        f"(cold cache: {fm['cold_setup_seconds'] + fm['cold_move_seconds']:.1f} s compile+move)",
    )
    table.add_row(
        "table bytes vs size",
        "within MiB",
        ", ".join(f"{k} MiB: {v / 2**20:.2f}" for k, v in report["tt_bytes"].items()),
    )
    console.print(table)
    strategies = Table(title="Depth 14 (sowings) on the reference workload, numba")
    for col in ("strategy", "value", "positions", "CPU s", "vs alphabeta"):
        strategies.add_column(col, justify="right" if col != "strategy" else "left")
    base = depth14["alphabeta"]["cpu_seconds"]
    for name, row in depth14.items():
        strategies.add_row(
            name, f"{row['value']:+d}", f"{row['nodes']:,}", f"{row['cpu_seconds']:.3f}",
            f"{base / row['cpu_seconds']:.1f}x",
        )  # fmt: skip
    console.print(strategies)
    console.print(f"JSON written to {args.out}")


if __name__ == "__main__":
    main()
