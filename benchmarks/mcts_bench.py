"""MCTS speed: playouts and plies per second on Kalah 6 x 4 from the start, one thread.

Ours (core/mcts.py, uniform random playouts) searches the start position for ``--seconds``
per run; with ``--openspiel-python PY`` (an interpreter that has ``pyspiel``: OpenSpiel is
not a dependency of this project) OpenSpiel's C++ MCTS bot with a random-rollout evaluator
searches its ``mancala`` game (6 pits, 4 stones: the same board) for the same number of
simulations, in a child process, alternated with ours run by run. The JIT (or cache load)
time is measured apart. Medians are reported; the machine is named in the JSON.

    python benchmarks/mcts_bench.py --runs 5 --seconds 1 --openspiel-python /tmp/os/bin/python
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import time
from pathlib import Path

from boardgames.core.mcts import MctsSearcher
from boardgames.kalah.game import Kalah

ROOT = Path(__file__).resolve().parent.parent
OPENSPIEL = """
import json, sys, time, pyspiel
game = pyspiel.load_game("mancala")
n = int(sys.argv[1])
bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 1.414, n, 4000, False, 0,
                      False)
t = time.perf_counter()
bot.step(game.new_initial_state())
print(json.dumps({"simulations": n, "seconds": time.perf_counter() - t}))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--openspiel-python", default=None)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/mcts_bench.json")
    args = ap.parse_args()
    game = Kalah(6, 4)
    t0 = time.perf_counter()
    mcts = MctsSearcher(game)
    mcts.search(game.initial_state(), playouts=4)
    jit = time.perf_counter() - t0
    ours, theirs = [], []
    for run in range(args.runs):
        r = mcts.search(game.initial_state(), seconds=args.seconds, seed=run)
        ours.append({"playouts_per_s": r.rate, "plies_per_s": r.plies / r.seconds})
        if args.openspiel_python:
            sims = int(r.playouts)  # the same work as ours did in this run
            out = subprocess.run(
                [args.openspiel_python, "-c", OPENSPIEL, str(sims)],
                check=True, capture_output=True, text=True,
            ).stdout  # fmt: skip
            o = json.loads(out)
            theirs.append({"simulations_per_s": o["simulations"] / o["seconds"]})
        print(f"run {run + 1}: ours {r.rate:,.0f} playouts/s, {r.plies / r.seconds:,.0f} "
              f"plies/s" + (f"; OpenSpiel MCTS {theirs[-1]['simulations_per_s']:,.0f} "
                            "simulations/s" if theirs else ""))  # fmt: skip
    result = {
        "machine": f"{platform.processor() or platform.machine()}, {platform.node()}",
        "jit_seconds": jit,
        "ours_median_playouts_per_s": statistics.median(x["playouts_per_s"] for x in ours),
        "ours_median_plies_per_s": statistics.median(x["plies_per_s"] for x in ours),
        "openspiel_median_simulations_per_s": (
            statistics.median(x["simulations_per_s"] for x in theirs) if theirs else None
        ),
        "runs": {"ours": ours, "openspiel": theirs},
    }
    print(json.dumps({k: v for k, v in result.items() if k != "runs"}, indent=2))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
