"""Where random playouts are blind: how often MCTS finds a Bouton winning move in Nim.

For every winning position below a start (every rows vector with at most as many chips in
each row as the start, nim-sum not 0), and several seeds, MCTS with a budget of playouts
chooses a move; the table gives the share of (position, seed) pairs where that move is one
of Bouton's winning moves (nim/rules.py), per budget, with MCTS-Solver's proofs counted
apart (a proven root means the search reached the end of every line).

    python benchmarks/mcts_nim.py --start 3 4 5 --budgets 100 1000 10000 --seeds 5
    python benchmarks/mcts_nim.py --start 7 7 7 7 --budgets 100 1000 10000 --seeds 2
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from boardgames.nim.verify import mcts_against_bouton

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--start", type=int, nargs="+", default=[3, 4, 5])
    ap.add_argument("--budgets", type=int, nargs="+", default=[100, 1000, 10000])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--misere", action="store_true")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    start = tuple(args.start)
    name = "-".join(map(str, start)) + (" misère" if args.misere else "")
    print(f"Nim {name}: every winning position x {args.seeds} seeds")
    print(f"{'playouts':>9} {'Bouton move':>12} {'proven':>8} {'seconds':>8}")
    results = []
    positions = 0
    for budget in args.budgets:
        r = mcts_against_bouton(start, args.misere, budget, args.seeds, limit=None)
        positions = r.positions
        results.append({"playouts": budget, "bouton_share": r.share,
                        "proven_share": r.proven / r.searches, "seconds": r.seconds})  # fmt: skip
        print(f"{budget:>9,} {r.share:>12.1%} {r.proven / r.searches:>8.1%} {r.seconds:>8.1f}")
    out = args.out or ROOT / f"benchmarks/results/mcts_nim_{'-'.join(map(str, start))}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"start": start, "misere": args.misere, "seeds": args.seeds,
                               "positions": positions, "results": results}, indent=2)
                   + "\n")  # fmt: skip


if __name__ == "__main__":
    main()
