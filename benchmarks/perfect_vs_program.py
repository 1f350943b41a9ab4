"""The generic ``perfect`` player of Kalah against ``kalah play``'s program, at equal time.

``boardgames play kalah --level perfect`` plays Kalah's ``perfect`` player (the endgame
tables and the exact solver first, then Kalah's program); ``boardgames kalah play --time
T`` plays Kalah's program (MTD(f), Tseitin's evaluation, the tables and proofs). Both get
``--seconds`` a move here. Games come in pairs from random openings with the sides
swapped (:func:`boardgames.core.match.match`); the table counts from ``perfect``'s side.

Both sides compile (or load) their kernels in this process before their first move (no
background compile: ``BOARDGAMES_BACKGROUND_WARM=0``), so that no move is played by the
pure-Python fallback; ``boardgames cache warm kalah`` first saves that time. Then::

    python benchmarks/perfect_vs_program.py --pits 6 --seeds 4 --seconds 0.5 --openings 10

Writes ``benchmarks/results/perfect_vs_program_<pits>x<seeds>.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console
from rich.table import Table

os.environ["BOARDGAMES_BACKGROUND_WARM"] = "0"  # compile here, never the Python fallback

from boardgames.core.match import match, openings
from boardgames.kalah.game import Kalah
from boardgames.kalah.play.engine import EngineConfig
from boardgames.kalah.players import KalahPerfect, KalahProgram

RESULTS = Path(__file__).parent / "results"
"""Where ``perfect_vs_program_<pits>x<seeds>.json`` is written."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=0.5, help="time a move, both sides")
    parser.add_argument("--openings", type=int, default=10, help="two games each")
    parser.add_argument("--plies", type=int, default=4, help="random sowings an opening")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    console = Console(stderr=True)
    game = Kalah(args.pits, args.seeds, "classic", "tseitin")
    perfect = KalahPerfect(args.seconds)
    program = KalahProgram(EngineConfig(time=args.seconds), "kalah play")
    lines = openings(game, args.plies, args.openings, args.seed)
    t0 = time.perf_counter()

    def done(played: int, total: int) -> None:
        spent = time.perf_counter() - t0
        left = spent / played * (total - played)
        console.print(f"{played}/{total} games, {spent:.0f} s, about {left:.0f} s left")

    result = match(game, perfect, program, lines, done=done)
    table = Table(title=f"perfect against kalah play, {args.seconds:g} s a move, "
                  f"{args.pits}x{args.seeds}, {len(result.games)} games")  # fmt: skip
    for column in ("wins", "draws", "losses", "margin (sum)", "perfect s/move", "program s/move"):
        table.add_column(column, justify="right")
    moves_a = sum(g["moves"] for g in result.games) / 2 or 1
    table.add_row(
        str(result.wins), str(result.draws), str(result.losses), f"{result.margin:+d}",
        f"{sum(g['a_seconds'] for g in result.games) / moves_a:.2f}",
        f"{sum(g['b_seconds'] for g in result.games) / moves_a:.2f}",
    )  # fmt: skip
    Console().print(table)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"perfect_vs_program_{args.pits}x{args.seeds}.json").write_text(
        json.dumps(
            {
                "when": datetime.now(UTC).isoformat(timespec="seconds"),
                "machine": platform.processor() or platform.machine(),
                "args": vars(args),
                **result.as_json(),
            },
            indent=1,
        )
        + "\n"
    )


if __name__ == "__main__":
    main()
