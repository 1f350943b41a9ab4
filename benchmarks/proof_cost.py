"""What the engine's proofs cost: how often a search ends on a finished game, how often the
exact solver settles it within the budget, and the solver's positions per second.

Positions: random 6 x 6 games (``--positions``, random sowings ``--plies``), the engine at
a fixed depth with the default proof budget (the solver with the table play uses).

    python benchmarks/proof_cost.py --positions 200 --depth 10
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from boardgames.core.protocol import score_margin
from boardgames.kalah.exact.solver import SearchStopped, Solver
from boardgames.kalah.game import Kalah
from boardgames.kalah.play import program
from boardgames.kalah.play.engine import PROOF_NODES, PROOF_TABLE_MIB, EngineConfig, KalahEngine

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--plies", type=int, nargs=2, default=(20, 60))
    ap.add_argument("--pits", type=int, default=6)
    ap.add_argument("--seeds", type=int, default=6)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/proof_cost.json")
    args = ap.parse_args()
    game = Kalah(args.pits, args.seeds)
    t0 = time.perf_counter()
    table = program.proof_table(game)
    table_seconds = time.perf_counter() - t0
    engine = KalahEngine(game, EngineConfig(depth=args.depth), tables=lambda: table)
    engine.solver()  # compiled and its table loaded before the clock runs
    rng = random.Random(1)
    attempts = proved = 0
    rates: list[int] = []
    proof_seconds: list[float] = []
    search_seconds: list[float] = []
    done = 0
    while done < args.positions:
        s = game.initial_state()
        for _ in range(rng.randint(*args.plies)):
            legal = game.legal_moves(s)
            if not legal:
                break
            s, _ = game.play(s, rng.choice(legal))
        if game.outcome(s) is not None:
            continue
        done += 1
        t = time.perf_counter()
        answer = engine.search(s)
        search_seconds.append(time.perf_counter() - t)
        # the proof ran if the search ended on a finished game: proven or a bound
        if answer.exact or answer.bound is not None:
            attempts += 1
            proved += answer.exact
            # the proof again on a fresh solver (the engine's table now holds the answer)
            solver = Solver(game.pits, hash_mb=PROOF_TABLE_MIB, endgame=table)
            t = time.perf_counter()
            try:
                solved = solver.solve(s, node_limit=PROOF_NODES, guess=score_margin(answer.value))
                seconds = time.perf_counter() - t
                proof_seconds.append(seconds)
                rates.append(solved.nodes)
            except SearchStopped:  # over the budget: no rate
                pass
    result = {
        "board": f"{args.pits}x{args.seeds}",
        "depth": args.depth,
        "positions": done,
        "finished_game_at_root": attempts,
        "proved": proved,
        "table_stones": table.stones if table else None,
        "table_seconds": table_seconds,
        "median_search_seconds": statistics.median(search_seconds),
        "median_proof_seconds": statistics.median(proof_seconds) if proof_seconds else None,
        "max_proof_seconds": max(proof_seconds, default=None),
        "proof_positions": sum(rates),
        "solver_rate": sum(rates) / sum(proof_seconds) if proof_seconds else None,
    }
    print(json.dumps(result, indent=2))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
