"""The program with proofs against the program before them, at the same time per move.

Before the fix (issue: "no false proofs") the engine stopped deepening at the first
finished game it saw at the root and called that value exact; now it asks the exact
solver to settle such a value and, when the solver cannot within its budget, goes on
deepening for a larger win. This script plays a ``kalah match`` between the two: the
present program (spec ``time=T``) against the engine module of a git revision before the
fix (``--baseline``, loaded from git, run on today's kernels), paired games with swapped
sides, and prints the match table (score with its 95% interval, mean margin, median
seconds a move of each side). Needs a git checkout with history.

    python benchmarks/proof_match.py --games 100 --time 0.2
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import multiprocessing
import statistics
import subprocess
import sys
import time
from pathlib import Path

from boardgames.kalah.game import Kalah
from boardgames.kalah.play import match

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "1ba0cbd"
"""The last commit before the engine's proofs."""


def baseline_engine_module(rev: str):
    """``boardgames/kalah/play/engine.py`` as it was at ``rev``, imported under another name."""
    source = subprocess.run(
        ["git", "show", f"{rev}:boardgames/kalah/play/engine.py"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    name = "boardgames.kalah._baseline_engine"
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    exec(compile(source, f"{rev}:boardgames/kalah/play/engine.py", "exec"), module.__dict__)
    return module


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--time", type=float, default=0.2, help="seconds a move, both sides")
    ap.add_argument("--pits", type=int, default=6)
    ap.add_argument("--seeds", type=int, default=6)
    ap.add_argument("--opening", type=int, default=4, help="random sowings before play")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--baseline", default=BASELINE, help="git revision of the old engine")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/proof_match.json")
    args = ap.parse_args()

    old = baseline_engine_module(args.baseline)
    game = Kalah(args.pits, args.seeds)
    new_spec = f"time={args.time}"
    old_spec = f"baseline:{new_spec}"
    # play_game finds its engines in this dict; the worker processes inherit it by fork
    match._ENGINES[(game, old_spec)] = old.KalahEngine(game, old.EngineConfig(time=args.time))
    match._engine(game, new_spec)
    tasks = [
        match.MatchTask(
            i, args.pits, args.seeds, "classic", new_spec, old_spec, args.opening, args.seed
        )
        for i in range(args.games)
    ]
    t0 = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        records = []
        for k, r in enumerate(pool.imap_unordered(match.play_game, tasks), 1):
            records.append(r)
            print(f"\r{k}/{args.games} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    seconds = time.perf_counter() - t0
    s = match.summarise(records)
    a_move = statistics.median(x for r in records for x in r.a_seconds)
    b_move = statistics.median(x for r in records for x in r.b_seconds)
    result = {
        "games": s.games,
        "time_per_move": args.time,
        "board": f"{args.pits}x{args.seeds}",
        "baseline": args.baseline,
        "new": {"wins": s.wins, "draws": s.draws, "losses": s.losses},
        "score": s.score,
        "ci95": s.ci95,
        "mean_margin": s.average_margin,
        "median_move_seconds": {"new": a_move, "baseline": b_move},
        "seconds": seconds,
    }
    print(f"present program vs engine of {args.baseline}, {args.time} s a move, "
          f"{args.pits}x{args.seeds}, {s.games} games ({seconds:.0f} s)")  # fmt: skip
    low, high = s.ci95
    print(f"  W/D/L {s.wins}/{s.draws}/{s.losses}, score {s.score:.3f} "
          f"(95% interval {low:.3f}-{high:.3f}), mean margin {s.average_margin:+.2f}")  # fmt: skip
    print(f"  median seconds a move: present {a_move:.3f}, baseline {b_move:.3f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
