"""Random play, steps per second: the batched environment (boardgames/envs/batch.py) against
PettingZoo's ``connect_four_v3``, OpenSpiel (a Python loop over the C++ game) and pgx
(``jax.vmap`` + ``jax.jit`` on the CPU, when it is installed: ``pip install
'boardgames[bench]'``), on Connect Four 7 x 6 and Kalah 6 x 4 (OpenSpiel's ``mancala``;
PettingZoo has no Kalah: ours, ``boardgames.envs.make("kalah")``, stands in; pgx has none),
batch sizes 1 to 4,096, in one run; then the Connect Four dataset's positions per second.

A step is one move in one game: a uniformly random legal action chosen (for ours inside
the batch's step kernel, ``step_random()``, the same draws as ``random_actions()``; inside
``jax.jit`` for pgx; in Python for the one-game loops) and played, with everything each
library returns for it (ours: the observations, legal masks, rewards,
terminated/truncated, the side to move, and the last observation and position of every
finished game), finished games restarted. Each
measurement runs about ``--seconds``; the median of ``--runs`` is kept; at each batch size
ours, pgx and the one-game loops are measured in turns (ours, pgx, PettingZoo, OpenSpiel,
ours, pgx ...), so that the machine's load falls on all of them alike and every ratio
compares runs made at the same time. Compile and warm-up time is left out (measured apart for ours).

    nice python benchmarks/batch_env_bench.py --runs 3 --seconds 1

Writes benchmarks/results/batch_env.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
SIZES = (1, 16, 256, 1024, 4096)


def rate(step: Callable[[], int], seconds: float) -> float:
    """Steps/s of ``step`` (which returns the steps it made) over about ``seconds``."""
    t0 = time.perf_counter()
    done = 0
    while time.perf_counter() - t0 < seconds:
        done += step()
    return done / (time.perf_counter() - t0)


def interleaved(
    steps: dict[str, Callable[[], int] | None], seconds: float, runs: int
) -> dict[str, float | None]:
    """Median steps/s of each of ``steps``, measured in turns (one run of each, then
    again), so that a change of the machine's load falls on all of them alike."""
    live = {k: f for k, f in steps.items() if f is not None}
    for f in live.values():
        f()
    rates: dict[str, list[float]] = {k: [] for k in live}
    for _ in range(runs):
        for k, f in live.items():
            rates[k].append(rate(f, seconds))
    return {k: (statistics.median(rates[k]) if k in rates else None) for k in steps}


def ours(name: str, n: int, parallel: bool, **options: Any) -> Callable[[], int]:
    """One step of random play in ``n`` batched games: ``step_random()``, which draws a
    random legal action in each game (each game its own generator) inside the step's
    kernel, as pgx draws inside ``jit`` (the same games as ``step(random_actions())``)."""
    from boardgames.envs.batch import batch

    b = batch(name, n, parallel=parallel, **options)
    b.reset(seed=0)

    def step() -> int:
        b.step_random()
        return n

    return step


def pettingzoo_loop(env: Any) -> Callable[[], int]:
    """A hundred random moves in one PettingZoo AEC game (restarted when it ends)."""
    rng = np.random.default_rng(0)
    env.reset(seed=0)

    def step() -> int:
        done = 0
        for _ in range(100):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.reset()
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            done += 1
        return done

    return step


def openspiel_loop(game_name: str) -> Callable[[], int]:
    """Two hundred random moves in one OpenSpiel game (a Python loop over the C++ game)."""
    import pyspiel

    game = pyspiel.load_game(game_name)
    rng = np.random.default_rng(0)
    box = {"state": game.new_initial_state()}

    def step() -> int:
        done = 0
        state = box["state"]
        for _ in range(200):
            if state.is_terminal():
                state = game.new_initial_state()
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            done += 1
        box["state"] = state
        return done

    return step


def pgx_step(n: int) -> Callable[[], int] | None:
    """Ten steps of random play in ``n`` pgx games (``jax.vmap``, one ``jax.jit``: the
    actions drawn from the legal masks, the step, finished games restarted)."""
    try:
        import jax
        import pgx
    except ImportError:
        return None
    env = pgx.make("connect_four")
    init = jax.jit(jax.vmap(env.init))
    step_fn = jax.jit(jax.vmap(env.step))

    @jax.jit
    def act(state: Any, key: Any) -> Any:
        logits = jax.numpy.where(state.legal_action_mask, 0.0, -1e9)
        key, sub = jax.random.split(key)
        action = jax.random.categorical(sub, logits, axis=-1)
        state = step_fn(state, action)
        # restart finished games
        fresh = init(jax.random.split(sub, n))
        done = state.terminated | state.truncated
        state = jax.tree_util.tree_map(
            lambda a, b: jax.numpy.where(done.reshape((-1,) + (1,) * (a.ndim - 1)), b, a),
            state,
            fresh,
        )
        return state, key

    key = jax.random.PRNGKey(0)
    box = {"state": init(jax.random.split(key, n)), "key": key}

    def step() -> int:
        for _ in range(10):
            box["state"], box["key"] = act(box["state"], box["key"])
        box["state"].current_player.block_until_ready()
        return 10 * n

    return step


