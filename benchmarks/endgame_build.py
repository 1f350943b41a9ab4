"""Kalah endgame-table build time, as `kalah solve --endgame K` pays it.

`kalah solve --endgame K` calls boardgames.kalah.exact.endgame.load_or_build: a cached table is
read, otherwise the table is built on top of the biggest smaller table in the cache (only
the levels above it are built) and saved. This script times that call and says what it did
(read, built from scratch, or built on top of K' stones), with the table's size.

    python benchmarks/endgame_build.py --stones 27            # on top of the cached 26
    python benchmarks/endgame_build.py --stones 22 --scratch --runs 3
    python benchmarks/endgame_build.py --stones 14 --base 12 --scratch

--scratch works in a temporary cache directory (your cache is neither read nor written):
it builds --base B first if given (timed apart), then K on top of it, --runs times (the
K-stone file is removed between runs) and reports the median. Without --scratch the real
cache is used and one run is made (a second would only read the table back).

Prints a table and writes benchmarks/results/endgame_build_<pits>p_<K>s[_ec].json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from boardgames.kalah.exact import endgame

RESULTS = Path(__file__).resolve().parent / "results"


def timed_load_or_build(pits: int, stones: int, empty_capture: bool) -> dict:
    """One load_or_build call: what it did, its wall and CPU seconds (all threads of this
    process: on a machine shared with other jobs the wall time grows with their load, the
    CPU time much less) and the table's size."""
    cached = endgame.cached_stones(pits, "classic", empty_capture)
    smaller = [k for k in cached if k < stones]
    if stones in cached:
        how = "read from the cache"
    elif smaller:
        how = f"built on top of {max(smaller)} stones"
    else:
        how = "built from scratch"
    t0, c0 = time.perf_counter(), time.process_time()
    table = endgame.load_or_build(pits, stones, empty_capture=empty_capture)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"how": how, "seconds": seconds, "cpu_seconds": cpu, "bytes": table.nbytes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--stones", type=int, required=True)
    parser.add_argument("--empty-capture", action="store_true")
    parser.add_argument("--scratch", action="store_true", help="use a temporary cache")
    parser.add_argument("--base", type=int, default=None, help="with --scratch: build K on top")
    parser.add_argument("--runs", type=int, default=1, help="with --scratch: builds of K")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    if not args.scratch and (args.base is not None or args.runs != 1):
        parser.error("--base and --runs need --scratch (the real cache is built once)")
    pits, k, ec = args.pits, args.stones, args.empty_capture
    t0 = time.perf_counter()  # load (or compile) the build kernels before any timing
    endgame.build(pits, 2, empty_capture=ec)
    endgame.cache_path(pits, k, "classic", ec)
    print(f"kernels loaded in {time.perf_counter() - t0:.1f} s (not in the times below)")
    load_start = os.getloadavg()[0]
    started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    base = None
    runs = []
    with tempfile.TemporaryDirectory() as scratch:
        if args.scratch:
            # boardgames set NUMBA_CACHE_DIR on import, so the kernels stay cached;
            # only the tables go to the temporary directory.
            os.environ["XDG_CACHE_HOME"] = scratch
            if args.base is not None:
                base = timed_load_or_build(pits, args.base, ec)
                print(f"base {args.base} stones: {base['how']} in {base['seconds']:.1f} s")
        for i in range(args.runs):
            if i:
                endgame.cache_path(pits, k, "classic", ec).unlink()
            runs.append(timed_load_or_build(pits, k, ec))
            r = runs[-1]
            print(
                f"{k} stones, run {i + 1}: {r['how']} in {r['seconds']:.1f} s "
                f"({r['cpu_seconds']:.1f} CPU s)",
                flush=True,
            )
    median = statistics.median(r["seconds"] for r in runs)
    median_cpu = statistics.median(r["cpu_seconds"] for r in runs)
    variant = "classic, empty capture" if ec else "classic"
    print()
    header = f"{'pits':>4} {'stones':>6} {'rules':<22} {'bytes':>15} {'median s':>9} {'CPU s':>8}"
    print(header + "  how")
    print(
        f"{pits:>4} {k:>6} {variant:<22} {runs[0]['bytes']:>15,} {median:9.1f} "
        f"{median_cpu:8.1f}  {runs[0]['how']}"
    )
    report = {
        "benchmark": "endgame_build",
        "date": started,
        "machine": platform.machine(),
        "cores": os.cpu_count(),
        "load_average_start": load_start,
        "load_average_end": os.getloadavg()[0],
        "pits": pits,
        "stones": k,
        "empty_capture": ec,
        "scratch": args.scratch,
        "base": None if base is None else {"stones": args.base, **base},
        "bytes": runs[0]["bytes"],
        "median_seconds": median,
        "median_cpu_seconds": median_cpu,
        "runs": runs,
    }
    out = args.out or RESULTS / f"endgame_build_{pits}p_{k}s{'_ec' if ec else ''}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
