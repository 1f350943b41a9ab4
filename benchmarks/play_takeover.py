"""A first ``kalah play`` on a fresh machine: when does the compiled engine take over?

The program's first moves come from the pure-Python reference search while
``boardgames cache warm kalah`` compiles in the background; the engine takes over on the
first program move after the program's warm step is done. This runs ``kalah play`` (6 x 6,
default program, the person moves first) on an empty kernel cache and empty tables in a
fresh process, the person answering ``--human-seconds`` after each program move, and
reports each program move's time since the start and which search made it, until the
engine's first move. The background compile is stopped at the end.

    python benchmarks/play_takeover.py [--human-seconds 5] [--json FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--human-seconds", type=float, default=5.0, help="the person's think time")
    ap.add_argument("--limit", type=float, default=600.0, help="give up after these seconds")
    ap.add_argument("--json", type=Path, default=ROOT / "benchmarks/results/play_takeover.json")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="play-takeover-"))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(work / "numba"), "COLUMNS": "200"}
    env["BOARDGAMES_CACHE"] = str(work / "tables")
    env.pop("BOARDGAMES_BACKGROUND_WARM", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardgames", "kalah", "play", "--record", str(work / "g.klh")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=(work / "stderr.txt").open("w"),
        env=env,
        text=True,
        bufsize=1,
    )
    assert proc.stdin is not None and proc.stdout is not None
    stdin = proc.stdin
    answered = threading.Event()
    t0 = time.monotonic()

    def person() -> None:
        for k in range(1000):  # the first legal pit of 0-5 is taken; others are asked again
            with contextlib.suppress(OSError, ValueError):
                stdin.write(f"{k % 6}\n")
                stdin.flush()
            answered.wait(args.human_seconds)
            answered.clear()

    threading.Thread(target=person, daemon=True).start()
    moves: list[dict[str, object]] = []
    try:
        for line in proc.stdout:
            if time.monotonic() - t0 > args.limit:
                break
            if not line.startswith("I move from"):
                continue
            reference = "reference search" in line
            moves.append(
                {
                    "move": len(moves) + 1,
                    "seconds": round(time.monotonic() - t0, 2),
                    "search": "reference" if reference else "engine",
                    "line": line.strip(),
                }
            )
            print(
                f"{moves[-1]['seconds']:7.1f} s  program move {len(moves)}: {moves[-1]['search']}"
            )
            if not reference:
                break
    finally:
        with contextlib.suppress(OSError):
            proc.send_signal(signal.SIGINT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(10)
        pid_file = work / "numba" / "boardgames-ready" / "kalah.pid"
        with contextlib.suppress(OSError, ValueError):
            os.killpg(int(pid_file.read_text()), signal.SIGTERM)
        err = (work / "stderr.txt").read_text(errors="replace").strip().splitlines()
        if proc.returncode not in (0, 130, -signal.SIGINT) or not moves:
            print(f"kalah play ended with {proc.returncode}: {err[-3:]}", file=sys.stderr)
        shutil.rmtree(work, ignore_errors=True)
    engine = next((m for m in moves if m["search"] == "engine"), None)
    report = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}",
        "human_seconds": args.human_seconds,
        "moves": moves,
        "engine_from_move": engine["move"] if engine else None,
        "engine_after_seconds": engine["seconds"] if engine else None,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=1) + "\n")
    if engine:
        print(f"The engine took over at program move {engine['move']}, {engine['seconds']} s in.")
    else:
        print("The engine did not take over within the limit.")


if __name__ == "__main__":
    main()
