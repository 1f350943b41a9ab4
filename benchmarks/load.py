"""A competing CPU load: N busy processes, to run the tests (or a benchmark) on a loaded
machine, as CI and shared machines often are.

    python benchmarks/load.py [--processes N] [--seconds S]

N defaults to twice the number of cores; without --seconds it runs until stopped (Ctrl-C,
or ``kill PID`` of this script). However it ends (its time up, SIGINT, SIGTERM, SIGHUP,
an error), it stops its own busy processes first; a busy process whose parent is gone
(``kill -9``) notices within a fraction of a second and ends too. A suite under load:

    python benchmarks/load.py --seconds 900 & pytest; kill %1
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from types import FrameType

BUSY = """
import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
parent = int(sys.argv[1])
x = 0
while os.getppid() == parent:  # the parent gone: end (checked every few milliseconds)
    for _ in range(200_000):
        x += 1
"""
"""One busy process: pure-Python arithmetic on one core, until its parent is gone."""


def start(children: list[subprocess.Popen[bytes]], count: int) -> None:
    """Start ``count`` busy processes, each added to ``children`` as soon as it runs."""
    parent = str(os.getpid())
    for _ in range(count):
        children.append(
            subprocess.Popen([sys.executable, "-c", BUSY, parent], stdin=subprocess.DEVNULL)
        )


def stop(children: list[subprocess.Popen[bytes]]) -> None:
    """Stop the busy processes: SIGTERM, then SIGKILL for any still there after 2 s."""
    for child in children:
        if child.poll() is None:
            child.terminate()
    deadline = time.monotonic() + 2
    for child in children:
        try:
            child.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


class Stop(Exception):
    """A signal asked this script to end."""


def on_signal(signum: int, frame: FrameType | None) -> None:
    raise Stop(signal.Signals(signum).name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="A competing CPU load: N busy processes until stopped or for --seconds."
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=2 * (os.cpu_count() or 1),
        help="busy processes (default: twice the cores, %(default)s here)",
    )
    parser.add_argument(
        "--seconds", type=float, default=None, help="stop after this long (default: never)"
    )
    args = parser.parse_args(argv)
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    if args.seconds is not None and args.seconds <= 0:
        parser.error("--seconds must be more than 0")
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, on_signal)
    children: list[subprocess.Popen[bytes]] = []
    reason, status = "time up", 0
    try:
        start(children, args.processes)
        until = "until stopped" if args.seconds is None else f"for {args.seconds:g} s"
        print(
            f"load: {len(children)} busy processes {until} (kill {os.getpid()} stops them)",
            file=sys.stderr,
            flush=True,
        )
        end = None if args.seconds is None else time.monotonic() + args.seconds
        while end is None or time.monotonic() < end:
            time.sleep(0.5 if end is None else max(0.0, min(0.5, end - time.monotonic())))
            if any(child.poll() is not None for child in children):
                reason, status = "a busy process ended by itself", 1
                break
    except Stop as signalled:
        reason = str(signalled)
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, signal.SIG_IGN)  # stopping is not interrupted
        stop(children)
    print(f"load: stopped ({reason})", file=sys.stderr, flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
