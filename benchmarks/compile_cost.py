"""Compile cost against run-time speed: this tree's kernels next to another commit's.

Two copies of the ``boardgames`` package are measured in the same run, alternately (A B,
then B A, ...), so that load from other work on the machine hits both alike:

* *this*: the package in this repository's working tree;
* *--against REF*: the package at git commit REF (``git archive``), by default the commit
  before the compile-cost work of issue 31.

For each copy and round:

* **compile**: every step of ``boardgames cache warm`` (the kernels each command loads) in
  a fresh process on an empty ``NUMBA_CACHE_DIR``: seconds, and the kernels that took the
  most (numba's ``numba:compile`` events, own time with what compiled inside);
* **run**: in a fresh process whose kernels are already compiled (loaded, then timed),
  the searches the commands run, each the median of ``--inner`` runs in CPU seconds
  (one-thread work) or wall seconds (the endgame build, which uses every core), with the
  answer (value and positions) that must be the same for both copies.

    python benchmarks/compile_cost.py [--against REF] [--repeat 3] [--inner 3]
                                      [--json benchmarks/results/compile_cost.json]

Prints a markdown table: medians per copy and the ratio this/REF (below 1: this is faster).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_AGAINST = "26bd950"
"""The last commit before issue 31's compile-cost changes."""

STEPS = [
    ("program 6x6 (play, analyse)", "boardgames.kalah.play.warm:program_classic"),
    ("solver (solve)", "boardgames.kalah.play.warm:solver"),
    ("endgame builder", "boardgames.kalah.play.warm:endgame"),
    ("strategies (compare kalah)", "boardgames.kalah.play.warm:compare"),
    ("MCTS (kalah)", "boardgames.kalah.play.warm:mcts"),
    ("strategies (nim)", "boardgames.nim.warm:searcher"),
    ("queens counting", "boardgames.queens.warm:counting"),
    ("queens constellations", "boardgames.queens.warm:constellations"),
]


# --- children ----------------------------------------------------------------------------


def _child_compile(target: str) -> None:
    """Run one warm step and print its seconds and the costliest kernels as JSON."""
    import importlib

    from numba.core import event

    started: dict[tuple[int, str], float] = {}
    own: dict[str, float] = {}

    class Listener(event.Listener):
        def on_start(self, ev: Any) -> None:
            started[id(ev.data["dispatcher"]), str(ev.data["args"])] = time.perf_counter()

        def on_end(self, ev: Any) -> None:
            key = (id(ev.data["dispatcher"]), str(ev.data["args"]))
            name = ev.data["dispatcher"].py_func.__qualname__.replace("<locals>.", "")
            own[name] = own.get(name, 0.0) + time.perf_counter() - started.pop(key)

    event.register("numba:compile", Listener())
    module, name = target.split(":")
    t0 = time.perf_counter()
    getattr(importlib.import_module(module), name)()
    seconds = time.perf_counter() - t0
    top = sorted(own.items(), key=lambda kv: -kv[1])[:4]
    print(json.dumps({"seconds": seconds, "top": top}))


def _median_run(fn: Any, inner: int, clock: Any) -> tuple[float, Any]:
    fn()  # load the kernels (and warm the caches) outside the time
    times, answer = [], None
    for _ in range(inner):
        t0 = clock()
        answer = fn()
        times.append(clock() - t0)
    return statistics.median(times), answer


def _workloads() -> dict[str, tuple[Any, Any]]:
    """name -> (function returning a comparable answer, clock)."""
    from boardgames.core.mcts import MctsSearcher
    from boardgames.core.strategies import numba_searcher
    from boardgames.kalah.exact.solver import Solver
    from boardgames.kalah.game import Kalah
    from boardgames.kalah.play.engine import EngineConfig, KalahEngine
    from boardgames.nim.game import Nim
    from boardgames.queens.counting import run_count

    cpu, wall = time.process_time, time.perf_counter
    k64 = Kalah(6, 4, "classic", "store")
    root = k64.initial_state()
    big = Kalah(6, 6, "classic", "tseitin")
    nim = Nim((2, 3, 4, 6), False)
    # every run starts afresh (new transposition tables, new trees): a second run must
    # not profit from the first

    def ab() -> Any:
        r = numba_searcher(k64).run("alphabeta", root, 13, again_is_ply=True)
        return r.value, r.nodes

    def mtdf() -> Any:
        r = numba_searcher(k64).run("mtdf", root, 18, again_is_ply=True)
        return r.value, r.nodes

    def move() -> Any:
        a = KalahEngine(big, EngineConfig(depth=11, prove_nodes=0)).best_move(big.initial_state())
        return a.move, a.value, a.nodes

    def solve() -> Any:
        r = Solver(5, hash_mb=64, threads=1).solve(Kalah(5, 4).initial_state())
        return r.value, r.nodes

    def build() -> Any:
        from boardgames.kalah.exact import endgame

        table = endgame.build(6, 15)
        return table.value(Kalah(6, 1).initial_state()), table.stones

    def mcts() -> Any:
        r = MctsSearcher(k64).search(root, playouts=300_000, seed=1)
        return r.move

    def nim_ab() -> Any:
        r = numba_searcher(nim).run("alphabeta", nim.initial_state(), 40)
        return r.value, r.nodes

    def queens() -> Any:
        return run_count(15, "numba").count

    def constellations() -> Any:
        return run_count(16, "constellations").count

    def symmetry() -> Any:
        return run_count(15, "symmetry", fundamental=True).count

    def rotations() -> Any:
        return run_count(15, "numba", fundamental=True).count

    return {
        "alphabeta 6x4 depth 13 (compare)": (ab, cpu),
        "mtdf 6x4 depth 18 (compare)": (mtdf, cpu),
        "program move 6x6 depth 11 (play)": (move, cpu),
        "solve 5x4, no table, 1 thread": (solve, cpu),
        "endgame table 6 pits, 15 stones": (build, wall),
        "mcts 6x4, 300,000 playouts": (mcts, cpu),
        "nim 2 3 4 6 alphabeta": (nim_ab, cpu),
        "queens count 15 (numba)": (queens, cpu),
        "queens count 16 (constellations)": (constellations, cpu),
        "queens count 15 --fundamental (symmetry)": (symmetry, cpu),
        "queens count 15 --fundamental (numba + rotations)": (rotations, cpu),
    }


