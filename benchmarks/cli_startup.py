"""Wall time of light commands in fresh processes (target: `boardgames --help` < 0.3 s).

Runs each command N times (default 15) and reports the median and the fastest run, with
a bare `python -c pass` as the floor. Also checks that numba is not imported.

    python benchmarks/cli_startup.py [--runs N]

Writes benchmarks/results/cli_startup.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

COMMANDS = {
    "python -c pass (floor)": [sys.executable, "-c", "pass"],
    "boardgames --help": ["boardgames", "--help"],
    "boardgames nim --help": ["boardgames", "nim", "--help"],
    "boardgames nim analyse 3 4 5": ["boardgames", "nim", "analyse", "3", "4", "5"],
    "boardgames games": ["boardgames", "games"],
    "boardgames play --help": ["boardgames", "play", "--help"],
}


def wall(cmd: list[str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - t0)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    if shutil.which("boardgames") is None:
        sys.exit("install the project first: pip install -e .")
    probe = (
        "import sys; from click.testing import CliRunner; from boardgames.cli import cli; "
        "CliRunner().invoke(cli, ['--help']); CliRunner().invoke(cli, ['nim', 'analyse', '3']); "
        "print('numba' in sys.modules)"
    )
    numba_loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    load_start = os.getloadavg()[0]
    started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    rows = []
    for name, cmd in COMMANDS.items():
        times = wall(cmd, args.runs)
        rows.append({"command": name, "median_s": statistics.median(times), "min_s": min(times)})
    print(f"{'command':32} {'median s':>9} {'min s':>7}")
    for r in rows:
        print(f"{r['command']:32} {r['median_s']:9.3f} {r['min_s']:7.3f}")
    print(f"numba imported by --help or nim: {numba_loaded}")
    out = Path(__file__).parent / "results" / "cli_startup.json"
    out.parent.mkdir(exist_ok=True)
    machine = {"python": platform.python_version(), "machine": platform.machine()}
    report = {
        "date": started,
        "load_average_start": load_start,
        "load_average_end": os.getloadavg()[0],
        "runs": args.runs,
        "machine": machine,
        "results": rows,
    }
    out.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
