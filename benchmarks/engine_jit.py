"""How should a game's jitted rule functions reach the generic search? Measured.

Two designs, each run three times in a fresh interpreter sharing one empty numba cache
directory, timing the first search (Kalah 6x4, depth 2: the time is compile or cache load):

* ``argument``: one generic ``@njit(cache=True)`` alpha-beta that takes the rule functions
  as arguments (numba's first-class dispatcher arguments);
* ``closure`` (the project's design, core/kernels.py): per-game kernels made as closures
  over the rule functions, with an on-disk cache keyed by the game's kernel source.

If caching works, runs 2 and 3 are much faster than run 1. Also times the plain search on
the reference workload (depth 12) for both designs, so that the speed cost of each is seen.

Run:  python benchmarks/engine_jit.py        (writes benchmarks/results/engine_jit.json)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

ARGUMENT = r"""
import sys, time
t0 = time.perf_counter()
import numpy as np
from numba import njit
from boardgames.kalah import kernels as kk
from boardgames.core.kernels import NOT_OVER, terminal

@njit(cache=True)
def f2(gen, apply, result, evaluate, states, moves, params, ply, depth, alpha, beta, cnt):
    cnt[0] += 1
    r = result(states, ply, params)
    if r != NOT_OVER:
        return terminal(r, ply)
    if depth <= 0:
        return evaluate(states, ply, params)
    n = gen(states, ply, params, moves)
    m = alpha
    for i in range(n):
        again = apply(states, ply, moves[ply, i], params)
        if again:
            t = f2(gen, apply, result, evaluate, states, moves, params,
                   ply + 1, depth - 1, m, beta, cnt)
        else:
            t = -f2(gen, apply, result, evaluate, states, moves, params,
                    ply + 1, depth - 1, -beta, -m, cnt)
        if t > m:
            m = t
            if m >= beta:
                break
    return m

states = np.zeros((64, 15), np.int64)
states[0] = [4] * 6 + [0] + [4] * 6 + [0, 0]
moves = np.zeros((64, 12), np.int64)
params = kk.make_params(6, "classic", "store", 48)
cnt = np.zeros(1, np.int64)
args = (kk.gen_moves, kk.apply_move, kk.result, kk.evaluate)
t1 = time.perf_counter()
f2(*args, states, moves, params, 0, 2, -4 * 10**9, 4 * 10**9, cnt)
t2 = time.perf_counter()
cnt[0] = 0
v = f2(*args, states, moves, params, 0, 12, -4 * 10**9, 4 * 10**9, cnt)
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2, v, cnt[0])
"""

CLOSURE = r"""
import time
t0 = time.perf_counter()
from boardgames.core.strategies import NumbaSearcher
from boardgames.kalah.game import Kalah
game = Kalah(6, 4)
s = NumbaSearcher(game, 1)
t1 = time.perf_counter()
s.run("alphabeta", game.initial_state(), 2, again_is_ply=True)
t2 = time.perf_counter()
r = s.run("alphabeta", game.initial_state(), 12, again_is_ply=True)
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2, r.value, r.nodes)
"""


def main() -> None:
    console = Console()
    report: dict[str, list[dict[str, float]]] = {}
    for name, code in (("argument", ARGUMENT), ("closure", CLOSURE)):
        with tempfile.TemporaryDirectory() as cache:
            script_dir = Path(cache) / "scripts"
            script_dir.mkdir()
            rows = []
            for i in range(3):
                # the same script file each time, so numba may reuse its cache
                path = script_dir / "first.py"
                path.write_text(code)
                env = {**os.environ, "NUMBA_CACHE_DIR": cache}
                out = subprocess.run(
                    [sys.executable, str(path)], env=env, capture_output=True, text=True, check=True
                )
                imp, first, search, value, nodes = (float(x) for x in out.stdout.split())
                rows.append(
                    {"run": i + 1, "import": imp, "first_search": first, "depth12": search,
                     "value": value, "nodes": nodes}
                )  # fmt: skip
                console.log(
                    f"{name} run {i + 1}: first search {first:.2f} s, depth 12 {search:.3f} s"
                )
            report[name] = rows
    out_path = Path(__file__).parent / "results/engine_jit.json"
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(json.dumps(report, indent=2) + "\n")
    table = Table(title="Passing rule functions to the jitted search (fresh process each run)")
    for col in ("design", "run", "import s", "first search s (JIT)", "depth-12 search s"):
        table.add_column(col, justify="left" if col == "design" else "right")
    for name, rows in report.items():
        for r in rows:
            table.add_row(
                name, str(r["run"]), f"{r['import']:.2f}", f"{r['first_search']:.2f}",
                f"{r['depth12']:.3f}",
            )  # fmt: skip
    console.print(table)
    console.print(f"JSON written to {out_path}")


if __name__ == "__main__":
    main()
