"""What checking an endgame table's checksums adds to loading it.

Every saved table carries the XXH64 of each level; loading reads the file in chunks in a
second thread and hashes each chunk as soon as it is in (boardgames.kalah.endgame
._read_table). This script loads one table file with and without that check, alternately,
and reports the medians and their ratio, twice: with the file in the page cache ("warm":
a table used again soon), and with its pages dropped from the page cache before every
load (``posix_fadvise(DONTNEED)`` on that file only: "cold", read from the disk). It also
times the hash alone on the table in memory.

    python benchmarks/table_checksum.py                    # 6 pits, 20 stones (226 MB)
    python benchmarks/table_checksum.py --stones 22 --runs 9

The table comes from your cache if it is there (read only), else it is built (20 stones
on 6 pits: about 90 s on 2 cores); a checksummed copy is written to a temporary folder
and removed at the end. Prints a table and writes benchmarks/results/table_checksum.json.
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


def timed_load(path: Path, verify: bool, cold: bool) -> float:
    if cold:
        drop_from_page_cache(path)
    t0 = time.perf_counter()
    table, checked = endgame._read_table(path, verify=verify)
    seconds = time.perf_counter() - t0
    assert checked == verify
    del table
    return seconds


def compare(path: Path, runs: int, cold: bool) -> dict:
    """Loads with and without the check, alternately (the order swapped every run)."""
    plain: list[float] = []
    checked: list[float] = []
    for i in range(runs):
        for verify in (False, True) if i % 2 == 0 else (True, False):
            (checked if verify else plain).append(timed_load(path, verify, cold))
    p, c = statistics.median(plain), statistics.median(checked)
    return {
        "runs": runs,
        "plain_seconds": plain,
        "checked_seconds": checked,
        "median_plain_seconds": p,
        "median_checked_seconds": c,
        "added_percent": 100 * (c - p) / p,
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
        table, _ = endgame._read_table(source)
        how = "read from the cache"
    else:
        print(f"building the {stones}-stone table on {pits} pits (not cached)...", flush=True)
        table = endgame.build(pits, stones).table
        how = "built"
    with tempfile.TemporaryDirectory(prefix="table-checksum-") as scratch:
        path = Path(scratch) / endgame.cache_path(pits, stones, "classic").name
        t0 = time.perf_counter()
        endgame.save_table(path, table, pits, stones)
        save_seconds = time.perf_counter() - t0
        hashing = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            endgame.level_checksums(table, pits, stones)
            hashing.append(time.perf_counter() - t0)
        del table
        timed_load(path, True, False)  # numba's cache loaded, the file in the page cache
        warm = compare(path, args.runs, cold=False)
        cold = compare(path, args.cold_runs, cold=True)
        nbytes = path.stat().st_size
    hash_median = statistics.median(hashing)
    print()
    print(f"{pits} pits, {stones} stones: {nbytes:,} bytes ({how}); medians")
    print(f"{'load':<6} {'plain s':>9} {'checked s':>10} {'added':>7}")
    for name, r in (("warm", warm), ("cold", cold)):
        print(
            f"{name:<6} {r['median_plain_seconds']:9.3f} {r['median_checked_seconds']:10.3f} "
            f"{r['added_percent']:6.1f}%"
        )
    print(f"hash alone (in memory): {hash_median:.3f} s, {nbytes / hash_median / 1e9:.1f} GB/s")
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
        "hash_chunk_bytes": endgame.HASH_CHUNK,
        "save_seconds": save_seconds,
        "hash_alone_median_seconds": hash_median,
        "hash_alone_gb_per_s": nbytes / hash_median / 1e9,
        "warm": warm,
        "cold": cold,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
