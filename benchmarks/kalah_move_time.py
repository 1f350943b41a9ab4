"""Time per move of the pure-Python Kalah program (boardgames.kalah.play.program).

The workload: the program plays itself on the 6 x 6 classic board from the start and
from a few fixed random openings (seeded), and every decision (a whole compound move,
``choose_compound``) is timed. Reported per depth: moves, median / 90th percentile /
largest time a move, median positions searched and positions per second.

    python benchmarks/kalah_move_time.py [--depths 4,5,6] [--games 4] [--eval store]

Writes benchmarks/results/kalah_move_time.json. Timings on a shared machine are noisy:
compare the medians, and the ratios between depths measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path

from boardgames.kalah.game import Kalah
from boardgames.kalah.play.program import DEFAULT_DEPTH, choose_compound


def opening(game: Kalah, seed: int) -> object:
    """The start, or (seed > 0) 4 random single sowings from it."""
    state = game.initial_state()
    rng = random.Random(seed)
    for _ in range(4 if seed else 0):
        moves = game.legal_moves(state)
        if not moves:
            break
        state, _ = game.play(state, rng.choice(moves))
    return state


def time_depth(game: Kalah, depth: int, games: int, evaluation: str) -> dict[str, object]:
    times: list[float] = []
    nodes: list[int] = []
    for seed in range(games):
        state = opening(game, seed)
        while game.outcome(state) is None:
            t0 = time.perf_counter()
            pits, result = choose_compound(game, state, depth, evaluation=evaluation)
            times.append(time.perf_counter() - t0)
            nodes.append(result.nodes)
            state = game.play_compound(state, pits)
    times_sorted = sorted(times)
    return {
        "depth": depth,
        "moves": len(times),
        "median_s": statistics.median(times),
        "p90_s": times_sorted[int(0.9 * (len(times) - 1))],
        "max_s": max(times),
        "mean_s": statistics.fmean(times),
        "median_nodes": statistics.median(nodes),
        "nodes_per_s": sum(nodes) / sum(times),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", default=f"4,5,{DEFAULT_DEPTH}")
    parser.add_argument("--games", type=int, default=4, help="Self-play games per depth.")
    parser.add_argument("--eval", dest="evaluation", default="store")
    parser.add_argument(
        "--out", default=str(Path(__file__).parent / "results" / "kalah_move_time.json")
    )
    args = parser.parse_args()
    game = Kalah()
    load_start = os.getloadavg()[0]
    started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    rows = [time_depth(game, int(d), args.games, args.evaluation) for d in args.depths.split(",")]
    print(f"Kalah 6x6 classic, pure-Python program, eval {args.evaluation}, {args.games} games")
    header = f"{'depth':>5} {'moves':>6} {'median s':>9} {'p90 s':>7} {'max s':>7} "
    print(header + f"{'med nodes':>10} {'nodes/s':>9}")
    for r in rows:
        print(
            f"{r['depth']:>5} {r['moves']:>6} {r['median_s']:9.3f} {r['p90_s']:7.3f} "
            f"{r['max_s']:7.3f} {r['median_nodes']:>10,.0f} {r['nodes_per_s']:>9,.0f}"
        )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "benchmark": "kalah_move_time",
                "date": started,
                "load_average_start": load_start,
                "load_average_end": os.getloadavg()[0],
                "default_depth": DEFAULT_DEPTH,
                "evaluation": args.evaluation,
                "games": args.games,
                "python": platform.python_version(),
                "machine": platform.processor() or platform.machine(),
                "results": rows,
            },
            indent=2,
        )
        + "\n"
    )
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
