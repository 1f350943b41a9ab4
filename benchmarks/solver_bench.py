"""Kalah solver benchmark: endgame-table builds and exact values of small boards.

    python benchmarks/solver_bench.py [--boards 4x3,5x3,...] [--tables 10,12,14] [--budget S]
                                      [--threads T] [--endgame K|auto] [--hash MB]
                                      [--variants V]
                                      [--runs N] [--parallel 6x3 --repeat R]
                                      [--history 6x4] [--out FILE]

For each board (pits x seeds) it solves the start position, A to move, under the default
rules and (--variants) under the "empty capture" rules of Irving, Donkers and Uiterwijk, "Solving
Kalah" (ICGA Journal 2000), and prints value, best move, positions and seconds next to
the published value where one is known. Boards whose solve runs past --budget seconds
are reported as not reached; with --runs N each board is solved N times and the run of
median time is reported (with every run's time). Small boards (at most --check stones)
are checked against the plain exhaustive reference search (core/search.py) as well.
Endgame tables of each size in --tables are built once, timed and sized (6 pits). The
boards are solved on --threads threads (default: every core), with the transposition
table ``kalah solve`` takes (or --hash MiB) and its endgame tables (--endgame auto) or
tables of K stones. --parallel BOARD solves that board --repeat times on one thread and
on every core, alternately, and reports the median wall times, their ratio and that the
values agree; --history BOARD does the same with and without the solver's history
heuristic (on --threads threads), with the median positions too.

Writes benchmarks/results/solver_bench.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console
from rich.table import Table

from boardgames.core.protocol import score_margin
from boardgames.core.search import alphabeta_tt
from boardgames.kalah.exact import endgame
from boardgames.kalah.exact.sizing import auto_stones, default_hash_mb
from boardgames.kalah.exact.solver import DB_HITS, NODES, SearchStopped, Solver
from boardgames.kalah.game import Kalah
from boardgames.kalah.play.guess import FirstGuess

PUBLISHED_EMPTY_CAPTURE = {
    (6, 4): 10,  # Irving, Donkers, Uiterwijk 2000 (also Rawlings 2015)
    (6, 5): 12,  # Irving, Donkers, Uiterwijk 2000 (also Rawlings 2015)
    (6, 6): 2,  # Rawlings 2015 (106 CPU days; out of reach here)
}


def solve_board(
    pits: int,
    seeds: int,
    empty_capture: bool,
    budget: float,
    threads: int = 1,
    stones: str = "auto",
    hash_mb: float | None = None,
    history: bool = True,
) -> dict:
    game = Kalah(pits, seeds, empty_capture=empty_capture)
    state = game.initial_state()
    total = game.total_stones
    k = auto_stones(pits, total, empty_capture) if stones == "auto" else min(int(stones), total - 1)
    t0 = time.perf_counter()
    table = endgame.load_or_build(pits, k, empty_capture=empty_capture) if k > 0 else None
    table_seconds = time.perf_counter() - t0
    hash_mb = default_hash_mb(total) if hash_mb is None else hash_mb
    solver = Solver(
        pits, hash_mb=hash_mb, endgame=table, empty_capture=empty_capture, threads=threads
    )
    solver.history = history
    guess = FirstGuess(game)  # the first guess of `kalah solve`
    jit = solver.warm_up() + guess.warm_up()
    timer = threading.Timer(budget, solver.stop)
    timer.start()
    bounds: list[tuple[int, int, float]] = []
    t0 = time.perf_counter()

    def report(lower: int, upper: int) -> None:
        bounds.append((lower, upper, time.perf_counter() - t0))

    row = {
        "pits": pits,
        "seeds": seeds,
        "empty_capture": empty_capture,
        "endgame_stones": k,
        "endgame_seconds": table_seconds,
        "threads": threads,
        "hash_mb": hash_mb,
        "jit_seconds": jit,
        "history": history,
    }
    try:
        r = solver.solve(state, report, guess=guess)
    except SearchStopped:
        return {
            **row,
            "reached": False,
            "budget": budget,
            "bounds": bounds,  # (lower, upper, seconds) after each finished pass
            "nodes": solver.count(NODES),
            "endgame_hits": solver.count(DB_HITS),
        }
    finally:
        timer.cancel()
    return {
        **row,
        "reached": True,
        "value": r.value,
        "best": r.best,
        "nodes": r.nodes,
        "seconds": r.seconds,
        "passes": r.passes,  # (lower, upper, seconds) after each null-window test
        "published": PUBLISHED_EMPTY_CAPTURE.get((pits, seeds)) if empty_capture else None,
    }


def alternate(
    pits: int, seeds: int, settings: dict[str, dict], repeat: int, budget: float, stones: str
) -> dict:
    """Solve one board under each of ``settings`` (name: keyword arguments of
    :func:`solve_board`), in turn, ``repeat`` times: median wall seconds and positions
    of each, and whether the values agree."""
    seconds: dict[str, list[float]] = {name: [] for name in settings}
    nodes: dict[str, list[int]] = {name: [] for name in settings}
    values = set()
    for _ in range(repeat):
        for name, kwargs in settings.items():
            row = solve_board(pits, seeds, False, budget, stones=stones, **kwargs)
            if not row["reached"]:
                return {"board": f"{pits}x{seeds}", "reached": False, "budget": budget}
            seconds[name].append(row["seconds"])
            nodes[name].append(row["nodes"])
            values.add(row["value"])
    return {
        "board": f"{pits}x{seeds}",
        "endgame_stones": row["endgame_stones"],
        "median_seconds": {name: statistics.median(v) for name, v in seconds.items()},
        "median_nodes": {name: statistics.median(v) for name, v in nodes.items()},
        "values_agree": len(values) == 1,
        "runs_seconds": seconds,
    }


def compare_threads(
    pits: int, seeds: int, threads: int, repeat: int, budget: float, stones: str = "auto"
) -> dict:
    """One thread against ``threads`` on one board, alternately: median wall seconds."""
    settings = {"1": {"threads": 1}, str(threads): {"threads": threads}}
    row = alternate(pits, seeds, settings, repeat, budget, stones)
    if "median_seconds" in row:
        one, many = row["median_seconds"]["1"], row["median_seconds"][str(threads)]
        row.update(threads=threads, seconds_one_thread=one, seconds_all_threads=many)
        row["speedup"] = one / many
    return row


def compare_history(
    pits: int, seeds: int, threads: int, repeat: int, budget: float, stones: str = "auto"
) -> dict:
    """The solver with its history heuristic against without, alternately."""
    settings = {
        "history": {"threads": threads},
        "no history": {"threads": threads, "history": False},
    }
    row = alternate(pits, seeds, settings, repeat, budget, stones)
    if "median_seconds" in row:
        t, n = row["median_seconds"], row["median_nodes"]
        row["threads"] = threads
        row["speedup"] = t["no history"] / t["history"]
        row["nodes_ratio"] = n["no history"] / n["history"]
    return row


def reference(pits: int, seeds: int, empty_capture: bool) -> int:
    game = Kalah(pits, seeds, empty_capture=empty_capture)
    value = alphabeta_tt(game, game.initial_state(), None).value
    return score_margin(value) or 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--boards",
        default="1x1,2x1,2x2,3x1,3x2,3x3,4x1,4x2,4x3,4x4,5x1,5x2,5x3,5x4,6x1,6x2,6x3,6x4",
    )
    parser.add_argument("--tables", default="10,12,14,16,18,20")
    parser.add_argument("--budget", type=float, default=600.0)
    parser.add_argument("--check", type=int, default=12, help="stones for the reference check")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--endgame",
        default="auto",
        help="endgame-table stones for every board (auto: as kalah solve)",
    )
    parser.add_argument(
        "--hash", type=float, default=None, help="transposition table MiB (default: as kalah solve)"
    )
    parser.add_argument("--parallel", default="6x3", help="board for 1 vs all threads ('': skip)")
    parser.add_argument(
        "--history",
        default="",
        help="board to solve with and without the history heuristic, alternately ('': skip)",
    )
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--variants",
        default="default,empty-capture",
        help="rule sets to solve each board under (default, empty-capture or both)",
    )
    parser.add_argument(
        "--runs", type=int, default=1, help="solves of each board; the median run is reported"
    )
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).parent / "results" / "solver_bench.json"
    )
    args = parser.parse_args()
    console = Console(width=120)
    load_start = os.getloadavg()[0]
    started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    tables = []
    for k in [int(x) for x in args.tables.split(",") if x]:
        t = endgame.build(6, k)
        tables.append(
            {
                "pits": 6,
                "stones": k,
                "entries": int(t.table.shape[0]),
                "bytes": t.nbytes,
                "seconds": t.build_seconds,
            }
        )
        console.print(f"table 6 pits <= {k} stones: {t.nbytes:,} bytes in {t.build_seconds:.1f} s")
    rows = []
    for spec in [b for b in args.boards.split(",") if b]:
        pits, seeds = (int(x) for x in spec.split("x"))
        for ec in [v == "empty-capture" for v in args.variants.split(",")]:
            runs = [
                solve_board(pits, seeds, ec, args.budget, args.threads, args.endgame, args.hash)
                for _ in range(args.runs)
            ]
            reached = sorted((r for r in runs if r["reached"]), key=lambda r: r["seconds"])
            row = reached[(len(reached) - 1) // 2] if len(reached) == len(runs) else runs[-1]
            if args.runs > 1 and row["reached"]:
                row["runs_seconds"] = [r["seconds"] for r in runs]
            if row["reached"] and 2 * pits * seeds <= args.check:
                row["reference"] = reference(pits, seeds, ec)
            rows.append(row)
            console.print(row)
    table = Table(title="Kalah start positions, A to move: final margin under perfect play")
    for col in [
        "board",
        "rules",
        "value",
        "best",
        "published",
        "reference",
        "positions",
        "seconds",
        "tables",
    ]:
        table.add_column(col, justify="right")
    for r in rows:
        rules = "empty capture" if r["empty_capture"] else "default"
        if not r["reached"]:
            table.add_row(
                f"{r['pits']}x{r['seeds']}",
                rules,
                f"> {r['budget']:.0f} s",
                "",
                "",
                "",
                "",
                "",
                str(r["endgame_stones"]),
            )
            continue
        table.add_row(
            f"{r['pits']}x{r['seeds']}",
            rules,
            f"{r['value']:+d}",
            " ".join(map(str, r["best"])),
            "" if r.get("published") is None else f"{r['published']:+d}",
            "" if "reference" not in r else f"{r['reference']:+d}",
            f"{r['nodes']:,}",
            f"{r['seconds']:.2f}",
            str(r["endgame_stones"]),
        )
    console.print(table)
    parallel = None
    if args.parallel:
        pits, seeds = (int(x) for x in args.parallel.split("x"))
        parallel = compare_threads(
            pits, seeds, args.threads, args.repeat, args.budget, args.endgame
        )
        console.print(parallel)
    history = None
    if args.history:
        pits, seeds = (int(x) for x in args.history.split("x"))
        history = compare_history(pits, seeds, args.threads, args.repeat, args.budget, args.endgame)
        console.print(history)
    out = args.out
    out.parent.mkdir(exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "machine": platform.processor() or platform.machine(),
                "date": started,
                "load_average_start": load_start,
                "load_average_end": os.getloadavg()[0],
                "tables": tables,
                "boards": rows,
                "parallel": parallel,
                "history": history,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
