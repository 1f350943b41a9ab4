"""What checking an endgame table's checksums adds to loading it.

Every saved table carries a checksum of each level (the XXH64 of its 1 MiB blocks'
XXH64s); a checked load maps the file and copies it into memory block by block, each
block hashed in the same pass as its copy, an unchecked one read()s it into memory
(boardgames.kalah.endgame._read_table). This script loads one table file with and
without the check, alternately, and reports the medians and their ratio, twice: with the
file in the page cache ("warm": a table used again soon), and with its pages dropped from
the page cache before every load (``posix_fadvise(DONTNEED)`` on that file only: "cold",
read from the disk). The checked loads are done with 1 thread and with 2 (numba's
threads, at least 2) copying and hashing; the load without the check is read(), one
thread. The check of a memory-mapped table (``endgame.map_table``: hashed through the
mapping, nothing copied) is timed after them. Wall and CPU seconds (all threads of this
process) are both kept: on a machine busy with other work the wall times swing, the CPU
times much less.

    python benchmarks/table_checksum.py                    # 6 pits, 20 stones (226 MB)
    python benchmarks/table_checksum.py --stones 22 --runs 9 --cold-runs 5

The table comes from your cache if it is there (read only), else it is built (20 stones
on 6 pits: about 90 s on 2 cores); a checksummed copy is written to a temporary folder
and removed at the end. Prints a table and writes benchmarks/results/table_checksum.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from boardgames.kalah import endgame

RESULTS = Path(__file__).resolve().parent / "results"


def drop_from_page_cache(path: Path) -> None:
    """Evict ``path``'s pages from the page cache (that file only), so the next read
    goes to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def cpu_seconds() -> float:
    """User and system seconds of every thread of this process so far."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def loader(path: Path, verify: bool, threads: int) -> Callable[[], None]:
    def load() -> None:
        _, checked = endgame._read_table(path, verify=verify, threads=threads)
        assert checked == verify

    return load


def compare(path: Path, runs: int, cold: bool, threads: int) -> dict:
    """Loads with and without the check, alternately, the order turned round every run;
    then a mapped table's check as often (apart: here a load right after a mapped check
    was often several times slower, which would have been charged to one side)."""
    kinds: dict[str, Callable[[], object]] = {
        "plain": loader(path, False, threads),
        "checked": loader(path, True, threads),
    }
    wall: dict[str, list[float]] = {k: [] for k in kinds}
    cpu: dict[str, list[float]] = {k: [] for k in kinds}
    loads = []
    for i in range(runs):
        for name in list(kinds) if i % 2 == 0 else list(reversed(kinds)):
            if cold:
                drop_from_page_cache(path)
            c0, t0 = cpu_seconds(), time.perf_counter()
            kinds[name]()
            wall[name].append(time.perf_counter() - t0)
            cpu[name].append(cpu_seconds() - c0)
        loads.append(os.getloadavg()[0])
    kinds["mapped_checked"] = lambda: endgame.map_table(path, True, threads)
    wall["mapped_checked"], cpu["mapped_checked"] = [], []
    for _ in range(runs):
        if cold:
            drop_from_page_cache(path)
        c0, t0 = cpu_seconds(), time.perf_counter()
        kinds["mapped_checked"]()
        wall["mapped_checked"].append(time.perf_counter() - t0)
        cpu["mapped_checked"].append(cpu_seconds() - c0)
    med = {k: statistics.median(v) for k, v in wall.items()}
    med_cpu = {k: statistics.median(v) for k, v in cpu.items()}
    return {
        "runs": runs,
        "threads": threads,
        "load_average": loads,
        "wall_seconds": wall,
        "cpu_seconds": cpu,
        "median_wall": med,
        "median_cpu": med_cpu,
        "min_wall": {k: min(v) for k, v in wall.items()},
        "added_percent": 100 * (med["checked"] - med["plain"]) / med["plain"],
        "added_cpu_percent": 100 * (med_cpu["checked"] - med_cpu["plain"]) / med_cpu["plain"],
        "added_percent_of_minimums": 100 * (min(wall["checked"]) / min(wall["plain"]) - 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--stones", type=int, default=20)
    parser.add_argument("--runs", type=int, default=9, help="loads of each kind, warm")
    parser.add_argument("--cold-runs", type=int, default=3, help="loads of each kind, cold")
    parser.add_argument("--threads", type=int, default=max(2, endgame.hash_threads()))
    parser.add_argument("--out", type=Path, default=RESULTS / "table_checksum.json")
    args = parser.parse_args()
    pits, stones = args.pits, args.stones
    started = datetime.now(UTC).isoformat(timespec="seconds")
    load_start = os.getloadavg()[0]
    source = endgame.cache_path(pits, stones, "classic")
    if source.exists():
        print(f"reading {source} (read only)", flush=True)
        table, _ = endgame._read_table(source)
        how = "read from the cache"
    else:
        print(f"building the {stones}-stone table on {pits} pits (not cached)...", flush=True)
        table = endgame.build(pits, stones).table
        how = "built"
    thread_counts = sorted({1, args.threads})
    with tempfile.TemporaryDirectory(prefix="table-checksum-") as scratch:
        path = Path(scratch) / endgame.cache_path(pits, stones, "classic").name
        t0 = time.perf_counter()
        endgame.save_table(path, table, pits, stones)
        save_seconds = time.perf_counter() - t0
        hashing: dict[int, list[float]] = {t: [] for t in thread_counts}
        for _ in range(args.runs):
            for t in thread_counts:
                t0 = time.perf_counter()
                endgame._run_blocks(None, table, endgame.level_bounds(pits, stones), True, t)
                hashing[t].append(time.perf_counter() - t0)
        del table
        endgame._read_table(path)  # numba's cache loaded, the file in the page cache
        warm = {t: compare(path, args.runs, False, t) for t in thread_counts}
        cold = {t: compare(path, args.cold_runs, True, t) for t in thread_counts}
        nbytes = path.stat().st_size
    print()
    print(f"{pits} pits, {stones} stones: {nbytes:,} bytes ({how}); medians, wall (CPU) seconds")
    head = ("load", "thr", "plain", "checked", "added", "CPU", "mapped, checked")
    print("{:<5} {:>3} {:>13} {:>13} {:>7} {:>7} {:>15}".format(*head))
    for name, by in (("warm", warm), ("cold", cold)):
        for t, r in by.items():
            w, c = r["median_wall"], r["median_cpu"]
            print(
                f"{name:<5} {t:>3} {w['plain']:6.3f} ({c['plain']:.3f}) "
                f"{w['checked']:6.3f} ({c['checked']:.3f}) {r['added_percent']:6.1f}% "
                f"{r['added_cpu_percent']:6.1f}% "
                f"{w['mapped_checked']:6.3f} ({c['mapped_checked']:.3f})"
            )
    for t, h in hashing.items():
        m = statistics.median(h)
        print(f"hash alone (in memory), {t} thread(s): {m:.3f} s, {nbytes / m / 1e9:.1f} GB/s")
    print(f"load average {load_start:.2f} at the start, {os.getloadavg()[0]:.2f} at the end")
    report = {
        "benchmark": "table_checksum",
        "date": started,
        "machine": platform.machine(),
        "cores": os.cpu_count(),
        "load_average_start": load_start,
        "load_average_end": os.getloadavg()[0],
        "pits": pits,
        "stones": stones,
        "table": how,
        "bytes": nbytes,
        "checksum": endgame.CHECKSUM,
        "block_bytes": endgame.BLOCK,
        "save_seconds": save_seconds,
        "hash_alone_median_seconds": {t: statistics.median(h) for t, h in hashing.items()},
        "warm": warm,
        "cold": cold,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