def _child_run(inner: int) -> None:
    out = {}
    for name, (fn, clock) in _workloads().items():
        seconds, answer = _median_run(fn, inner, clock)
        out[name] = {"seconds": seconds, "answer": repr(answer)}
    print(json.dumps(out))


# --- parent ------------------------------------------------------------------------------


def _extract(ref: str, into: Path) -> Path:
    data = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref, "boardgames"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def _child(tree: Path, cache: Path, args: list[str]) -> dict[str, Any]:
    env = dict(
        os.environ,
        PYTHONPATH=str(tree),
        NUMBA_CACHE_DIR=str(cache),
        BOARDGAMES_CACHE=str(cache / "tables"),
        BOARDGAMES_BACKGROUND_WARM="0",
    )
    p = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), *args],
        env=env,
        capture_output=True,
        text=True,
        cwd=tempfile.gettempdir(),
    )
    if p.returncode != 0:
        raise SystemExit(f"{tree.name}: {' '.join(args)} failed:\n{p.stderr[-2000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--against", default=DEFAULT_AGAINST, help="git commit to compare with")
    ap.add_argument("--this", type=Path, default=ROOT, help="folder holding the package to measure")
    ap.add_argument("--repeat", type=int, default=3, help="rounds (each copy once a round)")
    ap.add_argument("--inner", type=int, default=3, help="timed runs of each workload")
    ap.add_argument("--no-run", action="store_true", help="compile times only")
    ap.add_argument("--steps", help="only the warm steps whose label contains this text")
    ap.add_argument("--json", type=Path, default=ROOT / "benchmarks/results/compile_cost.json")
    ap.add_argument("--child-compile", help=argparse.SUPPRESS)
    ap.add_argument("--child-run", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child_compile:
        return _child_compile(args.child_compile)
    if args.child_run:
        return _child_run(args.inner)

    work = Path(tempfile.mkdtemp(prefix="compile-cost-"))
    try:
        trees = {"this": args.this, args.against: _extract(args.against, work / "against")}
        warm = {name: work / f"warm-{i}" for i, name in enumerate(trees)}
        compile_s: dict[str, dict[str, list[float]]] = {n: {} for n in trees}
        tops: dict[str, dict[str, Any]] = {n: {} for n in trees}
        runs: dict[str, dict[str, list[float]]] = {n: {} for n in trees}
        answers: dict[str, dict[str, str]] = {n: {} for n in trees}
        for r in range(args.repeat):
            order = list(trees) if r % 2 == 0 else list(reversed(trees))
            for name in order:
                for label, target in STEPS:
                    if args.steps and args.steps not in label:
                        continue
                    cache = work / "cold"
                    shutil.rmtree(cache, ignore_errors=True)
                    cache.mkdir()
                    res = _child(trees[name], cache, ["--child-compile", target])
                    compile_s[name].setdefault(label, []).append(res["seconds"])
                    tops[name][label] = res["top"]
                    print(f"round {r + 1} {name}: {label} {res['seconds']:.1f} s", file=sys.stderr)
                if not args.no_run:
                    warm[name].mkdir(exist_ok=True)
                    run_args = ["--child-run", "--inner", str(args.inner)]
                    res = _child(trees[name], warm[name], run_args)
                    for label, v in res.items():
                        runs[name].setdefault(label, []).append(v["seconds"])
                        answers[name][label] = v["answer"]
                    print(f"round {r + 1} {name}: run done", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    a, b = list(trees)
    report = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": (
            f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"
        ),
        "against": args.against,
        "repeat": args.repeat,
        "inner": args.inner,
        "compile": compile_s,
        "compile_top": tops,
        "run": runs,
        "answers": answers,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=1) + "\n")

    med = statistics.median
    print(f"Compile (fresh process, empty numba cache), median of {args.repeat}; ", end="")
    print(report["machine"])
    print(f"\n| warm step | {a} s | {b} s | {a}/{b} |\n|---|---:|---:|---:|")
    tot_a = tot_b = 0.0
    for label, _ in STEPS:
        if label not in compile_s[a]:
            continue
        x, y = med(compile_s[a][label]), med(compile_s[b][label])
        tot_a, tot_b = tot_a + x, tot_b + y
        print(f"| {label} | {x:.1f} | {y:.1f} | {x / y:.2f} |")
    print(f"| **all steps** | {tot_a:.1f} | {tot_b:.1f} | {tot_a / tot_b:.2f} |")
    if args.no_run:
        return
    print(f"\n| run (kernels loaded) | {a} s | {b} s | {a}/{b} | same answer |")
    print("|---|---:|---:|---:|---|")
    for label in runs[a]:
        x, y = med(runs[a][label]), med(runs[b][label])
        same = "yes" if answers[a][label] == answers[b][label] else "**no**"
        print(f"| {label} | {x:.3f} | {y:.3f} | {x / y:.2f} | {same} |")


if __name__ == "__main__":
    main()
