"""What checking an endgame table's checksums adds to loading it.

Every saved table carries a checksum of each level (the XXH3-64 of its 1 MiB blocks'
XXH3-64s); a checked load reads the file block by block, each block hashed right after
its read, an unchecked one read()s it in large chunks
(boardgames.kalah.exact.endgame._read_table). This script loads one table file without the
check, and with it under today's checksums (XXH3) and the previous trailer's (XXH64 of
the same blocks, a second file), alternately, and reports the medians and their ratio,
twice: with the files in the page cache ("warm": a table used again soon), and with their
pages dropped from the page cache before every load (``posix_fadvise(DONTNEED)`` on that
file only: "cold", read from the disk). Every load runs on one thread (the xxhash
package holds the GIL). The check of a memory-mapped table (``tablefile.map_table``:
hashed through the mapping, nothing copied) is timed after them. Wall and CPU seconds
(all threads of this process) are both kept: on a machine busy with other work the wall
times swing, the CPU times much less.

    python benchmarks/table_checksum.py                    # 6 pits, 20 stones (226 MB)
    python benchmarks/table_checksum.py --stones 22 --runs 9 --cold-runs 5

The table comes from your cache if it is there (read only), else it is built (20 stones
on 6 pits: about 90 s on 2 cores); two checksummed copies are written to a temporary
folder and removed at the end. Prints a table and writes benchmarks/results/table_checksum.json.
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

from boardgames.kalah.exact import endgame, index, tablefile

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


def loader(path: Path, verify: bool) -> Callable[[], None]:
    def load() -> None:
        _, checked = tablefile._read_table(path, verify=verify)
        assert checked == verify

    return load


def compare(paths: dict[str, Path], runs: int, cold: bool) -> dict:
    """Loads without the check and with it (one file per checksum kind), alternately, the
    order turned round every run; then a mapped table's check as often (apart: here a
    load right after a mapped check was often several times slower, which would have
    been charged to one side)."""
    first = next(iter(paths.values()))
    kinds: dict[str, Callable[[], object]] = {"plain": loader(first, False)}
    kinds |= {f"checked_{kind}": loader(path, True) for kind, path in paths.items()}
    files = {"plain": first} | {f"checked_{kind}": path for kind, path in paths.items()}
    wall: dict[str, list[float]] = {k: [] for k in kinds}
    cpu: dict[str, list[float]] = {k: [] for k in kinds}
    loads = []
    for i in range(runs):
        for name in list(kinds) if i % 2 == 0 else list(reversed(kinds)):
            if cold:
                drop_from_page_cache(files[name])
            c0, t0 = cpu_seconds(), time.perf_counter()
            kinds[name]()
            wall[name].append(time.perf_counter() - t0)
            cpu[name].append(cpu_seconds() - c0)
        loads.append(os.getloadavg()[0])
    kinds["mapped_checked"] = lambda: tablefile.map_table(first, True)
    wall["mapped_checked"], cpu["mapped_checked"] = [], []
    for _ in range(runs):
        if cold:
            drop_from_page_cache(first)
        c0, t0 = cpu_seconds(), time.perf_counter()
        kinds["mapped_checked"]()
        wall["mapped_checked"].append(time.perf_counter() - t0)
        cpu["mapped_checked"].append(cpu_seconds() - c0)
    med = {k: statistics.median(v) for k, v in wall.items()}
    med_cpu = {k: statistics.median(v) for k, v in cpu.items()}
    checked = [k for k in kinds if k.startswith("checked_")]
    return {
        "runs": runs,
        "load_average": loads,
        "wall_seconds": wall,
        "cpu_seconds": cpu,
        "median_wall": med,
        "median_cpu": med_cpu,
        "min_wall": {k: min(v) for k, v in wall.items()},
        "added_percent": {k: 100 * (med[k] / med["plain"] - 1) for k in checked},
        "added_cpu_percent": {k: 100 * (med_cpu[k] / med_cpu["plain"] - 1) for k in checked},
        "added_percent_of_minimums": {
            k: 100 * (min(wall[k]) / min(wall["plain"]) - 1) for k in checked
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--stones", type=int, default=20)
    parser.add_argument("--runs", type=int, default=9, help="loads of each kind, warm")
    parser.add_argument("--cold-runs", type=int, default=3, help="loads of each kind, cold")
    parser.add_argument("--out", type=Path, default=RESULTS / "table_checksum.json")
    args = parser.parse_args()
    pits, stones = args.pits, args.stones
    started = datetime.now(UTC).isoformat(timespec="seconds")
    load_start = os.getloadavg()[0]
    source = endgame.cache_path(pits, stones, "classic")
    if source.exists():
        print(f"reading {source} (read only)", flush=True)
        table, _ = tablefile._read_table(source)
        how = "read from the cache"
    else:
        print(f"building the {stones}-stone table on {pits} pits (not cached)...", flush=True)
        table = endgame.build(pits, stones).table
        how = "built"
    kinds = (tablefile.CHECKSUM, tablefile.CHECKSUM_BLOCKS64)
    with tempfile.TemporaryDirectory(prefix="table-checksum-") as scratch:
        name = endgame.cache_path(pits, stones, "classic").name
        paths = {kind: Path(scratch) / kind / name for kind in kinds}
        t0 = time.perf_counter()
        for kind, path in paths.items():
            tablefile.save_table(path, table, pits, stones, kind=kind)
        save_seconds = time.perf_counter() - t0
        bounds = index.level_bounds(pits, stones)
        hashing: dict[str, list[float]] = {kind: [] for kind in kinds}
        for _ in range(args.runs):
            for kind in kinds:
                t0 = time.perf_counter()
                tablefile.checksums(table, bounds, kind)
                hashing[kind].append(time.perf_counter() - t0)
        del table
        for path in paths.values():
            tablefile._read_table(path)  # the files in the page cache
        warm = compare(paths, args.runs, False)
        cold = compare(paths, args.cold_runs, True)
        nbytes = paths[tablefile.CHECKSUM].stat().st_size
    print()
    print(f"{pits} pits, {stones} stones: {nbytes:,} bytes ({how}); medians, wall (CPU) seconds")
    head = ("load", "plain", "checked", "added", "CPU", "checked, XXH64", "added", "mapped, XXH3")
    print("{:<5} {:>14} {:>14} {:>7} {:>7} {:>15} {:>7} {:>15}".format(*head))
    new, old = (f"checked_{kind}" for kind in kinds)
    for label, r in (("warm", warm), ("cold", cold)):
        w, c, a = r["median_wall"], r["median_cpu"], r["added_percent"]
        print(
            f"{label:<5} {w['plain']:6.3f} ({c['plain']:.3f}) "
            f"{w[new]:6.3f} ({c[new]:.3f}) {a[new]:6.1f}% {r['added_cpu_percent'][new]:6.1f}% "
            f"{w[old]:6.3f} ({c[old]:.3f}) {a[old]:6.1f}% "
            f"{w['mapped_checked']:6.3f} ({c['mapped_checked']:.3f})"
        )
    for kind, h in hashing.items():
        m = statistics.median(h)
        print(f"{kind} alone (in memory, one thread): {m:.3f} s, {nbytes / m / 1e9:.1f} GB/s")
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
        "checksum": tablefile.CHECKSUM,
        "block_bytes": tablefile.BLOCK,
        "save_seconds_both_files": save_seconds,
        "hash_alone_median_seconds": {k: statistics.median(h) for k, h in hashing.items()},
        "warm": warm,
        "cold": cold,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
