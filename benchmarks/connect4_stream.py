"""`connect4 solve -` as a stream: first-answer latency from a pipe, and memory over many lines.

Two measurements, each in a fresh `boardgames connect4 solve -` process:

- latency: a program writes one position into the pipe, waits for its answer, then the
  next (the kernels are loaded first: the command is given a few seconds to start);
- memory: N lines (default 1,000,000; Pons' end-game positions of Test_L3_R1 in turn,
  or with --finished finished games, which are answered without the solver: the reading
  and writing alone, 20 times faster; written by a generator as the command reads them)
  and the peak resident memory of the command (its own `ru_maxrss`, from `os.wait4`),
  with its time and the answers counted;
  a run of N/10 lines beside it shows that the memory does not grow with the input.

    python benchmarks/connect4_stream.py [--lines N] [--finished] [--skip-memory]

Writes benchmarks/results/connect4_stream.json.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POSITIONS = ROOT / "tests" / "connect4" / "data" / "Test_L3_R1"
COMMAND = ["boardgames", "connect4", "solve", "-"]


def latency(start_wait: float = 3.0) -> list[tuple[str, float]]:
    """Seconds from writing a line into the pipe to reading its answer."""
    p = subprocess.Popen(
        COMMAND,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        bufsize=1,
    )
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write("112233\n")  # the first position needing the solver loads its kernels
    p.stdin.flush()
    p.stdout.readline()
    time.sleep(start_wait)
    out = []
    for position in ("1212121", "2252576253462244111563365343671351441", "44533444466557555"):
        t = time.perf_counter()
        p.stdin.write(position + "\n")
        p.stdin.flush()
        answer = p.stdout.readline().strip()
        out.append((answer, time.perf_counter() - t))
    p.stdin.close()
    p.wait()
    return out


FINISHED = ["1212121", "2121212", "1122334", "4455667"]
"""Finished games (four in a column or a row): answered without the solver."""


def memory(lines: int, finished: bool = False) -> dict[str, object]:
    """Peak memory and time of the command over ``lines`` lines written as it reads."""
    positions = (
        FINISHED if finished else [row.split()[0] for row in POSITIONS.read_text().splitlines()]
    )
    t0 = time.perf_counter()
    p = subprocess.Popen(
        COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert p.stdin is not None and p.stdout is not None
    stdin = p.stdin

    def feed() -> None:
        batch = []
        for _, position in zip(range(lines), itertools.cycle(positions), strict=False):
            batch.append(position + "\n")
            if len(batch) == 10_000:
                stdin.write("".join(batch).encode())
                batch = []
        stdin.write("".join(batch).encode())
        stdin.close()

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    first = None
    answers = 0
    for _ in p.stdout:
        if first is None:
            first = time.perf_counter() - t0
        answers += 1
    _, _, usage = os.wait4(p.pid, 0)  # this child's own peak
    p.returncode = 0
    writer.join()
    peak = usage.ru_maxrss
    return {
        "positions": "finished games" if finished else "Test_L3_R1",
        "lines": lines,
        "answers": answers,
        "seconds": round(time.perf_counter() - t0, 2),
        "first_answer_seconds": round(first or 0.0, 3),
        "peak_rss_mib": round(peak / 1024, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--finished", action="store_true")
    parser.add_argument("--skip-memory", action="store_true")
    args = parser.parse_args()
    result: dict[str, object] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": platform.platform(),
        "python": sys.version.split()[0],
        "latency": [{"answer": a, "seconds": round(s, 4)} for a, s in latency()],
    }
    for row in result["latency"]:  # type: ignore[attr-defined]
        print(f"latency: {row['answer']!r} {row['seconds']:.3f} s")
    if not args.skip_memory:
        runs = [memory(max(1, args.lines // 10), args.finished), memory(args.lines, args.finished)]
        result["memory"] = runs
        for run in runs:
            print(
                f"memory ({run['positions']}): {run['lines']:,} lines, "
                f"{run['answers']:,} answers in {run['seconds']} s, "
                f"first after {run['first_answer_seconds']} s, "
                f"peak {run['peak_rss_mib']} MiB"
            )
    out = ROOT / "benchmarks" / "results" / "connect4_stream.json"
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
