"""Forced wins: selective deepening against plain fixed-depth alpha-beta on the same budget.

For positions from seeded random play (10 to 60 sowings from the start, unfinished ones),
plain alpha-beta (core/search.alphabeta, F2, depth in compound moves) runs at the deepest
fixed depth whose search examines at most the budget; core/search.selective gets the same
budget. Counted: positions where each proves a win for the side to move (a finished game
at the end of its line, whatever the opponent does inside its tree).

    python benchmarks/selective_wins.py            # writes benchmarks/results/selective_wins.json
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import UTC, datetime
from pathlib import Path

from boardgames.core.compare import random_positions
from boardgames.core.protocol import HEURISTIC_LIMIT, State
from boardgames.core.search import alphabeta, selective
from boardgames.kalah.game import Kalah

SETUPS = [
    (Kalah(4, 3, "classic", "store"), 300),
    (Kalah(4, 3, "classic", "tseitin"), 300),
    (Kalah(6, 2, "classic", "tseitin"), 1000),
    (Kalah(6, 6, "classic", "tseitin"), 1000),
    (Kalah(6, 6, "classic", "store"), 1000),
]


def plain_depth(game: Kalah, state: State, budget: int) -> int:
    depth = 0
    while depth < 60 and alphabeta(game, state, depth + 1).nodes <= budget:
        depth += 1
    return depth


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=150)
    ap.add_argument(
        "--out", type=Path, default=Path(__file__).parent / "results/selective_wins.json"
    )
    args = ap.parse_args()
    rows = []
    t0 = time.process_time()
    for game, budget in SETUPS:
        plain_wins = both = selective_only = 0
        for state in random_positions(game, args.positions, game.pits, (10, 60)):
            depth = plain_depth(game, state, budget)
            plain = depth > 0 and alphabeta(game, state, depth).value > HEURISTIC_LIMIT
            sel = selective(game, state, budget).value > HEURISTIC_LIMIT
            plain_wins += plain
            both += plain and sel
            selective_only += sel and not plain
        row = {
            "board": f"{game.pits}x{game.seeds}", "eval": game.evaluation, "budget": budget,
            "positions": args.positions, "plain_proves_win": plain_wins,
            "selective_proves_those_too": both, "selective_proves_others": selective_only,
        }  # fmt: skip
        rows.append(row)
        print(json.dumps(row), flush=True)
    report = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu_seconds": round(time.process_time() - t0, 1),
        "rows": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    print(f"JSON written to {args.out}")


if __name__ == "__main__":
    main()
