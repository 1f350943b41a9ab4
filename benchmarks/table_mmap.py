"""What using an endgame table memory-mapped from its file costs against the table read
into memory.

``endgame.load_cached(..., mmap=True)`` maps the file (copy-on-write, read only in
practice) instead of copying it onto huge pages: nothing is copied and the page cache is
shared by every process that maps the table, but each lookup goes through the file's
4 KiB pages (more TLB misses than the copy's 2 MiB pages) and the first touch of a page
costs a minor fault. This script measures both, alternately, with the file in the page
cache:

- random lookups: a numba loop reading the table at pseudo-random places (what the
  search does, without the search), nanoseconds per lookup;
- solves: ``Solver(threads=1).solve(guess=0)`` of positions of random 6 x 4 games once
  they have ``--target`` stones left in the pits, where the search is mostly table
  lookups; each run solves them all with a fresh solver, and the values and node counts
  must agree (the fixed first guess makes the search the same every time).

Three tables: ``memory`` (read in, checked), ``mapped`` (one mapping kept for every run,
as a worker that serves many jobs keeps it) and ``mapped_fresh`` (mapped again for each
run without checking, so its run pays the first touches). Medians, ratios to ``memory``
and the load average go to benchmarks/results/table_mmap.json.

    python benchmarks/table_mmap.py                 # 6 pits, the 22-stone table
    python benchmarks/table_mmap.py --runs 7 --target 42 --positions 4

The table comes from your cache (read only) or is built (22 stones on 6 pits: several
minutes on 2 cores).
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

import numpy as np
from numba import njit

from boardgames.kalah.exact import endgame, index
from boardgames.kalah.exact.solver import Solver
from boardgames.kalah.game import Kalah

RESULTS = Path(__file__).resolve().parent / "results"


@njit(cache=True, nogil=True)
def random_lookups(table, count, seed):
    """Sum of ``table`` at ``count`` pseudo-random places (xorshift64), so that no read
    is optimised away."""
    x = np.uint64(seed) | np.uint64(1)
    n = np.uint64(table.shape[0])
    total = 0
    for _ in range(count):
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
        total += table[np.int64(x % n)]
    return total


def positions(pits: int, seeds: int, target: int, count: int) -> list[np.ndarray]:
    """Positions of random games on ``pits`` x ``seeds`` once at most ``target`` stones are
    left in the pits (games that end before are skipped)."""
    game = Kalah(pits, seeds)
    found: list[np.ndarray] = []
    seed = 0
    while len(found) < count:
        rng = np.random.default_rng(seed)
        seed += 1
        state = game.initial_state()
        while index.pit_stones(state, pits) > target and game.outcome(state) is None:
            state, _ = game.play(state, int(rng.choice(game.legal_moves(state))))
        if game.outcome(state) is None:
            found.append(state)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=4, help="stones per pit at the start")
    parser.add_argument("--stones", type=int, default=22, help="the table's stone limit")
    parser.add_argument("--target", type=int, default=42, help="stones left in the positions")
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--lookups", type=int, default=20_000_000)
    parser.add_argument("--out", type=Path, default=RESULTS / "table_mmap.json")
    args = parser.parse_args()
    pits, stones = args.pits, args.stones
    started = datetime.now(UTC).isoformat(timespec="seconds")
    load_start = os.getloadavg()
    path = endgame.cache_path(pits, stones, "classic")
    if not path.exists():
        print(f"building the {stones}-stone table on {pits} pits (not cached)...", flush=True)
        endgame.load_or_build(pits, stones)
    print(f"table {path}", flush=True)
    t0 = time.perf_counter()
    memory = endgame.load_cached(pits, stones)
    load_seconds = time.perf_counter() - t0
    t0 = time.perf_counter()
    mapped = endgame.load_cached(pits, stones, mmap=True)
    map_seconds = time.perf_counter() - t0
    t0 = time.perf_counter()
    endgame.load_cached(pits, stones, mmap=True, verify=False)
    map_unchecked_seconds = time.perf_counter() - t0
    states = positions(pits, args.seeds, args.target, args.positions)

    def fresh() -> endgame.EndgameTable:
        return endgame.load_cached(pits, stones, mmap=True, verify=False)

    tables = {"memory": lambda: memory, "mapped": lambda: mapped, "mapped_fresh": fresh}
    random_lookups(memory.table, 1000, 1)  # compiled (or loaded from numba's cache)
    Solver(pits, endgame=memory, threads=1).solve(states[-1], guess=0)  # the solver's kernels
    lookups: dict[str, list[float]] = {k: [] for k in tables}
    solves: dict[str, list[float]] = {k: [] for k in tables}
    loads = []
    reference: list[tuple[int, int]] | None = None
    for i in range(args.runs):
        order = list(tables) if i % 2 == 0 else list(reversed(tables))
        for name in order:
            table = tables[name]()
            t0 = time.perf_counter()
            random_lookups(table.table, args.lookups, 12345 + i)
            lookups[name].append(time.perf_counter() - t0)
        for name in order:
            table = tables[name]()
            t0 = time.perf_counter()
            results = [Solver(pits, endgame=table, threads=1).solve(s, guess=0) for s in states]
            solves[name].append(time.perf_counter() - t0)
            got = [(r.value, r.nodes) for r in results]
            reference = reference or got
            assert got == reference, (name, got, reference)
        loads.append(os.getloadavg()[0])
        print(f"run {i + 1}/{args.runs} done (load average {loads[-1]:.2f})", flush=True)
    med_look = {k: statistics.median(v) for k, v in lookups.items()}
    med_solve = {k: statistics.median(v) for k, v in solves.items()}
    assert reference is not None
    nodes = sum(n for _, n in reference)
    print()
    print(f"{pits} pits, {stones} stones ({memory.nbytes:,} bytes), {len(states)} positions")
    print(f"{'table':<13} {'ns/lookup':>10} {'ratio':>6} {'solve s':>8} {'ratio':>6}")
    for name in tables:
        ns = med_look[name] / args.lookups * 1e9
        print(
            f"{name:<13} {ns:10.1f} {med_look[name] / med_look['memory']:6.2f} "
            f"{med_solve[name]:8.2f} {med_solve[name] / med_solve['memory']:6.2f}"
        )
    print(
        f"load (copy) {load_seconds:.2f} s; map (and check) {map_seconds:.2f} s; "
        f"map unchecked {map_unchecked_seconds:.4f} s; load average {loads}"
    )
    report = {
        "benchmark": "table_mmap",
        "date": started,
        "machine": platform.machine(),
        "cores": os.cpu_count(),
        "load_average_start": list(load_start),
        "load_average_runs": loads,
        "pits": pits,
        "stones": stones,
        "bytes": memory.nbytes,
        "file_checked": memory.verified,
        "load_seconds": load_seconds,
        "map_and_check_seconds": map_seconds,
        "map_unchecked_seconds": map_unchecked_seconds,
        "positions": [s.tolist() for s in states],
        "target_stones": args.target,
        "values_and_nodes": reference,
        "nodes_per_run": nodes,
        "runs": args.runs,
        "lookups_per_run": args.lookups,
        "lookup_seconds": lookups,
        "solve_seconds": solves,
        "median_lookup_ns": {k: v / args.lookups * 1e9 for k, v in med_look.items()},
        "median_solve_seconds": med_solve,
        "lookup_ratio_to_memory": {k: v / med_look["memory"] for k, v in med_look.items()},
        "solve_ratio_to_memory": {k: v / med_solve["memory"] for k, v in med_solve.items()},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