def dataset_rates(seconds_budget: float) -> dict[str, Any]:
    """Positions/s of the Connect Four dataset: every 5 x 4 position, and a sample of the
    7 x 6 8-ply positions (all of them would take the time given)."""
    from boardgames.connect4 import dataset as D
    from boardgames.connect4.game import ConnectFour

    out: dict[str, Any] = {}
    small = ConnectFour(5, 4)
    words = D.every_position(small)
    t0 = time.perf_counter()
    D.label_positions(small, words)
    dt = time.perf_counter() - t0
    out["5x4_all"] = {"positions": len(words), "seconds": round(dt, 2),
                      "positions_per_second": round(len(words) / dt, 1)}  # fmt: skip
    big = ConnectFour(7, 6)
    t0 = time.perf_counter()
    eight = D.positions_by_ply(big, 8)
    enum = time.perf_counter() - t0
    rng = np.random.default_rng(0)
    sample = [eight[i] for i in rng.permutation(len(eight))]
    done, t0 = 0, time.perf_counter()
    while done < len(sample) and time.perf_counter() - t0 < seconds_budget:
        D.label_positions(big, sample[done : done + 1])
        done += 1
    dt = time.perf_counter() - t0
    rate = done / dt
    total = len(eight) / rate
    out["7x6_ply8"] = {
        "positions": len(eight), "enumerate_seconds": round(enum, 1), "sampled": done,
        "seconds": round(dt, 1), "positions_per_second": round(rate, 3),
        "estimate_hours_one_core": round(total / 3600, 1),
        "estimate_hours_2_cores": round(total / 3600 / 2, 1),
        "estimate_hours_64_workers": round(total / 3600 / 64, 2),
    }  # fmt: skip
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)))
    ap.add_argument("--dataset-seconds", type=float, default=60.0)
    ap.add_argument("--no-dataset", action="store_true")
    ap.add_argument("--only-dataset", action="store_true")
    ap.add_argument("--no-parallel", action="store_true", help="skip parallel=True")
    ap.add_argument("--games", default="connect4,kalah")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    import boardgames.envs

    games = {
        "connect4": ({}, "connect_four"),
        "kalah": ({"pits": 6, "seeds": 4}, "mancala"),
    }
    rows: list[dict[str, Any]] = []
    chosen = [] if args.only_dataset else args.games.split(",")
    for name, (options, spiel_name) in ((k, games[k]) for k in chosen):
        t0 = time.perf_counter()
        from boardgames.envs.batch import batch

        for par in (False, True):
            warm = batch(name, 2, parallel=par, **options)
            warm.reset(seed=0)
            warm.step_random()
        compile_s = time.perf_counter() - t0
        # the one-game loops are measured in turns with ours at every batch size, so
        # that each ratio compares runs made at the same time on this shared machine
        base: dict[str, Callable[[], int]] = {}
        if name == "connect4":
            from pettingzoo.classic import connect_four_v3

            base["pettingzoo connect_four_v3"] = pettingzoo_loop(connect_four_v3.env())
        base["pettingzoo boardgames.envs.make"] = pettingzoo_loop(
            boardgames.envs.make(name, **options)
        )
        base[f"openspiel {spiel_name}"] = openspiel_loop(spiel_name)
        for n in sizes:
            row: dict[str, Any] = {"game": name, "batch": n}
            row.update(
                interleaved(
                    {
                        "batch serial": ours(name, n, False, **options),
                        "batch parallel": (
                            ours(name, n, True, **options)
                            if n >= 256 and not args.no_parallel
                            else None
                        ),
                        "pgx": pgx_step(n) if name == "connect4" else None,
                        **base,
                    },
                    args.seconds,
                    args.runs,
                )
            )
            best = max(row["batch serial"], row["batch parallel"] or 0.0)
            for key in base:
                row[f"x {key}"] = round(best / row[key], 1) if row[key] else None
            row["x pgx"] = round(best / row["pgx"], 2) if row["pgx"] else None
            row["compile_seconds"] = round(compile_s, 1)
            rows.append(row)
            print(json.dumps({k: (round(v) if isinstance(v, float) and v > 100 else v)
                              for k, v in row.items()}), flush=True)  # fmt: skip
    result: dict[str, Any] = {
        "machine": platform.platform(), "cpus": os.cpu_count(),
        "load": os.getloadavg(), "runs": args.runs, "seconds": args.seconds, "rows": rows,
    }  # fmt: skip
    out = ROOT / "benchmarks" / "results" / "batch_env.json"
    if args.no_dataset and out.exists():  # the dataset's rates of the last run are kept
        kept = json.loads(out.read_text()).get("dataset")
        if kept is not None:
            result["dataset"] = kept
    else:
        out.write_text(json.dumps(result, indent=2) + "\n")  # the steps, should this be cut
        result["dataset"] = dataset_rates(args.dataset_seconds)
        print(json.dumps(result["dataset"]), flush=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
